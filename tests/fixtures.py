"""Shared fixtures: personas and a small event.

Django is imported inside the fixtures, so the engine's tests run without Django set up.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

# Tables a refused request may still write, which the "changes nothing" checks leave out:
# API tokens (each use stamps them), workers' heartbeats, and the count of changes an
# event's lock adds to (core.ScreenVersion: the screens' cache's bookkeeping).
BOOKKEEPING = frozenset({"core.apitoken", "core.heartbeat", "core.screenversion"})


@pytest.fixture
def director(db):
    from .personas import make_user

    return make_user("dora", "director")


@pytest.fixture
def floor_person(db):
    from .personas import make_user

    return make_user("fred", "floor")


@pytest.fixture
def table_device(db):
    from .personas import make_user

    return make_user("table7", "table")


@pytest.fixture
def director_token(director) -> str:
    from .personas import make_token

    return make_token(director)


@pytest.fixture
def floor_token(floor_person) -> str:
    from .personas import make_token

    return make_token(floor_person)


def short_levels(*durations: int | str) -> list[dict]:
    """Levels of the given durations (seconds), blinds doubling; "B<n>" makes a break."""
    rows, bb = [], 100
    for d in durations:
        if isinstance(d, str):
            rows.append({"kind": "break", "duration_seconds": int(d[1:]), "note": "Colour up"})
            continue
        rows.append(
            {"small_blind": bb // 2, "big_blind": bb, "ante": bb // 10, "duration_seconds": d}
        )
        bb *= 2
    return rows


def make_event(*durations: int | str, name: str = "Test event", staff: bool = True, **settings):
    """An event of these levels; every director and floor account there is is on its
    staff (tests/personas.py) unless `staff=False`."""
    from tdsystem.core.actors import Actor
    from tdsystem.events.services import event_create
    from tdsystem.structures.services import structure_create, template_named

    from .personas import staff_everyone

    # Template names are unique: a test's second event of the same name gets its own.
    template_name = f"{name} structure"
    suffix = 1
    while template_named(template_name):
        suffix += 1
        template_name = f"{name} structure ({suffix})"
    template, _ = structure_create(
        name=template_name, levels=short_levels(*durations), confirm_warnings=True
    )
    settings.setdefault("buy_in", Decimal("100"))
    event = event_create(name=name, template=template, actor=Actor(label="test"), **settings)
    if staff:
        staff_everyone(event)
    return event


@pytest.fixture
def event(db):
    return make_event(600, 600, "B300", 600, 600)


@pytest.fixture
def worker(tmp_path):
    """A real Celery worker with beat on the test database and the real broker, stopped
    after the test (tests that use it need django_db(transaction=True))."""
    from tests.worker import Worker

    w = Worker(tmp_path)
    w.purge()
    w.start()
    yield w
    w.stop()
