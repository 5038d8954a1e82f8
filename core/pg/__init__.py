"""The PostgreSQL toolbox every bulk path uses: COPY in/out (`copy`), advisory locks
(`locks`), a second connection for progress and transaction settings (`connections`), ids
reserved for bulk rows (`ids`), index deferral for big loads (`indexes`), refusing triggers
(`triggers`) and the site's database role (`roles`).
PostgreSQL is the only database the office runs on."""
