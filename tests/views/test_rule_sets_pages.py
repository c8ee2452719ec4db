"""Rule sets in the console: chosen at creation, shown on the event page and the schedule,
set per event, house sets, and the rule numbers each set cites."""

from __future__ import annotations

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.engine import rulesets
from tdsystem.events.models import Event, HouseRuleSet
from tdsystem.events.services import clock_action, house_rule_set_create
from tdsystem.simulation.seatings import ACTOR
from tdsystem.venue import life
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


def shown_form(client, url: str) -> dict:
    """The form's fields as the page shows them, ready to post back."""
    response = client.get(url)
    assert response.status_code == 200
    form = response.context["form"]
    data = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = "" if value is None else str(value)
    return data


def rules_url(event) -> str:
    return f"/console/events/{event.pk}/rules/"


def new_event_data(template, **extra) -> dict:
    return {
        "name": "Friday Deepstack",
        "template": template.pk,
        "game": "holdem",
        "betting": "no-limit",
        "buy_in": "50",
        "fee": "5",
        "seats_per_table": 9,
        "button_rule": "dead",
        "incomplete_raise": "full-bet",
        "pot_limit_preflop": "true-pot",
        "late_registration_end_level": 4,
        **extra,
    }


def test_it_creates_an_event_under_the_chosen_set(client, director):
    from tdsystem.structures.services import templates_install

    template = templates_install()[0]
    client.force_login(director)
    page = client.get("/console/events/new/").content.decode()
    assert "WSOP 2026 · WSOP tournament rules of 2026" in page
    response = client.post("/console/events/new/", new_event_data(template, rules="wsop-2026"))
    assert response.status_code == 302
    event = Event.objects.get(name="Friday Deepstack")
    assert (event.rule_set, event.house_rules, event.rule_overrides) == ("wsop-2026", None, {})


def test_it_creates_an_event_under_a_house_set(client, director):
    from tdsystem.structures.services import templates_install

    house = house_rule_set_create(name="Casino Lyon house rules", base="tda-2026", actor=ACTOR)
    HouseRuleSet.objects.filter(pk=house.pk).update(overrides={"halt_short_by": 4})
    template = templates_install()[0]
    client.force_login(director)
    page = client.get("/console/events/new/").content.decode()
    assert "Casino Lyon house rules, based on TDA 2026" in page
    client.post("/console/events/new/", new_event_data(template, rules=f"house:{house.pk}"))
    event = Event.objects.get(name="Friday Deepstack")
    assert (event.rule_set, event.house_rules_id) == ("tda-2026", house.pk)
    assert event.rules.halt_short_by == 4
    assert event.rules.dead_button_skips_empty  # the base set's
    assert event.cite("halting") == "TDA 12-D"  # the base set's numbers


@pytest.mark.parametrize(
    ("code", "numbers", "version"),
    [
        ("tda-2024", {"TDA 11-D", "TDA 11", "TDA 32", "TDA 34-B", "TDA RP-8"}, "2024"),
        ("tda-2026", {"TDA 12-D", "TDA 12", "TDA 34", "TDA 36-B", "TDA 22"}, "2026 (1.1"),
        ("wsop-2026", {"WSOP R67", "WSOP R85", "WSOP R87", "WSOP R126", "WSOP R68"}, "2026"),
    ],
)
def test_the_same_event_cites_the_numbers_of_its_set(client, director, code, numbers, version):
    event = make_event(600, name="Sunday Main", rule_set=code)
    client.force_login(director)
    page = client.get(f"/console/events/{event.pk}/").content.decode()
    rules_section = page[page.index('id="event-rules"') :]
    name = rulesets.rule_set(code).name
    assert f"<b>{name}</b>" in rules_section
    for number in numbers:
        assert f"<dd>{number}</dd>" in rules_section, number
    others = {"TDA 11-D", "TDA 12-D", "WSOP R67"} - numbers
    assert not any(f"<dd>{n}</dd>" in rules_section for n in others)
    # A rule the text gives no number is left out, not cited by the set's name.
    assert f"<dd>{name}</dd>" not in rules_section
    schedule = client.get(f"/events/{event.pk}/schedule/").content.decode()
    assert f"Rules: {name} (version {version}" in schedule
    # The rules page names each setting's rule in the event's set.
    form_page = client.get(rules_url(event)).content.decode()
    assert f"({event.cite('halting')})" in form_page


def test_the_event_page_lists_where_the_event_differs_from_its_set(client, director):
    event = make_event(600, rule_set="wsop-2026", rule_overrides={"final_table_size": 9})
    client.force_login(director)
    page = client.get(f"/console/events/{event.pk}/").content.decode()
    section = page[page.index('id="event-rules"') :]
    assert "Final table size (0: the usual size for the event&#x27;s tables)" in section
    assert "<td>10</td><td><b>9</b></td>" in section
    plain = make_event(600, name="Plain")
    page = client.get(f"/console/events/{plain.pk}/").content.decode()
    assert "The event follows the set as published." in page


def test_the_rules_form_saves_only_what_differs_from_the_set(client, director):
    event = make_event(600)
    client.force_login(director)
    data = shown_form(client, rules_url(event))
    assert data["rules"] == "tda-2024" and data["halt_short_by"] == "3"
    data.update(halt_short_by="4", balance_threshold="2", redraws="60: 2 1")
    response = client.post(rules_url(event), data)
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.rule_overrides == {
        "halt_short_by": 4,
        "redraws": [{"min_entries": 60, "tables": [2, 1]}],
    }
    assert event.balance_threshold == 2
    entry = LogEntry.objects.get(event=event, action="rules.event")
    assert entry.data["before"]["overrides"] == {}
    assert entry.data["after"]["overrides"] == event.rule_overrides
    assert (
        entry.data["before"]["balance_threshold"],
        entry.data["after"]["balance_threshold"],
    ) == (
        1,
        2,
    )
    # Posting the form again as shown changes nothing and logs nothing.
    client.post(rules_url(event), shown_form(client, rules_url(event)))
    assert LogEntry.objects.filter(event=event, action="rules.event").count() == 1


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("halt_short_by", "12", "a whole number from 2 to 9"),
        ("hfh_minutes_per_hand", "0", "a whole number from 1 to 10"),
        ("redraws", "100: 3 2 11", "Automatic redraws: entries 0 or more, table counts 1 to 10"),
        ("redraws", "lots", "“lots” is not a list of redraws like 100: 3 2 1; 50: 2 1"),
        ("final_table_size", "²", "a whole number from 0 to 10"),
        ("halting", "whenever", "Select a valid choice"),
        ("balance_threshold", "9", "a whole number from 1 to 5"),
    ],
)
def test_a_bad_value_is_refused_with_its_reason_and_changes_nothing(
    client, director, field, value, message
):
    event = make_event(600)
    client.force_login(director)
    data = shown_form(client, rules_url(event))
    data[field] = value
    response = client.post(rules_url(event), data)
    assert response.status_code == 400
    assert message in " ".join(response.context["form"].errors[field])
    event.refresh_from_db()
    assert (event.rule_overrides, event.balance_threshold) == ({}, 1)
    assert not LogEntry.objects.filter(event=event, action="rules.event").exists()


def test_changing_the_set_keeps_the_events_own_settings(client, director):
    event = make_event(600, rule_overrides={"halt_short_by": 4})
    client.force_login(director)
    data = shown_form(client, rules_url(event))
    data["rules"] = "wsop-2026"
    client.post(rules_url(event), data)
    event.refresh_from_db()
    assert event.rule_set == "wsop-2026"
    # Left as shown, the other settings are WSOP's, not TDA 2024's.
    assert event.rule_overrides == {"halt_short_by": 4}
    assert event.rules.halting == rulesets.HALT_AT_ONCE
    assert event.rules.final_table_size == 10


def test_the_rules_of_a_running_event_change_and_the_log_says_so(client, director):
    event = make_event(600)
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    client.force_login(director)
    page = client.get(rules_url(event)).content.decode()
    assert "This event is running" in page
    data = shown_form(client, rules_url(event))
    data["other_tables"] = "tie"
    client.post(rules_url(event), data)
    entry = LogEntry.objects.get(event=event, action="rules.event")
    assert entry.summary == "Rules of this event: TDA 2024; changed other_tables (while running)"
    assert entry.data["after"]["overrides"] == {"other_tables": "tie"}


def test_a_floor_person_may_not_change_the_rules(client, floor_person):
    event = make_event(600)
    client.force_login(floor_person)
    assert client.get(rules_url(event)).status_code == 403
    assert client.post(rules_url(event), {"rules": "wsop-2026"}).status_code == 403
    assert client.get("/console/house-rules/").status_code == 403


def test_a_house_set_is_copied_edited_and_deleted(client, director):
    client.force_login(director)
    response = client.post(
        "/console/house-rules/", {"name": "Casino Lyon house rules", "source": "tda-2024"}
    )
    house = HouseRuleSet.objects.get()
    assert response["Location"] == f"/console/house-rules/{house.pk}/"
    data = shown_form(client, f"/console/house-rules/{house.pk}/")
    data.update(halt_short_by="4", dead_button_skips_empty="on")
    assert client.post(f"/console/house-rules/{house.pk}/", data).status_code == 302
    house.refresh_from_db()
    assert house.overrides == {"halt_short_by": 4, "dead_button_skips_empty": True}
    update = LogEntry.objects.get(action="rules.house.update")
    assert update.event is None and update.data["after"]["overrides"] == house.overrides

    # A copy of the house set takes its base and its overrides.
    client.post("/console/house-rules/", {"name": "Lyon summer", "source": f"house:{house.pk}"})
    copy = HouseRuleSet.objects.get(name="Lyon summer")
    assert (copy.base, copy.overrides) == ("tda-2024", house.overrides)
    # Names are the room's own: the same one twice is refused.
    response = client.post(
        "/console/house-rules/", {"name": "casino lyon HOUSE rules", "source": "tda-2026"}
    )
    assert response.status_code == 400
    assert "There is a house set named" in response.content.decode()

    # Refused while an event uses it, then deleted.
    event = make_event(600, rule_set="tda-2024", house_rules=house)
    client.post(f"/console/house-rules/{house.pk}/delete")
    assert HouseRuleSet.objects.filter(pk=house.pk).exists()
    event.delete()
    client.post(f"/console/house-rules/{house.pk}/delete")
    assert not HouseRuleSet.objects.filter(pk=house.pk).exists()
    actions = set(LogEntry.objects.filter(event=None).values_list("action", flat=True))
    assert {"rules.house.create", "rules.house.update", "rules.house.delete"} <= actions


def test_a_bad_house_setting_is_refused_with_the_engines_message(client, director):
    house = house_rule_set_create(name="Room rules", base="wsop-2026", actor=ACTOR)
    client.force_login(director)
    data = shown_form(client, f"/console/house-rules/{house.pk}/")
    assert data["redraws"] == "100: 3 2 1; 50: 2 1"
    data["large_field_tables"] = "0"
    response = client.post(f"/console/house-rules/{house.pk}/", data)
    assert response.status_code == 400
    assert "a whole number from 1 to 10,000" in response.content.decode()
    assert "large_field_tables" not in response.context["form"].errors["large_field_tables"][0]
    house.refresh_from_db()
    assert house.overrides == {}


def test_a_copy_of_the_event_follows_the_same_rules(db):
    house = house_rule_set_create(name="Room rules", base="wsop-2026", actor=ACTOR)
    source = make_event(
        600, rule_set="wsop-2026", house_rules=house, rule_overrides={"halt_short_by": 4}
    )
    copy = life.event_copy(source_id=source.pk, name="Next week", actor=ACTOR)
    assert (copy.rule_set, copy.house_rules_id, copy.rule_overrides) == (
        "wsop-2026",
        house.pk,
        {"halt_short_by": 4},
    )
