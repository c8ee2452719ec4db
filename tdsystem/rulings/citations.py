"""The engine words its notes for the command line and cites the TDA 2024 numbers there
("TDA 54-B"). When the page knows the event, each number becomes the one the event's rule
set gives the same rule ("TDA 54-B" stays; "TDA 34-B" reads "TDA 36-B" under TDA 2026 and
"WSOP R87" under WSOP 2026); the engine stays free of events."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from tdsystem.engine import rulesets

_ENGINE_SET = rulesets.rule_set(rulesets.TDA_2024)
# "TDA 54-B" -> "pot_limit_blinds"; the numbered concepts of the set the engine cites.
_CONCEPT_OF = {
    _ENGINE_SET.cite(concept): concept
    for concept in rulesets.CONCEPTS
    if _ENGINE_SET.citations.get(concept)
}
_CITATION = re.compile(r"\bTDA (?:RP-)?\d+(?:-[A-Z])?(?![\w-])")


def cite_for(text: str, rules) -> str:
    """`text` with each TDA 2024 number the engine wrote replaced by the one ``rules`` (an
    event or a rule set: anything with ``cite(concept)``) gives the same rule."""

    def swap(match: re.Match[str]) -> str:
        concept = _CONCEPT_OF.get(match.group(0))
        return rules.cite(concept) if concept else match.group(0)

    return _CITATION.sub(swap, text)


def _notes(notes: list[dict[str, Any]], rules) -> list[dict[str, Any]]:
    return [{**note, "text": cite_for(note["text"], rules)} for note in notes]


def workspace_cited(context: dict[str, Any], rules) -> dict[str, Any]:
    """The ruling page's context with the notes, the reasons and the problems citing the
    rule set ``rules`` (the event's, or the one chosen on the page)."""
    show = context.get("show")
    if show:
        show = {**show, "notes": _notes(show["notes"], rules)}
        if show.get("next"):
            show["next"] = {**show["next"], "reasons": _notes(show["next"]["reasons"], rules)}
    problems = [replace(p, message=cite_for(p.message, rules)) for p in context["problems"]]
    return {**context, "show": show, "problems": problems}
