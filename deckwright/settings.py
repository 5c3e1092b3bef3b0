"""Deckwright settings: one module, every deployment difference read from the environment.

Variables (all optional for local use):
    DATABASE_URL        database, e.g. postgres://user@host:5432/deckwright (default: SQLite file)
    SECRET_KEY          required when DEBUG is off
    DEBUG               1/0 (default 1 for local development)
    ALLOWED_HOSTS       comma-separated host names
    CELERY_BROKER_URL   e.g. redis://127.0.0.1:6379/0; unset means tasks run inline
    DECKWRIGHT_DATA_DIR where the SQLite file, rendered images and caches live (default ./var)
    DECKWRIGHT_DEMO     0 keeps `manage.py load_demo` (and so `make run`) from loading the demo set
    API_THROTTLE_ANON   REST API rate for anonymous clients per address (default 120/minute)
    API_THROTTLE_USER   REST API rate per signed-in user or token (default 1200/minute)
    TRUSTED_PROXY_COUNT reverse proxies in front of the app whose X-Forwarded-For is trusted
                        (default 0: REMOTE_ADDR only; API_NUM_PROXIES is read as an old name)
    LOGIN_FAILURE_LIMIT, LOGIN_LOCKOUT_MINUTES, ACCOUNT_GUESS_RATES, ACCOUNT_KNOWN_DAYS,
    SIGNUP_RATE, PASSWORD_RESET_RATE,
    API_TOKEN_TTL_DAYS, MATCHUP_ANON_GAMES_PER_HOUR(_IP): accounts and limits, see below
    SIMULATION_*, CELERY_VISIBILITY_TIMEOUT, CELERY_RESTORE_INTERVAL,
    CELERY_UNACKED_MUTEX_EXPIRE: simulation jobs, see below
    EMAIL_BACKEND       Django email backend (default: the console backend, which prints mail)
    DEFAULT_FROM_EMAIL  sender of password-reset mail (default deckwright@localhost)
    DATABASE_CONN_MAX_AGE, DECKWRIGHT_HTTPS, SECURE_* ...: serving in production, docs/deploy.md
    DECKWRIGHT_WEBSOCKET_URL where pages open live tables' WebSockets (default: their own address)
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import dj_database_url

from deckwright.env import ConfigError, env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(env_str("DECKWRIGHT_DATA_DIR", str(BASE_DIR / "var")))
DATA_DIR.mkdir(parents=True, exist_ok=True)  # the SQLite file and media live here
FIXTURES_DIR = BASE_DIR / "fixtures"
RULINGS_DIR = BASE_DIR / "docs" / "rules"  # docs/rules/<game>.md: card pages show their rulings
# `manage.py load_demo` (run by `make run` and `make data`) loads the demo set unless this is 0.
DEMO_DATA = env_bool("DECKWRIGHT_DEMO", True)
RULEBOOKS_DIR = Path(
    env_str("DECKWRIGHT_RULEBOOKS_DIR", str(BASE_DIR.parent / "shared" / "rulebooks"))
)

DEBUG = env_bool("DEBUG", default=True)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ConfigError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "deckwright-local-development-only-not-secret"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",  # first: its runserver serves WebSockets too (live tables, `make run`)
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "cards",
    "decks",
    "rules",
    "tables",
    "accounts",  # accounts, lockout, tokens, throttles and the limit counters' table
    "api",
    "django_htmx",
    "web",
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "common.middleware.ContentSecurityPolicyMiddleware",  # no inline script without a nonce
    "whitenoise.middleware.WhiteNoiseMiddleware",  # /static/ before sessions and the database
    "django.contrib.sessions.middleware.SessionMiddleware",
    "api.errors.ProblemNotFoundMiddleware",  # /api/ 404s as problem details, DEBUG or not
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "common.middleware.RefuseUnusableInputMiddleware",  # NUL in parameters: a 400, not a 500
    "decks.httpcache.CatalogueCacheMiddleware",  # ETag/304 and cached anonymous catalogue
    "axes.middleware.AxesMiddleware",  # last: turns a lockout into accounts.lockout's 429 page
]

ROOT_URLCONF = "deckwright.urls"
WSGI_APPLICATION = "deckwright.wsgi.application"
ASGI_APPLICATION = "deckwright.asgi.application"

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
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{DATA_DIR / 'deckwright.sqlite3'}"),
        # A connection serves many requests (seconds; 0 = one per request) and is checked before
        # reuse. Each server thread holds one: docs/deploy.md sizes workers x threads to fit.
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault(
        "init_command", "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
    )
    # SQLite has no row locks (SELECT ... FOR UPDATE is ignored): BEGIN IMMEDIATE takes the write
    # lock when a transaction starts, so concurrent writers queue (up to the timeout, seconds)
    # instead of both reading and one failing on "database is locked" when it comes to write.
    DATABASES["default"]["OPTIONS"].setdefault("transaction_mode", "IMMEDIATE")
    DATABASES["default"]["OPTIONS"].setdefault("timeout", env_int("SQLITE_TIMEOUT", 20))
    DATABASES["default"]["TEST"] = {"NAME": ":memory:"}
    # The card index that carries the name key and id (INCLUDE) is a PostgreSQL speed-up;
    # SQLite builds it without them, as the warning says, and loses nothing else.
    SILENCED_SYSTEM_CHECKS = ["models.W040"]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Accounts (web/): sign-up, log-in and password reset pages; reset mail goes to the console unless
# EMAIL_BACKEND names another backend (with the usual EMAIL_HOST ... settings).
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "deck-list-mine"
LOGOUT_REDIRECT_URL = "home"
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "deckwright@localhost")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = DATA_DIR / "staticfiles"  # filled by `manage.py collectstatic` (make serve)
# With DEBUG=0 WhiteNoise serves the collected files: names carry a content hash, gzip copies sit
# beside them, and browsers may cache them for good. Development and tests read the sources.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_AUTOREFRESH = WHITENOISE_USE_FINDERS = DEBUG
MEDIA_URL = "/media/"
MEDIA_ROOT = DATA_DIR / "media"

# One Redis may serve several sites (production and staging, two checkouts on one machine): every
# key this site keeps there (the cache, the limits' counters, the live tables' channel groups)
# starts with REDIS_PREFIX, so two sites with different prefixes never read each other's.
REDIS_PREFIX = env_str("DECKWRIGHT_REDIS_PREFIX", "deckwright")
if not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", REDIS_PREFIX):
    raise ConfigError(
        f"DECKWRIGHT_REDIS_PREFIX={REDIS_PREFIX!r}: use 1 to 40 letters, digits, '_', '.' or '-'"
    )

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "deckwright",
    }
}
if env_str("REDIS_URL"):
    CACHES["default"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": env_str("REDIS_URL"),
        "KEY_PREFIX": REDIS_PREFIX,
    }
# HTTP caching of the anonymous catalogue (decks/httpcache.py; docs/api.md "Caching and
# conditional requests", docs/deploy.md): how long browsers and proxies may reuse an answer
# (seconds, then revalidate by ETag), how long the shared response cache (the default cache) keeps
# one (0: no response cache), and how old a card page's list of public decks may get.
CATALOGUE_MAX_AGE = env_int("CATALOGUE_MAX_AGE", 60)
RESPONSE_CACHE_SECONDS = env_int("RESPONSE_CACHE_SECONDS", 600)
DECK_LISTS_SECONDS = env_int("DECK_LISTS_SECONDS", 60)
# after a catalogue change, answers are drawn but not kept for this long (commits, memos catch up;
# 0: keep at once, for one process or tests)
CATALOGUE_SETTLE_SECONDS = env_int("CATALOGUE_SETTLE_SECONDS", 2)

# Live tables (play a friend, docs/deploy.md "WebSockets"): moves reach every server process
# through Redis when REDIS_URL is set; otherwise through one process's memory, which only works
# while a single process serves every player of a table (the table page says which).
CHANNEL_LAYERS: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}
}
if env_str("REDIS_URL"):
    CHANNEL_LAYERS["default"] = {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [env_str("REDIS_URL")], "prefix": f"{REDIS_PREFIX}:channels"},
    }
# Where pages open their WebSocket: empty for this site's own address (runserver, or a proxy
# passing /ws/ on); `make serve` sets it to its WebSocket server (ws://HOST:WS_PORT).
WEBSOCKET_URL = env_str("DECKWRIGHT_WEBSOCKET_URL").rstrip("/")

# Accounts and limits (docs/api.md "Throttling", "Tokens"; README "Configuration"). Every limit is
# counted per client address from common.clientip, in counters all processes share
# (common/counters.py): Redis through the "limits" cache when REDIS_URL is set, else a
# database table (made by accounts/migrations/0001); never per-process memory, with which 4 workers
# let 453 requests through a limit of 120.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", env_int("API_NUM_PROXIES", 0))
if TRUSTED_PROXY_COUNT < 0:
    raise ConfigError(f"TRUSTED_PROXY_COUNT={TRUSTED_PROXY_COUNT} must be 0 or more")
LIMITS_CACHE = "limits"
LIMITS_STORE = "cache" if env_str("REDIS_URL") else "database"
if env_str("REDIS_URL"):
    CACHES[LIMITS_CACHE] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": env_str("REDIS_URL"),
        "KEY_PREFIX": f"{REDIS_PREFIX}:limits",
    }
# Log-in lockout (django-axes, database handler): LOGIN_FAILURE_LIMIT failures from one address
# lock it out of the log-in page and POST /api/v1/auth/token/ for LOGIN_LOCKOUT_MINUTES (a failure
# meanwhile restarts the wait). Keyed by address only: keyed by username, anyone could lock a
# known user out of their own account. Guessing at one account from many addresses is slowed per
# account (accounts/guard.py, docs/security.md): at most ACCOUNT_GUESS_RATES password checks
# (comma-separated <count>/<second|minute|hour|day> tiers) at one account from addresses and
# browsers it never logged in from; those it did (remembered ACCOUNT_KNOWN_DAYS) are exempt.
AUTHENTICATION_BACKENDS = [
    "accounts.lockout.LockoutBackend",
    "accounts.guard.AccountGuardBackend",
    "django.contrib.auth.backends.ModelBackend",  # checks without a request; session look-ups
]
ACCOUNT_GUESS_RATES = env_list("ACCOUNT_GUESS_RATES", ["10/hour", "30/day"])
ACCOUNT_KNOWN_DAYS = env_int("ACCOUNT_KNOWN_DAYS", 90)
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = dt.timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["ip_address"]
# Failures age out after the cool-off; a success does not clear them, or logging into one's own
# account between guesses would reset the count of an address guessing someone else's password.
AXES_RESET_ON_SUCCESS = False
AXES_CLIENT_IP_CALLABLE = "common.clientip.axes_client_ip"
AXES_USERNAME_CALLABLE = "common.clientip.axes_username"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
# API tokens expire this many days after they are issued (rotate or log in again for a new one).
API_TOKEN_TTL_DAYS = env_int("API_TOKEN_TTL_DAYS", 30)
# Games anonymous visitors may start per hour, on /matchups/ and /simulations/ alike
# (rules/lab/quotas.py); signed-in users count against SIMULATION_USER_GAMES_PER_HOUR below.
MATCHUP_ANON_GAMES_PER_HOUR = env_int("MATCHUP_ANON_GAMES_PER_HOUR", 40)
MATCHUP_ANON_GAMES_PER_HOUR_IP = env_int("MATCHUP_ANON_GAMES_PER_HOUR_IP", 120)
# Simulation jobs (rules/lab/jobs.py, docs/scaling.md): games a signed-in account, and an address
# (all its accounts together), may start per clock hour (anonymous visitors share the matchup
# quotas above); the most games one job plays; games a chunk plays by default and at most.
SIMULATION_USER_GAMES_PER_HOUR = env_int("SIMULATION_USER_GAMES_PER_HOUR", 20_000)
SIMULATION_GAMES_PER_HOUR_IP = env_int("SIMULATION_GAMES_PER_HOUR_IP", 50_000)
SIMULATION_MAX_GAMES = env_int("SIMULATION_MAX_GAMES", 200_000)
SIMULATION_CHUNK_GAMES = env_int("SIMULATION_CHUNK_GAMES", 20)
SIMULATION_MAX_CHUNK_GAMES = env_int("SIMULATION_MAX_CHUNK_GAMES", 1000)
# Whoever plays a chunk (a worker, the in-process runner) moves its heartbeat every
# SIMULATION_HEARTBEAT_SECONDS while it plays, and the chunk's progress (games played) at most
# every SIMULATION_PROGRESS_MS milliseconds. A chunk or an in-process job whose
# heartbeat is older than SIMULATION_STALE_SECONDS lost its player: the sweep plays it again (an
# in-process job's missing chunks here, a workers' chunk queued again). Keep the stale time a
# few heartbeats long; with the sweep below a dead player's chunk plays again within
# SIMULATION_STALE_SECONDS + SIMULATION_RESUME_INTERVAL seconds.
SIMULATION_HEARTBEAT_SECONDS = env_int("SIMULATION_HEARTBEAT_SECONDS", 10)
SIMULATION_PROGRESS_MS = env_int("SIMULATION_PROGRESS_MS", 500)
SIMULATION_STALE_SECONDS = env_int("SIMULATION_STALE_SECONDS", 60)
if SIMULATION_HEARTBEAT_SECONDS * 2 > SIMULATION_STALE_SECONDS:
    raise ConfigError("SIMULATION_STALE_SECONDS must be at least 2 SIMULATION_HEARTBEAT_SECONDS")
# Every serving process (gunicorn, runserver, ASGI) and every Celery worker sweeps for such stale
# work as it starts and then every this many seconds (0: never; run ``manage.py
# simulation_resume`` instead).
SIMULATION_RESUME_INTERVAL = env_int("SIMULATION_RESUME_INTERVAL", 30)
# Deck builder: one-copy changes (+ / -) the same user makes to a deck within this many seconds
# of the previous one are folded into one version (decks.services._bump); 0 records every click.
DECK_VERSION_FOLD_SECONDS = env_int("DECK_VERSION_FOLD_SECONDS", 60)
if DECK_VERSION_FOLD_SECONDS < 0:
    raise ConfigError("DECK_VERSION_FOLD_SECONDS must be 0 or more")
for _name in (
    "LOGIN_FAILURE_LIMIT",
    "LOGIN_LOCKOUT_MINUTES",
    "ACCOUNT_KNOWN_DAYS",
    "API_TOKEN_TTL_DAYS",
    "SIMULATION_STALE_SECONDS",
    "SIMULATION_HEARTBEAT_SECONDS",
):
    if env_int(_name, 1) < 1:  # 0 minutes of cool-off would make axes lock out for ever
        raise ConfigError(f"{_name}={env_str(_name)!r} must be 1 or more")

# REST API (api/, documented in docs/api.md). Throttle rates are "<count>/<second|minute|hour|day>".
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an anonymous client is told 401 with "WWW-Authenticate: Token".
        "accounts.tokens.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_THROTTLE_CLASSES": [
        "accounts.throttling.AnonymousRateThrottle",
        "accounts.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_THROTTLE_ANON", "120/minute"),
        "user": env_str("API_THROTTLE_USER", "1200/minute"),
        # per client address (common.clientip); the web pages use them too (web/limits.py)
        "token": env_str("API_THROTTLE_TOKEN", "30/hour"),
        "signup": env_str("SIGNUP_RATE", "5/hour"),
        "password_reset": env_str("PASSWORD_RESET_RATE", "5/hour"),
        # CPU-heavy pages, per signed-in account or else per address (web/limits.py heavy_page)
        "replay": env_str("REPLAY_RATE", "120/minute"),
        "test_hands": env_str("TEST_HANDS_RATE", "30/minute"),
        "play_move": env_str("PLAY_MOVE_RATE", "120/minute"),
        "playtest": env_str("PLAYTEST_RATE", "120/minute"),
    },
    "EXCEPTION_HANDLER": "api.errors.problem_exception_handler",
    # ?format= naming no renderer is a view's own parameter, not a 404 (api/negotiation.py)
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "api.negotiation.FormatParameterNegotiation",
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.BoundedJSONParser",  # depth and size caps: docs/api.md, Limits
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "api.schema.ProblemAutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    # accounts/throttling.py reads the address through common.clientip; this keeps DRF's own
    # get_ident on the same rule (0 means REMOTE_ADDR only, never "trust any header").
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}
# JSON bodies (the API and decklist imports): nesting depth and size (docs/api.md, Limits).
API_JSON_MAX_DEPTH = env_int("API_JSON_MAX_DEPTH", 32)
API_JSON_MAX_BYTES = env_int("API_JSON_MAX_BYTES", 2_621_440)
SPECTACULAR_SETTINGS = {
    "TITLE": "Deckwright API",
    "DESCRIPTION": "Cards, decks, legality and events for five games. Guide: docs/api.md.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Nothing from other hosts: no validator badge, system fonts (templates/drf_spectacular/).
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "REDOC_UI_SETTINGS": {
        "theme": {
            "typography": {
                "fontFamily": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
                "headings": {"fontFamily": "system-ui, -apple-system, 'Segoe UI', sans-serif"},
                "code": {"fontFamily": "ui-monospace, 'DejaVu Sans Mono', Menlo, monospace"},
            }
        }
    },
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # Several fields are called "kind": each set of choices gets its own name.
    "ENUM_NAME_OVERRIDES": {
        "FileKindEnum": ["text", "json", "csv"],
        "SimulationKindEnum": "rules.models.SimulationJob.Kind",
        "SimulationCreateKindEnum": "rules.lab.jobs.CREATABLE_KINDS",
        "DownloadKindEnum": ["json", "csv"],
        "CardChangeOpEnum": "decks.services.CARD_CHANGE_OPS",
    },
}

# Celery: with no broker configured, tasks run inline in the calling process.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# A worker takes one chunk at a time and acknowledges it once stored (acks_late tasks), so a
# worker that dies leaves its chunk to another: Redis hands an unacknowledged task out again
# after the visibility timeout (seconds; a chunk running longer is handed out twice, which
# costs time but not correctness), looking for such tasks every CELERY_RESTORE_INTERVAL seconds.
# A worker looks under a lock in Redis, which a worker killed while holding it keeps until it
# expires (kombu's default, 300 s, stalled the next worker's recovery that long):
# CELERY_UNACKED_MUTEX_EXPIRE seconds, far above the milliseconds a look takes.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600),
    "unacked_restore_interval": env_int("CELERY_RESTORE_INTERVAL", 10),
    "unacked_restore_throttle": 1,
    "unacked_mutex_expire": env_int("CELERY_UNACKED_MUTEX_EXPIRE", 30),
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}

# Production (DEBUG=0) is HTTPS-only unless DECKWRIGHT_HTTPS=0 (plain HTTP on a trusted host, as
# `make serve` does); each setting has its own variable too. `check --deploy` is clean by default.
if not DEBUG:
    _https = env_bool("DECKWRIGHT_HTTPS", default=True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=_https)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if _https else 0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=True)
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=_https)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=_https)
# Behind a proxy that ends TLS: the header it sets on HTTPS requests, "X-Forwarded-Proto" (value
# https) or "Name: value". Only when the proxy overwrites that header from clients.
if _proxy_ssl := env_str("SECURE_PROXY_SSL_HEADER"):
    _name, _, _value = _proxy_ssl.partition(":")
    SECURE_PROXY_SSL_HEADER = (
        "HTTP_" + _name.strip().upper().replace("-", "_"),
        _value.strip() or "https",
    )
