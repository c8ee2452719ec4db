"""Settings, read from environment variables.

Every variable has an embedded default so `make run` works on a fresh machine (SQLite, an
SQLite-backed Celery broker). A malformed value stops the process with a message naming
the variable instead of starting with a surprising configuration.
"""

from __future__ import annotations

import os
import secrets
import zoneinfo
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from tdsystem.core import network

BASE_DIR = Path(__file__).resolve().parent.parent
# Where the embedded run keeps its SQLite files, broker, secret key and collected static.
VAR_DIR = Path(os.environ.get("VAR_DIR") or BASE_DIR / "var").resolve()


def envbool(name: str, default: str) -> bool:
    value = os.environ.get(name, default).strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise ImproperlyConfigured(f"{name}={value!r}: expected one of 1/0, true/false, yes/no, on/off")


def envint(name: str, default: str) -> int:
    value = os.environ.get(name, default)
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r}: expected a whole number") from None


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def secret_key_file(path: Path) -> str:
    """The embedded run's key: made once (readable by this user only) and kept, so sessions
    survive a restart and nobody has to edit a settings file."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    # Written whole under a temporary name, then linked into place: a process of the run
    # starting at the same moment reads either no file or the whole key, never half of it.
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key + "\n")
    try:
        os.link(tmp, path)
    except FileExistsError:  # another process of the run made it first: use that one
        key = path.read_text().strip()
    finally:
        tmp.unlink()
    return key


# `manage.py runsystem` (make run, make dev) marks itself and its children as the embedded
# run: one laptop on the venue network, where nobody edits a settings file. Outside it
# (production, the test suite) DEBUG, SECRET_KEY and ALLOWED_HOSTS are explicit as before.
EMBEDDED = envbool("TDSYSTEM_EMBEDDED", "0")
DEBUG = envbool("DEBUG", "0" if EMBEDDED else "1")
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if EMBEDDED:
        SECRET_KEY = secret_key_file(VAR_DIR / "secret-key")
    elif not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    else:
        SECRET_KEY = "development-only-key-never-use-in-production"

# The base of every link meant for another device (QR poster, table draw, API examples):
# a venue's name or HTTPS proxy; empty means this machine's LAN address (core/network.py).
try:
    PUBLIC_URL = network.parse_public_url(os.environ.get("PUBLIC_URL", ""))
except ValueError as exc:
    raise ImproperlyConfigured(f"PUBLIC_URL={exc}") from None
_public = urlsplit(PUBLIC_URL)
if "ALLOWED_HOSTS" in os.environ or not EMBEDDED:
    ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
    if _public.hostname:
        ALLOWED_HOSTS.append(network.host_pattern(_public.hostname))
else:
    # Requests addressed to this machine's own addresses and names, re-read every few
    # seconds; never an arbitrary Host.
    ALLOWED_HOSTS = network.OwnHosts(
        [network.host_pattern(_public.hostname)] if _public.hostname else []
    )
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")
if PUBLIC_URL:
    CSRF_TRUSTED_ORIGINS.append(f"{_public.scheme}://{_public.netloc}")

TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
try:
    zoneinfo.ZoneInfo(TIME_ZONE)
except (zoneinfo.ZoneInfoNotFoundError, ValueError):
    raise ImproperlyConfigured(f"TIME_ZONE={TIME_ZONE!r}: not a known time zone") from None
USE_TZ = True
# Languages (docs/languages.md): English, Arabic (right to left), Japanese, Vietnamese.
# The reader's language: ?lang= on any page (kept in the language cookie, so a screen's
# own refreshes follow), a staff user's saved choice, the cookie, an event's screen
# language on its public screens, then the browser's Accept-Language.
USE_I18N = True
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("ar", "العربية"),
    ("ja", "日本語"),
    ("vi", "Tiếng Việt"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"  # Django's own; core.languages sets the same

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "ninja",  # its Swagger UI's static files, served from here (no CDN)
    "django_countries",  # the countries' names in each language
    "tdsystem.core",
    "tdsystem.structures",
    "tdsystem.events",
    "tdsystem.seating",
    "tdsystem.rulings",
    "tdsystem.results",
    "tdsystem.players",
    "tdsystem.shotclock",
    "tdsystem.printing",
    "tdsystem.dealers",
    "tdsystem.venue",
    "tdsystem.simulation",  # simulate_event (the harness: no app imports it)
    "axes",
]

MIDDLEWARE = [
    # Outermost, so every answer leaves compressed when the reader accepts gzip, the
    # clock poll's too (core/compression.py says why that is safe against BREACH).
    "tdsystem.core.compression.TextGZipMiddleware",
    # Then the screens' clock poll, answered with the headers the rest gave it before.
    "tdsystem.api.clock_poll.ClockPollMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Early, so the pages answered before the view (database down, bad input) carry it too.
    "csp.middleware.CSPMiddleware",
    "tdsystem.core.middleware.DatabaseUnavailableMiddleware",
    "tdsystem.core.middleware.BadInputMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After the session and the user: ?lang= and a staff user's saved language.
    "tdsystem.core.languages.LanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # After HtmxMiddleware: a change that met a lock held too long answers "busy, try again".
    "tdsystem.core.middleware.BusyMiddleware",
    # After the user and htmx: every write in one transaction, answered once per key.
    "tdsystem.core.writes.WriteMiddleware",
    # Last, as django-axes asks: it turns a refused login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Request bodies read into memory: Django's 2.5 MB, said here. The largest realistic
# body is a structure import or a list of players (tens of KB at most); anything larger
# answers 413 (core.middleware.BadInputMiddleware).
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

ROOT_URLCONF = os.environ.get("ROOT_URLCONF", "tdsystem.urls")
WSGI_APPLICATION = "tdsystem.wsgi.application"
ASGI_APPLICATION = "tdsystem.asgi.application"

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
            ],
        },
    }
]

# Databases ------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'tdsystem.sqlite3'}")
try:
    _db = dj_database_url.parse(DATABASE_URL)
except (ValueError, KeyError) as exc:
    raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {exc}") from None
if _db["ENGINE"] == "django.db.backends.sqlite3":
    # Django's backend, its dates and times read within the system's range (tdsystem/core/
    # sqlite3; the PostgreSQL one below does the same).
    _db["ENGINE"] = "tdsystem.core.sqlite3"
    # Writes from the web server, the worker and beat serialise instead of failing with
    # "database is locked": take the write lock at BEGIN and wait for it.
    # A commit outlives a kill of every process with either synchronous mode; FULL waits
    # for the disk at each commit so it outlives a power cut too (docs/operations.md).
    _synchronous = os.environ.get("SQLITE_SYNCHRONOUS", "FULL" if EMBEDDED else "NORMAL")
    if _synchronous.upper() not in ("NORMAL", "FULL"):
        raise ImproperlyConfigured(f"SQLITE_SYNCHRONOUS={_synchronous!r}: expected FULL or NORMAL")
    _db["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": f"PRAGMA journal_mode=WAL; PRAGMA synchronous={_synchronous.upper()}; "
        "PRAGMA busy_timeout=20000;",
    }
    # A file (not memory) so a real Celery worker in the tests can share it; one per
    # process so two test runs on one machine do not trample each other.
    # Opening SQLite and running the PRAGMAs on every request costs more than the request.
    _db["CONN_MAX_AGE"] = envint("SQLITE_CONN_MAX_AGE", "60")
    _db["CONN_HEALTH_CHECKS"] = True
    _db["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}
    if _db["NAME"] != ":memory:":
        VAR_DIR.mkdir(exist_ok=True)
elif _db["ENGINE"] == "django.db.backends.postgresql":
    _db["CONN_MAX_AGE"] = 0  # Django refuses pooling with persistent connections
    # The pool checks a connection before handing it out, so those a database restart
    # broke are replaced instead of failing the requests that would have drawn them; the
    # backend is Django's with a check that asks the server only when the connection has
    # something to read (tdsystem/core/postgresql).
    _db["ENGINE"] = "tdsystem.core.postgresql"
    _db["CONN_HEALTH_CHECKS"] = True
    # A server that does not answer (unreachable, or stopped behind a network that drops
    # the packets) fails a connection after DB_CONNECT_TIMEOUT seconds (2 at least, as
    # libpq counts), and a query whose packets go unacknowledged as long, instead of the
    # system's TCP timeouts (minutes): the screens give up on an answer after 4 s.
    _connect_timeout = envint("DB_CONNECT_TIMEOUT", "2")
    _db["OPTIONS"] = {
        "connect_timeout": _connect_timeout,
        "tcp_user_timeout": _connect_timeout * 1000,
        "pool": {
            "min_size": envint("DB_POOL_MIN", "2"),
            "max_size": envint("DB_POOL_MAX", "20"),
            # How long a request waits for a connection while the server answers; while
            # it is down a request fails at once (tdsystem/core/postgresql/gate.py).
            "timeout": envint("DB_POOL_TIMEOUT", "10"),
            # The pool's own attempts to replace connections give up after 2 s, and the
            # requests' probes (one a second) ask for new ones: after an outage the pool
            # connects within a second of the server's return, not after a back-off
            # grown while it was down (up to minutes with psycopg_pool's 300 s).
            "reconnect_timeout": 2,
        },
    }
    # Through pgbouncer in transaction mode (docs/deployment.md, "The connection budget"):
    # each transaction may run on another server connection, so nothing may outlive one.
    # No server-side cursors (Django's .iterator() would open one), no prepared statements
    # (psycopg prepares a query run five times on one connection). The locks are
    # transaction-level already (core/locking.py), and so is their lock_timeout.
    if envbool("DB_TRANSACTION_POOLER", "0"):
        _db["DISABLE_SERVER_SIDE_CURSORS"] = True
        _db["OPTIONS"]["prepare_threshold"] = None
else:
    raise ImproperlyConfigured(f"DATABASE_URL: unsupported database {_db['ENGINE']}")
DATABASES = {"default": _db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Celery -------------------------------------------------------------------
CELERY_BROKER_URL = os.environ.get(
    "CELERY_BROKER_URL", f"sqla+sqlite:///{VAR_DIR / 'broker.sqlite3'}"
)
if CELERY_BROKER_URL.split("://", 1)[0] not in ("sqla+sqlite", "redis", "rediss", "amqp", "pyamqp"):
    raise ImproperlyConfigured(
        f"CELERY_BROKER_URL={CELERY_BROKER_URL!r}: expected redis://, amqp:// or sqla+sqlite://"
    )
# A parallel test run (pytest -n N) gives each of its processes a broker of its own, so the
# worker one test starts never takes the tasks of a test in another process. The workers a
# test starts are told their broker outright, and PYTEST_XDIST_WORKER="" (tests/worker.py).
# On Redis every other database: the one after a broker's is its process's cache (below),
# which the tests empty, and must never be another process's queue.
_TEST_PROCESS = os.environ.get("PYTEST_XDIST_WORKER", "").removeprefix("gw")
if _TEST_PROCESS.isdigit():
    if CELERY_BROKER_URL.startswith("sqla+sqlite"):
        CELERY_BROKER_URL = f"sqla+sqlite:///{VAR_DIR / f'broker-{_TEST_PROCESS}.sqlite3'}"
    elif CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        _url = urlsplit(CELERY_BROKER_URL)
        _index = int(_url.path.strip("/") or 0) + 2 * int(_TEST_PROCESS)
        CELERY_BROKER_URL = _url._replace(path=f"/{_index % 16}").geturl()
    # Celery reads the environment's CELERY_BROKER_URL before any setting
    # (celery.app.utils.Settings.broker_url): it must name this process's broker too.
    os.environ["CELERY_BROKER_URL"] = CELERY_BROKER_URL
if CELERY_BROKER_URL.startswith("sqla+sqlite"):
    VAR_DIR.mkdir(exist_ok=True)
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # With Redis's ack emulation a worker holding a scheduled task dies when the broker
    # drops (kombu 5.7). The clock does not need redelivery of lost tasks (the beat tick
    # settles overdue levels), so turn it off; it also ends Redis's redelivery of tasks
    # scheduled past the visibility timeout.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"ack_emulation": False}
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
# Level changes are computed from stored timestamps; the clock ticker of every worker
# (tdsystem/events/ticker.py) settles overdue ones at least this often.
CLOCK_TICK_SECONDS = float(os.environ.get("CLOCK_TICK_SECONDS", "2"))
if not 0 < CLOCK_TICK_SECONDS <= 60:
    raise ImproperlyConfigured(f"CLOCK_TICK_SECONDS={CLOCK_TICK_SECONDS}: expected 0 to 60")
# Whether the Celery workers run the clock ticker (0 only for a worker that must not).
CLOCK_TICKER = envbool("CLOCK_TICKER", "1")
# The installation's one time (tdsystem/core/servertime.py): "database" is the PostgreSQL
# server's clock, "process" each process's own (SQLite's is always: one machine).
CLOCK_TIME_SOURCE = os.environ.get("CLOCK_TIME_SOURCE", "database")
if CLOCK_TIME_SOURCE not in ("database", "process"):
    raise ImproperlyConfigured(
        f"CLOCK_TIME_SOURCE={CLOCK_TIME_SOURCE!r}: expected database or process"
    )
# A machine whose clock is further than this from the database server's says so on
# /healthz and the console (docs/operations.md, time synchronisation).
TIME_SKEW_LIMIT_SECONDS = float(os.environ.get("TIME_SKEW_LIMIT_SECONDS", "1"))
# Exact transition tasks are sent only this close to a level's end (see platform notes on
# long-scheduled tasks being redelivered or lost).
CLOCK_SCHEDULE_AHEAD_SECONDS = envint("CLOCK_SCHEDULE_AHEAD_SECONDS", "60")
# How long a change waits for another change of the same event (tdsystem.core.locking)
# before it answers "busy, try again" instead of waiting on.
LOCK_TIMEOUT_SECONDS = envint("LOCK_TIMEOUT_SECONDS", "3")
WORKER_HEARTBEAT_SECONDS = envint("WORKER_HEARTBEAT_SECONDS", "10")
# How old the field figures, the seat list and move slips on the clock JSON may be when no
# change to the event was committed meanwhile (a change makes the next poll read them
# afresh: core/screencache.py); the clock itself is always read fresh.
SCREEN_CACHE_SECONDS = float(os.environ.get("SCREEN_CACHE_SECONDS", "1"))
# Players' pages pushed (tdsystem/players/push.py, docs/players.md): the push process's port
# on the page's own host (runsystem starts it on the web port plus one and sets this), or
# PUSH_SAME_ORIGIN when a proxy routes /api/me/<token>/stream to it (docs/deployment.md).
# Neither: the pages poll the web server.
PUSH_PORT = envint("PUSH_PORT", "0") or None
PUSH_SAME_ORIGIN = envbool("PUSH_SAME_ORIGIN", "0")
# How often the push process reads the counts of changes of the events with open pages;
# how often it reads them all whatever the counts say (a change that takes no lock); how
# often at most it sends every page the field's figures (players left, average stack,
# payouts; a new level goes at once); how long a stream may stay silent.
PUSH_CHECK_SECONDS = float(os.environ.get("PUSH_CHECK_SECONDS", "0.25"))
PUSH_REFRESH_SECONDS = float(os.environ.get("PUSH_REFRESH_SECONDS", "5"))
PUSH_CLOCK_SECONDS = float(os.environ.get("PUSH_CLOCK_SECONDS", "5"))
PUSH_KEEPALIVE_SECONDS = float(os.environ.get("PUSH_KEEPALIVE_SECONDS", "15"))
# Open pages one push process keeps; past it a page polls the web server.
PUSH_MAX_PAGES = envint("PUSH_MAX_PAGES", "15000")
# The clock's tick and the workers' heartbeat are not beat's: every worker's clock ticker
# sends them (tdsystem/events/ticker.py), so the clock never waits on beat.
CELERY_BEAT_SCHEDULE = {
    "broker-cleanup": {"task": "tdsystem.core.tasks.broker_cleanup", "schedule": 600.0},
    "idempotency-keys": {"task": "tdsystem.core.tasks.idempotency_keys_expire", "schedule": 3600.0},
    # The dealers' pushes a worker missed (each is also sent for its own time).
    "dealers-tick": {
        "task": "tdsystem.dealers.tasks.rotations_tick",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
    # The webhook deliveries never sent (no broker when they were made; docs/webhooks.md).
    "webhooks-sweep": {
        "task": "tdsystem.players.tasks_webhooks.webhooks_sweep",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
    # The alternates' holds whose own task was lost (each is also sent for its time).
    "alternates-sweep": {
        "task": "tdsystem.players.tasks.alternates_sweep",
        "schedule": 30.0,
        "options": {"expires": 30.0},
    },
}

# Receipt printers (docs/printing.md): a document that cannot be sent waits and is tried
# again after each of PRINT_RETRY_SECONDS in turn, then every last one of them, as long as
# it takes; beat looks for waiting documents every PRINT_SWEEP_SECONDS (a retry lost with
# its worker). A printer must accept a connection within PRINT_TIMEOUT_SECONDS, and one
# that answers a status request within PRINT_STATUS_SECONDS can say it is out of paper
# (0: no status request).
PRINT_RETRY_SECONDS = [float(s) for s in envlist("PRINT_RETRY_SECONDS", "5,15,30,60")]
if not PRINT_RETRY_SECONDS or min(PRINT_RETRY_SECONDS) <= 0:
    raise ImproperlyConfigured("PRINT_RETRY_SECONDS: expected seconds above 0, e.g. 5,15,30,60")
PRINT_SWEEP_SECONDS = envint("PRINT_SWEEP_SECONDS", "60")
PRINT_TIMEOUT_SECONDS = float(os.environ.get("PRINT_TIMEOUT_SECONDS", "5"))
PRINT_STATUS_SECONDS = float(os.environ.get("PRINT_STATUS_SECONDS", "1"))
if PRINT_SWEEP_SECONDS > 0:
    CELERY_BEAT_SCHEDULE["print-sweep"] = {
        "task": "tdsystem.printing.tasks.printers_sweep",
        "schedule": float(PRINT_SWEEP_SECONDS),
        "options": {"expires": float(PRINT_SWEEP_SECONDS)},
    }

# Webhooks (docs/webhooks.md): a delivery not answered 2xx is tried again after
# WEBHOOK_RETRY_SECONDS, doubling each time, 8 tries in all (about an hour at 30).
WEBHOOK_RETRY_SECONDS = float(os.environ.get("WEBHOOK_RETRY_SECONDS", "30"))
if not 0 < WEBHOOK_RETRY_SECONDS <= 3600:
    raise ImproperlyConfigured("WEBHOOK_RETRY_SECONDS: expected seconds above 0, e.g. 30")

# Backups of the whole database (docs/operations.md#backups): `manage.py backup` writes one
# into BACKUP_DIR; beat takes one every BACKUP_EVERY_MINUTES when something changed (the
# embedded run every 5 minutes; 0 turns it off) and keeps the newest BACKUP_KEEP there (0:
# keeps them all).
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR") or VAR_DIR / "backups").resolve()
BACKUP_EVERY_MINUTES = envint("BACKUP_EVERY_MINUTES", "5" if EMBEDDED else "0")
BACKUP_KEEP = envint("BACKUP_KEEP", "24")
for _name in ("BACKUP_EVERY_MINUTES", "BACKUP_KEEP"):
    if globals()[_name] < 0:
        raise ImproperlyConfigured(f"{_name}={globals()[_name]}: expected 0 or more")
if BACKUP_EVERY_MINUTES:
    CELERY_BEAT_SCHEDULE["backup"] = {
        "task": "tdsystem.core.tasks.backup",
        "schedule": BACKUP_EVERY_MINUTES * 60.0,
        # A copy sent while no worker ran is dropped: the next one takes it all.
        "options": {"expires": BACKUP_EVERY_MINUTES * 60.0},
    }

# Static files, auth, security -------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where collectstatic writes (and nginx reads, docs/deployment.md): VAR_DIR/staticfiles.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or VAR_DIR / "staticfiles").resolve()
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns when it is missing
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "tdsystem.core.staticstorage.ManifestStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "console:home"
LOGOUT_REDIRECT_URL = "login"
SESSION_COOKIE_HTTPONLY = True
# django-axes first: it refuses a locked-out name before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Failed logins are counted per user name and device together (behind the venue's router
# every device has one address; by name alone anyone could lock the director out).
# The device's address is REMOTE_ADDR, or with TRUSTED_PROXY_COUNT reverse proxies in
# front, the one the outermost proxy put in X-Forwarded-For (core/auth_views.client_ip).
# A browser that logged in as a name before carries a signed device cookie: its attempts
# for that name are counted on their own, so nobody who shares its address can lock it
# out (core/devices.py).
TRUSTED_PROXY_COUNT = envint("TRUSTED_PROXY_COUNT", "0")
AXES_CLIENT_IP_CALLABLE = "tdsystem.core.auth_views.client_ip"
AXES_USERNAME_CALLABLE = "tdsystem.core.devices.attempt_name"
AXES_LOCKOUT_PARAMETERS = "tdsystem.core.devices.lockout_parameters"
AXES_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", "5")
AXES_COOLOFF_TIME = timedelta(minutes=envint("LOGIN_COOLOFF_MINUTES", "15"))
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "tdsystem.core.auth_views.lockout"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
# Content-Security-Policy on every response (django-csp). Scripts come from static/ or
# carry the request's nonce (nonce="{{ request.csp_nonce }}"); nothing is fetched from
# another host (the players' page allows its stream on the push process's port). Styles
# allow 'unsafe-inline': the templates use style="..." attributes and <style> blocks, and
# htmx adds its indicator <style>. No 'unsafe-eval': htmx needs it
# only for hx-on, js: values and trigger filters, which the templates do not use.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, "'unsafe-inline'"],
        # The favicon is a data: SVG; QR codes are inline SVG.
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "object-src": [NONE],
    },
}
# Behind TRUSTED_PROXY_COUNT reverse proxies the outermost one ends TLS: trust its
# X-Forwarded-Proto (it must set it, overwriting the client's). Without a proxy the header
# is the client's own word and is ignored.
if TRUSTED_PROXY_COUNT > 0:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# HSTS (sent by SecurityMiddleware on HTTPS requests only): a year when PUBLIC_URL is
# https://, or SECURE_HSTS_SECONDS. Never on the embedded run's plain HTTP: a browser
# that once saw it would refuse the venue laptop's http:// address for that long.
if EMBEDDED and _public.scheme != "https":
    SECURE_HSTS_SECONDS = 0
else:
    SECURE_HSTS_SECONDS = envint(
        "SECURE_HSTS_SECONDS", "31536000" if _public.scheme == "https" else "0"
    )
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", "0")
if not DEBUG:
    # The embedded run serves plain HTTP on the venue network, where secure cookies would
    # make logging in impossible; behind an HTTPS PUBLIC_URL they are on again.
    _secure_default = "1" if not EMBEDDED or _public.scheme == "https" else "0"
    SESSION_COOKIE_SECURE = envbool("SECURE_COOKIES", _secure_default)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

# The screens' cache (tdsystem/core/screencache.py) and Django's: CACHE_URL, a redis:// or
# rediss:// URL (every web process and machine then shares one answer per event and
# language) or locmem:// (each process its own: the embedded run's one web process). By
# default the broker's Redis, in the database after the broker's (a cache's clear() empties
# its whole database), else locmem.
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    _broker = urlsplit(CELERY_BROKER_URL)
    _cache_db = (int(_broker.path.strip("/") or 0) + 1) % 16
    _cache_default = _broker._replace(path=f"/{_cache_db}").geturl()
else:
    _cache_default = "locmem://"
CACHE_URL = os.environ.get("CACHE_URL") or _cache_default


def caches_for(url: str) -> dict:
    """Django's CACHES for a CACHE_URL: redis://, rediss:// or locmem://."""
    if url.startswith(("redis://", "rediss://")):
        return {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": url,
                # A Redis that does not answer fails the ask within this, and the screens
                # are answered from the database meanwhile (core/screencache.py), not left
                # waiting.
                "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
            }
        }
    if url == "locmem://":
        return {
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                # Each event's entries per language, and its version: well past Django's 300.
                "OPTIONS": {"MAX_ENTRIES": 20_000},
            }
        }
    raise ImproperlyConfigured(f"CACHE_URL={url!r}: expected redis://, rediss:// or locmem://")


CACHES = caches_for(CACHE_URL)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
