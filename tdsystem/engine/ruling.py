"""The engine's answer for a hand: ``adjudicate`` (the command line's output, as a dict) and
``rule_on`` (the same, with the sentences a floor person reads on the ruling page).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import not_
from typing import Any

from tdsystem.engine.betting import HandState, NextAction, Note
from tdsystem.engine.errors import RuleError
from tdsystem.engine.explain import Commas, gettext_noop, note, phrase
from tdsystem.engine.pots import Pot, split_pots
from tdsystem.engine.rulesets import citation
from tdsystem.engine.spec import (
    DECLARED,
    HandSpec,
    Move,
    parse_hand,
    play_actions,
    read_actions,
    read_table,
)
from tdsystem.engine.stud import StudState


@dataclass(frozen=True, slots=True)
class PlayerResult:
    name: str
    stack: int
    committed: int  # everything put in this hand, antes included
    status: str  # "active" | "folded" | "all-in" | "eliminated" (house rule, D8)


@dataclass(frozen=True, slots=True)
class Ruling:
    street: str
    next: NextAction | None
    pots: tuple[Pot, ...]
    players: tuple[PlayerResult, ...]
    notes: tuple[Note, ...]  # what happened, in order, each with its rule
    removed_from_play: tuple[tuple[str, int], ...] = ()  # house rule of D8
    rule_set: str | None = None  # the hand's: the notes cite its numbers
    # What the actions given as chips and words counted as (D12), as the output lists them.
    counted: tuple[dict[str, Any], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """The command line's output object (the removed chips only when the house rule of
        D8 took some out of play)."""
        nxt = self.next
        out: dict[str, Any] = {
            "street": self.street,
            "next": None
            if nxt is None
            else {
                "player": nxt.player,
                "check": nxt.check,
                "call": nxt.call,
                "min_raise_to": nxt.min_raise_to,
                "max_raise_to": nxt.max_raise_to,
            },
            "pots": [{"amount": p.amount, "eligible": list(p.eligible)} for p in self.pots],
            "players": [
                {"name": p.name, "stack": p.stack, "committed": p.committed, "status": p.status}
                for p in self.players
            ],
        }
        if self.removed_from_play:
            out["removed_from_play"] = [
                {"name": name, "amount": amount} for name, amount in self.removed_from_play
            ]
        if self.counted:
            out["counted"] = [dict(entry) for entry in self.counted]
        return out

    def as_explained_dict(self, messages: bool = False) -> dict[str, Any]:
        """``as_dict`` plus the notes and the reasons behind ``next`` (the command line's
        ``explain``); with ``messages``, each note's message id and parameters too, for the
        ruling page to say it in the reader's language."""
        out = self.as_dict()
        rules = self.rule_set
        out["notes"] = [n.as_dict(messages, rules) for n in self.notes]
        if self.next is not None:
            out["next"]["reasons"] = [n.as_dict(messages, rules) for n in self.next.reasons]
        return out


def replay(spec: HandSpec) -> HandState:
    """Post the forced bets and apply every action of ``spec``; raises ``RuleError``."""
    return _replay(spec, spec.actions)


def _replay(spec: HandSpec, actions: Sequence[Move]) -> HandState:
    state = StudState(spec) if spec.game == "stud" else HandState(spec)
    # The usual actions take the short road; an action given as chips and words, or out of
    # turn (D12), the one that knows them.
    play: Callable[[str, str, Any, int], None] = (
        state.play if any(do is DECLARED for _, do, _ in actions) else state.play_plain
    )
    for index, (name, do, to) in enumerate(actions):
        play(name, do, to, index)
    return state


# The lists zipped in this module are all one per seat, so zip is called without ``strict``: a
# keyword argument sends the call down the interpreter's slow road (zip(strict=True) at
# these few places cost 13,000 instructions of an adjudicate's 353,000).


def _standing(state: HandState) -> tuple[list[tuple[int, tuple[int, ...]]], list[str]]:
    """The pots (amount, eligible seats) and each seat's status: what both the ruling and
    the command line's answer are made of."""
    folded, stack, committed, dead = state.folded, state.stack, state.committed, state.dead
    dead_money = sum(dead)
    live = [c - d for c, d in zip(committed, dead)] if dead_money else committed  # noqa: B905
    removed = state.removed
    in_hand, active, statuses = [], [], []
    for name, out, chips in zip(state.names, folded, stack):  # noqa: B905
        in_hand.append(not out)
        active.append(not out and chips > 0)
        if removed and name in removed:
            statuses.append("eliminated")
        else:
            statuses.append("folded" if out else "active" if chips else "all-in")
    return split_pots(live, in_hand, active, dead_money), statuses


def ruling_of(state: HandState, explain: bool = False) -> Ruling:
    """Where a replayed hand stands."""
    names, stack, committed = state.names, state.shown_stacks(), state.committed
    slices, statuses = _standing(state)
    pots = tuple(Pot(amount, tuple(names[i] for i in seats)) for amount, seats in slices)
    players = [
        PlayerResult(names[i], stack[i], committed[i], status) for i, status in enumerate(statuses)
    ]
    notes = tuple(state.notes)
    if explain:
        notes += _pot_notes(pots, players, state)
    return Ruling(
        street=state.street_name,
        next=state.next_action(explain),
        pots=pots,
        players=tuple(players),
        notes=notes,
        removed_from_play=tuple(state.removed.items()),
        rule_set=state.spec.rule_set,
        counted=tuple(counted_of(state)) if state.counted else (),
    )


# A seat's status when nobody is all-in, by whether it folded.
_FOLDED_OR_ACTIVE = ("active", "folded")


def answer_of(state: HandState) -> dict[str, Any]:
    """``ruling_of(state).as_dict()``, built straight from the state: the command line's
    answer, which every page's chip count asks for, without the values between."""
    names, stack, committed = state.names, state.stack, state.committed
    if 0 in stack:
        slices, statuses = _standing(state)
        pots = [
            {"amount": amount, "eligible": list(map(names.__getitem__, seats))}
            for amount, seats in slices
        ]
    else:
        # Nobody is all-in (a seat without chips is all-in, or was taken out of play with
        # them): one pot, which everyone in the hand may win, as split_pots finds.
        folded = state.folded
        total = sum(committed)
        pots = [{"amount": total, "eligible": list(compress(names, map(not_, folded)))}]
        if not total:
            pots = []
        statuses = list(map(_FOLDED_OR_ACTIVE.__getitem__, folded))
    options = state.options()
    out: dict[str, Any] = {
        "street": state.street_name,
        "next": None
        if options is None
        else {
            "player": names[options[0]],
            "check": options[1] == 0,
            "call": options[1],
            "min_raise_to": options[2],
            "max_raise_to": options[3],
        },
        "pots": pots,
        "players": [
            {"name": name, "stack": chips, "committed": put, "status": status}
            for name, chips, put, status in zip(  # noqa: B905
                names, stack if state.behind is None else state.shown_stacks(), committed, statuses
            )
        ],
    }
    if state.removed:
        out["removed_from_play"] = [
            {"name": name, "amount": amount} for name, amount in state.removed.items()
        ]
    if state.counted:
        out["counted"] = counted_of(state)
    return out


def counted_of(state: HandState) -> list[dict[str, Any]]:
    """What each action given as chips and words counted as (D12): the output's
    ``counted``, in the order of the actions, each with the rule applied (the number of the
    hand's rule set where it has one, else the rules digest's) and why."""
    out = []
    rule_set = state.spec.rule_set
    for index, name, counted in state.counted or ():
        entry: dict[str, Any] = {"action": index, "player": name, "counts_as": counted.do}
        if counted.to is not None and counted.do in ("bet", "raise", "all-in"):
            entry["to"] = counted.to
        if counted.returned:
            entry["returned"] = counted.returned
        number = citation(rule_set or "tda-2024", counted.note.cite)
        entry["rule"] = number or counted.note.rule
        entry["text"] = counted.note.text
        out.append(entry)
    return out


def _pot_notes(
    pots: tuple[Pot, ...], players: list[PlayerResult], state: HandState
) -> tuple[Note, ...]:
    notes = []
    behind = state.behind
    if behind is not None:
        for seat, kept in enumerate(behind):
            if kept and not state.stack[seat] and not state.folded[seat]:
                notes.append(
                    note(
                        "D5",
                        gettext_noop(
                            "%(name)s has put in the cap of %(cap)s: %(name)s counts as all-in "
                            "for the rest of the hand, with %(kept)s kept back (cap limit)"
                        ),
                        name=state.names[seat],
                        cap=state.spec.cap,
                        kept=kept,
                    )
                )
    all_in = [p for p in players if p.status == "all-in"]
    for k, pot in enumerate(pots[1:], start=1):
        below = set(pots[k - 1].eligible) - set(pot.eligible)
        capped = [p for p in all_in if p.name in below]
        if len(pot.eligible) == 1 and state.street >= 4:
            notes.append(
                note(
                    "D10",
                    gettext_noop(
                        "side pot %(number)s (%(chips)s) has only %(name)s in it: it is paid to "
                        "%(name)s at once"
                    ),
                    number=k,
                    chips=pot.amount,
                    name=pot.eligible[0],
                )
            )
        elif capped:
            who = Commas(
                phrase(
                    gettext_noop("%(name)s (all-in for %(chips)s)"), name=p.name, chips=p.committed
                )
                for p in capped
            )
            notes.append(
                note(
                    "D10",
                    gettext_noop(
                        "side pot %(number)s (%(chips)s) for %(players)s: %(capped)s can win from "
                        "each opponent only what they put in"
                    ),
                    number=k,
                    chips=pot.amount,
                    players=Commas(pot.eligible),
                    capped=who,
                )
            )
    if len(pots) == 1 and len(pots[0].eligible) == 1 and state.street == 5:
        notes.append(
            note(
                "D2",
                gettext_noop("everyone else folded: %(name)s wins %(chips)s"),
                name=pots[0].eligible[0],
                chips=pots[0].amount,
            )
        )
    return tuple(notes)


def rule_on(hand: Mapping[str, Any] | HandSpec) -> Ruling:
    """The ruling on a hand (the command line's JSON shape or a ``HandSpec``), with notes
    and the reasons behind the next player's options. Raises ``RuleError``."""
    spec = hand if isinstance(hand, HandSpec) else parse_hand(hand)
    try:
        state = replay(spec)
    except RuleError as err:
        raise err.in_set(spec.rule_set) from None
    return ruling_of(state, explain=True)


def adjudicate(hand: Mapping[str, Any] | HandSpec) -> dict[str, Any]:
    """Exactly the command line's output object for ``hand``. Raises ``RuleError``."""
    if isinstance(hand, HandSpec):
        try:
            return answer_of(replay(hand))
        except RuleError as err:
            raise err.in_set(hand.rule_set) from None
    # Read for the replay alone: each action handed to it as it is read, without an Action
    # made for each or a second pass over them; a bad action is refused first all the same.
    spec, entries = read_table(hand)
    try:
        state = StudState(spec) if spec.game == "stud" else HandState(spec)
    except RuleError as err:
        read_actions(entries)
        raise err.in_set(spec.rule_set) from None
    try:
        play_actions(entries, state.play_plain, state.play)
    except RuleError as err:
        raise err.in_set(spec.rule_set) from None
    return answer_of(state)


__all__ = [
    "PlayerResult",
    "RuleError",
    "Ruling",
    "adjudicate",
    "answer_of",
    "replay",
    "rule_on",
    "ruling_of",
]
