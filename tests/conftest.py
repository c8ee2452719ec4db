"""Suite-wide rules: PostgreSQL-only and browser tests skip visibly, or fail when required."""

from __future__ import annotations

import os
import shutil

import pytest
from hypothesis import HealthCheck, settings

CHROMIUM = "/usr/bin/chromium"

# Property tests check behaviour; speed belongs to the benchmarks. On a loaded machine one
# example can take far longer than hypothesis's default 200 ms deadline, which would fail
# a correct test, so the suite runs with no deadline and no "too slow" health check.
settings.register_profile(
    "suite", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("suite")


def _is_postgres() -> bool:
    from django.conf import settings

    return settings.DATABASES["default"]["ENGINE"] == "tdsystem.core.postgresql"


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    # The clock's time is the PostgreSQL server's in production (tdsystem/core/servertime.py),
    # which the tests' frozen and travelled time cannot move: the suite (and the processes
    # it starts) reads each process's own clock, as SQLite does. The tests of the one time
    # (tests/faults/test_clock_skew.py, tests/core/test_servertime.py) ask for the server's.
    os.environ.setdefault("CLOCK_TIME_SOURCE", "process")
    # The processes the tests start keep the screens' cache in their own memory (this
    # process too: `_own_cache`); the tests of the shared cache start their servers with
    # CACHE_URL of their own.
    os.environ["CACHE_URL"] = "locmem://"


@pytest.fixture(autouse=True, scope="session")
def _quick_passwords():
    """Django's advice for a test suite: a quick password hasher. The production one
    (PBKDF2, a million rounds: some 0.4 s of CPU a password) made every account a test
    creates and every login cost that much, half the time of the views' tests. PBKDF2
    stays in the list, so its hashes still verify."""
    from django.conf import settings

    if not settings.configured:  # the engine's tests run without Django (-p no:django)
        yield
        return
    from django.test.utils import override_settings

    hashers = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]
    with override_settings(PASSWORD_HASHERS=hashers):
        yield


@pytest.fixture(autouse=True, scope="session")
def _own_cache():
    """Each test process keeps the screens' cache in its own memory, whatever the broker: a
    Redis shared by parallel test processes would mix their events of the same id, and a
    test emptying it (`screencache.clear`) would empty another's. Django's settings are
    read before this file, so the environment alone (pytest_configure) comes too late for
    this process: the setting is overridden from it, which makes Django's caches anew."""
    from django.conf import settings

    if not settings.configured:  # the engine's tests run without Django (-p no:django)
        yield
        return
    from django.test.utils import override_settings

    from tdsystem.settings import caches_for

    with override_settings(CACHES=caches_for(os.environ["CACHE_URL"])):
        yield


# Rows the flush keeps: the same would be made again by the migrations' signal after it.
FLUSH_KEEPS = frozenset({"django_content_type", "auth_permission"})


@pytest.fixture(autouse=True, scope="session")
def _quick_flush():
    """After each transactional test (the browser's, the workers', the races') the database
    is emptied with Django's flush: on PostgreSQL one TRUNCATE of every table, which makes
    each table's files anew, some 0.2 s for the project's seventy tables whatever they
    hold (0.45 s a test with the migrations' signal after it). A test leaves a few rows,
    which DELETE removes in milliseconds. The triggers are off for the flush's transaction
    (`session_replication_role`, for a superuser, as the suite's is in CI): the foreign
    keys' and the counters' triggers would only work on rows about to go, and the order
    of the tables does not matter. A role that may not set it gets Django's TRUNCATE."""
    from django.conf import settings

    if not settings.configured or not _is_postgres():
        yield
        return
    from django.db import connection

    ops = type(connection.ops)
    truncate = ops.sql_flush
    superuser: dict[str, bool] = {}

    def may_disable_triggers(conn) -> bool:
        name = conn.settings_dict["NAME"]
        if name not in superuser:
            with conn.cursor() as cursor:
                cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
                superuser[name] = bool(cursor.fetchone()[0])
        return superuser[name]

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade or not may_disable_triggers(self.connection):
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        deletes = [f"DELETE FROM {self.quote_name(t)}" for t in tables if t not in FLUSH_KEEPS]
        return ["SET LOCAL session_replication_role = replica", *deletes]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ops, "sql_flush", sql_flush)
        yield


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A request in another language (?lang=ja) leaves that language active in the thread:
    the next test starts in English again, as a new request would."""
    yield
    from django.conf import settings

    if settings.configured:  # the engine's tests run without Django (-p no:django)
        from django.utils import translation

        translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_screens():
    """Tests read what they just wrote: no short-lived screen cache, and nothing left in
    it by an earlier test (a test that turns it on would otherwise read the figures of an
    earlier test's event of the same id)."""
    from django.conf import settings

    if settings.configured:
        settings.SCREEN_CACHE_SECONDS = 0
        settings.CLOCK_TIME_SOURCE = os.environ["CLOCK_TIME_SOURCE"]
        from tdsystem.core import screencache

        screencache.clear()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    needs_pg = [item for item in items if item.get_closest_marker("postgres")]
    if needs_pg and not _is_postgres():
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            raise pytest.UsageError(
                "REQUIRE_POSTGRES=1 but DATABASE_URL is not PostgreSQL: "
                f"{len(needs_pg)} PostgreSQL-only tests would not run"
            )
        skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL=postgres://...)")
        for item in needs_pg:
            item.add_marker(skip)
    browser = [item for item in items if item.get_closest_marker("browser")]
    if browser and not shutil.which(CHROMIUM):
        if os.environ.get("REQUIRE_BROWSER") == "1":
            raise pytest.UsageError(f"REQUIRE_BROWSER=1 but {CHROMIUM} is missing")
        skip = pytest.mark.skip(reason=f"needs Debian's chromium at {CHROMIUM}")
        for item in browser:
            item.add_marker(skip)


pytest_plugins = ["tests.fixtures"]
