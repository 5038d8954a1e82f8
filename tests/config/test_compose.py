"""docker-compose.yml cannot be run here (no Docker engine); check what it names exists."""

from __future__ import annotations

import importlib
import re
import shlex
from pathlib import Path
from urllib.parse import urlsplit

import yaml
from django.urls import resolve

from config import celery_app, health

ROOT = Path(__file__).resolve().parents[2]


def load() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def command_words(service: dict) -> list[str]:
    command = service.get("command", [])
    if isinstance(command, str):
        return shlex.split(command)
    return list(command)


def test_every_production_service_is_there_with_a_health_check_or_a_command() -> None:
    services = load()["services"]
    assert {"postgres", "redis", "migrate", "web", "worker", "beat"} <= set(services)
    for name in ("postgres", "redis", "web", "worker"):
        assert "healthcheck" in services[name], name
    assert load()["volumes"].keys() >= {"pgdata", "redisdata"}


def test_app_services_name_modules_and_settings_that_exist() -> None:
    services = load()["services"]
    for name in ("web", "worker", "beat"):
        service = services[name]
        env = service["environment"]
        settings_module = env["DJANGO_SETTINGS_MODULE"]
        assert importlib.util.find_spec(settings_module) is not None, settings_module
        assert env["DATABASE_URL"].startswith("postgres://")
        assert env["CELERY_BROKER_URL"].startswith("redis://")
        for dependency in service["depends_on"]:
            assert dependency in services
        words = command_words(service)
        if "celery" in words:
            app_module = words[words.index("-A") + 1]
            module = importlib.import_module(app_module)
            assert hasattr(module, "celery_app"), f"{app_module} has no Celery app"
    web_words = " ".join(command_words(services["web"]))
    target = next(w for w in web_words.split() if ":application" in w)
    module_name, attribute = target.split(":")
    assert hasattr(importlib.import_module(module_name), attribute)
    assert "manage.py migrate" in " ".join(command_words(services["migrate"]))
    assert (ROOT / "Dockerfile").exists()


def _user(url: str) -> str:
    return urlsplit(url).username or ""


def test_the_site_connects_as_its_own_role_and_only_migrate_as_the_owner() -> None:
    """docs/security.md, "Immutability and database roles": POSTGRES_USER (a superuser in the
    postgres image) owns the tables and runs the migrations; the site's processes connect as
    another role, and are not given the owner's URL."""
    services = load()["services"]
    owner = services["postgres"]["environment"]["POSTGRES_USER"]
    migrate = services["migrate"]
    assert _user(migrate["environment"]["DATABASE_OWNER_URL"]) == owner
    assert migrate.get("restart") == "no"
    for name in ("web", "worker", "beat"):
        env = services[name]["environment"]
        assert "DATABASE_OWNER_URL" not in env, name
        assert _user(env["DATABASE_URL"]) not in ("", owner), name
        assert _user(env["DATABASE_URL"]) == _user(migrate["environment"]["DATABASE_URL"])
        assert services[name]["depends_on"]["migrate"] == {
            "condition": "service_completed_successfully"
        }
        assert "migrate" not in command_words(services[name]), name


def test_the_web_health_check_asks_the_web_health_page() -> None:
    """The URL in the web service's health check is served by the page that checks what the
    web container needs (the database) and not the cache nor the worker (config/health.py)."""

    test = " ".join(load()["services"]["web"]["healthcheck"]["test"])
    match = re.search(r"http://127\.0\.0\.1:8000(/[^'\" ]*)", test)
    assert match, test
    assert resolve(match.group(1)).func is health.healthz_web
    assert health.healthz_web.view_initkwargs == {"full": False}  # type: ignore[attr-defined]  # set by as_view()


def test_beat_runs_the_configured_schedule() -> None:

    beat = command_words(load()["services"]["beat"])
    assert beat[:4] == ["celery", "-A", "config", "beat"]
    # Beat reads CELERY_BEAT_SCHEDULE; a schedule file named on the command line must be in a
    # directory the image's unprivileged user can write (/tmp).
    if "--schedule" in beat:
        assert beat[beat.index("--schedule") + 1].startswith("/tmp/")
    schedule = celery_app.conf.beat_schedule
    assert schedule, "beat has nothing to send"
    celery_app.loader.import_default_modules()
    for name, entry in schedule.items():
        assert entry["task"] in celery_app.tasks, name


def test_the_backup_service_keeps_its_backups_in_a_volume_with_a_matching_pg_dump() -> None:
    """The `backup` service (docs/backups.md) writes into a named volume mounted at its
    BACKUP_DIR, a folder the image makes for its unprivileged user; the image's pg_dump is of
    the compose PostgreSQL's major version (pg_dump refuses a server newer than itself)."""
    compose = load()
    backup = compose["services"]["backup"]
    assert command_words(backup)[:4] == ["python", "manage.py", "db_backup", "--loop"]
    assert backup["healthcheck"]["test"][1:] == ["python", "manage.py", "db_backup", "--check"]
    folder = backup["environment"]["BACKUP_DIR"]
    volume, mounted = backup["volumes"][0].split(":")[:2]
    assert mounted == folder and volume in compose["volumes"]
    # As the owner (the migrate service's DATABASE_OWNER_URL): the site's role may not read
    # every table, and a backup must hold them all.
    assert (
        backup["environment"]["DATABASE_URL"]
        == compose["services"]["migrate"]["environment"]["DATABASE_OWNER_URL"]
    )
    assert (
        backup["environment"]["DATABASE_URL"]
        != compose["services"]["web"]["environment"]["DATABASE_URL"]
    )
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(rf"install -d -o 10001 -m 0700 {re.escape(folder)}\b", dockerfile)
    assert "--uid 10001" in dockerfile
    server_major = compose["services"]["postgres"]["image"].split(":")[1].split(".")[0]
    assert re.search(rf"^ARG PG_MAJOR={server_major}$", dockerfile, re.M), server_major
    assert '"postgresql-client-${PG_MAJOR}"' in dockerfile


def _nginx() -> str:
    return (ROOT / "deploy" / "nginx.conf").read_text()


def test_a_caching_proxy_stands_in_front_of_the_site() -> None:
    """docs/caching.md: nginx with proxy_cache takes the site's port and passes to gunicorn;
    the web service publishes nothing itself."""
    services = load()["services"]
    proxy = services["proxy"]
    assert proxy["image"].startswith("nginx:")
    assert proxy["ports"] == ["8000:8000"] and "ports" not in services["web"]
    assert proxy["depends_on"]["web"] == {"condition": "service_healthy"}
    source, target = proxy["volumes"][0].split(":")[:2]
    assert (ROOT / source).resolve() == ROOT / "deploy" / "nginx.conf"
    assert target == "/etc/nginx/conf.d/default.conf"
    assert "/healthz/web" in " ".join(proxy["healthcheck"]["test"])
    config = _nginx()
    assert re.search(r"^\s*server web:8000;", config, re.M)
    assert re.search(r"^\s*proxy_pass http://rating_office;", config, re.M)
    assert re.search(r"^\s*proxy_set_header Host \$http_host;", config, re.M)  # ALLOWED_HOSTS


def test_the_proxy_keeps_only_public_pages_per_address_and_language() -> None:
    """What the proxy keeps follows the site's headers (no proxy_cache_valid: a page without
    `public, max-age` is never kept); its key holds the address and the language; a session
    or a message cookie bypasses it, as core.caching.page_shared does."""
    from django.conf import settings
    from django.contrib.messages.storage.cookie import CookieStorage

    config = _nginx()
    assert not re.search(r"^\s*proxy_cache_valid", config, re.M)
    assert re.search(r"^\s*proxy_cache pages;", config, re.M)
    key = re.search(r'^\s*proxy_cache_key "([^"]+)";', config, re.M)
    assert key and "$request_uri" in key.group(1) and "$rating_lang" in key.group(1)
    assert "$http_x_forwarded_proto" in key.group(1) and "$host" in key.group(1)
    assert re.search(r"^\s*proxy_set_header Accept-Language \$rating_lang;", config, re.M)
    assert re.search(r"^\s*proxy_cache_bypass \$rating_own_page;", config, re.M)
    assert re.search(r"^\s*proxy_no_cache \$rating_own_page;", config, re.M)
    own = re.search(r'map \$http_cookie \$rating_own_page \{[^}]*"~([^"]+)" 1;', config)
    assert own
    cookie = re.compile(own.group(1))
    for name in (settings.SESSION_COOKIE_NAME, CookieStorage.cookie_name):
        assert cookie.search(f"{name}=x") and cookie.search(f"csrftoken=a; {name}=x"), name
    assert not cookie.search("django_language=es; csrftoken=a")
    assert not cookie.search("xsessionid=1")
    # The language maps name the site's languages and its cookie.
    assert f"$cookie_{settings.LANGUAGE_COOKIE_NAME} " in config
    codes = {code for code, _name in settings.LANGUAGES}
    for pattern in re.findall(r'"~\*?[^"]*\(\?<code>([a-z|]+)\)', config):
        assert set(pattern.split("|")) == codes


def test_the_proxys_language_is_the_one_django_picks() -> None:
    """The proxy's Accept-Language map (PCRE; read here with Python's re) gives the first of
    the site's languages the header names, English otherwise; Django, sent that one language,
    renders the page in it."""
    from django.test import RequestFactory
    from django.utils.translation import get_language_from_request

    config = _nginx()
    found = re.search(
        r'map \$http_accept_language \$rating_lang_header \{[^}]*"~\*([^"]+)"', config
    )
    assert found
    header = re.compile(found.group(1).replace("(?<code>", "(?P<code>"), re.I)

    def language(accept: str) -> str:
        match = header.search(accept)
        return match.group("code") if match else "en"

    cases = {
        "es-ES,es;q=0.9,en;q=0.8": "es",
        "fr-FR, ca;q=0.8, es;q=0.5": "ca",
        "pt-BR": "pt",
        "de, fr": "en",
        "": "en",
        "esperanto": "en",
        "en-GB,en;q=0.9": "en",
    }
    for accept, expected in cases.items():
        assert language(accept) == expected, accept
        request = RequestFactory().get("/", HTTP_ACCEPT_LANGUAGE=language(accept))
        assert get_language_from_request(request) == expected, accept
