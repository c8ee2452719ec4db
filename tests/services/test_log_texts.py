"""The log of events, structures, tables and tokens keeps each summary as a message id
with its parameters, so each reader reads it in their own language; the English stays in
`summary`. A stand-in for a catalog (every message read in capitals) shows the reader's
language is applied when the entry is read, not when it is written."""

from __future__ import annotations

import re

import pytest

from tdsystem.core import log
from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.events import services
from tdsystem.events.services import event_entry_rules_update
from tdsystem.structures import services as structures
from tests.fixtures import make_event, short_levels

pytestmark = pytest.mark.django_db

DIRECTOR = Actor(label="Dora")


@pytest.fixture
def capitals(monkeypatch):
    """Every message "translated" to capitals, its placeholders left as they are."""

    def upper(msgid: str) -> str:
        parts = re.split(r"(%\([a-z_]+\)[srd])", msgid)
        return "".join(p if p.startswith("%(") else p.upper() for p in parts)

    monkeypatch.setattr(log, "gettext", upper)


def newest(event, action: str) -> LogEntry:
    return LogEntry.objects.filter(event=event, action=action).latest("id")


def test_it_keeps_a_clock_action_as_a_message_and_reads_it_in_the_readers_language(capitals):
    event = make_event(600, 600)
    services.clock_action(event_id=event.pk, action="start", actor=DIRECTOR)
    entry = newest(event, "clock.start")
    assert entry.summary == "Clock started"
    assert entry.data["message"] == {"msgid": "Clock started", "params": {}}
    assert entry.text == "CLOCK STARTED"


def test_it_names_the_level_a_step_arrived_at_in_one_sentence(capitals):
    event = make_event(600, 600)
    services.clock_action(event_id=event.pk, action="next", actor=DIRECTOR)
    entry = newest(event, "clock.next")
    assert entry.summary == "Next level: level 2 (100/200 ante 20)"
    assert entry.data["message"]["msgid"] == "Next level: %(level)s"
    # The level's words are a message of their own, read in the reader's language too.
    assert entry.text == "NEXT LEVEL: LEVEL 2 (100/200 ANTE 20)"


def test_it_quotes_the_undone_action_as_a_message(capitals, director):
    event = make_event(600, 600)
    services.clock_action(event_id=event.pk, action="start", actor=Actor.of(director))
    started = newest(event, "clock.start")
    undo = services.clock_undo(event_id=event.pk, entry_id=started.pk, actor=Actor.of(director))
    assert undo.summary == "Undone: Clock started"
    assert undo.data["message"]["params"]["action"] == {"msgid": "Clock started", "params": {}}
    assert undo.text == "UNDONE: CLOCK STARTED"


def test_it_writes_the_time_added_and_the_event_created_with_their_figures():
    event = make_event(600, 600, name="Sunday")
    services.clock_action(event_id=event.pk, action="add_time", actor=DIRECTOR, seconds=60)
    services.clock_action(event_id=event.pk, action="add_time", actor=DIRECTOR, seconds=-30)
    added, removed = LogEntry.objects.filter(event=event, action="clock.add_time").order_by("id")
    assert (added.summary, removed.summary) == ("60 s added", "30 s removed")
    created = newest(event, "event.create")
    assert created.summary == "Event created from the structure Sunday structure, under TDA 2024"
    assert created.data["message"]["params"]["structure"] == "Sunday structure"


def test_it_writes_entry_rule_changes_as_one_message_of_messages(capitals):
    event = make_event(600, 600, "B300", 600)
    event_entry_rules_update(
        event_id=event.pk, changes={"rebuy_until_level": 2, "addon_break": 1}, actor=DIRECTOR
    )
    entry = newest(event, "event.entry_rules")
    assert (
        entry.summary == "Rebuys: no rebuys → until level 2; Add-on: no add-on → at the first break"
    )
    assert entry.text == (
        "REBUYS: NO REBUYS → UNTIL LEVEL 2; ADD-ON: NO ADD-ON → AT THE FIRST BREAK"
    )


def test_a_running_event_says_so_in_the_entry_rules_entry():
    event = make_event(600, 600)
    services.clock_action(event_id=event.pk, action="start", actor=DIRECTOR)
    event_entry_rules_update(event_id=event.pk, changes={"rebuy_max": 2}, actor=DIRECTOR)
    entry = newest(event, "event.entry_rules")
    assert entry.summary == "Rebuys per player: no limit → 2 per player (while running)"


def test_it_keeps_a_structure_import_as_a_message(capitals):
    text = (
        "kind,small_blind,big_blind,ante,duration_minutes\nlevel,50,100,0,20\nlevel,100,200,0,20\n"
    )
    structure, _warnings = structures.structure_import(
        text=text, name="Club", ante_type="each", starting_stack="10000", actor=DIRECTOR
    )
    entry = LogEntry.objects.get(action="structure.import")
    assert entry.summary == f"Structure {structure.name} imported (2 levels, CSV)"
    assert entry.text == "STRUCTURE Club IMPORTED (2 LEVELS, CSV)"  # the name as entered


def test_a_warning_is_told_apart_by_its_type_whatever_its_words(monkeypatch):
    # A language whose warnings do not begin with "warning:".
    monkeypatch.setattr(structures, "gettext", lambda msgid: "» " + msgid)
    levels = short_levels(600, 600)
    levels[1]["big_blind"] = 10_000  # a jump the import warns of
    with pytest.raises(structures.StructureError) as refused:
        structures.structure_create(name="Jump", levels=levels)
    messages = refused.value.errors
    assert messages and not any(m.startswith("warning:") for m in messages)
    assert structures.only_warnings(messages)
    assert not structures.only_warnings(["the structure has no levels"])
