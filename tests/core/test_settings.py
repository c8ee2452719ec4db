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
