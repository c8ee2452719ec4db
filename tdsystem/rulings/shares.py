"""Sharing a ruling: the hand and the engine's answer on it kept under a permanent link, for
the player who disputes it (docs/ruling-page.md, "Sharing a ruling")."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from tdsystem.core.actors import Actor
from tdsystem.engine.ruling import rule_on

from .models import SharedRuling

TOKEN_BYTES = 12  # 16 characters of a URL: no one finds a ruling by guessing


def ruling_share(*, hand: Mapping[str, Any], event_id: int | None, actor: Actor) -> SharedRuling:
    """Keep ``hand`` (the command line's shape, its ``rule_set`` included) with the engine's
    answer on it. The answer is worked out here, not taken from the page: what is kept is
    what the engine says on the hand kept. Raises ``RuleError`` for a hand it refuses."""
    ruling = rule_on(hand).as_explained_dict(messages=True)
    return SharedRuling.objects.create(
        token=secrets.token_urlsafe(TOKEN_BYTES),
        hand=dict(hand),
        ruling=ruling,
        rule_set=str(hand.get("rule_set") or "tda-2024"),
        event_id=event_id,
        created_by=actor.user,
    )


def shared_ruling(token: str) -> SharedRuling | None:
    """The ruling shared under ``token``, or None."""
    if not (0 < len(token) <= 32):
        return None
    return SharedRuling.objects.select_related("event").filter(token=token).first()
