"""The OpenAPI document covers every /api/ route exactly, and the reference pages serve it."""

from __future__ import annotations

import json
import re

import pytest
from django.test import override_settings
from django.urls import URLPattern, URLResolver, get_resolver

from tdsystem.core.network import public_url
from tdsystem.core.openapi import AREAS, document, resolve
from tdsystem.seating.models import Entry, Move
from tdsystem.seating.testing import ACTOR, arrange
from tests.fixtures import make_event

from .schemas import problems

URLCONF = "tests.api.urls"
METHODS = ("get", "post", "put", "patch", "delete")


def api_routes(urlconf: str | None = None) -> set[str]:
    """Every /api/ route of a urlconf, in OpenAPI's spelling (`{event_id}`)."""

    def walk(patterns, prefix: str):
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                yield from walk(entry.url_patterns, route)
            elif isinstance(entry, URLPattern):
                yield "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)

    return {r for r in walk(get_resolver(urlconf).url_patterns, "") if r.startswith("/api/")}


def operations(doc):
    for path, item in doc["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def refs(node):
    if isinstance(node, dict):
        if "$ref" in node:
            yield node["$ref"]
        for value in node.values():
            yield from refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs(value)


def test_it_documents_every_api_route_of_the_project():
    documented = set(document()["paths"])
    missing = api_routes() - documented
    assert not missing, f"undocumented API routes: {sorted(missing)}"


def test_it_documents_only_routes_that_exist():
    assert set(document()["paths"]) == api_routes(URLCONF)


def test_every_reference_resolves_and_every_operation_is_complete():
    doc = document()
    assert doc["openapi"].startswith("3.1")
    for ref in refs(doc):
        assert resolve(doc, {"$ref": ref}) is not None, ref
    areas = {name for name, _ in AREAS}
    for path, method, op in operations(doc):
        assert op["summary"] and op["description"] and op["x-area"] in areas, (path, method)
        named = {p["name"] for p in op["parameters"] if p["in"] == "path"}
        assert named == set(re.findall(r"{(\w+)}", path)), (path, method)
        if op["security"]:
            assert set(op["responses"]) >= {"400", "401", "403", "404", "409"}, path
            assert "requestBody" in op and op["x-right"], path
    assert doc["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    json.dumps(doc)


def test_the_body_examples_fit_their_schemas():
    doc = document()
    for path, method, op in operations(doc):
        media = op.get("requestBody", {}).get("content", {}).get("application/json")
        if media and "example" in media:
            assert not problems(media["schema"], media["example"], doc), (path, method)


@pytest.mark.django_db
@override_settings(ROOT_URLCONF=URLCONF)
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
@override_settings(ROOT_URLCONF=URLCONF)
def test_it_serves_the_document_as_json(client):
    answer = client.get("/api/openapi.json")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    assert answer.json() == json.loads(json.dumps(document()))


@pytest.mark.django_db
@override_settings(ROOT_URLCONF=URLCONF)
def test_the_reference_page_lists_every_operation_with_its_body_fields(client):
    answer = client.get("/api/docs")
    html = answer.content.decode()
    assert answer.status_code == 200
    for path, _method, op in operations(document()):
        assert f"<code>{path}</code>" in html and op["summary"] in html
    for field in ("action", "seconds", "name", "member_id", "seed", "entries", "stacks"):
        assert f"<code>{field}</code>" in html
    assert f"curl -s -X POST {public_url('/api/events/1/bustouts')}" in html
    assert "Authorization: Bearer $TOKEN" in html
    assert 'id="schema-BustOutRecorded"' in html and 'href="#schema-BustOutRecorded"' in html
    # Served from here alone: no script or stylesheet from another host.
    assert not re.search(r'<(script|link)[^>]+(src|href)="https?://', html)


# Real answers against the documented schemas: one success of each operation.


def check(answer, status: int, path: str, method: str):
    doc = document()
    assert answer.status_code == status, answer.content
    schema = doc["paths"][path][method]["responses"][str(status)]
    schema = schema["content"]["application/json"]["schema"]
    found = problems(schema, answer.json(), doc)
    assert not found, found
    return answer.json()


def post(client, url, token, body=None):
    return client.post(
        url, json.dumps(body or {}), "application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )


@pytest.mark.django_db
@override_settings(ROOT_URLCONF=URLCONF)
def test_the_answers_fit_the_documented_schemas(client, director_token, event):
    full = list(range(1, 10))
    people = arrange(event, {1: full, 2: full[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    e = f"/api/events/{event.pk}"
    ev = "/api/events/{event_id}"
    check(client.get("/api/events"), 200, "/api/events", "get")
    check(client.get(f"{e}/clock"), 200, ev + "/clock", "get")
    other = make_event(600, name="Other").pk
    registered = post(client, f"/api/events/{other}/entries", director_token, {"name": "Sam"})
    check(registered, 201, ev + "/entries", "post")
    clock = post(client, f"{e}/clock", director_token, {"action": "start"})
    check(clock, 200, ev + "/clock", "post")
    check(client.get(f"{e}/seats"), 200, ev + "/seats", "get")
    hand = post(client, f"{e}/tables/1/hand", director_token, {"hand": 0})
    check(hand, 200, ev + "/tables/{number}/hand", "post")
    out = post(client, f"{e}/entries/{people['T2S4'].number}/eliminate", director_token)
    check(out, 200, ev + "/entries/{number}/eliminate", "post")
    check(client.get(f"{e}/moves"), 200, ev + "/moves", "get")
    move = Move.objects.filter(event=event).first()
    ack = post(client, f"{e}/moves/{move.pk}/ack", director_token)
    check(ack, 200, ev + "/moves/{move_id}/ack", "post")
    bust = post(client, f"{e}/bustouts", director_token, {"entries": [people["T1S9"].number]})
    recorded = check(bust, 201, ev + "/bustouts", "post")
    undo = post(client, f"{e}/bustouts/{recorded['bustout']}/undo", director_token)
    check(undo, 200, ev + "/bustouts/{bustout_id}/undo", "post")
    check(client.get(f"{e}/results"), 200, ev + "/results", "get")
    for code, answer in [
        ("400", post(client, f"{e}/clock", director_token, {"action": "dance"})),
        ("401", client.post(f"{e}/clock", "{}", "application/json")),
        ("404", post(client, "/api/events/999999/draw", director_token)),
        ("409", post(client, f"{e}/entries/{people['T2S4'].number}/eliminate", director_token)),
    ]:
        assert answer.status_code == int(code), answer.content
        assert not problems({"$ref": "#/components/schemas/Error"}, answer.json())
    assert Entry.objects.filter(event=event).count() == 17


@pytest.mark.django_db
@override_settings(ROOT_URLCONF=URLCONF)
def test_a_draw_answers_as_documented(client, director_token, event):
    from tdsystem.seating import services

    services.tables_setup(event=event, numbers=[1, 2], seats=9, actor=ACTOR)
    services.players_import(event_id=event.pk, names=["Ann", "Bob", "Cy"], actor=ACTOR)
    answer = post(client, f"/api/events/{event.pk}/draw", director_token, {"seed": 7})
    assert check(answer, 200, "/api/events/{event_id}/draw", "post") == {"seated": 3}
