"""The OpenAPI document's schemas put to work in tests: a checker and hypothesis strategies.

Only the JSON Schema keywords the document uses are understood; an unknown keyword fails
loudly, so the document cannot grow one that these tests silently ignore.
"""

from __future__ import annotations

import re

from hypothesis import strategies as st

from tdsystem.core.openapi import document, resolve

KNOWN = {
    "$ref", "type", "properties", "required", "items", "enum", "const", "anyOf", "minimum",
    "maximum", "minLength", "maxLength", "minItems", "maxItems", "pattern", "format",
    "description", "examples", "additionalProperties", "propertyNames",
}  # fmt: skip
TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}


def _is(kind: str, value) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, TYPES[kind])


def problems(schema: dict, value, doc: dict | None = None, where: str = "$") -> list[str]:
    """Where `value` breaks `schema` (empty when it fits)."""
    doc = doc or document()
    schema = resolve(doc, schema)
    unknown = set(schema) - KNOWN
    assert not unknown, f"the checker does not know {unknown}"
    if "anyOf" in schema:
        options = [problems(s, value, doc, where) for s in schema["anyOf"]]
        return [] if any(not o for o in options) else options[0]
    found = []
    kinds = schema.get("type")
    if kinds is not None:
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if not any(_is(k, value) for k in kinds):
            return [f"{where}: {value!r} is not {' or '.join(kinds)}"]
    if "const" in schema and value != schema["const"]:
        found.append(f"{where}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: {value!r} not in {schema['enum']}")
    if _is("number", value):
        if value < schema.get("minimum", value):
            found.append(f"{where}: {value} < {schema['minimum']}")
        if value > schema.get("maximum", value):
            found.append(f"{where}: {value} > {schema['maximum']}")
    if isinstance(value, str):
        if not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", len(value)):
            found.append(f"{where}: length {len(value)} out of bounds")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            found.append(f"{where}: {value!r} does not match {schema['pattern']}")
    if isinstance(value, list):
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
            found.append(f"{where}: {len(value)} items out of bounds")
        for i, item in enumerate(value):
            found += problems(schema.get("items", {}), item, doc, f"{where}[{i}]")
    if isinstance(value, dict):
        for name in schema.get("required", []):
            if name not in value:
                found.append(f"{where}: {name} is missing")
        properties = schema.get("properties", {})
        for name, item in value.items():
            if name in properties:
                found += problems(properties[name], item, doc, f"{where}.{name}")
            elif isinstance(schema.get("additionalProperties"), dict):
                found += problems(schema["additionalProperties"], item, doc, f"{where}.{name}")
            if "propertyNames" in schema:
                found += problems(schema["propertyNames"], name, doc, f"{where} key")
    return found


# Values JSON can hold, from plain to hostile: huge and negative numbers, odd unicode
# (NUL, surrogate-free astral characters, right-to-left marks), deep nesting.
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([0, -1, 2**31, 2**63, -(2**63) - 1, 10**30, -(10**30)]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(["", " ", "\x00", "1", "-1", "١٢", "\u202e", "😀" * 40, "x" * 300]),
)
ANY_JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def from_schema(schema: dict, doc: dict | None = None) -> st.SearchStrategy:
    """Values that fit the schema (closely enough to reach the views' deeper checks)."""
    doc = doc or document()
    schema = resolve(doc, schema)
    if "anyOf" in schema:
        return st.one_of([from_schema(s, doc) for s in schema["anyOf"]])
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type", "string" if "pattern" in schema else None)
    if isinstance(kind, list):
        return st.one_of([from_schema({**schema, "type": k}, doc) for k in kind])
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        return st.integers(schema.get("minimum"), schema.get("maximum"))
    if kind == "string":
        if "pattern" in schema:
            return st.from_regex(schema["pattern"], fullmatch=True)
        return st.text(min_size=schema.get("minLength", 0), max_size=schema.get("maxLength", 40))
    if kind == "array":
        return st.lists(
            from_schema(schema.get("items", {}), doc),
            min_size=schema.get("minItems", 0),
            max_size=schema.get("maxItems", 5),
        )
    if kind == "object":
        properties = schema.get("properties", {})
        if not properties and isinstance(schema.get("additionalProperties"), dict):
            keys = from_schema(schema.get("propertyNames", {"type": "string"}), doc)
            return st.dictionaries(keys, from_schema(schema["additionalProperties"], doc))
        required = set(schema.get("required", []))
        return st.fixed_dictionaries(
            {name: from_schema(s, doc) for name, s in properties.items() if name in required},
            optional={
                name: from_schema(s, doc) for name, s in properties.items() if name not in required
            },
        )
    return ANY_JSON


def near_schema(schema: dict, doc: dict | None = None) -> st.SearchStrategy:
    """Objects with the schema's field names, each value either fitting or any JSON at all."""
    doc = doc or document()
    schema = resolve(doc, schema)
    fields = {
        name: st.one_of(from_schema(s, doc), ANY_JSON)
        for name, s in schema.get("properties", {}).items()
    }
    return st.fixed_dictionaries({}, optional=fields)
