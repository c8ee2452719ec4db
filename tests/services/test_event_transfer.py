"""An event to one JSON file and back: everything of it comes back the same (players,
seats, bust-outs, places, prizes, levels, the clock, the log; a festival with its
flights); a file that is not right is refused, naming what is wrong, and changes
nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone

from tdsystem.core.actors import Actor
from tdsystem.core.locking import Busy
from tdsystem.core.models import LogEntry
from tdsystem.events.models import Clock, Event, HouseRuleSet
from tdsystem.events.services import clock_action
from tdsystem.results import services as results
from tdsystem.results.models import Bounty, ChipCount, Deal, Finish
from tdsystem.results.services import deals, standings
from tdsystem.seating import services as seating
from tdsystem.seating.models import Entry, EventTable, Player, Ticket
from tdsystem.seating.services.tickets import ticket_issue
from tdsystem.shotclock.models import Call, Extensions
from tdsystem.shotclock.services import shot_clock_expire, shot_clock_start
from tdsystem.simulation.festival import Festival
from tdsystem.simulation.seatings import ACTOR, arrange, count_problems
from tdsystem.structures.models import Level, Structure
from tdsystem.venue import transfer
from tests.fixtures import make_event
from tests.worker import ROOT

pytestmark = pytest.mark.django_db
D = Decimal


# The rows an import finds here rather than makes: in the order of what they are.
SAME = {
    "seating.player": ("name", "note", "member_id"),
    "seating.venuetable": ("number",),
    "events.houseruleset": ("name",),
}


def canonical(doc: dict) -> dict:
    """The file's rows without this installation's ids: each relation named by its
    target's place in the file, accounts by their user names; the import's own log line
    left out. Two files of the same event, written anywhere, read the same."""
    rows_of = {
        label: sorted(rows, key=lambda r: [str(r["fields"].get(k)) for k in SAME[label]])
        if label in SAME
        else rows
        for label, rows in doc["rows"].items()
    }
    index = {label: {row["pk"]: n for n, row in enumerate(rows)} for label, rows in rows_of.items()}
    out: dict[str, list] = {}
    for label, rows in rows_of.items():
        model = apps.get_model(label)
        relations = {
            f.name: f.related_model._meta.label_lower
            for f in model._meta.concrete_fields
            if f.is_relation
        }
        out[label] = []
        for row in rows:
            if label == "core.logentry" and row["fields"]["action"] == "event.import":
                continue
            fields = {}
            for name, value in row["fields"].items():
                target = relations.get(name)
                if target == "auth.user":
                    value = doc["users"].get(str(value)) if value is not None else None
                elif target and value is not None:
                    value = [target, index.get(target, {}).get(value, "not in the file")]
                fields[name] = value
            if model._meta.pk.is_relation:
                target = model._meta.pk.related_model._meta.label_lower
                fields["pk"] = [target, index[target][row["pk"]]]
            out[label].append(fields)
    return json.loads(json.dumps(out, cls=transfer._Encoder))


def every_count() -> dict[str, int]:
    return {
        m._meta.label_lower: m._default_manager.count()
        for m in apps.get_models()
        if m._meta.app_label in ("core", "structures", "events", "seating", "results", "auth")
    }


def wipe(event_id: int) -> None:
    """The event and its festival gone from here, as on a machine that never had them."""
    family = transfer.event_family(event_id)
    structures = list(Event.objects.filter(pk__in=family).values_list("structure_id", flat=True))
    Ticket.objects.filter(target__in=family).delete()
    Entry.objects.filter(event_id=family[0]).delete()  # Day 2's carry the flights' entries
    Event.objects.filter(pk__in=family[1:]).delete()
    Event.objects.filter(pk=family[0]).delete()
    Structure.objects.filter(pk__in=structures).delete()


def round_trip(event: Event) -> tuple[Event, transfer.Imported]:
    before = canonical(transfer.event_export(event_id=event.pk))
    data = transfer.event_export_json(event_id=event.pk)
    wipe(event.pk)
    done = transfer.event_import(data=data, actor=ACTOR, name="friday.json")
    assert canonical(transfer.event_export(event_id=done.event.pk)) == before
    return done.event, done


def pko_night() -> Event:
    """A running knockout night: a house set, member ids, a bust-out with its bounty, chip
    counts, a reserved seat, a ticket, a payout plan, the clock running."""
    house = HouseRuleSet.objects.create(
        name="Casino Lyon", base="tda-2024", overrides={"hfh_minutes_per_hand": 3}
    )
    event = make_event(
        600, 600, "B300", 600,
        name="Friday PKO", bounty_type="progressive", bounty_amount=D(50), house_rules=house,
        rule_overrides={"hfh_minutes_per_hand": 4}, late_registration_end_level=3,
    )  # fmt: skip
    people = arrange(event, {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5]})
    Player.objects.filter(name="T1S1").update(member_id="M-0001")
    Player.objects.filter(name="T2S3").update(member_id="M-0002", note="from Lyon")
    results.payout_plan_update(event_id=event.pk, table="top-3", actor=ACTOR)
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    results.bustout_record(
        event_id=event.pk,
        entry_ids=[people["T1S2"].pk],
        eliminated_by=[people["T1S1"].pk],
        actor=ACTOR,
        rng_seed=1,
    )
    results.chip_count_record(
        event_id=event.pk, entry_number=people["T1S1"].number, chips=25_000, actor=ACTOR
    )
    seating.entry_reserve(
        event_id=event.pk, entry_id=people["T2S1"].pk, seat=9, reason="wheelchair", actor=ACTOR
    )
    ticket_issue(
        event_id=event.pk, name="Qualifier Quinn", new_player=True, note="won Tuesday",
        actor=ACTOR,
    )  # fmt: skip
    seating.player_register(event=event, name="Late Larry", actor=ACTOR, rng_seed=2)
    # The floor called the clock on T2S2 and it ran out; T1S1 used an extension.
    called = timezone.now() - timedelta(minutes=1)
    shot_clock_start(
        event_id=event.pk, table_number=2, seat=2, street="river", facing="bet",
        floor=True, actor=ACTOR, now=called,
    )  # fmt: skip
    shot_clock_expire(event_id=event.pk, table_number=2, actor=ACTOR)
    Extensions.objects.create(entry=people["T1S1"], left=2, used=1)
    return event


def test_a_running_night_comes_back_the_same():
    event = pko_night()
    clock = Clock.objects.get(pk=event.pk)
    seats = sorted(
        Entry.objects.filter(event=event).values_list(
            "player__name", "status", "table__number", "seat", "chips", "paid"
        )
    )
    levels = list(Level.objects.filter(structure__event=event).values_list("big_blind", "kind"))
    players = Player.objects.count()
    new, done = round_trip(event)
    assert new.pk != event.pk and new.name == "Friday PKO" and new.status == "running"
    assert (done.players_found, done.players_new) == (2, 11)  # by member id; the rest anew
    assert Player.objects.count() == players + 11
    assert (
        sorted(
            Entry.objects.filter(event=new).values_list(
                "player__name", "status", "table__number", "seat", "chips", "paid"
            )
        )
        == seats
    )
    assert Entry.objects.get(event=new, player__member_id="M-0001").player.name == "T1S1"
    assert list(Level.objects.filter(structure__event=new).values_list("big_blind", "kind")) == (
        levels
    )
    again = Clock.objects.get(pk=new.pk)
    assert (again.status, again.level_index, again.ends_at, again.version) == (
        clock.status,
        clock.level_index,
        clock.ends_at,
        clock.version,
    )
    assert again.scheduled_version == 0  # this installation's beat sends the level's end
    assert new.house_rules.name == "Casino Lyon" and new.rules.hfh_minutes_per_hand == 4
    assert HouseRuleSet.objects.count() == 1  # the same set, found again
    assert Bounty.objects.get(event=new).eliminator.player.name == "T1S1"
    assert ChipCount.objects.get(event=new).chips == 25_000
    assert Ticket.objects.get(target=new).player.name == "Qualifier Quinn"
    expiry = Call.objects.get(event=new, action="expiry")
    assert (expiry.entry.player.name, expiry.outcome, expiry.table_number) == ("T2S2", "dead", 2)
    assert Extensions.objects.get(entry__event=new, entry__player__name="T1S1").used == 1
    assert count_problems(new) == []  # the triggers counted the tables and the field
    assert standings.field_read(new).entries == 12
    note = LogEntry.objects.get(event=new, action="event.import")
    assert "friday.json" in note.summary


def test_a_deal_and_its_prizes_come_back_the_same():
    event = make_event(600, name="Final four", buy_in=D(100))
    people = arrange(event, {1: [1, 2, 3, 4, 5]})
    results.payout_plan_update(event_id=event.pk, table="top-4", actor=ACTOR)
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    results.bustout_record(event_id=event.pk, entry_ids=[people["T1S5"].pk], actor=ACTOR)
    for name, chips in (("T1S1", 40_000), ("T1S2", 30_000), ("T1S3", 20_000), ("T1S4", 10_000)):
        results.chip_count_record(
            event_id=event.pk, entry_number=people[name].number, chips=chips, actor=ACTOR
        )
    deals.deal_make(event_id=event.pk, method="icm", actor=ACTOR)
    prizes = sorted(Finish.objects.filter(event=event).values_list("place", "prize"))
    shares = sorted(Deal.objects.get(event=event).shares.values_list("chips", "amount"))
    new, _ = round_trip(event)
    assert sorted(Finish.objects.filter(event=new).values_list("place", "prize")) == prizes
    assert sorted(Deal.objects.get(event=new).shares.values_list("chips", "amount")) == shares


@pytest.mark.django_db(transaction=True)
def test_a_festival_comes_back_with_its_flights_bags_and_day_two():
    # A flight's re-entries work its places out after commit: real commits, as in a run.
    summary = Festival(players=72, flights=1, seed=3, seats_per_table=6).run()
    main = Event.objects.get(pk=summary["event"])
    flight = main.flights.get()
    places = sorted(Finish.objects.filter(event=main).values_list("place", "prize"))
    new, done = round_trip(flight)  # asked for a flight: the whole festival comes
    assert new.name == flight.name and new.parent.name == main.name
    assert done.events == 2
    assert sorted(Finish.objects.filter(event=new.parent).values_list("place", "prize")) == places
    carried = Entry.objects.filter(event=new.parent, carried_from__isnull=False)
    assert carried.count() == summary["day2_players"]
    assert {e.carried_from.event_id for e in carried} == {new.pk}


def test_the_file_covers_every_model_that_belongs_to_an_event():
    """A new model pointing at an event (or at something of one) must join the file, or
    say here why it stays behind."""
    covered = set(transfer.PARTS) | set(transfer.LEFT_OUT)
    for model in apps.get_models():
        label = model._meta.label_lower
        if label in covered or model._meta.app_label in ("auth", "admin", "sessions", "axes"):
            continue
        targets = {
            f.related_model._meta.label_lower
            for f in model._meta.get_fields()
            if f.is_relation and f.concrete and f.related_model is not None
        }
        assert not targets & set(transfer.PARTS), f"{label} points at an event's rows"


# Refusals -------------------------------------------------------------------------------


def file_of(event: Event) -> dict:
    return json.loads(transfer.event_export_json(event_id=event.pk))


def refused(data: bytes | str | dict, match: str) -> None:
    if isinstance(data, dict):
        data = json.dumps(data, cls=DjangoJSONEncoder)
    before = every_count()
    with pytest.raises(transfer.TransferError, match=match):
        transfer.event_import(data=data, actor=ACTOR)
    assert every_count() == before  # nothing changed


def last(doc: dict, label: str) -> dict:
    return doc["rows"][label][-1]["fields"]


@pytest.fixture
def exported():
    """The file of a night whose tables are given back, so a copy may be made here."""
    event = pko_night()
    doc = file_of(event)
    EventTable.objects.filter(event=event).update(in_play=False)
    Entry.objects.filter(event=event).update(table=None, seat=None)
    return doc


def test_a_file_that_is_not_json_is_refused():
    refused(b'{"name": "\xff"}', "not text")
    refused("{'format': 1}", r"not JSON \(line 1, column 2")
    refused('{"format": "tdsystem-event", "version": NaN}', "NaN, which is not a number")
    refused("[1, 2]", "not an event file of tdsystem")


def test_a_file_of_another_format_version_is_refused(exported):
    refused(exported | {"version": 2}, "format version 2; this tdsystem reads version 1")
    refused(exported | {"format": "pretix-event"}, "not an event file")


def test_rows_of_models_an_event_does_not_have_are_refused(exported):
    exported["rows"]["core.apitoken"] = [{"pk": 1, "fields": {}}]
    refused(exported, "rows of core.apitoken")


@pytest.mark.parametrize(
    ("label", "change", "match"),
    [
        ("core.logentry", {"mood": "calm"}, "LogEntry has no field named 'mood'"),
        ("core.logentry", {"at": "yesterday"}, "invalid format"),
        ("results.bounty", {"paid": "lots"}, "must be a decimal number"),
        ("core.logentry", {"summary": "a\x00b"}, r"core.logentry \d+, field summary: a NUL"),
        ("core.logentry", {"data": {"x": "\ud800"}}, "lone surrogate"),
        ("seating.entry", {"status": "dancing"}, "'dancing' is not one of its choices"),
        ("core.logentry", {"action": "x" * 41}, "field action: longer than 40 characters"),
        ("results.finish", {"entry": 999_999}, "field entry: seating.entry 999999 is not in"),
        ("results.finish", {"place": -1}, "break a rule of the database"),
        ("events.event", {"rule_overrides": {"sit_on_it": 1}}, "unknown setting 'sit_on_it'"),
    ],
)
def test_a_bad_row_is_refused_naming_it_and_nothing_is_imported(exported, label, change, match):
    last(exported, label).update(change)
    refused(exported, match)


def test_two_players_in_one_seat_break_the_database_rule_and_nothing_is_imported():
    event = pko_night()
    doc = file_of(event)
    EventTable.objects.filter(event=event).update(in_play=False)
    Entry.objects.filter(event=event).update(table=None, seat=None)
    seated = [r["fields"] for r in doc["rows"]["seating.entry"] if r["fields"]["seat"]]
    seated[1].update(table=seated[0]["table"], seat=seated[0]["seat"])
    refused(doc, "break a rule of the database")


def test_a_table_in_play_here_refuses_the_import():
    event = pko_night()
    refused(file_of(event), r"in play here too: table 1 \(Friday PKO\), table 2")


def test_a_house_set_of_the_same_name_that_differs_comes_as_its_own(exported):
    HouseRuleSet.objects.filter(name="Casino Lyon").update(overrides={})
    done = transfer.event_import(data=json.dumps(exported), actor=ACTOR)
    assert done.event.house_rules.name == "Casino Lyon (imported)"
    assert done.event.house_rules.overrides == {"hfh_minutes_per_hand": 3}


def test_accounts_are_found_by_their_user_names_and_never_made(exported, director):
    for row in exported["rows"]["core.logentry"][:2]:
        row["fields"]["actor"] = 1
    exported["users"] = {"1": director.username}
    done = transfer.event_import(data=json.dumps(exported), actor=ACTOR)
    actors = LogEntry.objects.filter(event=done.event, actor=director)
    assert actors.count() == 2
    EventTable.objects.filter(event=done.event).update(in_play=False)
    Entry.objects.filter(event=done.event).update(table=None, seat=None)
    exported["users"] = {"1": "nobody-here"}
    users = apps.get_model("auth", "User").objects.count()
    done = transfer.event_import(data=json.dumps(exported), actor=ACTOR)
    assert not LogEntry.objects.filter(event=done.event, actor__isnull=False).exists()
    assert apps.get_model("auth", "User").objects.count() == users


def test_the_commands_write_and_read_the_file(tmp_path):
    event = make_event(600, name="Tuesday")
    arrange(event, {3: [1, 2]})
    out = StringIO()
    call_command("event_export", str(event.pk), str(tmp_path), stdout=out)
    path = tmp_path / out.getvalue().split()[-1].rsplit("/", 1)[-1]
    assert path.exists() and json.loads(path.read_text())["event"] == event.pk
    EventTable.objects.filter(event=event).update(in_play=False)
    Entry.objects.filter(event=event).update(table=None, seat=None)
    out = StringIO()
    call_command("event_import", str(path), stdout=out)
    new = Event.objects.get(pk=int(out.getvalue().split()[-1]))
    assert new.name == "Tuesday" and new.entries.count() == 2


def test_an_import_waits_its_turn_for_the_tables(exported, monkeypatch):
    def busy(**kwargs):
        raise Busy()

    monkeypatch.setattr(transfer, "locks_take", busy)
    with pytest.raises(Busy):
        transfer.event_import(data=json.dumps(exported), actor=ACTOR)


@pytest.mark.slow  # a fresh installation's migrations in a process of its own: a minute
def test_an_event_goes_into_a_fresh_installation(tmp_path):
    """Exported here (SQLite or PostgreSQL), imported into a new SQLite installation: the
    same file comes out of it."""
    event = pko_night()
    path = tmp_path / "friday.json"
    path.write_bytes(transfer.event_export_json(event_id=event.pk))
    before = canonical(json.loads(path.read_text()))
    env = os.environ | {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}",
        "VAR_DIR": str(tmp_path / "var"),
        "PYTEST_XDIST_WORKER": "",
    }

    def manage(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        return done.stdout

    manage("migrate", "--noinput", "-v0")
    new_id = manage("event_import", str(path)).split()[-1]
    again = json.loads(manage("event_export", new_id, "-"))
    assert canonical(again) == before
    assert again["users"] == {}  # no accounts there: the names stay in the text


def test_a_file_of_an_earlier_version_with_the_entries_finish_copy_comes_in(exported):
    """Files exported before the entry's place, prize and bust time went (the finish holds
    them) still carry them: they are read past."""
    (finish,) = [r["fields"] for r in exported["rows"]["results.finish"]]
    for row in exported["rows"]["seating.entry"]:
        out = row["pk"] == finish["entry"]
        row["fields"] |= {
            "busted_at": "2026-11-20T21:05:00.123456+00:00" if out else None,
            "place": finish["place"] if out else None,
            "prize": finish["prize"] if out else None,
        }
    done = transfer.event_import(data=json.dumps(exported), actor=ACTOR)
    out = Entry.objects.get(event=done.event, status="busted")
    assert (out.player.name, Finish.objects.get(entry=out).place) == ("T1S2", finish["place"])
    assert Entry.objects.filter(event=done.event).count() == len(exported["rows"]["seating.entry"])


def test_the_retired_fields_are_gone_from_their_models():
    """A field read past on import must not be one the model has (again)."""
    for label, names in transfer.RETIRED.items():
        have = {f.name for f in apps.get_model(label)._meta.get_fields()}
        assert not have & set(names), label


def test_actor_of_the_import_is_logged(exported, director):
    done = transfer.event_import(
        data=json.dumps(exported), actor=Actor.of(director), name="friday.json"
    )
    note = LogEntry.objects.get(event=done.event, action="event.import")
    assert note.actor == director and "friday.json" in note.summary
