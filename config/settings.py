"""Settings for the rating office, read from the environment.

PostgreSQL is the only database. `DATABASE_URL` names it; `make run` and `make test` set it to a
private server (config/embedded_db.py) when it is unset, and any other use of the database
without it stops with one line naming it. `CELERY_BROKER_URL` chooses how tasks run: unset →
eagerly in-process (the test suite, manage.py commands); `filesystem://` → a queue of files in
.celery/ read by the worker `make run` starts; `redis://` → real workers. Production sets both,
plus SECRET_KEY, ALLOWED_HOSTS and DEBUG=0, and passes `manage.py check --deploy --fail-level
WARNING` (tests/config/test_settings.py runs it).
"""

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pghistory
from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _

from config import env

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env.get_bool("DEBUG", default=False)

_secret = env.get_str("SECRET_KEY")
if not _secret:
    if not DEBUG:
        raise env.ImproperlyConfigured(
            "SECRET_KEY is not set; set it (or DEBUG=1 for a development site)"
        )
    _secret = "django-insecure-development-only-key-do-not-use-in-production"
SECRET_KEY = _secret

ALLOWED_HOSTS = env.get_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.get_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django.contrib.postgres",
    "rest_framework",
    "django_filters",  # filters of the list pages and the API (FilterSets beside their views)
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc served as static files, no CDN
    "health_check",  # /healthz, config/health.py (4.x: the checks are listed there, not here)
    # Object permissions: imports every app's rules.py at start-up (docs/CONTRIBUTING.md).
    "rules.apps.AutodiscoverRulesConfig",
    "pgtrigger",  # triggers declared in models' Meta.triggers, installed by migrations
    "pghistory",  # history of the office's records (core/history.py, docs/audit.md)
    "axes",  # login lockouts (AXES_* below)
    "csp",  # Content-Security-Policy header (CONTENT_SECURITY_POLICY below)
    "players",
    "periods",
    "tournaments",
    "ratings",
    "protests",
    "lists",
    "accounts",  # sign-up, claims of player records, correction requests
    "notices",  # what users are told: "my notices" and e-mails (docs/notices.md)
    "desk",
    "demo",
    "core",  # last: its post_migrate hook grants the roles every app's permissions
]

MIDDLEWARE = [
    # First: every later reader of REMOTE_ADDR sees the client behind the site's own proxies.
    "core.middleware.ForwardedForMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A control character anywhere in the request is a 400 page (in the user's language and the
    # site's layout, hence after the locale and the user).
    "core.middleware.ControlCharacterMiddleware",
    # After authentication: history events record the request's user and path.
    "core.history.HistoryMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

# A strict Content-Security-Policy: scripts, styles, images and fonts from this site only; no
# inline script, no style attribute, no on* handler (templates keep theirs in static/). The
# browsable API's JSON data blocks are not scripts and need no exception.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "core.context_processors.roles",
            ],
        },
    },
    # The rows of the busiest public pages, included by the pages above with
    # {% jinja "..." %} (core/templatetags/jinja_fragments.py; config/jinja2.py).
    {
        "NAME": "jinja2",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "config.jinja2.environment",
            "extensions": ["jinja2.ext.i18n"],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

# PostgreSQL only. Unset: `make run`/`make test` set it (config/embedded_db.py); elsewhere a
# backend whose every use names DATABASE_URL (config/no_database/), so commands that need no
# database (collectstatic in the Docker build) still run.
DATABASES = {"default": env.get_database("DATABASE_URL")}
DATABASES["default"].setdefault("ATOMIC_REQUESTS", False)
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["default"]["CONN_MAX_AGE"] = env.get_int("CONN_MAX_AGE", 60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # PostgreSQL's JIT compiles any statement its planner costs above 100,000 (a page's sort of
    # a run's 100,000 drafts, an admin list of a huge table): 130-150 ms of compiling for
    # statements of a few tens of ms (issue 29 item 4, docs/benchmarks.md). The big batch
    # statements already turned it off locally; DATABASE_JIT=1 leaves the server's setting.
    if not env.get_bool("DATABASE_JIT", False):
        _options = DATABASES["default"].setdefault("OPTIONS", {})
        _options["options"] = f"{_options.get('options', '')} -c jit=off".strip()
    # A test database name derived from the URL's, so parallel projects don't collide.
    DATABASES["default"].setdefault("TEST", {})

# The role that owns the tables, for `manage.py migrate` only (core/management/commands/migrate.py);
# the site connects as DATABASE_URL's role, which owns nothing and gets only the privileges
# core/pg/roles.py grants it after each migrate (docs/security.md, "Immutability and database
# roles"). Unset: migrate connects as DATABASE_URL's role, as the site does.
_owner = env.get_database("DATABASE_OWNER_URL")
DATABASE_OWNER: dict[str, object] | None = (
    _owner if _owner["ENGINE"] != env.UNSET_DATABASE["ENGINE"] else None
)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The named permissions of the apps' rules.py first (they answer object-level questions), then
# Django's model permissions granted to the roles' groups (core/roles.py), used by the admin.
AUTHENTICATION_BACKENDS = [
    "rules.permissions.ObjectPermissionBackend",
    # django-axes: refuses a locked-out login before ModelBackend checks the password. It answers
    # no permission question; the rules backend authenticates nobody, so its place first is
    # the same as axes' own "first of the list".
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Login lockouts (django-axes) on the site's and the admin's login: after AXES_FAILURE_LIMIT
# failures for one user name from one address, that pair is refused for AXES_COOLOFF_MINUTES;
# after AXES_ADDRESS_FAILURE_LIMIT failures from one address, whatever the user names (password
# spraying), the address is (the attempts are rows in the database: an officer unlocks in the
# admin's "Access attempts", or `manage.py axes_reset_username NAME` / `axes_reset_ip ADDRESS`;
# docs/security.md). The page is the login page with a message (core/lockout.py, which also
# holds the handler counting the two); the lockout is logged (logger "core.lockout").
AXES_ENABLED = env.get_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = env.get_int("AXES_FAILURE_LIMIT", 5)
AXES_ADDRESS_FAILURE_LIMIT = env.get_int("AXES_ADDRESS_FAILURE_LIMIT", 20)
AXES_COOLOFF_MINUTES = env.get_int("AXES_COOLOFF_MINUTES", 15)
AXES_COOLOFF_TIME = dt.timedelta(minutes=AXES_COOLOFF_MINUTES)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_HANDLER = "core.lockout.AddressLockoutHandler"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "core.lockout.lockout_response"
# No start-up banner on stderr (commands print one line, tests/config/test_settings.py);
# failures and lockouts are still logged, with the user name masked (AXES_VERBOSE off).
AXES_VERBOSE = False

LOGIN_URL = "login"
# After logging in, each role lands on its own page (core.views.landing).
LOGIN_REDIRECT_URL = "landing"
LOGOUT_REDIRECT_URL = "home"

# English is the source language; the federation's users read Spanish, Catalan and Portuguese.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("es", _("Spanish")),
    ("ca", _("Catalan")),
    ("pt", _("Portuguese")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English dates in one style (config/formats/en); the other languages keep Django's formats.
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = env.get_timezone("TIME_ZONE", "Europe/Madrid")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if not DEBUG and env.get_bool("STATIC_MANIFEST", True)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Tests run with DEBUG off but without collectstatic: let whitenoise find files on the fly.
WHITENOISE_USE_FINDERS = True
WHITENOISE_MANIFEST_STRICT = False

# History and immutability (docs/audit.md). Triggers are installed by migrations only
# (pgtrigger's defaults, written out): `makemigrations` turns a change of Meta.triggers or of a
# pghistory.track() into AddTrigger/RemoveTrigger operations. Event tables are append-only
# (pghistory adds a trigger refusing UPDATE and DELETE on them).
PGTRIGGER_MIGRATIONS = True
PGTRIGGER_INSTALL_ON_MIGRATE = False
PGHISTORY_APPEND_ONLY = True
# Event tables index what the history pages read, and no more (a list import writes an event
# per player): the tracked row (pgh_obj) always, other references where a model's track()
# asks for it. pghistory's default indexes every foreign key, the context's included.
PGHISTORY_OBJ_FIELD = pghistory.ObjForeignKey(db_index=True)
PGHISTORY_FOREIGN_KEY_FIELD = pghistory.ForeignKey(db_index=False)
PGHISTORY_CONTEXT_FIELD = pghistory.ContextForeignKey(db_index=False)

# Caches: a published list never changes, so its downloads are cached. Redis in production.
_cache_url = env.get_url("CACHE_URL", ("redis", "rediss"))
#: Seconds a browser or the caching proxy in front of the site keeps an anonymous public page
#: (Cache-Control: public, max-age; core/caching.py, docs/caching.md): what a publication may
#: take to show there.
PUBLIC_PAGE_MAX_AGE = env.get_int("PUBLIC_PAGE_MAX_AGE", 60)

#: The Redis cache's socket timeouts (seconds). Why: a Redis that refuses connections fails at
#: once, but one that hangs (a host gone without a reset, a stalled server) would hold each cache
#: call for the system's TCP timeout (minutes). The cache only saves work the database can redo
#: (a cold card or list page takes about 0.1 s), so a cache answer later than half a second saves
#: nothing; Redis answers in about a millisecond when up, so these do not trip on a healthy one.
#: redis-py does not retry a pooled connection: a call waits at most the two added together.
CACHE_REDIS_OPTIONS = {"SOCKET_CONNECT_TIMEOUT": 0.5, "SOCKET_TIMEOUT": 0.5}

CACHES = {
    "default": (
        {
            # django-redis, failing open when Redis cannot be reached (DJANGO_REDIS_IGNORE_
            # EXCEPTIONS below; docs/security.md, "Faults").
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": _cache_url,
            # Several sites (or test processes) may share one Redis database.
            "KEY_PREFIX": env.get_str("CACHE_KEY_PREFIX") or "",
            "OPTIONS": CACHE_REDIS_OPTIONS,
        }
        if _cache_url
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    ),
    # Each process's own, in front of the shared one for what the API serves most: pages of
    # published lists (immutable) and players' cards (core/api/caching.py).
    "local": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "api-local",
        "OPTIONS": {"MAX_ENTRIES": 5000},
    },
}

# Failing open (issue 28): with Redis unreachable a read is a miss, a write is dropped, and incr,
# add and delete answer None, so pages and the API carry on from the database and the
# throttles and accounts/limits.py count nothing (they let the request through). Why that is
# safe: everything kept in this cache can be made again (pages, fragments, downloads, counts)
# or forgotten (counters); a dropped delete (desk/duplicates.py) leaves an entry that expires
# on its own (see there). Only what django-redis counts as the server failing is ignored
# (connection errors, timeouts, an error reply such as Redis out of memory); a programming
# error, or incr on a missing key (ValueError), still raises.
DJANGO_REDIS_IGNORE_EXCEPTIONS = True
# Not logged per call. Why: django-redis logs each ignored error with its traceback, and a page
# makes several cache calls, so an outage at a few hundred requests a second writes thousands
# of tracebacks a second (disk, log shipping, alerting drowned). The outage is reported where
# monitoring looks: /healthz names the cache as unavailable (config/health.py: its check writes
# and reads a key back, which fails while writes are dropped) and answers 503 until Redis is
# back.
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = False

# Celery. No broker → eager mode: the same task code runs in-process (tests, manage.py).
# `filesystem://` → kombu's file transport: messages are files in .celery/, read by the worker
# `make run` starts when no broker is configured; no server needed, for one machine only.
CELERY_BROKER_URL = env.get_url(
    "CELERY_BROKER_URL", ("redis", "rediss", "amqp", "memory", "filesystem")
)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
if not CELERY_BROKER_URL:
    # A placeholder (eager mode sends nothing); with a host named, kombu does not warn "No
    # hostname was supplied" when a task is applied (`make run`'s demo step printed it).
    CELERY_BROKER_URL = "memory://localhost/"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
# A calculation must survive a worker killed mid-run: the message is acknowledged only when the
# task finishes, re-queued when the worker dies, and Redis must not hand it to a second worker
# while the first is still computing (visibility timeout longer than any run).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, int | str] = {
    "visibility_timeout": env.get_int("CELERY_VISIBILITY_TIMEOUT", 6 * 3600)
}
if CELERY_BROKER_URL.startswith("filesystem://"):
    # The web process writes into the folder the worker reads; kombu wants both to exist.
    _queue = BASE_DIR / ".celery"
    for _folder in ("queue", "control"):
        (_queue / _folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue / "queue"),
        "data_folder_out": str(_queue / "queue"),
        "control_folder": str(_queue / "control"),  # broadcasts (the worker's remote control)
    }
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# The API (docs/api.md): /api/v1/, token or session authentication (CSRF enforced on the
# session), the rules' permissions per view, one JSON shape for every error, throttles per user
# and per anonymous client (429 with Retry-After), a hard page-size cap.
# A rate is "<n>/<second|minute|hour|day>"; "off" turns that throttle off (benchmarks).


def _rate(name: str, default: str) -> str | None:
    value = (env.get_str(name, default) or default).strip()
    return None if value.lower() == "off" else value


API_THROTTLE_ANON = _rate("API_THROTTLE_ANON", "120/minute")
API_THROTTLE_USER = _rate("API_THROTTLE_USER", "600/minute")
API_THROTTLE_CALCULATOR = _rate("API_THROTTLE_CALCULATOR", "20/minute")
#: The calculator's request body: larger ones are refused (413) before parsing.
API_CALCULATOR_MAX_BYTES = env.get_int("API_CALCULATOR_MAX_BYTES", 512 * 1024)
REST_FRAMEWORK = {
    # The throttles identify a client by REMOTE_ADDR, which ForwardedForMiddleware has already
    # set from the site's own proxies; DRF's default would believe a client's X-Forwarded-For.
    "NUM_PROXIES": 0,
    "DEFAULT_SCHEMA_CLASS": "core.api.schema.ApiSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "core.api.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["core.api.permissions.RulePermission"],
    "DEFAULT_PAGINATION_CLASS": "core.api.pagination.LimitOffset",
    "DEFAULT_FILTER_BACKENDS": ["core.api.filters.StrictFilterBackend"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "core.api.throttles.SignedInRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": API_THROTTLE_ANON,
        "user": API_THROTTLE_USER,
        "calculator": API_THROTTLE_CALCULATOR,
    },
    "EXCEPTION_HANDLER": "core.api.errors.api_exception_handler",
    "DEFAULT_METADATA_CLASS": None,
    "PAGE_SIZE": 50,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Rating office API",
    "DESCRIPTION": (
        "Players, rating systems, periods, published lists and their entries, tournaments, the "
        "rating calculator; arbiters' registrations and reports, players' protests, the "
        "officers' desk. See docs/api.md."
    ),
    "VERSION": "1.0.0",
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Claims, corrections and erasure requests share one status set (pending / approved /
    # refused): one named enum, not a name drf-spectacular makes up from a hash.
    "ENUM_NAME_OVERRIDES": {
        "RequestStatusEnum": "accounts.models.RequestStatus",
        # A worker job's status (list imports, uploads, calculations share core.jobs.JobStatus).
        "JobStatusEnum": "core.jobs.JobStatus",
        # A list's sections (issue 24), a registry record's state, players' and arbiters' titles.
        "ListSectionEnum": "ratings.lists.filters.SECTION_LABELS",
        "OfficialStateEnum": "tournaments.officials.models.RecordState",
        "PlayerTitleEnum": "players.models.Title",
        "ArbiterTitleEnum": "tournaments.officials.models.ArbiterTitle",
        # The officer's decisions (tournaments.models): "kind" is also the game's and the
        # competition's.
        "DecisionKindEnum": "tournaments.models.DecisionKind",
        "TournamentStatusEnum": "tournaments.models.TournamentStatus",
    },
}

# Uploads: reports over this size are refused before parsing.
REPORT_MAX_BYTES = env.get_int("REPORT_MAX_BYTES", 5 * 1024 * 1024)
# Uploads larger than this are read and checked on a worker, followed from a progress page
# (tournaments/services/upload_jobs.py): no web request waits for the parser on a large file.
REPORT_INLINE_BYTES = env.get_int("REPORT_INLINE_BYTES", 256 * 1024)
# Rejected uploads per tournament whose bytes are kept (the newest); older rejected ones keep
# their record (file name, size, SHA-256, problems) without the bytes. docs/reports.md.
REPORT_REJECTED_KEEP = env.get_int("REPORT_REJECTED_KEEP", 20)
DATA_UPLOAD_MAX_MEMORY_SIZE = REPORT_MAX_BYTES + 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = REPORT_MAX_BYTES + 1024 * 1024
# Rating lists imported from the browser (a worker imports them; larger uploads go to a
# temporary file, not memory): files over this are refused.
LIST_IMPORT_MAX_BYTES = env.get_int("LIST_IMPORT_MAX_BYTES", 256 * 1024 * 1024)
# A list import still queued after this many minutes (no worker took it: its message may have
# been lost) can be sent to the workers again from its page.
LIST_IMPORT_REQUEUE_MINUTES = env.get_int("LIST_IMPORT_REQUEUE_MINUTES", 15)

# Periodic tasks, sent by the `beat` service (docker-compose.yml) to the workers. Old finished
# list-import jobs are pruned every night; queued and running ones are never touched.
# Heartbeats of running jobs (core/heartbeat.py): a beat every JOBS_HEARTBEAT_SECONDS; the
# watchdog (every minute, below) calls a running job lost when its last beat is older than
# JOBS_HEARTBEAT_STALE_MINUTES and its advisory lock is free, and queues it again while it has
# been tried fewer than JOBS_MAX_ATTEMPTS times (calculation runs; a list import keeps its own
# limit, lists/imports/jobs.py MAX_ATTEMPTS), else fails it.
JOBS_HEARTBEAT_SECONDS = env.get_int("JOBS_HEARTBEAT_SECONDS", 30)
JOBS_HEARTBEAT_STALE_MINUTES = env.get_int("JOBS_HEARTBEAT_STALE_MINUTES", 5)
JOBS_MAX_ATTEMPTS = env.get_int("JOBS_MAX_ATTEMPTS", 2)
LIST_IMPORT_KEEP_DAYS = env.get_int("LIST_IMPORT_KEEP_DAYS", 180)
if LIST_IMPORT_KEEP_DAYS < 0:
    raise env.ImproperlyConfigured(
        f"LIST_IMPORT_KEEP_DAYS must be 0 or more (got {LIST_IMPORT_KEEP_DAYS})"
    )
CELERY_BEAT_SCHEDULE = {
    "prune-list-import-jobs": {
        "task": "ratings.prune_import_jobs",
        # Why a crontab: at night, local time (CELERY_TIMEZONE), away from office hours.
        "schedule": crontab(hour=3, minute=30),
        "kwargs": {"days": LIST_IMPORT_KEEP_DAYS},
    },
    # The watchdog of running jobs (JOBS_HEARTBEAT_* above): every minute.
    "watch-calculation-runs": {"task": "ratings.watch_runs", "schedule": 60.0},
    "watch-list-import-jobs": {"task": "ratings.watch_import_jobs", "schedule": 60.0},
    "watch-report-uploads": {"task": "tournaments.watch_uploads", "schedule": 60.0},
    # Reports returned for correction whose deadline passed: the event counts as not reported
    # (feda-1996 10.13, fide-2000 11.1 → B.01 7.13). At night, after the day has ended.
    "lapse-corrections": {
        "task": "tournaments.lapse_corrections",
        "schedule": crontab(hour=0, minute=20),
    },
    # A published list whose ranks task was never sent (the broker away at publication).
    "watch-list-ranks": {"task": "ratings.watch_list_ranks", "schedule": 300.0},
    # A validated tournament whose live ratings task was never sent (docs/live-ratings.md).
    "watch-live-ratings": {"task": "ratings.watch_live_ratings", "schedule": 300.0},
}

# Backups (docs/backups.md): `manage.py db_backup` writes a pg_dump of the database into
# BACKUP_DIR and keeps the newest BACKUP_KEEP there; `db_backup --loop` (the compose `backup`
# service) takes one every BACKUP_INTERVAL seconds. pg_dump and pg_restore are found by version
# (core/backups/tools.py) unless BACKUP_PG_BIN_DIR names their folder.
BACKUP_DIR = Path(env.get_str("BACKUP_DIR") or BASE_DIR / "backups")
BACKUP_KEEP = env.get_int("BACKUP_KEEP", 14)
BACKUP_INTERVAL = env.get_int("BACKUP_INTERVAL", 24 * 60 * 60)
BACKUP_PG_BIN_DIR = env.get_str("BACKUP_PG_BIN_DIR") or ""
if BACKUP_KEEP < 1:
    raise env.ImproperlyConfigured(f"BACKUP_KEEP must be 1 or more (got {BACKUP_KEEP})")
if BACKUP_INTERVAL < 60:
    raise env.ImproperlyConfigured(
        f"BACKUP_INTERVAL must be 60 seconds or more (got {BACKUP_INTERVAL})"
    )
#: What `manage.py db_restore` counts in the database it restored.
BACKUP_SUMMARY_MODELS = (
    "ratings.PublishedList",
    "ratings.ListEntry",
    "tournaments.Report",
    "protests.Protest",
    "protests.ProtestAttachment",
    "players.Player",
)

# The federation this office serves (3-letter FIDE code), used for new players and reports.
FEDERATION_CODE = env.get_str("FEDERATION_CODE", "ESP") or "ESP"
# Deadlines (protests, appeals: docs/protests.md) end at 23:59:59 of their last day in the
# federation's time zone, whatever the server's or the user's.
FEDERATION_TIME_ZONE = env.get_timezone("FEDERATION_TIME_ZONE", TIME_ZONE)

# Protests (docs/protests.md). An attachment (PDF or image, checked by its first bytes) over
# this size is refused. PROTEST_APPEAL_DEPOSIT: the deposit an appeal brings where the
# regulation asks for one (cnxc-2000 4.3: the membership fee in force), in the federation's
# currency; recorded on the appeal and returned if it is upheld.
PROTEST_ATTACHMENT_MAX_BYTES = env.get_int("PROTEST_ATTACHMENT_MAX_BYTES", 2 * 1024 * 1024)
PROTEST_APPEAL_DEPOSIT = Decimal(env.get_str("PROTEST_APPEAL_DEPOSIT", "30.00") or "30.00")

# E-mail (protest changes, password resets). Development prints messages on the console;
# production sets EMAIL_BACKEND to SMTP (the default with DEBUG=0) and the server below. Every
# message goes through the outbox (core/outbox.py): written with the change that causes it,
# sent by a worker, retried with backoff, failed (and shown to officers in the admin) after
# OUTBOX_MAX_ATTEMPTS attempts: with the defaults, 1, 2, 4… minutes, then every 30, for about
# a day.
EMAIL_BACKEND = (
    env.get_str(
        "EMAIL_BACKEND",
        "django.core.mail.backends.console.EmailBackend"
        if DEBUG
        else "django.core.mail.backends.smtp.EmailBackend",
    )
    or "django.core.mail.backends.smtp.EmailBackend"
)
EMAIL_HOST = env.get_str("EMAIL_HOST", "localhost") or "localhost"
EMAIL_PORT = env.get_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env.get_str("EMAIL_HOST_USER", "") or ""
EMAIL_HOST_PASSWORD = env.get_str("EMAIL_HOST_PASSWORD", "") or ""
EMAIL_USE_TLS = env.get_bool("EMAIL_USE_TLS", False)  # STARTTLS, usually port 587
EMAIL_USE_SSL = env.get_bool("EMAIL_USE_SSL", False)  # TLS from the start, usually port 465
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise env.ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL: set one of them, not both")
# Seconds a worker waits for the mail server (Django's default waits for ever, holding the
# worker and the outbox row).
EMAIL_TIMEOUT = env.get_int("EMAIL_TIMEOUT", 30)
DEFAULT_FROM_EMAIL = env.get_str("DEFAULT_FROM_EMAIL", "ratings@localhost") or "ratings@localhost"
OUTBOX_RETRY_SECONDS = env.get_int("OUTBOX_RETRY_SECONDS", 60)
OUTBOX_RETRY_MAX_SECONDS = env.get_int("OUTBOX_RETRY_MAX_SECONDS", 1800)
OUTBOX_MAX_ATTEMPTS = env.get_int("OUTBOX_MAX_ATTEMPTS", 50)
OUTBOX_FLUSH_SECONDS = env.get_int("OUTBOX_FLUSH_SECONDS", 60)
OUTBOX_KEEP_DAYS = env.get_int("OUTBOX_KEEP_DAYS", 90)
if (
    min(
        OUTBOX_RETRY_SECONDS,
        OUTBOX_RETRY_MAX_SECONDS,
        OUTBOX_MAX_ATTEMPTS,
        OUTBOX_FLUSH_SECONDS,
        OUTBOX_KEEP_DAYS,
    )
    < 1
):
    raise env.ImproperlyConfigured(
        "OUTBOX_RETRY_SECONDS, OUTBOX_RETRY_MAX_SECONDS, OUTBOX_MAX_ATTEMPTS, "
        "OUTBOX_FLUSH_SECONDS and OUTBOX_KEEP_DAYS must be 1 or more"
    )
# The outbox's periodic tasks: the rows whose send is due again; at night, old sent rows.
CELERY_BEAT_SCHEDULE["flush-outbox"] = {
    "task": "core.flush_outbox",
    "schedule": float(OUTBOX_FLUSH_SECONDS),
}
# Notices (docs/notices.md): the officers' daily digest at NOTICES_DIGEST_HOUR (local time,
# CELERY_TIMEZONE), and the watchdog of published lists whose notices were never written.
NOTICES_DIGEST_HOUR = env.get_int("NOTICES_DIGEST_HOUR", 7)
if not 0 <= NOTICES_DIGEST_HOUR <= 23:
    raise env.ImproperlyConfigured(
        f"NOTICES_DIGEST_HOUR must be an hour, 0 to 23 (got {NOTICES_DIGEST_HOUR})"
    )
CELERY_BEAT_SCHEDULE["notices-officer-digest"] = {
    "task": "notices.officer_digest",
    "schedule": crontab(hour=NOTICES_DIGEST_HOUR, minute=0),
}
CELERY_BEAT_SCHEDULE["notices-watch-lists"] = {"task": "notices.watch_lists", "schedule": 300.0}
CELERY_BEAT_SCHEDULE["prune-outbox"] = {
    "task": "core.prune_outbox",
    "schedule": crontab(hour=3, minute=40),
    "kwargs": {"days": OUTBOX_KEEP_DAYS},
}

# How many proxies of the site's own stand in front of gunicorn (docker-compose.yml: nginx, so
# 1): the client's address is read from X-Forwarded-For that many entries from the right
# (core.middleware.ForwardedForMiddleware). 0 (no proxy): the header is ignored.
TRUSTED_PROXY_COUNT = env.get_int("TRUSTED_PROXY_COUNT", 0)

# The site's address, for links in e-mails.
SITE_URL = (env.get_str("SITE_URL", "http://localhost:8000") or "").rstrip("/")

# Accounts (docs/accounts.md): how long a sign-up's confirmation link works; how many sign-ups
# one address may ask for in an hour, and how many confirmation e-mails one e-mail address gets
# in an hour (a bot cannot use the site to flood a mailbox); how many claims of a player record
# that match nothing a user may try in a day (a birth date cannot be guessed by trying them all).
ACCOUNTS_CONFIRM_DAYS = env.get_int("ACCOUNTS_CONFIRM_DAYS", 3)
ACCOUNTS_SIGNUPS_PER_HOUR = env.get_int("ACCOUNTS_SIGNUPS_PER_HOUR", 10)
ACCOUNTS_MAILS_PER_ADDRESS_PER_HOUR = env.get_int("ACCOUNTS_MAILS_PER_ADDRESS_PER_HOUR", 3)
ACCOUNTS_CLAIM_FAILURES_PER_DAY = env.get_int("ACCOUNTS_CLAIM_FAILURES_PER_DAY", 5)

# Production hardening; `check --deploy --fail-level WARNING` passes with DEBUG=0.
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.get_bool("SECURE_SSL_REDIRECT", True)
    # The container health check calls /healthz/web over plain HTTP from inside the container.
    SECURE_REDIRECT_EXEMPT = [r"^healthz(/web)?$"]
    # Cookies over HTTPS only; the test suite, which serves plain HTTP, turns this off.
    SESSION_COOKIE_SECURE = env.get_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_HSTS_SECONDS = env.get_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.get_str("LOG_LEVEL", "INFO") or "INFO"},
    # Django's own console handler on "django" (DEBUG only) printed every line of Django's
    # loggers a second time through the root's ("Watching for file changes" twice in `make
    # run`): the root's handler alone prints them. Its mail_admins handler had no ADMINS.
    "loggers": {"django": {"handlers": [], "level": "INFO"}},
}
