"""Deckwright settings: one module, every deployment difference read from the environment.

Variables (all optional for local use):
    DATABASE_URL        database, e.g. postgres://user@host:5432/deckwright (default: SQLite file)
    SECRET_KEY          required when DEBUG is off
    DEBUG               1/0 (default 1 for local development)
    ALLOWED_HOSTS       comma-separated host names
    CELERY_BROKER_URL   e.g. redis://127.0.0.1:6379/0; unset means tasks run inline
    DECKWRIGHT_DATA_DIR where the SQLite file, rendered images and caches live (default ./var)
    API_THROTTLE_ANON   REST API rate for anonymous clients per address (default 120/minute)
    API_THROTTLE_USER   REST API rate per signed-in user or token (default 1200/minute)
    API_NUM_PROXIES     reverse proxies in front of the app, for client addresses (default 0)
    EMAIL_BACKEND       Django email backend (default: the console backend, which prints mail)
    DEFAULT_FROM_EMAIL  sender of password-reset mail (default deckwright@localhost)
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url

from deckwright.env import ConfigError, env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(env_str("DECKWRIGHT_DATA_DIR", str(BASE_DIR / "var")))
DATA_DIR.mkdir(parents=True, exist_ok=True)  # the SQLite file and media live here
FIXTURES_DIR = BASE_DIR / "fixtures"
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
    "api",
    "django_htmx",
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "deckwright.middleware.RefuseUnusableInputMiddleware",  # NUL in parameters: a 400, not a 500
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
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault(
        "init_command", "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
    )
    DATABASES["default"]["TEST"] = {"NAME": ":memory:"}

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
STATIC_ROOT = DATA_DIR / "staticfiles"
MEDIA_URL = "/media/"
MEDIA_ROOT = DATA_DIR / "media"

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
    }

# REST API (api/, documented in docs/api.md). Throttle rates are "<count>/<second|minute|hour|day>".
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an anonymous client is told 401 with "WWW-Authenticate: Token".
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_THROTTLE_CLASSES": [
        "api.throttling.AnonymousRateThrottle",
        "api.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_THROTTLE_ANON", "120/minute"),
        "user": env_str("API_THROTTLE_USER", "1200/minute"),
    },
    "EXCEPTION_HANDLER": "api.errors.problem_exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.BoundedJSONParser",  # depth and size caps: docs/api.md, Limits
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "api.schema.ProblemAutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "NUM_PROXIES": env_int("API_NUM_PROXIES", 0) or None,
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
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
}

# Celery: with no broker configured, tasks run inline in the calling process.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=True)
