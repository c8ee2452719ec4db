"""Seven-card stud betting: antes, the bring-in, and five fixed-limit streets (D1, D5).

The engine deals no cards, so the floor names who acts first: the player with the lowest
card showing posts the bring-in (``bring_in_player``) and, on each later street, the player
with the best hand showing opens the betting (``first_to_act``). Everything else is the
fixed-limit betting of the blind games (``HandState``): the raise cap and its heads-up
exception, short all-ins under the full-bet or half-bet rule, and the pots.

- Third street: every player antes, then the bring-in is posted (a forced bet smaller than
  the small bet). The next player clockwise acts first; each may call the bring-in or
  *complete* it to the small bet, which counts as the bet, not as a raise (D5). When every
  player calls the bring-in the round is over: the bring-in has no option as a big blind
  has. The bring-in may open for the full small bet instead (``bring_in_completes``).
- Fourth street is played at the small bet, fifth to seventh at the big bet.
- A player named to open a later street who is all-in passes the first action to the next
  player with chips, clockwise.
- A short stack pays the ante first, then the bring-in; a short bring-in still leaves the
  full bring-in owed, as a short big blind does (D8).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tdsystem.engine.betting import HandState, NextAction, clockwise
from tdsystem.engine.errors import RuleError
from tdsystem.engine.explain import Note, all_in_note, gettext_noop, note, partial_ante_notes
from tdsystem.engine.spec import SHOWDOWN, STREETS, STUD_STREETS, HandSpec

__all__ = ["STUD_STREETS", "StudState"]

# The shared betting code reads ``street`` on the blind games' scale: below 2 the small bet,
# from 2 the big bet; SHOWDOWN and COMPLETE as there. ``round`` counts the stud streets.
_SCALE = (0, 1, 2, 2, 2)


class StudState(HandState):
    """A seven-card stud hand being replayed; ``HandState``'s interface, stud's forced bets
    and order of action. ``waiting`` is true while a street is open and the floor has not
    named its first player (``next_action()`` is then None)."""

    __slots__ = ("bring_in_seat", "round", "waiting")

    def __init__(self, spec: HandSpec) -> None:
        n = len(spec.players)
        self.spec = spec
        self.n = n
        self.names = [p.name for p in spec.players]
        self.seat_of = {name: i for i, name in enumerate(self.names)}
        self.clockwise = clockwise(n)
        self.stack = [p.stack for p in spec.players]
        self.bet = [0] * n
        self.committed = [0] * n
        self.dead = [0] * n  # stud antes are live chips, like traditional antes
        self.folded = [False] * n
        self.acted: list[int] = [False] * n
        self.acted_level = [0] * n
        self.removed: dict[str, int] = {}
        self.counted = None
        self.held = None
        self.street = 0
        self.round = 0
        self.waiting = False
        self.actor: int | None = None
        self.fixed, self.pot_limit, self.spread, self.behind = True, 0, None, None
        self.extras = False  # stud takes none of the blind games' later fields
        self.bet_sizes = spec.limit_bets
        self.big_blind = spec.bring_in  # the forced bet of the first round
        self.notes: list[Note] = []
        self.virtual_note: Note | None = None
        self.fulls = 1
        self.first_seat = 0
        self.sb_seat: int | None = None
        assert spec.bring_in_player is not None  # HandSpec checked it
        seat = self.bring_in_seat = self.bb_seat = self.seat_of[spec.bring_in_player]
        self.shortfall = self.sb_shortfall = 0
        self.in_hand = n
        self.raises = 0
        self.increment = spec.bring_in
        self._post_stud_forced_bets(seat)
        self.top_bet = max(self.bet)
        self._count_live()
        self.cap_applies = self._cap_applies()
        self.actor = self._next_pending((seat + 1) % n)
        if self.actor is None:
            self._end_round()

    def _post_stud_forced_bets(self, seat: int) -> None:
        spec, names = self.spec, self.names
        if spec.ante:
            short: list[tuple[int, int]] = []
            for j in range(self.n):
                paid = self._put(j, spec.ante)
                if paid < spec.ante:
                    short.append((j, paid))
            self.notes += partial_ante_notes(names, short, spec.ante)
        small = self.bet_sizes[0]
        if spec.bring_in_completes:
            if self.stack[seat] < small:
                raise RuleError(
                    f"bring_in_completes: {names[seat]} has only {self.stack[seat]} after the "
                    f"ante, less than the small bet {small}: {names[seat]} brings in all-in",
                    rule="D5",
                )
            self.bet[seat] = self._put(seat, small)
            self.level = self.full_level = small  # the bet itself, not a raise
            self.notes.append(
                note(
                    "D5",
                    gettext_noop("%(name)s opens for the full small bet of %(small)s (completes)"),
                    name=names[seat],
                    small=small,
                )
            )
        else:
            wanted = spec.bring_in
            posted = self.bet[seat] = self._put(seat, wanted)
            self.level, self.full_level = wanted, 0  # completing to the small bet is the bet
            if posted < wanted:
                if posted:
                    msgid = gettext_noop(
                        "%(name)s is all-in for %(posted)s of the %(bring_in)s bring-in: callers "
                        "owe the full %(bring_in)s"
                    )
                else:
                    msgid = gettext_noop(
                        "%(name)s is all-in for the ante and posts no bring-in: callers owe the "
                        "full %(bring_in)s"
                    )
                self.virtual_note = note(
                    "D8", msgid, name=names[seat], posted=posted, bring_in=wanted
                )
                self.notes.append(self.virtual_note)
        # The forced bet is the bring-in's action: the round ends when everyone has called
        # it. Measured from nothing, a completion reopens the betting for the bring-in.
        self.acted[seat] = self.fulls

    # -- streets ------------------------------------------------------------------------

    @property
    def street_name(self) -> str:
        if self.street >= SHOWDOWN:
            return STREETS[self.street]
        return STUD_STREETS[self.round]

    def copy(self) -> StudState:
        other = StudState.__new__(StudState)
        for name in (*HandState.__slots__, *StudState.__slots__):
            value = getattr(self, name)
            setattr(other, name, value.copy() if isinstance(value, list | dict) else value)
        return other

    def _restore(self, saved: StudState) -> None:
        for name in (*HandState.__slots__, *StudState.__slots__):
            setattr(self, name, getattr(saved, name))

    def play_plain(self, name: str, do: str, to: Any, index: int) -> None:
        if self.waiting:
            street = STUD_STREETS[self.round]
            raise RuleError(
                f"{name} may not act yet: name the player who opens {street} street "
                f"(first_to_act, the best hand showing)",
                index,
                "D1",
            )
        saved = self.copy()  # opening the next street can refuse first_to_act
        try:
            super().play_plain(name, do, to, index)
        except RuleError:
            self._restore(saved)
            raise

    def _end_round(self) -> None:
        """Close a finished betting round and open the next street, or go to showdown."""
        if self.round == len(STUD_STREETS) - 1:
            self.street, self.actor = SHOWDOWN, None
            return
        self.round += 1
        self.street = _SCALE[self.round]
        n = self.n
        self.bet = [0] * n
        self.acted = [False] * n
        self.acted_level = [0] * n
        self.level = self.full_level = self.raises = self.top_bet = 0
        self.virtual_note = None
        self.cap_applies = self._cap_applies()
        if self._next_pending(0) is None:
            self.notes.append(all_in_note(self.live > 0))
            self.street = SHOWDOWN
            return
        street = STUD_STREETS[self.round]
        name = self.spec.first_to_act_on(street)
        if name is None:
            self.waiting = True
            self.notes.append(
                note(
                    "D1",
                    gettext_noop(
                        "%(street)s street: the best hand showing acts first; name that player "
                        "(first_to_act) to go on"
                    ),
                    street=street,
                )
            )
            return
        seat = self.seat_of[name]
        if self.folded[seat]:
            raise RuleError(
                f"first_to_act.{street}: {name} is out of the hand and cannot open {street} street",
                rule="D1",
            )
        self.actor = self._next_pending(seat)
        if self.actor != seat:
            assert self.actor is not None
            self.notes.append(
                note(
                    "D1",
                    gettext_noop(
                        "%(name)s, named to open %(street)s street, is all-in: %(actor)s acts first"
                    ),
                    name=name,
                    street=street,
                    actor=self.names[self.actor],
                )
            )

    def _settle_limit_raise(self, seat: int, to: int) -> None:
        completing = not self.full_level
        super()._settle_limit_raise(seat, to)
        if completing and self.full_level:
            # The completion is the round's first full bet (D5): a player who only called
            # the bring-in (or a short all-in below the completion) faces a full bet, and
            # may raise it.
            self.acted_level = [0] * self.n

    # -- the options ----------------------------------------------------------------------

    def next_action(self, explain: bool = False) -> NextAction | None:
        nxt = super().next_action(explain)
        if nxt is None or not explain or self.round or self.full_level or not self.level:
            return nxt
        if nxt.min_raise_to is None or nxt.min_raise_to < self.bet_sizes[0]:
            return nxt
        # Facing the bring-in: the "raise" is the completion, which counts as the bet.
        small = self.bet_sizes[0]
        completion = note(
            "D5",
            gettext_noop(
                "the bring-in of %(bring_in)s may be called or completed to the small bet, "
                "%(small)s: completing counts as the bet, not as a raise"
            ),
            bring_in=self.spec.bring_in,
            small=small,
        )
        reasons = tuple(completion if r.rule == "D5" else r for r in nxt.reasons)
        return replace(nxt, reasons=reasons)
