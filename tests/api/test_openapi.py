"""The generated OpenAPI document covers every /api/ route exactly, the reference page is
served from here, and the answers are the bodies screens and scripts have always read."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.core.serializers.json import DjangoJSONEncoder
from django.urls import URLPattern, URLResolver, get_resolver

from tdsystem.api import schemas
from tdsystem.api.main import api
from tdsystem.events import selectors
from tdsystem.results.selectors import results_payload
from tdsystem.seating.models import Move
from tdsystem.seating.selectors import recent_moves, seat_list
from tdsystem.simulation.seatings import ACTOR, arrange

METHODS = ("get", "post", "put", "patch", "delete")
REFERENCE = {"/api/openapi.json", "/api/docs", "/api/"}  # the reference itself, and its root
T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)


def api_routes() -> set[str]:
    """Every /api/ route of the project, in OpenAPI's spelling (`{event_id}`)."""

    def walk(patterns, prefix: str):
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                yield from walk(entry.url_patterns, route)
            elif isinstance(entry, URLPattern):
                yield "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)

    routes = {r for r in walk(get_resolver().url_patterns, "") if r.startswith("/api/")}
    return routes - REFERENCE


def document() -> dict:
    schema = api.get_openapi_schema(path_prefix="/api/")
    return json.loads(json.dumps(schema, cls=DjangoJSONEncoder))  # descriptions are lazy


def operations(doc):
    for path, item in doc["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def test_it_documents_every_api_route_and_only_those():
    assert set(document()["paths"]) == api_routes()


STAFF_READS = {"/api/floor", "/api/events/{event_id}/entries/{number}/player-link"}


def test_every_operation_is_complete():
    doc = document()
    assert doc["info"]["title"] == "tdsystem API" and doc["info"]["version"] == "1"
    assert "Authorization: Bearer" in doc["info"]["description"]
    tags = set()
    for path, method, op in operations(doc):
        assert op["summary"] and op["description"] and op["tags"], (path, method)
        tags.update(op["tags"])
        named = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
        assert named == set(re.findall(r"{(\w+)}", path)), (path, method)
        if method != "get":
            assert op["security"], path
            assert set(op["responses"]) >= {"400", "401", "403", "404", "409", "415"}, path
        else:
            # Reads are public but the floor plan's, a staff page's data, and an entry's
            # link to its player's page, a secret.
            assert ("security" in op) == (path in STAFF_READS), path
    assert tags == {
        "Events and clock",
        "Seating",
        "Bust-outs and results",
        "Rulings",
        "Shot clock",
        "Players",
        "Alternates",
    }
    (scheme,) = doc["components"]["securitySchemes"].values()
    assert scheme["type"] == "http" and scheme["scheme"] == "bearer"


def test_the_body_examples_fit_their_schemas():
    for schema in (schemas.ClockActionIn, schemas.RegisterIn, schemas.HandIn, schemas.BustOutIn):
        (example,) = schema.model_config["json_schema_extra"]["examples"]
        schema.model_validate(example)


@pytest.mark.django_db
def test_each_route_answers_exactly_the_documented_methods(client, event):
    for path, item in document()["paths"].items():
        url = re.sub(r"{\w+}", "1", path.replace("{event_id}", str(event.pk)))
        for method in ("get", "post"):
            answer = getattr(client, method)(url)
            if method in item:
                assert answer.status_code != 405, (method, path)
            else:
                assert answer.status_code == 405, (method, path, answer.status_code)


@pytest.mark.django_db
def test_it_serves_the_document_and_the_reference_page_from_here(client):
    answer = client.get("/api/openapi.json")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("application/json")
    assert answer.json()["paths"] == document()["paths"]
    page = client.get("/api/docs")
    html = page.content.decode()
    assert page.status_code == 200
    assert "/static/ninja/swagger-ui-bundle.js" in html
    assert not re.search(r'<(script|link)[^>]+(src|href)="(https?:)?//', html)
    # No inline script to run: the settings are JSON data, read by a static file.
    scripts = re.findall(r"<script([^>]*)>", html)
    assert all("src=" in s or 'type="application/json"' in s for s in scripts), scripts


@pytest.mark.django_db
def test_the_public_reads_answer_exactly_what_the_selectors_give(client, event):
    full = list(range(1, 10))
    people = arrange(event, {1: full, 2: full[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    Move.objects.create(
        event=event,
        entry=people["T1S1"],
        from_table=1,
        from_seat=1,
        to_table=2,
        to_seat=9,
        reason="balance",
    )
    e = f"/api/events/{event.pk}"
    with time_machine.travel(T0, tick=False):
        pairs = [
            (client.get("/api/events"), selectors.events_listing()),
            (client.get(f"{e}/clock"), selectors.event_clock_payload(event.pk, T0)),
            (client.get(f"{e}/seats"), seat_list(event.pk)),
            (client.get(f"{e}/moves"), recent_moves(event.pk)),
            (client.get(f"{e}/results"), results_payload(event)),
        ]
    for answer, expected in pairs:
        assert answer.status_code == 200, answer.content
        assert answer.json() == json.loads(json.dumps(expected))
        assert "no-cache" in answer["Cache-Control"] and "max-age=0" in answer["Cache-Control"]
    assert client.get(f"{e}/clock").json()["moves"]  # the side panel's slips are in it


@pytest.mark.django_db
def test_the_errors_are_json_with_error_and_a_400_names_the_field(client, director_token, event):
    e = f"/api/events/{event.pk}"
    auth = {"HTTP_AUTHORIZATION": f"Bearer {director_token}"}
    answers = {
        400: client.post(f"{e}/clock", '{"action": "dance"}', "application/json", **auth),
        401: client.post(f"{e}/clock", "{}", "application/json"),
        404: client.post("/api/events/999999/draw", "{}", "application/json", **auth),
        409: client.post(f"{e}/clock", '{"action": "previous"}', "application/json", **auth),
    }
    for status, answer in answers.items():
        assert answer.status_code == status, answer.content
        body = answer.json()
        assert isinstance(body["error"], str) and body["error"]
        assert set(body) == ({"error", "field"} if status == 400 else {"error"})
    assert answers[400].json()["field"] == "action"
    assert client.get("/api/no-such-thing").json() == {"error": "no such URL: /api/no-such-thing"}


@pytest.mark.django_db
def test_a_seat_note_shows_only_when_set(client, event):
    from tdsystem.seating import services

    services.player_register(event=event, name="Ann Lee", note="from Lyon", actor=ACTOR)
    services.player_register(event=event, name="Bob", actor=ACTOR)
    seats = client.get(f"/api/events/{event.pk}/seats").json()
    assert [set(s) for s in seats] == [
        {"player", "entry", "table", "seat", "note"},
        {"player", "entry", "table", "seat"},
    ]
