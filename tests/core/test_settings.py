"""Settings fail loudly on bad values instead of starting with a surprise."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from tdsystem import settings as s


def test_it_reads_booleans(monkeypatch):
    monkeypatch.setenv("X_FLAG", "yes")
    assert s.envbool("X_FLAG", "0") is True
    monkeypatch.setenv("X_FLAG", "off")
    assert s.envbool("X_FLAG", "1") is False


def test_it_rejects_a_bad_boolean(monkeypatch):
    monkeypatch.setenv("X_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="X_FLAG"):
        s.envbool("X_FLAG", "0")


def test_it_rejects_a_bad_integer(monkeypatch):
    monkeypatch.setenv("X_NUM", "ten")
    with pytest.raises(ImproperlyConfigured, match="X_NUM='ten'"):
        s.envint("X_NUM", "1")


def _load_settings(**env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "import tdsystem.settings"],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "0", "SECRET_KEY": ""}, "SECRET_KEY must be set"),
        ({"DATABASE_URL": "mysql://x@y/z"}, "unsupported database"),
        ({"CELERY_BROKER_URL": "filesystem://"}, "CELERY_BROKER_URL"),
        ({"TIME_ZONE": "Mars/Olympus"}, "TIME_ZONE"),
        ({"DEBUG": "perhaps"}, "DEBUG"),
        ({"PUBLIC_URL": "poker.venue.example"}, "PUBLIC_URL"),
        ({"SECURE_HSTS_SECONDS": "a year"}, "SECURE_HSTS_SECONDS"),
        ({"DATABASE_URL": "sqlite:///x.sqlite3", "SQLITE_SYNCHRONOUS": "OFF"}, "SQLITE_SYNC"),
    ],
)
def test_it_refuses_to_start_on_a_bad_value(env, message):
    result = _load_settings(**env)
    assert result.returncode != 0
    assert message in result.stderr


def test_sqlite_serialises_writes():
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        assert db["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
        assert "journal_mode=WAL" in db["OPTIONS"]["init_command"]
    else:
        assert "pool" in db["OPTIONS"] and db["CONN_MAX_AGE"] == 0


def _embedded(tmp_path, code: str, **env: str) -> subprocess.CompletedProcess:
    """Settings as the embedded run (make run) reads them, with a var dir of its own."""
    base = {
        k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS")
    }
    base |= {"TDSYSTEM_EMBEDDED": "1", "VAR_DIR": str(tmp_path), "WEB_BIND": "0.0.0.0:8123"}
    script = f"from tdsystem import settings as s\n{code}"
    return subprocess.run(
        [sys.executable, "-c", script], env=base | env, capture_output=True, text=True, timeout=60
    )


def test_the_embedded_run_has_debug_off_and_keeps_one_secret_key(tmp_path):
    first = _embedded(tmp_path, "print(s.DEBUG, s.SECRET_KEY)")
    assert first.returncode == 0, first.stderr
    debug, key = first.stdout.split()
    assert debug == "False" and len(key) >= 50
    key_file = tmp_path / "secret-key"
    assert key_file.stat().st_mode & 0o777 == 0o600
    again = _embedded(tmp_path, "print(s.SECRET_KEY)")
    assert again.stdout.strip() == key  # made once and kept: sessions survive a restart


SYNCHRONOUS = """
from django.db import connection
import django
django.setup()
with connection.cursor() as cursor:
    print(cursor.execute("PRAGMA synchronous").fetchone()[0])
"""


@pytest.mark.parametrize(
    ("embedded", "asked", "mode"),
    [("1", None, "2"), ("0", None, "1"), ("1", "normal", "1"), ("0", "FULL", "2")],
)
def test_the_embedded_runs_sqlite_commits_wait_for_the_disk(tmp_path, embedded, asked, mode):
    """FULL (2) in the embedded run: an acknowledged write outlives a power cut; NORMAL (1)
    elsewhere, or as SQLITE_SYNCHRONOUS says."""
    env = {"TDSYSTEM_EMBEDDED": embedded, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    env |= {"DJANGO_SETTINGS_MODULE": "tdsystem.settings", "SECRET_KEY": "x" * 50}
    if asked:
        env["SQLITE_SYNCHRONOUS"] = asked
    result = _embedded(tmp_path, SYNCHRONOUS, **env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == mode


def test_the_embedded_run_turns_debug_on_when_asked(tmp_path):
    result = _embedded(tmp_path, "print(s.DEBUG)", DEBUG="1")
    assert result.stdout.strip() == "True"


def test_the_embedded_run_serves_its_own_addresses_and_names_only(tmp_path):
    code = (
        "from tdsystem.core import network\n"
        "from django.http.request import validate_host\n"
        "lan = network.lan_address()\n"
        "print(type(s.ALLOWED_HOSTS).__name__, s.SESSION_COOKIE_SECURE)\n"
        "print(validate_host(network.socket.gethostname().lower(), s.ALLOWED_HOSTS))\n"
        "print(lan is None or validate_host(network.host_pattern(lan), s.ALLOWED_HOSTS))\n"
        "print(validate_host('evil.example', s.ALLOWED_HOSTS))\n"
    )
    result = _embedded(tmp_path, code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["OwnHosts", "False", "True", "True", "False"]


def test_explicit_allowed_hosts_win_over_the_machines_own(tmp_path):
    result = _embedded(tmp_path, "print(s.ALLOWED_HOSTS)", ALLOWED_HOSTS="td.example.com")
    assert result.stdout.strip() == "['td.example.com']"


def test_public_url_joins_allowed_hosts_and_trusted_origins(tmp_path):
    code = "print(s.PUBLIC_URL, 'poker.venue.example' in s.ALLOWED_HOSTS, s.CSRF_TRUSTED_ORIGINS)"
    result = _embedded(tmp_path, code, PUBLIC_URL="https://poker.venue.example/")
    assert result.stdout.split() == [
        "https://poker.venue.example",
        "True",
        "['https://poker.venue.example']",
    ]


def test_production_settings_stay_explicit():
    script = "from tdsystem import settings as s; print(s.ALLOWED_HOSTS, s.SESSION_COOKIE_SECURE)"
    out = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "DEBUG": "0", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "td.example.com"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['td.example.com'] True"


def _production(code: str, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("TDSYSTEM_EMBEDDED", "PUBLIC_URL")}
    base |= {"DEBUG": "0", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "td.example.com"}
    script = f"from tdsystem import settings as s\n{code}"
    return subprocess.run(
        [sys.executable, "-c", script], env=base | env, capture_output=True, text=True, timeout=60
    )


HSTS = "print(s.SECURE_HSTS_SECONDS, getattr(s, 'SECURE_PROXY_SSL_HEADER', None))"


def test_the_embedded_run_on_plain_http_never_sends_hsts(tmp_path):
    result = _embedded(tmp_path, HSTS, SECURE_HSTS_SECONDS="600", TRUSTED_PROXY_COUNT="0")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "0 None"


def test_an_https_public_url_turns_hsts_on_for_a_year(tmp_path):
    embedded = _embedded(tmp_path, HSTS, PUBLIC_URL="https://poker.venue.example/")
    assert embedded.stdout.strip() == "31536000 None", embedded.stderr
    production = _production(HSTS, PUBLIC_URL="https://td.example.com")
    assert production.stdout.strip() == "31536000 None", production.stderr
    shorter = _production(HSTS, PUBLIC_URL="https://td.example.com", SECURE_HSTS_SECONDS="600")
    assert shorter.stdout.strip() == "600 None", shorter.stderr


def test_production_sends_hsts_only_when_asked_or_public_over_https():
    assert _production(HSTS).stdout.strip() == "0 None"
    assert _production(HSTS, SECURE_HSTS_SECONDS="86400").stdout.strip() == "86400 None"


def test_it_trusts_x_forwarded_proto_only_with_a_proxy_in_front():
    result = _production(HSTS, PUBLIC_URL="https://td.example.com", TRUSTED_PROXY_COUNT="1")
    assert result.stdout.strip() == "31536000 ('HTTP_X_FORWARDED_PROTO', 'https')", result.stderr


def test_no_test_process_empties_another_ones_broker():
    """A parallel run's processes each have a broker and a cache on Redis; a test empties its
    own cache (`cache.clear()`), which must never be another process's broker (its queued
    tasks would be lost)."""
    code = (
        "import tdsystem.settings as s; "
        "print(s.CELERY_BROKER_URL.rsplit('/', 1)[1], s.CACHE_URL.rsplit('/', 1)[1])"
    )
    brokers, caches = set(), set()
    for process in range(4):
        result = subprocess.run(
            [sys.executable, "-c", code],
            env={
                **os.environ,
                "PYTEST_XDIST_WORKER": f"gw{process}",
                "CELERY_BROKER_URL": "redis://127.0.0.1:6379/7",
                "CACHE_URL": "",
            },
            capture_output=True,
            text=True,
            timeout=60,
        )
        broker, cache = result.stdout.split()
        brokers.add(broker)
        caches.add(cache)
    assert len(brokers) == 4 and len(caches) == 4
    assert not brokers & caches


def test_a_test_process_sends_its_tasks_to_its_own_broker():
    """Celery reads the environment's CELERY_BROKER_URL before the settings: a parallel
    run's second process sent its tasks to the first one's broker, while the workers its
    tests started listened on its own."""
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'tdsystem.settings'; "
        "django.setup(); from django.conf import settings; from tdsystem.celery import app; "
        "print(settings.CELERY_BROKER_URL, app.conf.broker_url)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={
            **os.environ,
            "PYTEST_XDIST_WORKER": "gw1",
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/7",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    setting, celery = result.stdout.split()[-2:]
    assert setting == celery == "redis://127.0.0.1:6379/9"


def test_only_the_worker_loads_the_sqlite_brokers_transport(tmp_path):
    """Every process of the embedded run starts without SQLAlchemy (a third of a second of
    imports); the worker, which polls the SQLite broker, polls it five times a second."""
    code = (
        "import django, os, sys; os.environ['DJANGO_SETTINGS_MODULE'] = 'tdsystem.settings'; "
        "django.setup(); from tdsystem.celery import app; "
        "print(app.conf.broker_url.split(':')[0], 'sqlalchemy' in sys.modules); "
        "from celery.signals import worker_init; worker_init.send(sender=None); "
        "from kombu.transport.sqlalchemy import Transport; print(Transport.polling_interval)"
    )
    env = {k: v for k, v in os.environ.items() if k != "CELERY_BROKER_URL"}
    result = subprocess.run(
        [sys.executable, "-c", code],
        env=env | {"PYTEST_XDIST_WORKER": "", "VAR_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.split()[-3:] == ["sqla+sqlite", "False", "0.2"], result.stderr
