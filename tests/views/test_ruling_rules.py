"""The ruling page follows the event's rule set: the raise cap heads-up (D5, a setting of the
set), the rule numbers it cites, and a ruling shared by a permanent link."""

from __future__ import annotations

import json

import pytest

from tests.views.test_ruling import form, text

pytestmark = pytest.mark.django_db

URL = "/console/rulings/"
THREE = [("A", 1000), ("B", 1000), ("C", 1000)]
SEAT = {"A": 0, "B": 1, "C": 2}


def limit_form(actions, **settings) -> dict:
    """A 10/20 fixed-limit hand, one raise after the bet: on the flop B bets, C folds and A
    raises, so the cap is reached heads-up (D5)."""
    rows = [(str(SEAT[who]), do, to) for who, do, to in actions]
    return form(
        players=THREE,
        actions=rows,
        structure="fixed-limit",
        small_blind="5",
        big_blind="10",
        ante="0",
        small_bet="10",
        big_bet="20",
        raise_cap="1",
        **settings,
    )


HEADS_UP_BEFORE_THE_CAP = [
    ("A", "call", ""),
    ("B", "call", ""),
    ("C", "check", ""),
    ("B", "bet", "10"),
    ("C", "fold", ""),
    ("A", "raise", "20"),
]


@pytest.fixture
def floor(client, floor_person):
    client.force_login(floor_person)
    return client


def hand_of(response) -> dict:
    page = response.content.decode()
    start = page.index('id="hand-json">') + len('id="hand-json">')
    import html

    return json.loads(html.unescape(page[start : page.index("</textarea>", start)]))


@pytest.mark.parametrize(
    ("reading", "may_reraise"), [("kept", False), ("until-capped", True), ("at-start", False)]
)
def test_the_floor_chooses_when_the_cap_is_lifted_heads_up(floor, reading, may_reraise):
    response = floor.post(URL, limit_form(HEADS_UP_BEFORE_THE_CAP, raise_cap_heads_up=reading))

    assert hand_of(response)["raise_cap_heads_up"] == reading
    assert ("may not raise" not in text(response)) is may_reraise


def test_an_event_opens_the_page_with_its_rule_sets_reading(floor, event):
    event.rule_set = "wsop-2026"
    event.save(update_fields=["rule_set"])

    page = floor.get(f"{URL}?event={event.pk}").content.decode()

    assert '<option value="until-capped" selected>' in page


def test_an_event_override_reaches_the_page(floor, event):
    event.rule_overrides = {"limit_cap_heads_up": "at-start"}
    event.save(update_fields=["rule_overrides"])

    page = floor.get(f"{URL}?event={event.pk}").content.decode()

    assert '<option value="at-start" selected>' in page


# -- rule numbers of the event's set -----------------------------------------------------

# Blinds 4/8, ante 1: Dianne raises to 20, Carol calls, Joan is all-in for 26 (a 6 raise,
# short of the 12 that is a full raise); the blinds fold and Dianne faces 6 more: not
# reopened (D9; TDA 2024 rule 47).
SHORT_ALL_IN = [("Dianne", "raise", "20"), ("Carol", "call", ""), ("Joan", "all-in", "")]
SHORT_ALL_IN += [("Ellen", "fold", ""), ("Bob", "fold", ""), ("Alice", "fold", "")]
SHORT_PLAYERS = [
    ("Ellen", 500),
    ("Bob", 500),
    ("Alice", 500),
    ("Dianne", 500),
    ("Carol", 500),
    ("Joan", 27),
]


def short_form(**settings) -> dict:
    seat = {name: i for i, (name, _) in enumerate(SHORT_PLAYERS)}
    rows = [(str(seat[who]), do, to) for who, do, to in SHORT_ALL_IN]
    return form(players=SHORT_PLAYERS, actions=rows, **settings)


def badges(response) -> list[str]:
    import re

    return re.findall(r'<span class="rule[^"]*"[^>]*>([^<]+)</span>', response.content.decode())


@pytest.mark.parametrize(
    ("code", "cited"), [("tda-2024", "TDA 47"), ("tda-2026", "TDA 49"), ("wsop-2026", "D9")]
)
def test_a_ruling_cites_the_number_of_the_chosen_rule_set(floor, code, cited):
    response = floor.post(URL, short_form(rule_set=code))

    assert cited in badges(response)
    assert "all-in for 26 is not a full raise (that is to 32)" in text(response)


def test_an_event_opens_the_page_in_its_rule_set(floor, event):
    event.rule_set = "tda-2026"
    event.save(update_fields=["rule_set"])

    page = floor.get(f"{URL}?event={event.pk}").content.decode()

    assert '<option value="tda-2026" selected>TDA 2026</option>' in page


def test_a_page_posted_without_a_rule_set_follows_the_event(floor, event):
    from tests.fixtures import make_event

    wsop = make_event(600, name="WSOP", rule_set="wsop-2026")
    data = short_form()
    data.update(event=str(wsop.pk), loaded_event=str(wsop.pk))

    assert hand_of(floor.post(URL, data))["rule_set"] == "wsop-2026"


# -- sharing a ruling ---------------------------------------------------------------------


def shared_link(response) -> str:
    import re

    found = re.search(r'id="shared-link" value="([^"]+)"', response.content.decode())
    assert found, "no shared link on the page"
    return found.group(1)


def test_the_floor_shares_a_ruling_that_anyone_with_the_link_reads(floor, client, event):
    from tdsystem.rulings.models import SharedRuling

    data = short_form(rule_set="tda-2026", op="share")
    data.update(event=str(event.pk), loaded_event=str(event.pk))
    link = shared_link(floor.post(URL, data))
    kept = SharedRuling.objects.get()
    floor.logout()

    response = client.get(link)

    assert response.status_code == 200
    assert kept.event_id == event.pk and kept.rule_set == "tda-2026"
    assert {"player": "Joan", "do": "all-in"} in kept.hand["actions"]
    page = text(response)
    assert "Dianne to act" in page and "Owes 6 to call" in page and "may not raise" in page
    assert "TDA 49" in badges(response)
    assert "noindex" in response.content.decode()


def test_a_shared_ruling_shows_what_was_given_whatever_the_engine_says_later(floor, client):
    from tdsystem.rulings.models import SharedRuling

    link = shared_link(floor.post(URL, short_form(op="share")))
    kept = SharedRuling.objects.get()
    kept.ruling["next"]["call"] = 4321  # as if the engine answered differently then
    kept.save(update_fields=["ruling"])

    assert "Owes 4,321 to call" in text(client.get(link))


def test_a_hand_with_a_fault_is_not_shared(floor):
    from tdsystem.rulings.models import SharedRuling

    data = short_form(op="share")
    data["act_to"] = ["10", "", "", "", "", ""]  # Dianne's raise to 10 is below the minimum

    response = floor.post(URL, data)

    assert "only a full ruling is shared" in text(response)
    assert not SharedRuling.objects.exists()


def test_an_unknown_link_is_not_found(client):
    assert client.get("/rulings/no-such-ruling/").status_code == 404


# -- chips put out (D12) ---------------------------------------------------------------------


def chips_form(chips: str, said: str = "") -> dict:
    """TDA 2024 Addendum 45, example 1-B: NLHE 250-500, UTG raises to 1100, UTG+1 puts out
    a 500 and a 1000 without a word."""
    players = [("BTN", 100000), ("SB", 100000), ("BB", 100000), ("UTG", 100000), ("UTG1", 100000)]
    data = form(
        players=players,
        actions=[("3", "raise", "1100"), ("4", "chips", chips)],
        small_blind="250",
        big_blind="500",
        ante="0",
    )
    data["act_said"] = ["", said]
    return data


def test_the_floor_enters_the_chips_put_out_and_reads_what_they_count_as(floor):
    response = floor.post(URL, chips_form("500 1000"))

    page = text(response)
    assert "every chip is needed for the call" in page and "400 goes back" in page
    assert "TDA 45" in badges(response)
    assert "BTN to act" in page and "Owes 1,100 to call" in page
    assert hand_of(response)["actions"][-1] == {"player": "UTG1", "chips": [500, 1000]}


def test_chips_with_a_word_said_and_in_two_motions(floor):
    said = hand_of(floor.post(URL, chips_form("1000", said="raise")))
    strung = hand_of(floor.post(URL, chips_form("1000 / 500")))

    assert said["actions"][-1] == {"player": "UTG1", "chips": [1000], "said": "raise"}
    assert strung["actions"][-1] == {"player": "UTG1", "chips": [[1000], [500]]}


def test_chips_that_are_not_numbers_are_outlined(floor):
    response = floor.post(URL, chips_form("1000 lots"))

    assert "Action 2: UTG1's chips: 'lots' is not a whole number of chips." in text(response)


def test_a_tap_adds_a_chips_row_for_the_player_to_act(floor):
    data = chips_form("500 1000")
    data["op"] = "append:0:chips"

    page = floor.post(URL, data).content.decode()

    assert page.count('<option value="chips" selected>') == 2
