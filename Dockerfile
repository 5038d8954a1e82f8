# The production image: the site (gunicorn), Celery workers and beat, backups (docker-compose.yml).
# Debian bookworm, named: the PostgreSQL client below comes from the repository of that release.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/app
WORKDIR /app

# pg_dump and pg_restore for `manage.py db_backup` and `db_restore` (docs/backups.md), of the
# major version of docker-compose.yml's PostgreSQL: pg_dump refuses to dump a newer server, and
# bookworm's own client is 15. They come from the PostgreSQL project's apt repository (PGDG),
# added by the script and signing key that Debian's postgresql-common package ships (no key is
# fetched from the web). Change PG_MAJOR with the compose file's `postgres` image.
ARG PG_MAJOR=16
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates postgresql-common \
    && /usr/share/postgresql-common/pgdg/apt.postgresql.org.sh -y \
    && apt-get install -y --no-install-recommends "postgresql-client-${PG_MAJOR}" \
    && rm -rf /var/lib/apt/lists/* \
    && pg_dump --version | grep -q "PostgreSQL) ${PG_MAJOR}\."

# Dependencies first, in a layer of their own: a code change does not reinstall them. They are
# read from pyproject.toml; the project itself is not installed (PYTHONPATH=/app), so its code
# is in the image once, and no build backend is fetched.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install --no-cache-dir -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# The code (.dockerignore keeps out the venv, git, caches, tests, local data and .env).
COPY . .

# Static files with the hashed manifest that production's storage (DEBUG=0) requires: without
# staticfiles.json every page answers 500. DEBUG=0 selects that storage; the key exists only for
# this command and is not kept in the image. The .mo catalogues are committed (and
# tests/test_translations.py checks they match the .po), so no gettext/compilemessages here.
RUN DEBUG=0 SECRET_KEY=collectstatic-at-build-time-only python manage.py collectstatic --noinput \
    && test -f staticfiles/staticfiles.json

# Run as an unprivileged user. The code stays root-owned and read-only for it: the site writes
# nothing to disk (uploads go to PostgreSQL; beat keeps its schedule in /tmp). The backups'
# folder is its own (uid 10001, owner-only): the compose `backups` volume mounted there starts
# with this owner and mode.
RUN install -d -o 10001 -m 0700 /var/backups/rating-office \
    && useradd --system --uid 10001 --user-group --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin app
USER app:app

EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--timeout", "120"]
