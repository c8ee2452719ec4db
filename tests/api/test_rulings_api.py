"""The rulings API: the engine's answer citing the rule set, and shared rulings."""

from __future__ import annotations

import json

import pytest

from tests.engine._betting_helpers import REFERENCE_HAND, hand
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db
URL = "/api/rulings"


def post(client, token: str | None, body: dict):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(URL, json.dumps(body), content_type="application/json", **headers)


# Blinds 4/8: Dianne raises to 20, Carol calls, Joan is all-in for 27 (not a full raise), the
# blinds fold: Dianne may call 7, not raise (D9).
SHORT = hand(
    ["Ellen 500", "Bob 500", "Alice 500", "Dianne 500", "Carol 500", "Joan 27"],
    ["Dianne raise 20", "Carol call", "Joan all-in", "Ellen fold", "Bob fold", "Alice fold"],
)


def test_it_rules_on_a_hand_citing_the_events_rule_set(client, floor_token):
    event = make_event(600, rule_set="tda-2026")

    answer = post(client, floor_token, {"hand": SHORT, "event": event.pk})

    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["rule_set"] == "tda-2026" and body["link"] is None
    nxt = body["ruling"]["next"]
    assert (nxt["player"], nxt["call"], nxt["min_raise_to"]) == ("Dianne", 7, None)
    assert {"rule": "D9", "cite": "TDA 49"}.items() <= nxt["reasons"][0].items()
    assert "msgid" not in nxt["reasons"][0]


def test_the_hands_own_rule_set_wins(client, floor_token):
    answer = post(client, floor_token, {"hand": {**SHORT, "rule_set": "tda-2024"}})

    assert answer.json()["ruling"]["next"]["reasons"][0]["cite"] == "TDA 47"


def test_it_shares_a_ruling_that_anyone_reads(client, floor_token):
    answer = post(client, floor_token, {"hand": REFERENCE_HAND, "share": True}).json()
    token = answer["link"].rstrip("/").rsplit("/", 1)[1]

    read = client.get(f"{URL}/{token}")

    assert read.status_code == 200
    body = read.json()
    assert body["hand"]["players"] == REFERENCE_HAND["players"]
    assert body["ruling"] == answer["ruling"] and body["link"] == answer["link"]
    assert client.get(answer["link"]).status_code == 200  # the page


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"hand": {**SHORT, "blinds": [8, 4]}}, "hand", "the small blind 8 is larger"),
        ({"hand": "no"}, "hand", "hand:"),
        ({"hand": SHORT, "share": "yes"}, "share", "share:"),
    ],
)
def test_it_refuses_bad_input_naming_the_field(client, floor_token, body, field, message):
    answer = post(client, floor_token, body)

    assert answer.status_code == 400
    assert answer.json()["field"] == field and message in answer.json()["error"]


def test_an_action_the_rules_refuse_is_a_409_citing_the_rule(client, floor_token):
    wrong = {**SHORT, "actions": [{"player": "Carol", "do": "call"}]}  # Dianne's turn

    answer = post(client, floor_token, {"hand": wrong})

    assert answer.status_code == 409
    assert answer.json() == {"error": "action 0: Carol may not act: it is Dianne's turn (TDA 50)"}


def test_it_needs_a_token_to_rule_and_knows_no_unknown_ruling(client):
    assert post(client, None, {"hand": SHORT}).status_code == 401
    assert client.get(f"{URL}/unknown").status_code == 404
    assert post(client, "td_nope", {"hand": SHORT, "event": 10**9}).status_code == 401
