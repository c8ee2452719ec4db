"""The API reference: the OpenAPI document as JSON, and as an HTML page rendered here."""

from __future__ import annotations

import json
import re

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET

from . import openapi
from .network import public_url

METHODS = ("get", "post", "put", "patch", "delete")
EXAMPLE_IDS = {"event_id": 1, "number": 5, "move_id": 913, "bustout_id": 21}


@require_GET
def openapi_json(request: HttpRequest) -> JsonResponse:
    return JsonResponse(openapi.document(), json_dumps_params={"indent": 1})


@require_GET
def api_docs(request: HttpRequest) -> HttpResponse:
    doc = openapi.document()
    base = public_url()  # the examples are run from other machines, not from this page's Host
    areas = [
        {"name": tag["name"], "description": tag["description"], "operations": []}
        for tag in doc["tags"]
    ]
    by_name = {area["name"]: area for area in areas}
    for path, item in doc["paths"].items():
        for method in METHODS:
            if method in item:
                op = _operation(doc, base, path, method, item[method])
                by_name[item[method]["x-area"]]["operations"].append(op)
    info = doc["info"] | {"description": prose(doc["info"]["description"])}
    bodies = set(openapi.BODIES)
    schemas = [
        {"name": name, "fields": fields(doc, schema)}
        for name, schema in doc["components"]["schemas"].items()
        if name not in bodies and schema.get("properties")
    ]
    context = {"info": info, "areas": [a for a in areas if a["operations"]], "schemas": schemas}
    return render(request, "core/api_docs.html", context)


def _operation(doc: dict, base: str, path: str, method: str, op: dict) -> dict:
    anchor = f"{method}-{path.strip('/').replace('/', '-').replace('{', '').replace('}', '')}"
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
    return {
        "anchor": anchor,
        "method": method.upper(),
        "path": path,
        "summary": op["summary"],
        "description": prose(op["description"]),
        "right": op.get("x-right"),
        "parameters": [
            {
                "name": p["name"],
                "where": p["in"],
                "type": describe(doc, p["schema"]),
                "description": p.get("description", ""),
            }
            for p in op.get("parameters", [])
        ],
        "fields": fields(doc, body["schema"]) if body else None,
        "responses": [
            {"code": code, **_response(doc, answer)} for code, answer in op["responses"].items()
        ],
        "curl": curl(base, path, method, op, body.get("example")),
    }


def prose(text: str) -> SafeString:
    """Escaped text with `code` spans, the only markup the document's descriptions use."""
    return mark_safe(re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(text)))


def _response(doc: dict, answer: dict) -> dict:
    answer = openapi.resolve(doc, answer)
    media = answer.get("content", {})
    schema = next(iter(media.values()), {}).get("schema")
    example = next(iter(media.values()), {}).get("example")
    named = (schema or {}).get("items", schema) or {}
    return {
        "description": prose(answer["description"]),
        "type": describe(doc, schema) if schema else "",
        "schema": named["$ref"].rsplit("/", 1)[-1] if "$ref" in named else None,
        "example": json.dumps(example) if example is not None else "",
    }


def fields(doc: dict, schema: dict) -> list[dict]:
    """One row per body field: name, type with its constraints, required, description."""
    schema = openapi.resolve(doc, schema)
    required = set(schema.get("required", []))
    return [
        {
            "name": name,
            "type": describe(doc, prop),
            "required": name in required,
            "description": prose(prop.get("description", "")),
        }
        for name, prop in schema.get("properties", {}).items()
    ]


def describe(doc: dict, schema: dict) -> str:
    """A schema in a few words: `integer ≥ 1`, `array of Move`, `string, one of a | b`."""
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    if "anyOf" in schema:
        return " or ".join(describe(doc, s) for s in schema["anyOf"])
    if "const" in schema:
        return json.dumps(schema["const"])
    kind = schema.get("type", "any")
    text = " or ".join(kind) if isinstance(kind, list) else kind
    if kind == "array":
        text = f"array of {describe(doc, schema.get('items', {}))}"
    elif kind == "object" and "additionalProperties" in schema:
        text = f"object of {describe(doc, schema['additionalProperties'])}"
    limits = []
    if "enum" in schema:
        limits.append("one of " + " | ".join(str(v) for v in schema["enum"]))
    for key, sign in (("minimum", "≥"), ("maximum", "≤")):
        if key in schema:
            limits.append(f"{sign} {schema[key]}")
    for key, word in (("minLength", "min length"), ("maxLength", "max length")):
        if key in schema:
            limits.append(f"{word} {schema[key]}")
    for key, word in (("minItems", "min items"), ("maxItems", "max items")):
        if key in schema:
            limits.append(f"{word} {schema[key]}")
    if "format" in schema:
        limits.append(schema["format"])
    return ", ".join([text, *limits])


def curl(base: str, path: str, method: str, op: dict, example) -> str:
    url = base + path
    for name, value in EXAMPLE_IDS.items():
        url = url.replace("{" + name + "}", str(value))
    if method == "get":
        return f"curl -s {url}"
    lines = [f"curl -s -X {method.upper()} {url}"]
    if op.get("security"):
        lines.append('-H "Authorization: Bearer $TOKEN"')
    lines.append("-H 'Content-Type: application/json'")
    lines.append(f"-d '{json.dumps(example if example is not None else {})}'")
    return " \\\n     ".join(lines)
