"""Replaying a hand: forced bets, whose turn it is, what they may do, street by street.

``HandState`` is the working state of one replay. It is mutable on purpose, so that an
action changes a few numbers instead of building a new value: pages replay every hand from
its first action each time they show it. Everything it hands out (``NextAction``, ``Note``,
pots, the ``Ruling`` built in ``tdsystem.engine.ruling``) is frozen.

Rules by number (docs/engine.md has the full list): D1 order of action, D2 the betting
round, D3 minimum bets and raises, D4 the pot-limit maximum, D5 fixed limit and its raise
cap, D6 antes, D8 short stacks on the forced bets, D9 all-ins that are not full raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, NoReturn

from tdsystem.engine.declarations import Counted, Declaration, count
from tdsystem.engine.errors import RuleError
from tdsystem.engine.explain import (
    CAPPED,
    Note,
    all_in_note,
    block_note,
    cited,
    gettext_noop,
    note,
    option_reasons,
    partial_ante_notes,
    short_all_in_note,
)
from tdsystem.engine.spec import (
    COMPLETE,
    DECLARED,
    PREFLOP,
    RIVER,
    SHOWDOWN,
    STREETS,
    HandSpec,
    Move,
)

__all__ = ["COMPLETE", "SHOWDOWN", "STREETS", "HandState", "NextAction", "Note"]


@dataclass(frozen=True, slots=True)
class NextAction:
    """What the player to act may do. Raise sizes are totals for the round ("raise to")."""

    player: str
    check: bool
    call: int
    min_raise_to: int | None
    max_raise_to: int | None
    reasons: tuple[Note, ...] = ()


# The lists zipped here are all one per seat, so zip is called without ``strict``: a
# keyword argument sends the call down the interpreter's slow road (zip(strict=True) at
# these few places cost 13,000 instructions of an adjudicate's 353,000).


@cache
def clockwise(n: int) -> tuple[tuple[int, ...], ...]:
    """For each of ``n`` seats, every seat in turn clockwise from it (itself first); and at
    ``n``, seat 0's again, so the seat after the last is its number plus one, without a
    modulo at every action."""
    seats = [tuple(range(start, n)) + tuple(range(start)) for start in range(n)]
    return (*seats, seats[0])


class HandState:
    """One hand being replayed. ``HandState(spec)`` posts the forced bets; ``act`` applies
    one action or raises ``RuleError``; ``next_action`` answers what the next player may do.
    """

    __slots__ = (
        "acted",
        "acted_level",
        "actor",
        "bb_seat",
        "behind",
        "bet",
        "bet_sizes",
        "big_blind",
        "cap_applies",
        "clockwise",
        "committed",
        "counted",
        "dead",
        "extras",
        "first_seat",
        "fixed",
        "folded",
        "full_level",
        "fulls",
        "held",
        "in_hand",
        "increment",
        "level",
        "live",
        "n",
        "names",
        "notes",
        "out",
        "pot_limit",
        "raises",
        "removed",
        "sb_seat",
        "sb_shortfall",
        "seat_of",
        "shortfall",
        "spec",
        "spread",
        "stack",
        "street",
        "top_bet",
        "virtual_note",
    )

    def __init__(self, spec: HandSpec) -> None:
        n = len(spec.players)
        self.spec = spec
        self.n = n
        names, stacks = zip(*spec.players)  # noqa: B905
        self.names = list(names)
        self.seat_of = dict(zip(names, range(n)))  # noqa: B905
        self.clockwise = clockwise(n)
        self.stack = list(stacks)
        self.bet = [0] * n
        self.committed = [0] * n
        self.dead = [0] * n  # button and big blind antes: dead money for the main pot
        self.folded = [False] * n
        # Whether each seat has acted this round: 0 (False) when not, else the number of
        # full bets and raises made by then (``fulls``), read by ``acted_since_full_raise``.
        self.acted: list[int] = [False] * n
        self.acted_level = [0] * n
        self.removed: dict[str, int] = {}
        # Chips and declarations (D12): what each counted as, and the actions out of turn
        # held until the player's turn; None until a hand has any.
        self.counted: list[tuple[int, str, Counted]] | None = None
        self.held: dict[int, tuple[Declaration, int, int]] | None = None
        self.street = PREFLOP
        self.actor: int | None = None
        structure = spec.structure
        self.fixed = structure == "fixed-limit"
        # The pot-limit maximum's divisor: the whole pot after the call (1), half of it (2,
        # half-pot limit), or none (0); D4, D5.
        self.pot_limit = _POT_DIVISOR.get(structure, 0)
        # The fields the contract gained (three blinds, spread, cap, straddles, kill and
        # missed blinds): asked once here, so that a plain hand takes none of their roads.
        extras = self.extras = spec.extras
        self.spread = spec.spread if extras else None  # spread limit: (least, most[, last])
        self.behind: list[int] | None = None  # cap limit: each player's chips above the cap
        # The blind game's blinds, read once without the spec's properties (small_blind,
        # big_blind, first_seat): a property is a function call at every read.
        blinds = spec.blinds
        big = self.big_blind = blinds[-1]
        self.bet_sizes = spec.bets or (big, 2 * big)  # spec.limit_bets, its big blind known
        self.notes: list[Note] = []
        self.virtual_note: Note | None = None
        self.fulls = 1  # the full bets and raises of the hand, counted from 1 (``acted``)
        # D1: clockwise from the button; heads-up the button posts the small blind. Under
        # the dead button (D11) an empty button seat is not listed, and a dead small blind
        # leaves the big blind to the first seat after the button.
        first = self.first_seat = 0 if spec.dead_button else 1
        two_blinds = len(blinds) == 2
        if two_blinds and n == 2:
            self.sb_seat: int | None = 0
            self.bb_seat = 1
        elif two_blinds and not spec.dead_small_blind:
            self.sb_seat, self.bb_seat = first, first + 1
        elif len(blinds) == 3:
            # D7: three blinds, the first posted on the button (``_check_forced``).
            self.sb_seat, self.bb_seat = 1, 2
        else:
            self.sb_seat, self.bb_seat = None, first
        small = blinds[0] if two_blinds else blinds[1] if len(blinds) == 3 else 0
        if extras:
            if spec.cap is not None:
                self._apply_cap(spec.cap)
            if spec.kill is not None:
                self._kill_limits(spec.kill[1])
        self._post_forced_bets(small, blinds[0] if extras and len(blinds) == 3 else 0)
        # The round's highest bet, kept up as bets rise: whether the level is more than
        # anyone has put in (a short blind's full big blind, D8) is asked at every action.
        self.top_bet = max(self.bet)
        self.in_hand = n - sum(self.folded)
        self._count_live()
        self.level = big  # D8: callers owe the full big blind, posted or not
        # D4, TDA 54-B: the pot-limit pot counts a short or missing blind as fully posted;
        # the pots themselves hold only the chips really put in.
        self.shortfall = max(0, big - self.bet[self.bb_seat])
        sb = self.sb_seat
        self.sb_shortfall = (
            max(0, small - self.bet[sb])
            if sb is not None and not self.folded[sb]
            else small
            if spec.dead_small_blind
            else 0
        )
        if self.fixed:
            # The big blind is the opening bet when it is a full small bet; a smaller one
            # is completed to the small bet, which counts as the bet (D5).
            self.full_level = big if big >= self.bet_sizes[0] else 0
        else:
            self.full_level = big
        self.increment = big
        self.raises = 0
        start = (self.bb_seat + 1) % n
        if extras and (spec.straddles or spec.kill is not None or spec.missed_blinds):
            start = self._post_extra_blinds()
        self.cap_applies = (self.fixed or self.extras) and self._cap_applies()
        if self.in_hand <= 1:
            self.street = COMPLETE
        else:
            self.actor = self._next_pending(start)
            if self.actor is None:
                self._end_round()

    # -- straddles, kill blinds, missed blinds (D7) -----------------------------------------

    def _kill_limits(self, kind: str) -> None:
        """A kill hand's limits are the usual ones times 2 (a full kill) or 1.5 (half)."""
        small, big = self.bet_sizes
        if kind == "full":
            self.bet_sizes = (2 * small, 2 * big)
        else:
            self.bet_sizes = (small * 3 // 2, big * 3 // 2)

    def _post_extra_blinds(self) -> int:
        """Post the straddles, the kill blind and the missed blinds of returning players
        after the blinds (D7); the seat the first betting round starts from."""
        spec, n, names = self.spec, self.n, self.names
        bb = self.bb_seat
        start = (bb + 1) % n
        blind_steps = [self.big_blind]  # each live blind's raise over the one before it
        for k, amount in enumerate(spec.straddles):
            seat = (bb + 1 + k) % n
            previous = self.level
            self.bet[seat] = self._put(seat, amount)
            blind_steps.append(amount - previous)
            self.level = self.top_bet = amount
            start = (seat + 1) % n
            self.notes.append(
                note(
                    "D7",
                    gettext_noop(
                        "%(name)s straddles %(amount)s: a live blind raise; the action starts "
                        "after it and comes back to %(name)s, who may raise (the option)"
                    ),
                    name=names[seat],
                    amount=amount,
                )
            )
        if spec.straddles:
            self.increment = max(blind_steps)  # D7: the straddle acts as the minimum raise
            self.full_level = self.level
            if self.fixed:
                self.raises = len(spec.straddles)  # each straddle is a raise toward the cap
        if spec.kill is not None:
            start = self._post_kill(spec.kill[0], spec.kill[1])
        for name, which in spec.missed_blinds:
            self._post_missed(self.seat_of[name], which)
        self.top_bet = max(self.bet)
        self._count_live()
        return start

    def _post_kill(self, killer_name: str, kind: str) -> int:
        """The kill blind (D7): live, twice the big blind (full) or one and a half times
        (half); the other players call it to play, and the killer acts last on the first
        round, after the other blinds."""
        n, bb = self.n, self.bb_seat
        killer = self.seat_of[killer_name]
        amount = 2 * self.big_blind if kind == "full" else self.big_blind * 3 // 2
        self.bet[killer] = self._put(killer, amount)
        self.level = self.top_bet = amount
        # The kill blind is the bet of the kill hand when it is a full (kill-sized) small
        # bet; a smaller one is completed to it, as a small big blind is (D5).
        self.full_level = amount if not self.fixed or amount >= self.bet_sizes[0] else 0
        self.increment = max(self.increment, amount - self.big_blind)
        # The first round's order: left of the big blind, the killer skipped, then the
        # killer after the big blind (after the round the seats' own order comes back).
        ring = [(bb + 1 + k) % n for k in range(n)]
        ring.remove(killer)
        ring.append(killer)
        self.clockwise = _ring_table(ring, n)
        self.notes.append(
            note(
                "D7",
                gettext_noop(
                    "%(name)s posts the kill blind of %(amount)s (%(kind)s kill): live; to play, "
                    "the others call %(amount)s; %(name)s acts last this round, and the limits "
                    "of the hand are %(small)s/%(big)s"
                ),
                name=killer_name,
                amount=amount,
                kind=kind,
                small=self.bet_sizes[0],
                big=self.bet_sizes[1],
            )
        )
        return (killer + 1) % n  # the table's entry after the killer: the first to act

    def _post_missed(self, seat: int, which: str) -> None:
        """A player back after missing the blinds (D7): a missed big blind is posted live
        (it counts toward the player's bet, and the player keeps the option as a big blind
        does); a missed small blind is dead money, posted with it, that does not."""
        name, big = self.names[seat], self.big_blind
        small = self.spec.small_blind
        live = dead = 0
        if which in ("big", "both"):
            live = self.bet[seat] = self._put(seat, big)
        if which in ("small", "both"):
            dead = self._put(seat, small)
            self.dead[seat] += dead
        if which == "both":
            msgid = gettext_noop(
                "%(name)s is back after missing the blinds: posts %(live)s live (the big blind) "
                "and %(dead)s dead (the small blind, which does not count toward the bet)"
            )
        elif which == "big":
            msgid = gettext_noop(
                "%(name)s posts a missed big blind of %(live)s: live, and %(name)s keeps the option"
            )
        else:
            msgid = gettext_noop(
                "%(name)s posts a missed small blind of %(dead)s: dead money, not part of the bet"
            )
        self.notes.append(note("D7", msgid, name=name, live=live, dead=dead))

    def _apply_cap(self, cap: int) -> None:
        """Cap limit (D5): each player plays the hand with at most ``cap`` beyond the antes
        they pay; the chips above are kept apart (``behind``) and a player who has put in the
        cap counts as all-in."""
        spec, bb = self.spec, self.bb_seat
        ante = spec.ante
        behind = [0] * self.n
        for seat, chips in enumerate(self.stack):
            if spec.ante_type == "each":
                owed = ante
            elif spec.ante_type == "button":
                owed = ante if seat == 0 and not spec.dead_button else 0
            else:
                owed = ante if seat == bb else 0
            allowed = cap + owed
            if chips > allowed:
                behind[seat] = chips - allowed
                self.stack[seat] = allowed
        self.behind = behind

    def shown_stacks(self) -> list[int]:
        """Each player's stack as the answer shows it: with the chips above a cap."""
        behind = self.behind
        if behind is None:
            return self.stack
        return [chips + kept for chips, kept in zip(self.stack, behind)]  # noqa: B905

    def _count_live(self) -> None:
        """``out``, each seat out of the betting (folded or all-in), and ``live``, the seats
        that are not, from the stacks and the folds once the forced bets are in: from then
        on every fold and every stack emptied keeps them (``_went_all_in``), so the search
        for the next player to act skips a seat with one test."""
        folded, stack = self.folded, self.stack
        if 0 in stack or True in folded:
            self.out = [f or not chips for f, chips in zip(folded, stack)]  # noqa: B905
            self.live = self.out.count(False)
        else:
            self.out = [False] * self.n
            self.live = self.n

    def _went_all_in(self, seat: int) -> None:
        self.out[seat] = True
        self.live -= 1

    @property
    def street_name(self) -> str:
        """The street as the command line names it ("preflop"... "showdown", "complete")."""
        return STREETS[self.street]

    def copy(self) -> HandState:
        """An independent copy, to try an action without changing this hand."""
        other = HandState.__new__(HandState)
        for name in HandState.__slots__:
            value = getattr(self, name)
            setattr(other, name, value.copy() if isinstance(value, list | dict) else value)
        return other

    # -- forced bets (D6, D7, D8) ------------------------------------------------------

    def _put(self, seat: int, chips: int) -> int:
        if chips > self.stack[seat]:
            chips = self.stack[seat]
        self.stack[seat] -= chips
        self.committed[seat] += chips
        return chips

    def _post_forced_bets(self, small: int, button_blind: int = 0) -> None:
        spec = self.spec
        ante, kind, names = spec.ante, spec.ante_type, self.names
        sb, bb = self.sb_seat, self.bb_seat
        if spec.dead_small_blind or spec.dead_button:
            self._note_dead_button()
        if spec.bb_must_cover_sb and len(spec.blinds) == 2:
            self._apply_cover_rule()
        if ante and kind == "each":
            short: list[tuple[int, int]] = []
            stack, committed = self.stack, self.committed
            for seat, out in enumerate(self.folded):
                if not out:
                    paid = ante if stack[seat] >= ante else stack[seat]
                    stack[seat] -= paid
                    committed[seat] += paid
                    if paid < ante:
                        short.append((seat, paid))
            if short:
                self.notes += partial_ante_notes(names, short, ante)
        elif ante and kind == "button" and not spec.dead_button:
            self._post_dead_ante(0, "button ante")
        elif ante and kind == "big-blind-ante-first" and not self.folded[bb]:
            self._post_dead_ante(bb, "big blind ante (posted before the blind)")
        if button_blind:
            self._post_button_blind(button_blind)
        for blind_seat, blind, label in (
            (sb, small, "small"),
            (bb, self.big_blind, "big"),
        ):
            if blind_seat is None or self.folded[blind_seat]:
                continue
            self.bet[blind_seat] = self._put(blind_seat, blind)
            if self.bet[blind_seat] < blind:
                self._note_short_blind(blind_seat, label, blind)
        if ante and kind == "big-blind" and not self.folded[bb]:
            self._post_dead_ante(bb, "big blind ante (posted after the blind)")

    def _post_button_blind(self, blind: int) -> None:
        """D7: with three blinds the first is posted on the button (live)."""
        self.bet[0] = self._put(0, blind)
        self.notes.append(
            note(
                "D7",
                gettext_noop(
                    "three blinds: %(name)s posts %(blind)s on the button, live, before the small "
                    "and the big blind"
                ),
                name=self.names[0],
                blind=self.bet[0],
            )
        )

    def _note_dead_button(self) -> None:
        spec, names = self.spec, self.names
        if spec.dead_small_blind:
            if self.pot_limit:
                msgid = gettext_noop(
                    "dead small blind: nobody posts the small blind this hand, %(name)s posts "
                    "the big blind; the pot-limit pot counts the %(chips)s small blind as if "
                    "posted (TDA 54-B)"
                )
            else:
                msgid = gettext_noop(
                    "dead small blind: nobody posts the small blind this hand, %(name)s posts "
                    "the big blind"
                )
            cited("dead_button", msgid)
            self.notes.append(note("D11", msgid, name=names[self.bb_seat], chips=spec.small_blind))
        if spec.dead_button:
            if spec.ante and spec.ante_type == "button":
                msgid = gettext_noop(
                    "dead button: the button is on an empty seat; %(first)s is first to act "
                    "after the flop and %(last)s last; nobody posts the button ante this hand"
                )
            else:
                msgid = gettext_noop(
                    "dead button: the button is on an empty seat; %(first)s is first to act "
                    "after the flop and %(last)s last"
                )
            cited("dead_button", msgid)
            self.notes.append(note("D11", msgid, first=names[0], last=names[-1]))

    def _post_dead_ante(self, seat: int, label: str) -> None:
        ante = self.spec.ante
        paid = self._put(seat, ante)
        self.dead[seat] = paid
        posted, short = _DEAD_ANTE[label]
        msgid = short if paid < ante else posted
        self.notes.append(note("D6", msgid, name=self.names[seat], paid=paid, ante=ante))

    def _note_short_blind(self, seat: int, label: str, blind: int) -> None:
        name, posted = self.names[seat], self.bet[seat]
        if label == "small" and posted == 0:
            msgid = gettext_noop("%(name)s is all-in for the ante and posts no small blind")
        elif label == "small":
            msgid = gettext_noop("%(name)s is all-in for %(posted)s of the %(blind)s small blind")
        elif posted == 0:
            msgid = gettext_noop(
                "%(name)s is all-in for the ante and posts no big blind: callers owe the full "
                "%(blind)s"
            )
        else:
            msgid = gettext_noop(
                "%(name)s is all-in for %(posted)s of the %(blind)s big blind: callers owe the "
                "full %(blind)s"
            )
        short = note("D8", msgid, name=name, posted=posted, blind=blind)
        if label == "big":
            self.virtual_note = short
        self.notes.append(short)

    def _apply_cover_rule(self) -> None:
        spec, bb = self.spec, self.bb_seat
        owed_ante = spec.ante if spec.ante_type != "button" else 0
        needed = spec.small_blind + owed_ante
        chips = self.stack[bb]
        if chips >= needed:
            return
        name = self.names[bb]
        self.removed[name] = chips
        self.stack[bb] = 0
        self.folded[bb] = True
        self.virtual_note = note(
            "D8",
            gettext_noop("%(name)s was eliminated before posting: callers owe the full %(blind)s"),
            name=name,
            blind=spec.big_blind,
        )
        if owed_ante:
            msgid = gettext_noop(
                "house rule: %(name)s cannot cover the small blind and the ante (%(chips)s of "
                "%(needed)s): the %(chips)s chips are taken out of play and %(name)s is "
                "eliminated; no big blind is posted and callers owe the full %(blind)s"
            )
        else:
            msgid = gettext_noop(
                "house rule: %(name)s cannot cover the small blind (%(chips)s of %(needed)s): "
                "the %(chips)s chips are taken out of play and %(name)s is eliminated; no big "
                "blind is posted and callers owe the full %(blind)s"
            )
        self.notes.append(
            note("D8", msgid, name=name, chips=chips, needed=needed, blind=spec.big_blind)
        )

    # -- whose turn ---------------------------------------------------------------------

    def _cap_applies(self) -> bool:
        """Whether the raise cap holds this round (D5), as the round starts: heads-up it is
        lifted (at the start, or until capped) unless the rules keep it (TDA 48)."""
        if self.fixed or (self.extras and self.spread is not None):
            if self.spec.raise_cap is None:
                return False
            return self.in_hand > 2 or self.spec.cap_heads_up == "kept"
        return False

    def _target(self, seat: int) -> int:
        """The bet ``seat`` must match: the level, but never more than an opponent could
        still put in (a full big blind owed to a short all-in blind is owed only while
        someone may yet match it)."""
        level = self.level
        if level <= self.top_bet:
            return level
        cap = 0
        for j in range(self.n):
            if j != seat and not self.folded[j]:
                cap = max(cap, self.bet[j] + self.stack[j])
        return min(level, cap)

    def _next_pending(self, start: int) -> int | None:
        """The first seat from ``start`` clockwise that still has to act in this round
        (``start`` may be ``n``: seat 0)."""
        level = self.level
        bet = self.bet
        out = self.out
        responders = -1  # seats that could still answer a raise, counted when needed
        for seat in self.clockwise[start]:
            if out[seat]:
                continue  # folded or all-in
            put = bet[seat]
            # Below the level a seat owes chips, unless the level is a short blind's full
            # big blind that nobody left could match (``_target``).
            if put < level and (level <= self.top_bet or put < self._target(seat)):
                return seat
            if not self.acted[seat]:
                if not level:
                    # Nobody has bet: every other seat with chips could answer a bet.
                    if self.live > 1:
                        return seat
                    continue
                if responders < 0:
                    # Counted up to two: whether anyone but this seat could answer.
                    responders = 0
                    for other, left, done in zip(bet, self.stack, out):  # noqa: B905
                        if not done and other + left > level:
                            responders += 1
                            if responders == 2:
                                break
                if responders - (put + self.stack[seat] > level) > 0:
                    return seat
        return None

    # -- what the player to act may do --------------------------------------------------

    def reopen_size(self) -> int:
        """What the bet a player faces must have gone up by since they acted for the betting
        to be reopened for them: a full bet or raise (D9), half a bet under the half-bet rule
        (at least half, rounded up)."""
        if not self.fixed:
            if self.extras and self.spread is not None and self.spec.incomplete_raise == "half-bet":
                return (self.increment + 1) // 2
            return self.increment
        size = self.bet_sizes[self.street >= 2]
        return (size + 1) // 2 if self.spec.incomplete_raise == "half-bet" else size

    def acted_since_full_raise(self, seat: int) -> bool:
        """Whether ``seat`` has acted this round since the round's last full bet or raise
        (or made it): only all-ins short of a full raise can have come after."""
        return self.acted[seat] == self.fulls

    def _raise_block(self, seat: int) -> str | None:
        """Why ``seat`` may not bet or raise now, or None when it may."""
        level = self.level
        bet, stack = self.bet, self.stack
        if bet[seat] + stack[seat] <= level:
            return "short"
        if self.acted[seat] and level - self.acted_level[seat] < self.reopen_size():
            return "not-reopened"
        if self.cap_applies:  # a raise cap is set, and not lifted heads-up
            cap = self.spec.raise_cap
            if cap is not None and self.full_level > 0 and self.raises >= cap:
                return "capped"
        if not level and self.live > 1:
            return None  # a bet: every other seat with chips may raise it
        for j, done in enumerate(self.out):
            if not done and j != seat and bet[j] + stack[j] > level:
                return None
        return "nobody"

    def pot_after_call(self, seat: int) -> int:
        pot = sum(self.committed) + (self.level - self.bet[seat])
        if self.street == PREFLOP:
            pot += self.shortfall + self.sb_shortfall  # D4, TDA 54-B: counted in full
            sb = self.sb_seat
            if (
                self.spec.pot_limit_preflop == "assumed-call"
                and sb is not None
                and seat != sb
                and not self.acted[sb]
                and not self.folded[sb]
                and self.bet[sb] < self.level
            ):
                pot += min(self.big_blind, self.bet[sb] + self.stack[sb]) - self.bet[sb]
        return pot

    def _raise_range(self, seat: int) -> tuple[int, int]:
        total = self.bet[seat] + self.stack[seat]
        if self.fixed:
            size = min(total, self.full_level + self.bet_sizes[self.street >= 2])
            return size, size
        low = min(total, self.level + self.increment)
        if self.pot_limit:
            most = self.pot_after_call(seat) // self.pot_limit
            return low, min(total, max(low, self.level + most))
        if self.extras and self.spread is not None:
            return low, min(total, max(low, self.level + self.spread_most()))
        return low, total

    def spread_most(self) -> int:
        """Spread limit: the most a bet or raise may add this round (the last round's most
        on the river)."""
        spread = self.spread
        assert spread is not None
        return spread[-1] if self.street == RIVER else spread[1]

    def options(self) -> tuple[int, int, int | None, int | None] | None:
        """The seat to act, its call, and its raise range (None, None when it may not
        raise), or None when nobody is to act: ``next_action`` without the values."""
        seat = self.actor
        if seat is None:
            return None
        call = max(0, min(self.stack[seat], self._target(seat) - self.bet[seat]))
        if self._raise_block(seat) is None:
            low, high = self._raise_range(seat)
            return seat, call, low, high
        return seat, call, None, None

    def next_action(self, explain: bool = False) -> NextAction | None:
        options = self.options()
        if options is None:
            return None
        seat, call, low, high = options
        reasons: tuple[Note, ...] = ()
        if explain:
            block = self._raise_block(seat)
            reasons = option_reasons(self, seat, call, block, low, high)
        return NextAction(self.names[seat], call == 0, call, low, high, reasons)

    # -- actions ------------------------------------------------------------------------

    def act(self, action: Move, index: int) -> None:
        """Apply one action, ``(player, do, to)``, the ``index``-th of the hand."""
        name, do, to = action
        self.play(name, do, to, index)

    def play(self, name: str, do: str, to: Any, index: int) -> None:
        """``act`` with the action's values one by one. ``to`` is the round's total of a bet
        or raise, or the ``Declaration`` of an action that says what was put out and said,
        or is given out of turn (``do`` is then ``DECLARED``, D12)."""
        street = self.street
        if do is DECLARED:
            seat = self.actor
            if seat is not None and self.names[seat] == name:
                self._play_declared(seat, to, index)
            elif to.out_of_turn and self.street < SHOWDOWN:
                self._hold(name, to, index)
            else:
                self.play_plain(name, to.do or "fold", None, index)  # refused: not the turn
        else:
            self.play_plain(name, do, to, index)
        # An action held out of turn stands or falls when its player's turn comes; one whose
        # round ended first does not count.
        while self.held and self.street == street and self.actor in self.held:
            self._release()
        if self.held and self.street != street:
            self._drop_held()

    def play_plain(self, name: str, do: str, to: int | None, index: int) -> None:
        """``play`` for an action given as what the player did (fold, check, call, bet,
        raise, all-in), the usual action: the replay of a hand read from JSON
        (``play_actions``) hands each over as it reads it, without a tuple made for each."""
        seat = self.actor
        # Before the showdown someone is always to act (and after it nobody is); the names
        # are distinct, so the actor's name is the one action in turn (``_out_of_turn``
        # says who else it is).
        if seat is None or self.names[seat] != name:
            if self.street >= SHOWDOWN:
                raise RuleError(
                    f"the hand is over ({STREETS[self.street]}): no more actions", index, "D2"
                )
            # A name that is no text is no player's (``play_actions`` then names the
            # entry's fault).
            other = self.seat_of.get(name) if type(name) is str else None
            raise self._out_of_turn(name, other, index)
        if do == "fold":
            self.folded[seat] = self.out[seat] = True
            self.live -= 1
            self.in_hand -= 1
        elif do == "check" or do == "call":
            bet, level = self.bet, self.level
            call = level - bet[seat]
            if call > 0 and level > self.top_bet:
                call = self._target(seat) - bet[seat]
            stack = self.stack[seat]
            if call > stack:
                call = stack
            if do == "check":
                if call > 0:
                    raise RuleError(
                        f"{name} may not check: facing a bet of {level}, call {call}, "
                        "raise or fold",
                        index,
                        "D2",
                    )
            elif call <= 0:
                raise RuleError(f"{name} may not call: there is no bet to call; check", index, "D2")
            else:
                self.stack[seat] = stack - call
                if call == stack:
                    self._went_all_in(seat)
                bet[seat] += call
                self.committed[seat] += call
                if bet[seat] > self.top_bet:
                    self.top_bet = bet[seat]
        else:
            self._wager(seat, do, to, index)
        self.acted[seat] = self.fulls
        self.acted_level[seat] = self.level
        if self.in_hand == 1:  # everyone else folded
            self.street = COMPLETE
            self.actor = None
            return
        actor = self._next_pending(seat + 1)
        self.actor = actor
        if actor is None:
            self._end_round()

    # -- chips and declarations, actions out of turn (D12) ---------------------------------

    def _play_declared(self, seat: int, decl: Declaration, index: int) -> None:
        """Play what the player's chips and words count as (``declarations.count``)."""
        if decl.out_of_turn:
            decl = decl._replace(out_of_turn=False)  # named out of turn, but it is the turn
        counted = count(self, seat, decl, index)
        if self.counted is None:
            self.counted = []
        self.counted.append((index, self.names[seat], counted))
        self.notes.append(counted.note)
        self.play_plain(self.names[seat], counted.do, counted.to, index)

    def _hold(self, name: str, decl: Declaration, index: int) -> None:
        """An action out of turn: held until the player's turn (TDA 53-A)."""
        seat = self.seat_of.get(name)
        if seat is None or self.folded[seat] or not self.stack[seat]:
            raise self._out_of_turn(name, seat, index)
        if self.held is None:
            self.held = {}
        if seat in self.held:
            raise RuleError(
                f"{name} has acted out of turn already; enter {name}'s action in turn",
                index,
                "D12",
                "out_of_turn",
            )
        actor = self.actor
        assert actor is not None
        if decl.do == "fold" or decl.said == "fold":
            self._fold_out_of_turn(seat, decl, index)
            return
        self.held[seat] = (decl._replace(out_of_turn=False), self.level, index)
        self.notes.append(
            note(
                "D12",
                cited(
                    "out_of_turn",
                    gettext_noop(
                        "%(name)s acted out of turn while %(actor)s was to act: the action "
                        "goes back to %(actor)s, and %(name)s's stands when %(name)s's turn "
                        "comes if the action to %(name)s has not changed (a check, call or "
                        "fold does not change it)"
                    ),
                ),
                name=name,
                actor=self.names[actor],
            )
        )

    def _drop_held(self) -> None:
        """The round ended before the turn of a player who acted out of turn: nothing was
        left to that player this round, so the action does not count."""
        for seat in sorted(self.held or ()):
            self.notes.append(
                note(
                    "D12",
                    cited(
                        "out_of_turn",
                        gettext_noop(
                            "%(name)s's action out of turn does not count: the round ended "
                            "with nothing left for %(name)s to do"
                        ),
                    ),
                    name=self.names[seat],
                )
            )
        self.held = None

    def _fold_out_of_turn(self, seat: int, decl: Declaration, index: int) -> None:
        """A fold out of turn is binding (TDA 53-A, 58): the hand is dead at once; the
        player in turn still acts."""
        name = self.names[seat]
        counted = Counted(
            "fold",
            None,
            sum(sum(m) for m in decl.chips),
            note(
                "D12",
                cited("out_of_turn", gettext_noop("%(name)s's fold out of turn is binding")),
                name=name,
            ),
        )
        if self.counted is None:
            self.counted = []
        self.counted.append((index, name, counted))
        self.notes.append(counted.note)
        self.folded[seat] = self.out[seat] = True
        self.live -= 1
        self.in_hand -= 1
        if self.in_hand == 1:  # everyone else folded
            self.street = COMPLETE
            self.actor = None
            return
        actor = self.actor
        if actor is not None and self._next_pending(actor) != actor:
            # Nobody had anything left to answer but the folder: the round is over.
            self.actor = self._next_pending(actor)
            if self.actor is None:
                self._end_round()

    def _release(self) -> None:
        """The turn of a player who acted out of turn: the action stands if the action to
        the player has not changed since (a fold always does), else the player acts anew."""
        held = self.held
        seat = self.actor
        if held is None or seat is None or seat not in held:
            return
        decl, level_then, index = held.pop(seat)
        name = self.names[seat]
        folds = decl.do == "fold" or decl.said == "fold"
        if folds or self.level == level_then:
            self._play_declared(seat, decl, index)
            return
        self.notes.append(
            note(
                "D12",
                cited(
                    "out_of_turn",
                    gettext_noop(
                        "%(name)s's action out of turn does not stand: the bet to %(name)s went "
                        "from %(before)s to %(now)s; its chips go back and %(name)s may call, "
                        "raise or fold"
                    ),
                ),
                name=name,
                before=level_then,
                now=self.level,
            )
        )

    def _out_of_turn(self, name: str, seat: int | None, index: int) -> RuleError:
        if seat is None:
            return RuleError(f"unknown player {name!r}", index)
        actor = self.actor
        assert actor is not None  # before the showdown someone is always to act
        if self.folded[seat]:
            why = f"{name} is out of the hand"
        elif not self.stack[seat]:
            why = f"{name} is all-in"
        else:
            why = f"it is {self.names[actor]}'s turn"
        return RuleError(f"{name} may not act: {why}", index, "D1", "acting_in_turn")

    def _move(self, seat: int, chips: int) -> None:
        self.stack[seat] -= chips
        if not self.stack[seat]:
            self._went_all_in(seat)
        self.bet[seat] += chips
        self.committed[seat] += chips
        if self.bet[seat] > self.top_bet:
            self.top_bet = self.bet[seat]

    def _wager(self, seat: int, do: str, to: int | None, index: int) -> None:
        """A bet, a raise or an all-in (``to``: the seat's total for the round)."""
        level = self.level
        stack = self.stack
        put = self.bet[seat]
        total = put + stack[seat]
        if do == "all-in":
            if total <= level:
                self._move(seat, stack[seat])  # a call, short or exact (D3 table stakes)
                return
            to = total
        elif to is None:
            raise RuleError(f"{do} needs 'to', the player's total for the round", index)
        elif (do == "bet") == (level > 0):
            # A bet opens a round, a raise answers one, an all-in is either (D2).
            self._refuse_raise(seat, to, do, index)
        if not level < to <= total or self._raise_block(seat) is not None:
            self._refuse_raise(seat, to, do, index)
        low, high = self._raise_range(seat)
        if not low <= to <= high:
            self._refuse_raise(seat, to, do, index)
        chips = to - put
        left = stack[seat] = stack[seat] - chips
        if not left:
            self._went_all_in(seat)
        self.bet[seat] = self.top_bet = to  # above the level, so above every bet
        self.committed[seat] += chips
        if self.fixed:
            self._settle_limit_raise(seat, to)
        elif self.extras and self.spread is not None:
            self._settle_spread_raise(seat, to, level)
        elif to - level >= self.increment:
            self.increment = to - level
            self.level = self.full_level = to
            self.fulls += 1
            self.virtual_note = None
        else:
            self.level = to
            self.notes.append(short_all_in_note(self, seat, to, level + self.increment))

    def _refuse_raise(self, seat: int, to: int, do: str, index: int) -> NoReturn:
        """Say why a bet or raise is refused, in the order the rules are checked."""
        name, level, total = self.names[seat], self.level, self.bet[seat] + self.stack[seat]
        verb = {"bet": f"bet {to}", "raise": f"raise to {to}"}.get(do, f"go all-in for {to}")
        if do == "bet" and level:
            raise RuleError(
                f"{name} may not bet: there is already a bet of {level} this round; raise instead",
                index,
                "D2",
            )
        if do == "raise" and not level:
            raise RuleError(
                f"{name} may not raise: nobody has bet this round; bet instead", index, "D2"
            )
        if to > total:
            raise RuleError(
                f"{name} may not {verb}: {name} has only {total} for this round (table stakes)",
                index,
                "D3",
            )
        if to <= level:
            raise RuleError(
                f"{name} may not {verb}: the bet is already {level}; call instead", index, "D2"
            )
        block = self._raise_block(seat)
        if block is not None:
            note = block_note(self, seat, block)
            raise RuleError(f"{name} may not {verb}: {note.text}", index, note.rule, note.cite)
        low, high = self._raise_range(seat)
        if to < low or to > high:
            word = "raise is to" if level else "bet is"
            if self.fixed:
                rule, why, concept = "D5", f"in fixed limit the {word} {low}", None
            elif to < low:
                rule, why, concept = "D3", f"the minimum {word} {low}", "raise_amounts"
            elif self.spread is not None:
                rule, why, concept = "D5", f"the spread-limit maximum is {high}", None
            elif self.pot_limit == 2:
                rule, why, concept = "D4", f"the half-pot-limit maximum is {high}", None
            else:
                rule, why, concept = "D4", f"the pot-limit maximum is {high}", "pot_limit"
            raise RuleError(f"{name} may not {verb}: {why}", index, rule, concept)
        raise AssertionError("a raise refused for no reason")  # pragma: no cover

    def _settle_limit_raise(self, seat: int, to: int) -> None:
        size = self.bet_sizes[self.street >= 2]
        full = self.full_level + size
        counted = self.full_level > 0  # the bet (or completing to it) is not a raise
        if to < full:
            if self.spec.incomplete_raise != "half-bet" or 2 * (to - self.full_level) < size:
                self.level = max(self.level, to)
                self.notes.append(short_all_in_note(self, seat, to, full))
                return
            # D9, half-bet rule: an all-in of at least half a bet counts as a bet or raise and
            # reopens the betting, at its own amount: players behind call it, or raise a full
            # bet over it; as a raise it counts toward the cap.
            if counted:
                msgid = gettext_noop(
                    "%(name)s's all-in for %(to)s is at least half a bet: it counts as a raise "
                    "and reopens the betting; players behind call %(to)s or raise a full bet over "
                    "it, to %(next)s"
                )
            else:
                msgid = gettext_noop(
                    "%(name)s's all-in for %(to)s is at least half a bet: it counts as the bet "
                    "and reopens the betting; players behind call %(to)s or raise a full bet over "
                    "it, to %(next)s"
                )
            cited("reopening", msgid)
            self.notes.append(note("D9", msgid, name=self.names[seat], to=to, next=to + size))
        self.level = self.full_level = to
        self.virtual_note = None
        self.fulls += 1
        self._count_raise(counted)

    def _settle_spread_raise(self, seat: int, to: int, level: int) -> None:
        """Spread limit (D5): a raise of at least the largest full bet or raise of the round
        (D3) is full; an all-in short of it counts under the half-bet rule when at least half
        of it (D9), else reopens nothing. The raises count toward the cap."""
        raised, increment = to - level, self.increment
        if raised < increment and (
            self.spec.incomplete_raise != "half-bet" or 2 * raised < increment
        ):
            self.level = to
            self.notes.append(short_all_in_note(self, seat, to, level + increment))
            return
        if raised >= increment:
            self.increment = raised
        else:
            msgid = cited(
                "reopening",
                gettext_noop(
                    "%(name)s's all-in for %(to)s is at least half a raise: it counts as a raise "
                    "and reopens the betting; players behind call %(to)s or raise by at least "
                    "%(step)s, to %(next)s"
                ),
            )
            self.notes.append(
                note("D9", msgid, name=self.names[seat], to=to, step=increment, next=to + increment)
            )
        counted = self.full_level > 0  # the round's first bet is no raise
        self.level = self.full_level = to
        self.virtual_note = None
        self.fulls += 1
        self._count_raise(counted)

    def _count_raise(self, counted: bool) -> None:
        """A full bet or raise made (fixed or spread limit): the raises toward the cap."""
        if counted:
            self.raises += 1
        if self.cap_applies and self.raises == self.spec.raise_cap:
            if self.in_hand <= 2 and self.spec.cap_heads_up == "until-capped":
                # D5: the action became heads-up before the raising was capped.
                self.cap_applies = False
                self.notes.append(_UNCAPPED_HEADS_UP)
            elif counted:
                self.notes.append(note("D5", CAPPED, raises=self.raises))

    def _end_round(self) -> None:
        """Close a finished betting round and open the next street, or go to showdown."""
        if self.street == RIVER:
            self.street, self.actor = SHOWDOWN, None
            return
        self.street += 1
        n = self.n
        self.bet = [0] * n
        self.acted = [False] * n
        self.acted_level = [0] * n
        self.level = self.full_level = self.raises = self.top_bet = 0
        self.increment = self.big_blind  # D3: the minimum opening bet
        if self.extras:
            if self.spec.kill is not None:
                self.clockwise = clockwise(n)  # the killer acted last on the first round only
            if self.spread is not None:
                self.increment = self.spread[0]  # D5: the least bet of the spread
        self.virtual_note = None
        self.cap_applies = (self.fixed or self.extras) and self._cap_applies()
        self.actor = self._next_pending(self.first_seat % n)  # D1: first after the button
        if self.actor is None:
            # Two players with chips would both have to act: at most one has any (D9).
            # Whether one player still has chips.
            self.notes.append(all_in_note(self.live > 0))
            self.street = SHOWDOWN


_POT_DIVISOR = {"pot-limit": 1, "half-pot-limit": 2}


def _ring_table(ring: list[int], n: int) -> tuple[tuple[int, ...], ...]:
    """A ``clockwise`` table for seats acting in the order ``ring`` (a kill pot's first
    round): the entry after seat s (index s + 1, as the replay asks, ``n`` for the last
    seat) is the ring from the seat after s in the ring."""
    after = {seat: ring[(k + 1) % n] for k, seat in enumerate(ring)}
    order = {seat: tuple(ring[k:] + ring[:k]) for k, seat in enumerate(ring)}
    table = [order[after[(i - 1) % n]] for i in range(n)]
    return (*table, order[after[n - 1]])


_UNCAPPED_HEADS_UP = note(
    "D5",
    cited(
        "raise_cap",
        gettext_noop(
            "only two players are left in the pot and the betting was not capped before: they "
            "may raise each other without a cap"
        ),
    ),
)

# The dead antes one player posts for the table (``_post_dead_ante``'s label): in full, short.
_DEAD_ANTE = {
    "button ante": (
        gettext_noop("%(name)s posts the button ante of %(ante)s for the table: dead money"),
        gettext_noop(
            "%(name)s has only %(paid)s of the %(ante)s button ante: it goes in as dead money"
        ),
    ),
    "big blind ante (posted before the blind)": (
        cited(
            "big_blind_ante",
            gettext_noop(
                "%(name)s posts the big blind ante (posted before the blind) of %(ante)s for "
                "the table: dead money"
            ),
        ),
        cited(
            "big_blind_ante",
            gettext_noop(
                "%(name)s has only %(paid)s of the %(ante)s big blind ante (posted before the "
                "blind): it goes in as dead money"
            ),
        ),
    ),
    "big blind ante (posted after the blind)": (
        cited(
            "big_blind_ante",
            gettext_noop(
                "%(name)s posts the big blind ante (posted after the blind) of %(ante)s for "
                "the table: dead money"
            ),
        ),
        cited(
            "big_blind_ante",
            gettext_noop(
                "%(name)s has only %(paid)s of the %(ante)s big blind ante (posted after the "
                "blind): it goes in as dead money"
            ),
        ),
    ),
}
