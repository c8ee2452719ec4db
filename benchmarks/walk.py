"""The files a bust-out passes through: from the console's post to the database and back.

Run from the project root: python benchmarks/walk.py [--list]

On a fresh SQLite database of its own (var/walk.sqlite3), an event of 40 players at five
tables with its clock running; then one player out through the bust-out console (an HTMX
post, as the page sends it) and, apart, one through the service alone. Every call into a
module of `tdsystem/` is followed (`sys.setprofile`): the figures are the project's files
entered, the stops (a call that enters another project file than the one the caller is in)
and the returns to a file already left. `--list` prints the files in the order first met.
The same script runs on any revision, so a change to the path is counted before and after.
"""

from __future__ import annotations

import os
import sys
from decimal import Decimal

from _setup import ROOT, bench_env, django_setup

PROJECT = str(ROOT / "tdsystem") + os.sep


class Walk:
    """The project's files a stretch of code calls into, in order."""

    def __init__(self) -> None:
        self.stops: list[str] = []

    def __enter__(self) -> Walk:
        sys.setprofile(self._call)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.setprofile(None)

    def _call(self, frame, event: str, arg) -> None:
        if event != "call":
            return
        path = frame.f_code.co_filename
        if not path.startswith(PROJECT):
            return
        caller = frame.f_back
        while caller is not None and not caller.f_code.co_filename.startswith(PROJECT):
            caller = caller.f_back
        here = path[len(PROJECT) :]
        entered = caller is None or caller.f_code.co_filename != path
        if entered and (not self.stops or self.stops[-1] != here):
            self.stops.append(here)

    def figures(self) -> tuple[int, int, int]:
        files = set(self.stops)
        seen: set[str] = set()
        returns = 0
        for i, name in enumerate(self.stops):
            if name in seen and (i == 0 or self.stops[i - 1] != name):
                returns += 1
            seen.add(name)
        return len(files), len(self.stops), returns

    def files(self) -> list[str]:
        return list(dict.fromkeys(self.stops))


def setup():
    from django.contrib.auth import get_user_model

    from tdsystem.core.actors import Actor
    from tdsystem.events.services import clock_action, event_create
    from tdsystem.seating import services as seating
    from tdsystem.structures.services import structure_create

    actor = Actor(label="walk")
    levels = [
        {"small_blind": sb, "big_blind": 2 * sb, "ante": 0, "duration_seconds": 1200}
        for sb in (50, 100, 200)
    ]
    template, _ = structure_create(
        name="Walk structure", levels=levels, is_template=False, confirm_warnings=True
    )
    event = event_create(
        name="Walk", template=template, actor=actor, buy_in=Decimal(100), seats_per_table=9
    )
    seating.tables_setup(event=event, numbers=[1, 2, 3, 4, 5], seats=9, actor=actor)
    seating.players_import(
        event_id=event.pk, names=[f"Player {i:02d}" for i in range(1, 41)], actor=actor
    )
    seating.seats_draw(event=event, actor=actor, seed=1)
    clock_action(event_id=event.pk, action="start", actor=actor)
    user = get_user_model().objects.create_superuser("walk", "walk@example.com", "walk-pw-1")
    return event, user, actor


def main(argv: list[str]) -> int:
    env = bench_env("walk")
    django_setup(env)
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from tdsystem.results import services
    from tdsystem.seating.models import Entry

    call_command("migrate", verbosity=0)
    setup_test_environment()
    event, user, actor = setup()
    seated = list(
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE)
        .select_related("table")
        .order_by("table__number", "seat")
    )
    client = Client()
    client.force_login(user)
    out = seated[0]
    url = reverse("results:bustout", args=[event.pk])
    data = {"table": out.table.number, "entry": [out.pk]}
    client.post(url, data, HTTP_HX_REQUEST="true")  # the first request loads the modules
    out = seated[1]
    data = {"table": out.table.number, "entry": [out.pk]}
    with Walk() as request:
        answer = client.post(url, data, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200, answer.status_code
    assert Entry.objects.get(pk=out.pk).status == Entry.Status.BUSTED
    out = seated[2]
    with Walk() as service:
        services.bustout_record(event_id=event.pk, entry_ids=[out.pk], actor=actor)
    for name, walk in (("the console's post", request), ("the service alone", service)):
        files, stops, returns = walk.figures()
        print(f"{name}: {files} files, {stops} stops, {returns} returns to a file already left")
        if "--list" in argv:
            print("  " + "\n  ".join(walk.files()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
