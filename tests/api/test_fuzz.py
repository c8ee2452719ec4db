"""Random requests against every API route: never a 5xx, errors are JSON, refusals write nothing.

Bodies come from the OpenAPI document's own schemas (fitting, near-fitting with any JSON
in the fields), from any JSON at all, and from raw bytes; path ids are real ones or 0,
huge, negative and not numbers. Each example runs in a savepoint that is rolled back, so
examples do not depend on each other and a failure replays alone. Runs are derandomized;
`API_FUZZ_EXAMPLES=500` tries more.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass

import pytest
from django.apps import apps
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tdsystem.core.openapi import document
from tdsystem.results import services as results
from tdsystem.seating import services
from tdsystem.seating.models import Move
from tdsystem.seating.testing import ACTOR, arrange
from tests.fixtures import make_event

from .schemas import ANY_JSON, from_schema, near_schema, problems

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("API_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# Every app whose rows an API write may touch; tokens are left out (each use stamps them).
WATCHED_APPS = {"events", "seating", "results", "structures", "core"}
UNWATCHED = {"core.apitoken", "core.heartbeat"}
ODD_IDS = [0, 1, 2, 999_999, 2**31, 2**63 - 1, 2**63, 10**30]
HUGE_BODY = json.dumps({"entries": [1] * 10_000, "name": "n" * 100_000}).encode()
BAD_SEGMENTS = ["-1", "0x1", "1.0", "%20", "١", "abc", "1e3", "9" * 40]


@dataclass
class Room:
    event: int
    undrawn: int
    tables: list[int]
    entries: list[int]
    moves: list[int]
    bustouts: list[int]


@pytest.fixture
def room(event) -> Room:
    """17 players at two tables, one out already: a bust-out to undo and a move to ack.

    A second event has its players registered and not yet drawn, so a draw can succeed.
    """
    full = list(range(1, 10))
    people = arrange(event, {1: full, 2: full[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    done = results.bustout_record(
        event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR, table_number=2
    )
    undrawn = make_event(600, name="Undrawn")
    services.tables_setup(event=undrawn, numbers=[11, 12], seats=9, actor=ACTOR)
    services.players_import(event_id=undrawn.pk, names=["Ann", "Bob", "Cy", "Di"], actor=ACTOR)
    return Room(
        event=event.pk,
        undrawn=undrawn.pk,
        tables=[1, 2, 3],
        entries=sorted(e.number for e in people.values()),
        moves=list(Move.objects.filter(event=event).values_list("pk", flat=True)),
        bustouts=[done.bustout.pk],
    )


def snapshot() -> dict:
    """Every row an API write could change, by model."""
    rows = {}
    for model in apps.get_models():
        label = model._meta.label_lower
        if model._meta.app_label in WATCHED_APPS and label not in UNWATCHED:
            rows[label] = list(model.objects.order_by("pk").values_list())
    return rows


def ids(real: list[int]) -> st.SearchStrategy:
    return st.one_of(
        st.sampled_from(real),
        st.sampled_from(ODD_IDS),
        st.integers(min_value=0),
        st.sampled_from(BAD_SEGMENTS),
    )


def bust_outs(room: Room) -> st.SearchStrategy[dict]:
    """Reports naming the room's real players, so the rules are reached, not only the types."""

    def report(numbers: list[int], data: st.DataObject) -> dict:
        chips = st.one_of(st.integers(0, 20_000), st.sampled_from(ODD_IDS))
        body = {"entries": numbers}
        if data.draw(st.booleans()):
            body["stacks"] = {str(n): data.draw(chips) for n in numbers}
        if data.draw(st.booleans()):
            body["table"] = data.draw(st.sampled_from(room.tables))
        if data.draw(st.booleans()):
            body["hand"] = data.draw(st.one_of(st.integers(-1, 5), st.sampled_from(ODD_IDS)))
        return body

    numbers = st.lists(st.sampled_from(room.entries), min_size=1, max_size=3, unique=True)
    return st.builds(report, numbers, st.data())


def bodies(schema_name: str, room: Room) -> st.SearchStrategy[bytes]:
    schema = {"$ref": f"#/components/schemas/{schema_name}"}
    as_json = st.one_of(from_schema(schema), near_schema(schema), ANY_JSON)
    if schema_name == "BustOut":
        as_json = st.one_of(as_json, bust_outs(room), bust_outs(room))
    if schema_name == "Register":
        names = st.sampled_from(["Ann", " Ann  Lee ", "A\x00nn", "\u202eAnn", "😀", "x" * 121])
        member = st.sampled_from(["", "M-1", "M-1", "m\x00", "m" * 41])
        as_json = st.one_of(as_json, st.fixed_dictionaries({"name": names, "member_id": member}))
    return st.one_of(
        as_json.map(lambda v: json.dumps(v).encode()),
        as_json.map(lambda v: json.dumps(v, ensure_ascii=False).encode()),
        st.binary(max_size=60),
        st.sampled_from([b"", b"{", b"null", b"[]", b'"x"', b"NaN", b'{"a": NaN}', b"\xff\xfe"]),
        st.builds(lambda: HUGE_BODY),
    )


# (documented path, body schema, the ids each placeholder takes from the room)
WRITES = [
    ("/api/events/{event_id}/clock", "ClockAction", {}),
    ("/api/events/{event_id}/entries", "Register", {}),
    ("/api/events/{event_id}/draw", "Draw", {}),
    ("/api/events/{event_id}/tables/{number}/hand", "HandReport", {"number": "tables"}),
    ("/api/events/{event_id}/entries/{number}/eliminate", "Empty", {"number": "entries"}),
    ("/api/events/{event_id}/moves/{move_id}/ack", "Empty", {"move_id": "moves"}),
    ("/api/events/{event_id}/bustouts", "BustOut", {}),
    ("/api/events/{event_id}/bustouts/{bustout_id}/undo", "Empty", {"bustout_id": "bustouts"}),
]
READS = [
    "/api/events/{event_id}/clock",
    "/api/events/{event_id}/seats",
    "/api/events/{event_id}/moves",
    "/api/events/{event_id}/results",
]


def url_for(path: str, room: Room, data: st.DataObject, placeholders: dict) -> tuple[str, bool]:
    """The path with ids drawn for it, and whether every id is the real one of the room."""
    real = [room.event, room.undrawn]
    which = data.draw(st.integers(0, 5), label="which event")  # mostly a real one
    event = data.draw(ids(real), label="event_id") if which == 0 else real[which == 1]
    url, real = path.replace("{event_id}", str(event)), event in real
    for name, source in placeholders.items():
        value = data.draw(ids(getattr(room, source)), label=name)
        url = url.replace("{" + name + "}", str(value))
    return url, real


def assert_well_formed(answer, path: str, method: str, doc: dict):
    where = f"{method.upper()} {answer.request['PATH_INFO']}"
    assert answer.status_code < 500, f"{where} answered {answer.status_code}"
    if answer.status_code == 404 and not answer.get("Content-Type", "").startswith("application"):
        return None  # the URL did not match a route: Django's own 404 page
    assert answer["Content-Type"] == "application/json", where
    body = json.loads(answer.content)
    if answer.status_code >= 400:
        assert isinstance(body, dict) and isinstance(body.get("error"), str), (where, body)
        assert body["error"], where
        assert str(answer.status_code) in doc["paths"][path][method]["responses"], where
    else:
        documented = doc["paths"][path][method]["responses"][str(answer.status_code)]
        schema = documented["content"]["application/json"]["schema"]
        assert not problems(schema, body, doc), (where, problems(schema, body, doc))
    return body


def fuzz_write(client, token, room, path, schema_name, placeholders, data, doc):
    url, _ = url_for(path, room, data, placeholders)
    body = data.draw(bodies(schema_name, room), label="body")
    content_type = data.draw(
        st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded"])
    )
    with transaction.atomic():
        before = snapshot()
        answer = client.post(url, body, content_type, HTTP_AUTHORIZATION=f"Bearer {token}")
        assert_well_formed(answer, path, "post", doc)
        if answer.status_code >= 400:
            assert snapshot() == before, f"{url} answered {answer.status_code} but wrote rows"
        transaction.set_rollback(True)
    event(f"status {answer.status_code}")
    return answer.status_code


@pytest.mark.parametrize(("path", "schema_name", "placeholders"), WRITES, ids=lambda v: str(v))
def test_random_writes_never_fail_and_refusals_change_nothing(
    director_token, room, path, schema_name, placeholders
):
    client, doc, seen = Client(), document(), Counter()

    @FUZZ
    @given(data=st.data())
    def run(data):
        seen[
            fuzz_write(client, director_token, room, path, schema_name, placeholders, data, doc)
        ] += 1

    run()
    print(f"{path}: {sum(seen.values())} requests, by status {dict(sorted(seen.items()))}")
    assert set(seen) & {400, 404, 409}, seen  # the fuzzing reached the views' checks


# The server errors the fuzzing found, with their exact inputs: now answered 400.


@pytest.mark.parametrize("path", ["clock", "entries", "draw", "bustouts"])
def test_a_deeply_nested_body_is_a_400(director_token, room, path):
    answer = Client().post(
        f"/api/events/{room.event}/{path}",
        b"[" * 100_000 + b"]" * 100_000,
        "application/json",
        HTTP_AUTHORIZATION=f"Bearer {director_token}",
    )
    assert answer.status_code == 400 and "error" in answer.json()


def test_a_huge_entry_number_in_a_bust_out_is_a_400(director_token, room):
    answer = Client().post(
        f"/api/events/{room.event}/bustouts",
        '{"entries": [9223372036854775808]}',
        "application/json",
        HTTP_AUTHORIZATION=f"Bearer {director_token}",
    )
    assert answer.status_code == 400 and "too large" in answer.json()["error"]


@pytest.mark.parametrize(
    "body",
    [
        {"hand": 2**63},
        {"stacks": {"first": 2**63, "second": 5}},
    ],
    ids=["hand", "stack"],
)
def test_a_number_too_big_for_the_database_in_a_bust_out_is_a_400(director_token, room, body):
    first, second = room.entries[:2]
    if "stacks" in body:
        body = {
            "entries": [first, second],
            "table": 1,
            "stacks": {str(first): 2**63, str(second): 5},
        }
    else:
        body = {"entries": [first], **body}
    answer = Client().post(
        f"/api/events/{room.event}/bustouts",
        json.dumps(body),
        "application/json",
        HTTP_AUTHORIZATION=f"Bearer {director_token}",
    )
    assert answer.status_code == 400 and "error" in answer.json()


@pytest.mark.parametrize("field", ["name", "member_id"])
def test_a_nul_character_in_a_registration_is_refused(director_token, room, field):
    answer = Client().post(
        f"/api/events/{room.undrawn}/entries",
        json.dumps({"name": "Ann", field: "A\x00nn"}),
        "application/json",
        HTTP_AUTHORIZATION=f"Bearer {director_token}",
    )
    assert answer.status_code == 400 and "NUL" in answer.json()["error"]


@FUZZ
@given(data=st.data())
def test_random_reads_never_fail(room, data):
    path = data.draw(st.sampled_from(READS), label="path")
    url, real = url_for(path, room, data, {})
    answer = Client().get(url)
    assert_well_formed(answer, path, "get", document())
    event(f"status {answer.status_code}")
    assert (answer.status_code == 200) == real


@settings(FUZZ, max_examples=max(EXAMPLES // 3, 10))
@given(header=st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=80))
def test_a_random_authorization_header_is_a_401(room, header):
    with transaction.atomic():
        before = snapshot()
        answer = Client().post(
            f"/api/events/{room.event}/clock",
            '{"action": "start"}',
            "application/json",
            HTTP_AUTHORIZATION=header,
        )
        assert answer.status_code == 401 and answer.json() == {"error": "authentication required"}
        assert snapshot() == before
        transaction.set_rollback(True)


@settings(FUZZ, max_examples=max(EXAMPLES // 3, 10))
@given(body=from_schema({"$ref": "#/components/schemas/ClockAction"}))
def test_a_floor_person_may_only_pause_and_resume_and_a_refusal_changes_nothing(
    floor_token, room, body
):
    with transaction.atomic():
        before = snapshot()
        answer = Client().post(
            f"/api/events/{room.event}/clock",
            json.dumps(body),
            "application/json",
            HTTP_AUTHORIZATION=f"Bearer {floor_token}",
        )
        if body["action"] not in ("pause", "resume"):
            assert answer.status_code == 403
        if answer.status_code >= 400:
            assert "error" in answer.json() and snapshot() == before
        transaction.set_rollback(True)
