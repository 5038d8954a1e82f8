"""One module (or package) per regulation. Each defines a module-level ``REGULATION`` instance;
``rating_engine.registry`` discovers them, so adding one never edits a shared file."""
