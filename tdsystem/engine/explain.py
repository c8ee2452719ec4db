"""The sentences of a ruling: what happened and why the next player may do what they may.

Each ``Note`` carries the rule it applies, by the project's numbering ("D8"), for the staff
ruling page; the figures they quote are worked out in ``tdsystem.engine.betting``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tdsystem.engine.spec import PREFLOP

if TYPE_CHECKING:
    from tdsystem.engine.betting import HandState


@dataclass(frozen=True, slots=True)
class Note:
    """One sentence of a ruling, with the rule it applies ("D8")."""

    rule: str
    text: str


def short_all_in_note(state: HandState, seat: int, to: int, full: int) -> Note:
    """An all-in wager short of a full one: who it shuts out and who it reopens for."""
    name, reopen = state.names[seat], state.reopen_size()
    kind = "raise" if any(state.bet[j] for j in range(state.n) if j != seat) else "bet"
    shut: list[str] = []
    reopened: list[str] = []
    for j in range(state.n):
        if j != seat and state.acted[j] and not state.folded[j] and state.stack[j]:
            closed = state.level - state.acted_level[j] < reopen
            (shut if closed else reopened).append(state.names[j])
    text = f"{name}'s all-in for {to} is not a full {kind} (that is to {full})"
    if shut:
        text += f": betting is not reopened for {', '.join(shut)}"
    if reopened:
        who = ", ".join(reopened)
        verb, whom = ("faces", reopened[0]) if len(reopened) == 1 else ("face", "them")
        text += (
            f"{'; ' if shut else ': '}with the all-ins before it, {who} now {verb} a full "
            f"raise, so the betting is reopened for {whom}"
        )
    return Note("D9", text)


def partial_ante_notes(names: list[str], short: list[tuple[int, int]], ante: int) -> list[Note]:
    """D8: each player all-in for part of the ante (``short``: seat and chips paid) caps a
    pot at what they paid, taken from every player: the smallest is the main pot, each larger
    one a side pot over the one below, which the players below it cannot win."""
    levels = sorted({paid for _, paid in short})
    notes = []
    for seat, paid in sorted(short, key=lambda item: (item[1], item[0])):
        k = levels.index(paid)
        rest = "a side pot" if k == len(levels) - 1 else "side pots"
        text = f"{names[seat]} is all-in for the ante ({paid} of {ante}): "
        if k == 0:
            text += f"the main pot takes {paid} from every player"
        else:
            below = _and([names[j] for j, chips in short if chips < paid])
            text += f"side pot {k} takes {paid - levels[k - 1]} more from every player but {below}"
        notes.append(Note("D8", f"{text}, the rest of the antes and all bets go to {rest}"))
    return notes


def block_note(state: HandState, seat: int, block: str) -> Note:
    """Why ``seat`` may not bet or raise (``block``: a code from ``HandState``)."""
    name = state.names[seat]
    if block == "short":
        return Note("D3", f"{name} has no chips beyond a call (table stakes)")
    if block == "not-reopened":
        return Note(
            "D9",
            f"{name} has already acted and the all-ins since add up to less than a full "
            f"raise ({state.level - state.acted_level[seat]} of {state.reopen_size()}): the "
            "betting is not reopened",
        )
    if block == "capped":
        return Note("D5", f"the betting is capped at one bet and {state.raises} raises")
    return Note("D9", _nobody_to_answer(state, seat))


def _nobody_to_answer(state: HandState, seat: int) -> str:
    """Why no raise is possible: every other player still in the hand is all-in, or has
    no more than the bet, so could only call (D9)."""
    all_in: list[str] = []
    callers: list[str] = []
    totals: list[str] = []
    for j in range(state.n):
        if j == seat or state.folded[j]:
            continue
        if state.stack[j]:
            callers.append(state.names[j])
            totals.append(str(state.bet[j] + state.stack[j]))
        else:
            all_in.append(state.names[j])
    if not callers:
        return f"every other player still in the hand is all-in ({_and(all_in)}): no more raising"
    verb = "is" if len(all_in) == 1 else "are"
    why = f"{_and(callers)} can at most call, with {_and(totals)} for the round"
    if all_in:
        why += f"; {_and(all_in)} {verb} all-in"
    return f"nobody left could call a raise ({why}): no more raising"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def option_reasons(
    state: HandState, seat: int, call: int, block: str | None, low: int | None, high: int | None
) -> tuple[Note, ...]:
    """The reasons behind the options of the player to act: the call, the minimum and the
    maximum raise, or why there is no raise."""
    name, level, reasons = state.names[seat], state.level, []
    # The full-blind note explains a call of the full blind; a call capped below it (by an
    # opponent who cannot match more) needs no such note.
    if (
        call
        and state.virtual_note is not None
        and level > max(state.bet)
        and state.bet[seat] + call >= level
    ):
        reasons.append(state.virtual_note)
    if block is not None:
        reasons.append(block_note(state, seat, block))
        return tuple(reasons)
    assert low is not None and high is not None
    total = state.bet[seat] + state.stack[seat]
    if state.acted[seat] and state.last_full_seq <= state.acted_seq[seat]:
        reasons.append(
            Note(
                "D9",
                f"the all-ins since {name} acted add up to a full raise "
                f"({level - state.acted_level[seat]} of {state.reopen_size()}): the betting "
                f"is reopened for {name}",
            )
        )
    if state.fixed:
        size = state.bet_sizes[state.street >= 2]
        what = "raise is to" if level else "bet is"
        text = f"fixed limit: bets and raises go up by {size}, so the {what} {low}"
        if low == total and low < state.full_level + size:
            text = (
                f"{name} may go all-in for {low}, short of a full "
                f"{'raise' if level else 'bet'} to {state.full_level + size} (table stakes)"
            )
        reasons.append(Note("D5", text))
        return tuple(reasons)
    if low == total and low < level + state.increment:
        reasons.append(
            Note("D3", f"{name} may go all-in for {low}, short of a full raise (table stakes)")
        )
    elif not level:
        reasons.append(Note("D3", f"the minimum bet is the big blind, {low}"))
    else:
        base = "the largest full bet or raise this round"
        if state.street == PREFLOP and state.increment == state.big_blind:
            base = "the big blind, which counts as the opening bet"
        reasons.append(
            Note(
                "D3",
                f"the minimum raise is to {low}: the bet of {level} plus {state.increment}, {base}",
            )
        )
    if not state.pot_limit:
        reasons.append(Note("D3", f"no limit: the most is all {total} chips"))
    elif high == total and total < level + state.pot_after_call(seat):
        reasons.append(Note("D4", f"the pot-limit maximum is more than {name}'s {total}: all-in"))
    else:
        extra = ""
        dead_sb = state.spec.dead_small_blind  # no small blind seat: counted, never short
        sb_short = 0 if dead_sb else state.sb_shortfall
        if state.street == PREFLOP and (state.shortfall or sb_short):
            which = (
                "blinds count"
                if state.shortfall and sb_short
                else "big blind counts"
                if state.shortfall
                else "small blind counts"
            )
            extra = f"; the short {which} in full (TDA 54-B)"
        if state.street == PREFLOP and dead_sb:
            extra += "; the dead small blind counts as if posted (TDA 54-B)"
        if (
            state.street == PREFLOP
            and state.spec.pot_limit_preflop == "assumed-call"
            and state.sb_seat is not None
        ):
            extra += "; the small blind is counted as called (assumed call)"
        reasons.append(
            Note(
                "D4",
                f"the pot-limit maximum is to {high}: the {level} faced plus the whole pot "
                f"after the call, {high - level} (antes and dead money included){extra}",
            )
        )
    return tuple(reasons)
