"""Rulings: the rules engine's answer on a hand, citing the rule set's numbers, and the
rulings the floor shared (docs/api.md, "Rulings")."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from ninja import Field, Router, Schema
from pydantic import ConfigDict

from tdsystem.core.actors import Actor
from tdsystem.engine.errors import RuleError
from tdsystem.engine.ruling import rule_on
from tdsystem.rulings.shares import ruling_share, shared_ruling

from .auth import AuthedRequest, StaffToken
from .common import WRITE_ERRORS, event_found
from .errors import NotFound
from .schemas import INT64, Error, Out

router = Router(tags=["Rulings"], exclude_unset=True)

# The body of a ruling request; the hand itself is the rules engine's input and the engine
# checks it, field by field, as its command line does (docs/engine.md).


class RulingIn(Schema):
    hand: dict[str, Any] = Field(
        description=gettext_noop(
            "the hand as the rules engine's command line reads it (docs/engine.md): an object"
        ),
    )
    event: int | None = Field(
        None,
        strict=True,
        ge=1,
        le=INT64,
        description=gettext_noop(
            "an event's id: the hand follows its rule set when it names none, and a shared "
            "ruling belongs to it"
        ),
    )
    share: bool = Field(
        False,
        strict=True,
        description=gettext_noop("true: keep the ruling under a permanent link (link)"),
    )

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "hand": {
                        "structure": "no-limit",
                        "blinds": [4, 8],
                        "players": [
                            {"name": "Ellen", "stack": 500},
                            {"name": "Bob", "stack": 500},
                            {"name": "Alice", "stack": 8},
                            {"name": "Dianne", "stack": 500},
                        ],
                        "actions": [{"player": "Dianne", "do": "raise", "to": 12}],
                    },
                    "share": True,
                }
            ]
        }
    )


class RulingOut(Out):
    rule_set: str = Field(description="The rule set the ruling cites (tda-2024, ...).")
    ruling: dict[str, Any] = Field(
        description="The engine's explained answer (`explain`): street, next with its "
        "reasons, pots, players, notes; each note and reason has `rule` (the rules digest's "
        "number, or the set's where it numbers the rule), `text`, and `cite` (the number in "
        "the rule set) where the set gives one."
    )
    link: str | None = Field(description="The shared ruling's permanent page; null unless shared.")


class SharedOut(Out):
    rule_set: str
    event: int | None
    created_at: str = Field(description="When it was shared (ISO 8601).")
    hand: dict[str, Any]
    ruling: dict[str, Any] = Field(description="The answer as it was given then.")
    link: str


@router.post(
    "/rulings",
    auth=StaffToken("ruling"),
    response={200: RulingOut, **WRITE_ERRORS},
    url_name="rulings",
    summary="Rule on a hand",
    description="The rules engine's answer on `hand` with the reasons and notes a floor "
    "reads out, each citing its number in the hand's rule set (`hand.rule_set`, else the "
    "event's, else TDA 2024). 400 with `field` `hand` and the engine's message when the "
    "engine cannot read the hand (a field it refuses); 409 with the engine's message when "
    "an action breaks the rules (`action 2: Carol may not raise to 10: ...`). "
    "With `share`, the ruling is kept under a permanent page (`link`) that anyone with the "
    "link may read, at `GET /api/rulings/{token}` too.",
)
def ruling_create(request: AuthedRequest, payload: RulingIn):
    event = event_found(payload.event) if payload.event is not None else None
    hand = dict(payload.hand)
    if "rule_set" not in hand or hand["rule_set"] is None:
        hand["rule_set"] = event.rule_set if event is not None else "tda-2024"
    try:
        if payload.share:
            kept = ruling_share(
                hand=hand, event_id=event.pk if event else None, actor=Actor.of(request.auth)
            )
            ruling, link = kept.ruling, _link(request, kept.token)
        else:
            ruling, link = rule_on(hand).as_explained_dict(), None
    except RuleError as err:
        if err.action_index is not None:  # the hand reads, the rules refuse an action: 409
            raise ValueError(str(err)) from None
        raise _Refused(str(err)) from None
    _drop_messages(ruling)
    return {"rule_set": hand["rule_set"], "ruling": ruling, "link": link}


@router.get(
    "/rulings/{token}",
    response={200: SharedOut, 404: Error},
    url_name="ruling_shared",
    summary="Read a shared ruling",
    description="A ruling the floor shared, as it was given: the hand, the rule set and the "
    "answer. Public, as its page is: the token is the link's secret.",
)
def ruling_read(request: HttpRequest, token: str):
    kept = shared_ruling(token)
    if kept is None:
        raise NotFound(_("no shared ruling %(token)s") % {"token": token[:40]})
    ruling = dict(kept.ruling)
    _drop_messages(ruling)
    return {
        "rule_set": kept.rule_set,
        "event": kept.event_id,
        "created_at": kept.created_at.isoformat(),
        "hand": kept.hand,
        "ruling": ruling,
        "link": _link(request, kept.token),
    }


class _Refused(ValueError):
    """The engine refused the hand: a 400 on the field `hand` (the API's error contract)."""

    field = "hand"


def _link(request: HttpRequest, token: str) -> str:
    return request.build_absolute_uri(reverse("rulings:shared", args=[token]))


def _drop_messages(ruling: dict[str, Any]) -> None:
    """The notes as the command line's `explain` gives them (the message ids and their
    parameters are the pages' way to translate them)."""
    ruling["notes"] = [_plain(n) for n in ruling.get("notes", ())]
    nxt = ruling.get("next")
    if nxt:
        ruling["next"] = {**nxt, "reasons": [_plain(n) for n in nxt["reasons"]]}


def _plain(note: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in note.items() if k in ("rule", "text", "cite")}
