"""Random requests against every API route, from the generated OpenAPI document
(schemathesis): never a 5xx, every answer documented and fitting its schema, every error a
JSON `error`, and a write answered 4xx changes no row.

Cases fit the schemas (positive) or break them (negative); path ids are the room's real
ones or whatever the schema allows. Each example runs in a savepoint that is rolled back,
so examples do not depend on each other. Runs are derandomized and bounded:
`API_FUZZ_EXAMPLES` per route (default 15); `make bench` runs a longer one
(benchmarks/bench_api_fuzz.py). What a schema does not describe is tried by the tests
below it: raw bytes, huge bodies, bodies that are JSON but not an object, keys given
twice, Content-Types other than application/json, odd path segments and stray
Authorization headers.
"""

from __future__ import annotations

import functools
import json
import os
from collections import Counter
from dataclasses import dataclass

import pytest
import schemathesis
from django.apps import apps
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, connection, transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.specs.openapi import checks as openapi_checks

from tdsystem.players.alternates import alternate_join
from tdsystem.results import services as results
from tdsystem.rulings.shares import ruling_share
from tdsystem.seating import services
from tdsystem.seating.models import Move
from tdsystem.seating.services.tickets import ticket_issue
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.engine._betting_helpers import REFERENCE_HAND
from tests.fixtures import BOOKKEEPING, make_event

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("API_FUZZ_EXAMPLES", "15"))
FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
SCHEMA = schemathesis.openapi.from_wsgi("/api/openapi.json", get_wsgi_application())
CHECKS = [
    schemathesis.checks.not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_schema_conformance,
]
# Every app whose rows an API write may touch (the BOOKKEEPING tables left out).
WATCHED_APPS = {"events", "seating", "results", "structures", "core", "rulings", "players"}
ODD_SEGMENTS = ["0", "-1", "0x1", "1.0", "%20", "١", "abc", "1e3", "9" * 40, str(2**63)]
HUGE_BODY = json.dumps({"entries": [1] * 10_000, "name": "n" * 100_000}).encode()


@dataclass
class Room:
    event: int
    undrawn: int
    tables: list[int]
    entries: list[int]
    moves: list[int]
    bustouts: list[int]
    tickets: list[int]
    rulings: list[str]
    alternates: list[int]

    def ids(self, name: str, path: str) -> list:
        if name == "event_id":
            return [self.event, self.undrawn]
        if name == "number":
            return self.tables
        if name == "token":
            return self.rulings
        return {
            "move_id": self.moves,
            "bustout_id": self.bustouts,
            "ticket_id": self.tickets,
            "alternate_id": self.alternates,
        }[name]


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
    ticket = ticket_issue(event_id=undrawn.pk, name="Eve", actor=ACTOR)
    return Room(
        event=event.pk,
        undrawn=undrawn.pk,
        tables=[1, 2, 3],
        entries=sorted(e.number for e in people.values()),
        moves=list(Move.objects.filter(event=event).values_list("pk", flat=True)),
        bustouts=[done.bustout.pk],
        tickets=[ticket.pk],
        rulings=[ruling_share(hand=REFERENCE_HAND, event_id=event.pk, actor=ACTOR).token],
        alternates=[alternate_join(event=event, name="Zed", actor=ACTOR).alternate.pk],
    )


@pytest.fixture(autouse=True)
def one_connection():
    """The WSGI app runs in this thread, in the test's transaction: keep Django from
    closing the connection at the end of each request (its test client does the same)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def unchanged(room) -> dict:
    """The room's rows before any request: each example runs in a savepoint rolled back,
    so this is what every refusal must leave."""
    return snapshot()


@functools.cache
def _snapshot_queries() -> dict[str, tuple[str, tuple]]:
    """One plain statement (and its parameters) per watched table, its rows by primary key,
    compiled once: the snapshot is taken after every refusal of every example."""
    queries = {}
    for model in apps.get_models():
        label = model._meta.label_lower
        if model._meta.app_label in WATCHED_APPS and label not in BOOKKEEPING:
            found = model.objects.order_by("pk")
            if label == "core.logentry":
                found = found.exclude(action="access.refused")
            sql, params = found.values_list().query.sql_with_params()
            queries[label] = (sql, params)
    return queries


def snapshot() -> dict:
    """Every row an API write could change, by table (a refusal's audit entry aside)."""
    with connection.cursor() as cursor:
        rows = {}
        for label, (sql, params) in _snapshot_queries().items():
            cursor.execute(sql, params)
            rows[label] = cursor.fetchall()
    return rows


def operations() -> list[tuple[str, str]]:
    return [
        (result.ok().path, result.ok().method.upper()) for result in SCHEMA.get_all_operations()
    ]


def cases(room: Room, path: str, method: str) -> st.SearchStrategy:
    """Cases fitting or breaking the schema, at the room's real ids (mostly) or any."""
    operation = SCHEMA[path][method]
    names = [p.name for p in operation.path_parameters]
    real = st.fixed_dictionaries({n: st.sampled_from(room.ids(n, path)) for n in names})
    modes = st.sampled_from([GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
    at_real_ids = st.tuples(modes, real).flatmap(
        lambda mode_ids: operation.as_strategy(mode_ids[0], path_parameters=mode_ids[1])
    )
    anywhere = modes.flatmap(operation.as_strategy)
    return st.one_of(at_real_ids, at_real_ids, anywhere)


def answer_of(case, token: str | None):
    """The case's answer, checked: no 5xx, documented, fitting its schema, JSON errors."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    # The WSGI transport hands over the body as sent: ask for it uncompressed (the answers
    # are gzipped for a client that accepts it, tests/api/test_clock_small_answers.py).
    headers["Accept-Encoding"] = "identity"
    response = case.call(headers=headers)
    case.validate_response(response, checks=CHECKS, headers=headers)
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body, dict) and isinstance(body.get("error"), str) and body["error"]
    return response


@pytest.mark.parametrize(("path", "method"), operations(), ids=lambda v: str(v))
def test_random_requests_never_fail_and_refusals_change_nothing(
    director_token, room, unchanged, path, method
):
    seen = Counter()
    writes = method in ("POST", "PUT", "PATCH")

    @FUZZ
    @given(case=cases(room, path, method))
    def run(case):
        with transaction.atomic():
            status = answer_of(case, director_token).status_code
            if writes and status >= 400:
                assert snapshot() == unchanged, f"{case.formatted_path} answered {status} but wrote"
            transaction.set_rollback(True)
        seen[status] += 1

    run()
    print(f"{method} {path}: by status {dict(sorted(seen.items()))}")
    assert set(seen) - {401, 403}, seen  # past the token check, to the views and rules


# What a schema does not describe: bytes, sizes, path segments and headers.

WRITES = [(p, m) for p, m in operations() if m in ("POST", "PUT", "PATCH")]


def concrete(path: str, room: Room) -> str:
    for name in ("event_id", "number", "move_id", "bustout_id", "ticket_id", "alternate_id"):
        path = path.replace("{" + name + "}", str(room.ids(name, path)[0]))
    return path


@pytest.mark.parametrize(("path", "method"), WRITES, ids=lambda v: str(v))
def test_raw_bytes_huge_and_nested_bodies_are_4xx_and_change_nothing(
    director_token, room, unchanged, path, method
):
    client, url = Client(), concrete(path, room)
    bodies = [
        b"",
        b"{",
        b"null",
        b"[]",
        b'"x"',
        b"NaN",
        b'{"a": NaN}',
        b"\xff\xfe",
        b"\x00",
        b"[" * 100_000 + b"]" * 100_000,
        HUGE_BODY,
        b"x" * (3 * 1024 * 1024),
        b'{"a": 1, "a": 2}',
        b"[null, null]",
    ]
    for body in bodies:
        for content_type in ("application/json", "text/plain", ""):
            with transaction.atomic():
                answer = client.generic(
                    method, url, body, content_type, HTTP_AUTHORIZATION=f"Bearer {director_token}"
                )
                assert answer.status_code < 500, (url, body[:20], answer.status_code)
                if answer.status_code >= 400:
                    assert answer.json()["error"], (url, body[:20])
                if body and b"\x00" not in body and content_type != "application/json":
                    # Refused by the body's guard, before any view: nothing to compare.
                    assert answer.status_code in (413, 415), (url, body[:20], content_type)
                elif answer.status_code >= 400:
                    assert snapshot() == unchanged, (url, body[:20])
                transaction.set_rollback(True)


# Text without NUL (a NUL is the middleware's own 400, before the body is read), with
# halves of surrogate pairs (JSON escapes them).
TEXT = st.text(st.characters(exclude_characters="\x00", exclude_categories=()), max_size=8)
# JSON values, objects among them below the top.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)
NOT_AN_OBJECT = JSON_VALUES.filter(lambda value: not isinstance(value, dict)).map(json.dumps)
NOT_JSON_TYPES = st.sampled_from(
    [
        "text/plain",
        "",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json; charset=latin-1",
        "application/xml",
        "application/vnd.api+json",
    ]
)


@st.composite
def key_twice(draw) -> tuple[str, str]:
    """An object's text with one key given twice (at the top), and that key."""
    pairs = draw(st.lists(st.tuples(TEXT, JSON_VALUES), min_size=1, max_size=4))
    key, _value = draw(st.sampled_from(pairs))
    pairs = [*pairs, (key, draw(JSON_VALUES))]
    if draw(st.booleans()):
        pairs.reverse()
    text = "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in pairs) + "}"
    first = next(k for i, (k, _v) in enumerate(pairs) if k in dict(pairs[:i]))
    return text, first


@pytest.mark.parametrize(("path", "method"), WRITES, ids=lambda v: str(v))
def test_bodies_the_api_does_not_document_are_refused_and_change_nothing(
    director_token, room, unchanged, path, method
):
    """A JSON body that is not an object is a 400, a key given twice a 400 naming it,
    any body sent as another Content-Type a 415: on every write, whatever its route's
    body (required, optional or none), never a 5xx, never a change."""
    client, url = Client(), concrete(path, room)
    seen = Counter()

    @FUZZ
    @given(
        case=st.one_of(
            NOT_AN_OBJECT.map(lambda body: (body, "application/json", 400, None)),
            key_twice().map(lambda twice: (twice[0], "application/json", 400, twice[1])),
            st.tuples(st.one_of(NOT_AN_OBJECT, st.just('{"action": "pause"}')), NOT_JSON_TYPES).map(
                lambda sent: (sent[0], sent[1], 415, None)
            ),
        )
    )
    def run(case):
        body, content_type, status, field = case
        with transaction.atomic():
            answer = client.generic(
                method, url, body, content_type, HTTP_AUTHORIZATION=f"Bearer {director_token}"
            )
            sent = (url, body[:40], content_type)
            assert answer.status_code == status, (*sent, answer.status_code, answer.content)
            assert answer.json()["error"], sent
            if field is not None:  # named (but the empty key, which names no field)
                assert answer.json().get("field", "") == field, sent
            if status != 415:  # a 415 is the body's guard's, before any view
                assert snapshot() == unchanged, sent
            transaction.set_rollback(True)
        seen[status] += 1

    run()
    print(f"{method} {path}: by status {dict(sorted(seen.items()))}")


EVENT_ROUTES = [(p, m) for p, m in operations() if "{event_id}" in p]


@pytest.mark.parametrize(("path", "method"), EVENT_ROUTES, ids=lambda v: str(v))
def test_odd_path_ids_are_json_404s(director_token, room, path, method):
    client = Client()
    for segment in ODD_SEGMENTS:
        url = path.replace("{event_id}", segment)
        for name in ("number", "move_id", "bustout_id", "alternate_id"):
            url = url.replace("{" + name + "}", "1")
        answer = client.generic(
            method, url, "{}", "application/json", HTTP_AUTHORIZATION=f"Bearer {director_token}"
        )
        # A write's body is read before its event is looked up: "{}" may be a 400 first.
        assert answer.status_code in (
            (400, 404) if method in ("POST", "PUT", "PATCH") else (404,)
        ), url
        assert answer.json()["error"], url


@settings(FUZZ, max_examples=max(EXAMPLES, 10))
@given(header=st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=80))
def test_a_random_authorization_header_is_a_401_and_changes_nothing(unchanged, room, header):
    with transaction.atomic():
        answer = Client().post(
            f"/api/events/{room.event}/clock",
            '{"action": "start"}',
            "application/json",
            HTTP_AUTHORIZATION=header,
        )
        assert answer.status_code == 401 and answer.json() == {"error": "authentication required"}
        assert snapshot() == unchanged
        transaction.set_rollback(True)


@settings(FUZZ, max_examples=max(EXAMPLES, 10))
@given(case=SCHEMA["/api/events/{event_id}/clock"]["POST"].as_strategy())
def test_a_floor_person_may_only_pause_and_resume_and_a_refusal_changes_nothing(
    floor_token, room, unchanged, case
):
    case.path_parameters = {"event_id": room.event}
    with transaction.atomic():
        answer = answer_of(case, floor_token)
        if case.body["action"] not in ("pause", "resume") and answer.status_code != 400:
            assert answer.status_code == 403  # a valid body, refused for want of the right
        if answer.status_code >= 400:
            assert snapshot() == unchanged
        transaction.set_rollback(True)
