"""Chips and declarations (D12): what a player's words and chips count as.

An action may give, instead of what the player did (``do``), what the player put out and
said: ``chips`` (the values of the chips, in one motion, or one list per motion) and
``said`` (a word: fold, check, call, bet, raise, all-in, pot; or an amount alone). ``count``
rules what that is (a call, a bet or raise to an amount, a check, a fold, all-in) with the
rule applied; the replay then plays it as the action it counts as. The rules are those of
the TDA (2024 numbering, each note cites the hand's set): a declaration in turn is binding
(50, 51-A); declaring an amount alone is pushing out that much (40-C); a raise is made in one
motion or by declaring it first, later motions are a string bet (42, 56); a single chip put
out silently facing a bet is a call, however large, and opening the betting a bet of what
the chip allows (44); several chips are a call when each is needed for it, else the 50%
standard (43, 45) or, in the reading of the reference article for big-bet games, a raise of
everything put out (the rule set's ``silent_chips``); a bet or raise below the minimum is
made the minimum, one above the pot-limit maximum brought down to it (52); an undercall is
a full call (51-B); "call" with no bet is a check, "raise" with no bet at least a minimum bet,
"check" facing a bet a call or a fold (55); "pot" in no limit binds to a valid bet (54-D).

An action out of turn (``out_of_turn``) is held until the player's turn: it is played then
when the action to the player has not changed (a check, call or fold does not change it), and
is not binding otherwise: the player then has every option; a fold out of turn is binding
(53-A, 58).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from tdsystem.engine.errors import RuleError
from tdsystem.engine.explain import Note, cited, gettext_noop, note

if TYPE_CHECKING:
    from tdsystem.engine.betting import HandState

SAID_WORDS = ("fold", "check", "call", "bet", "raise", "all-in", "pot")
# Several chips put out without a word, beyond a call: the 50% standard (TDA 43, 45; the
# Vietnamese page: more than half a bet binds to a full one), or a raise of everything put
# out (the reference article, no-limit and pot-limit).
SILENT_CHIPS = ("fifty-percent", "full-amount")  # rulesets.SILENT_CHIPS
MAX_CHIPS_PUT = 500  # chips in one action: far above any real bet


class Declaration(NamedTuple):
    """What an action says and puts out (or a plain action given out of turn)."""

    do: str | None  # a plain action (with out_of_turn), else None
    to: int | None  # the plain action's to, or the amount said with "bet" / "raise"
    chips: tuple[tuple[int, ...], ...]  # the chips of each motion
    said: str | int | None  # a word of SAID_WORDS, or an amount alone
    out_of_turn: bool


@dataclass(frozen=True, slots=True)
class Counted:
    """What a declaration counts as: the action (``do``, ``to``), the chips that go back
    to the player, and the note that says why."""

    do: str
    to: int | None
    returned: int
    note: Note


def _said(concept: str, msgid: str, **params: Any) -> Note:
    return note("D12", cited(concept, msgid), **params)


def count(state: HandState, seat: int, decl: Declaration, index: int) -> Counted:
    """What ``decl`` by ``seat`` (the player in turn) counts as."""
    said = decl.said
    if decl.do is not None:  # a plain action, out of turn, now played in turn
        return Counted(decl.do, decl.to, 0, _plain_note(state, seat, decl))
    if isinstance(said, str):
        return _word(state, seat, decl, said, index)
    return _chips(state, seat, decl)


def _plain_note(state: HandState, seat: int, decl: Declaration) -> Note:
    if decl.do == "fold":
        return _said(
            "out_of_turn",
            gettext_noop("%(name)s's fold out of turn is binding"),
            name=state.names[seat],
        )
    return _said(
        "out_of_turn",
        gettext_noop(
            "%(name)s's action out of turn (%(do)s) stands: the action to %(name)s has not "
            "changed since"
        ),
        name=state.names[seat],
        do=decl.do if decl.to is None else f"{decl.do} {decl.to}",
    )


# -- the chips in play ---------------------------------------------------------------------


class _Seat(NamedTuple):
    name: str
    put: int  # already in front of the player this round
    total: int  # put + stack: the most the player can be in for
    owe: int  # to call (capped by the stack)
    low: int | None  # the raise range, None when the player may not raise
    high: int | None
    block: str | None


def _seat(state: HandState, seat: int) -> _Seat:
    put, stack = state.bet[seat], state.stack[seat]
    owe = max(0, min(stack, state._target(seat) - put))
    block = state._raise_block(seat)
    low, high = state._raise_range(seat) if block is None else (None, None)
    return _Seat(state.names[seat], put, put + stack, owe, low, high, block)


def _string_chips(decl: Declaration) -> int:
    return sum(sum(motion) for motion in decl.chips[1:])


# -- words ---------------------------------------------------------------------------------


def _word(state: HandState, seat: int, decl: Declaration, word: str, index: int) -> Counted:
    me = _seat(state, seat)
    put_out = sum(sum(m) for m in decl.chips)
    name = me.name
    if word == "fold":
        return Counted(
            "fold",
            None,
            put_out,
            _said(
                "binding_declarations",
                gettext_noop("%(name)s said fold: a declaration in turn is binding"),
                name=name,
            ),
        )
    if word == "all-in":
        if me.total > state.level and me.low is None:
            return _cannot_raise(state, me, decl)
        if me.high is not None and me.high < me.total:
            return _to_within(state, me, me.high, "pot", decl)
        return Counted(
            "all-in",
            me.total if me.total > state.level else None,
            0,
            _said(
                "binding_declarations",
                gettext_noop("%(name)s said all-in: all %(chips)s, binding"),
                name=name,
                chips=me.total - me.put,
            ),
        )
    if word == "check":
        if me.owe:
            raise RuleError(
                f"{name} said check facing a bet of {state.level}: that binds {name} to call or "
                "fold, not to raise; enter the call or the fold",
                index,
                "D12",
                "invalid_declarations",
            )
        return Counted(
            "check",
            None,
            put_out,
            _said("acting_in_turn", gettext_noop("%(name)s said check: a check"), name=name),
        )
    if word == "call":
        if not me.owe:
            return Counted(
                "check",
                None,
                put_out,
                _said(
                    "invalid_declarations",
                    gettext_noop("%(name)s said call with no bet to call: that is a check"),
                    name=name,
                ),
            )
        return Counted(
            "call",
            None,
            max(0, put_out - me.owe),
            _said(
                "binding_declarations",
                gettext_noop(
                    "%(name)s said call: a call of the full %(call)s (a declaration in turn "
                    "commits the player to the full current action)"
                ),
                name=name,
                call=me.owe,
            ),
        )
    return _wager_words(state, me, decl, word, index)


def _wager_words(state: HandState, me: _Seat, decl: Declaration, word: str, index: int) -> Counted:
    """ "bet", "raise" or "pot", with an amount said, chips put out, or neither."""
    name, level = me.name, state.level
    if word == "pot":
        if me.low is None or me.high is None:
            return _cannot_raise(state, me, decl)
        if state.pot_limit:
            return _to_within(state, me, me.high, "pot", decl)
        # TDA 54-D: "I bet the pot" is no bet in no limit, but binds to a valid one.
        if me.low is None:
            return _cannot_raise(state, me, decl)
        return Counted(
            "raise" if level else "bet",
            me.low,
            0,
            _said(
                "pot_limit",
                gettext_noop(
                    "%(name)s said pot, which is no bet outside pot limit: it binds %(name)s "
                    "to a valid bet, at least the minimum, to %(to)s"
                ),
                name=name,
                to=me.low,
            ),
        )
    if me.low is None:
        return _cannot_raise(state, me, decl)
    if decl.to is not None:
        wanted = decl.to
    elif decl.chips:
        motion = decl.chips[0]
        wanted = me.put + sum(motion)
        if len(motion) == 1:
            # TDA 44: raise declared with one oversized chip and no amount: the most the
            # chip allows.
            return _to_within(state, me, wanted, "chip", decl)
    elif not level:
        # TDA 55-B: "raise" (or "bet") with no bet and no amount: at least a minimum bet.
        return Counted(
            "bet",
            me.low,
            0,
            _said(
                "invalid_declarations",
                gettext_noop(
                    "%(name)s said %(word)s with no amount and no bet in the round: that binds "
                    "%(name)s to at least the minimum bet, %(to)s"
                ),
                name=name,
                word=word,
                to=me.low,
            ),
        )
    else:
        raise RuleError(
            f"{name} said {word} with no amount: enter the chips put out or the amount said "
            "(players wait for a clear amount)",
            index,
            "D12",
            "acting_in_turn",
        )
    return _to_within(state, me, wanted, "said", decl)


def _to_within(state: HandState, me: _Seat, wanted: int, how: str, decl: Declaration) -> Counted:
    """A bet or raise the player declared, to ``wanted``: made the minimum when below it,
    the maximum when above (TDA 52), all-in at or beyond the stack."""
    assert me.low is not None and me.high is not None
    name, level = me.name, state.level
    verb = "raise" if level else "bet"
    put_out = sum(sum(m) for m in decl.chips)
    strung = _string_chips(decl) if decl.to is None else 0
    if state.fixed:
        to = me.low
        msgid = gettext_noop("%(name)s declared a %(verb)s: in fixed limit it is to %(to)s")
        concept = "binding_declarations"
    elif wanted >= me.high and me.high == me.total:
        to = me.total
        msgid = gettext_noop("%(name)s declared a %(verb)s to %(wanted)s: all-in for %(to)s")
        concept = "binding_declarations"
    elif wanted > me.high:
        to = me.high
        msgid = gettext_noop(
            "%(name)s declared a %(verb)s to %(wanted)s, above the pot-limit maximum: it is "
            "brought down to %(to)s"
        )
        concept = "underbets" if how != "pot" else "pot_limit"
    elif wanted < me.low:
        to = me.low
        msgid = gettext_noop(
            "%(name)s declared a %(verb)s to %(wanted)s, below the minimum: it is made the "
            "minimum, to %(to)s"
        )
        concept = "underbets"
    elif how == "chip":
        to = wanted
        msgid = gettext_noop(
            "%(name)s declared a %(verb)s with one chip and no amount: the most the chip "
            "allows, to %(to)s"
        )
        concept = "oversized_chip"
    elif how == "pot":
        to = wanted
        msgid = gettext_noop("%(name)s said pot: a %(verb)s to the pot-limit maximum, %(to)s")
        concept = "pot_limit"
    else:
        to = wanted
        msgid = gettext_noop("%(name)s declared a %(verb)s to %(to)s: the total, binding")
        concept = "raise_amounts"
    do = "all-in" if to == me.total else verb
    returned = max(0, put_out - (to - me.put)) if put_out else 0
    main = _said(concept, msgid, name=name, verb=verb, wanted=wanted, to=to)
    return Counted(do, to, returned, _with_string(main, name, strung))


def _cannot_raise(state: HandState, me: _Seat, decl: Declaration) -> Counted:
    """A bet or raise declared by a player who may not make one: a call (or a check)."""
    from tdsystem.engine.explain import block_note

    seat = state.seat_of[me.name]
    why = block_note(state, seat, me.block or "short")
    put_out = sum(sum(m) for m in decl.chips)
    do = "call" if me.owe else "check"
    return Counted(
        do,
        None,
        max(0, put_out - me.owe),
        _said(
            "binding_declarations",
            gettext_noop("%(name)s may not bet or raise (%(why)s): it counts as a %(do)s"),
            name=me.name,
            why=why.text,
            do=do,
        ),
    )


def _with_string(main: Note, name: str, strung: int) -> Note:
    if not strung:
        return main
    return note(
        "D12",
        cited(
            main.cite,
            gettext_noop(
                "%(said)s; the %(chips)s %(name)s added in another motion is a string bet "
                "and goes back"
            ),
        ),
        said=main.text,
        chips=strung,
        name=name,
    )


# -- chips and amounts without a word -------------------------------------------------------


def _chips(state: HandState, seat: int, decl: Declaration) -> Counted:
    me = _seat(state, seat)
    name = me.name
    amount_only = isinstance(decl.said, int)
    chips: tuple[int, ...] = (decl.said,) if isinstance(decl.said, int) else decl.chips[0]
    put = sum(chips)
    strung = 0 if amount_only else _string_chips(decl)
    if state.level:
        counted = _facing(state, me, chips, put, amount_only)
    else:
        counted = _opening(state, me, chips, put, amount_only)
    if amount_only and counted.returned:
        counted = Counted(counted.do, counted.to, 0, counted.note)  # no chips put out
    if strung:
        counted = Counted(
            counted.do,
            counted.to,
            counted.returned + strung,
            _with_string(counted.note, name, strung),
        )
    return counted


def _facing(
    state: HandState, me: _Seat, chips: tuple[int, ...], put: int, amount_only: bool
) -> Counted:
    """Chips (or an amount said alone) put out facing a bet or a blind."""
    name, owe = me.name, me.owe
    all_of_them = put >= me.total - me.put
    concept = "raise_amounts" if amount_only else "multiple_chips"
    if put < owe and not all_of_them:
        return _undercall(state, me, put)
    took = "call" if owe else "check"
    if not amount_only and len(chips) == 1:
        return Counted(
            took,
            None,
            put - owe,
            _said(
                "oversized_chip",
                gettext_noop(
                    "%(name)s put out one chip of %(chip)s without a word facing %(call)s to "
                    "call: a call, however large the chip (%(back)s goes back)"
                ),
                name=name,
                chip=put,
                call=owe,
                back=put - owe,
            ),
        )
    if not amount_only and put - min(chips) < owe:
        return Counted(
            took,
            None,
            put - owe,
            _said(
                "multiple_chips",
                gettext_noop(
                    "%(name)s put out %(chips)s without a word facing %(call)s to call: every "
                    "chip is needed for the call (without the smallest it is short), so it is "
                    "a call (%(back)s goes back)"
                ),
                name=name,
                chips=tuple(chips),
                call=owe,
                back=put - owe,
            ),
        )
    if all_of_them:
        if me.total > state.level and me.low is None:
            return _call_back(state, me, put, "blocked", concept)
        if me.high is not None and me.high < me.total:
            return _raise_to(state, me, put, me.high, concept)
        return Counted(
            "all-in",
            me.total if me.total > state.level else None,
            0,
            _said(
                "multiple_chips",
                gettext_noop(
                    "%(name)s put out the last chips, more than the call needs: all-in for "
                    "%(to)s, whether or not it reaches half a raise"
                ),
                name=name,
                to=me.total,
            ),
        )
    if me.low is None:
        return _call_back(state, me, put, "blocked", concept)
    beyond = put - owe
    step = state.bet_sizes[state.street >= 2] if state.fixed else state.increment
    reading = state.spec.silent_chips_reading
    to_all = me.put + put
    if state.fixed:
        if 2 * beyond >= step:
            return Counted(
                "raise",
                me.low,
                max(0, to_all - me.low),
                _said(
                    concept,
                    gettext_noop(
                        "%(name)s put out %(beyond)s beyond the call without a word, at least "
                        "half a bet: a raise, in fixed limit to %(to)s"
                    ),
                    name=name,
                    beyond=beyond,
                    to=me.low,
                ),
            )
        return _call_back(state, me, put, "half", concept)
    assert me.high is not None
    if to_all >= me.low:
        return _raise_to(state, me, put, min(to_all, me.high), concept)
    if reading == "full-amount":
        return Counted(
            "raise",
            me.low,
            0,
            _said(
                "underbets",
                gettext_noop(
                    "%(name)s put out %(put)s without a word: a raise of all of it (the "
                    "reference article's rule for big-bet games), below the minimum, so made "
                    "the minimum raise to %(to)s"
                ),
                name=name,
                put=put,
                to=me.low,
            ),
        )
    if 2 * beyond >= step:
        return Counted(
            "raise",
            me.low,
            0,
            _said(
                concept,
                gettext_noop(
                    "%(name)s put out %(beyond)s beyond the %(call)s call without a word: at "
                    "least half the minimum raise of %(step)s, so a full raise is due, to "
                    "%(to)s"
                ),
                name=name,
                beyond=beyond,
                call=owe,
                step=step,
                to=me.low,
            ),
        )
    return _call_back(state, me, put, "half", concept)


def _raise_to(state: HandState, me: _Seat, put: int, to: int, concept: str) -> Counted:
    """Chips put out without a word that make a full raise (or more): a raise of all of
    them, brought down to the pot-limit maximum when above it."""
    to_all = me.put + put
    if to < to_all:
        msgid = gettext_noop(
            "%(name)s put out %(put)s without a word: a raise of all of it, to %(wanted)s, "
            "above the pot-limit maximum, so to %(to)s"
        )
    else:
        msgid = gettext_noop(
            "%(name)s put out %(put)s without a word, a full raise and more: a raise to "
            "%(to)s, all of it"
        )
    return Counted(
        "all-in" if to == me.total else "raise",
        to,
        to_all - to,
        _said(concept, msgid, name=me.name, put=put, wanted=to_all, to=to),
    )


def _call_back(
    state: HandState, me: _Seat, put: int, why: str, concept: str = "raise_amounts"
) -> Counted:
    """A call, the chips beyond it going back: short of half a raise, or no raise allowed."""
    back = put - me.owe
    if why == "half":
        step = state.increment if not state.fixed else state.bet_sizes[state.street >= 2]
        msgid = gettext_noop(
            "%(name)s put out %(beyond)s beyond the %(call)s call without a word: less than "
            "half the minimum raise of %(step)s, so a call (%(back)s goes back)"
        )
        return Counted(
            "call" if me.owe else "check",
            None,
            back,
            _said(
                concept,
                msgid,
                name=me.name,
                beyond=back,
                call=me.owe,
                step=step,
                back=back,
            ),
        )
    from tdsystem.engine.explain import block_note

    reason = block_note(state, state.seat_of[me.name], me.block or "short")
    return Counted(
        "call" if me.owe else "check",
        None,
        back,
        _said(
            "binding_declarations",
            gettext_noop(
                "%(name)s put out more than the call, but may not raise (%(why)s): a call "
                "(%(back)s goes back)"
            ),
            name=me.name,
            why=reason.text,
            back=back,
        ),
    )


def _undercall(state: HandState, me: _Seat, put: int) -> Counted:
    """Less than the call, without a word (TDA 51-B): a full call when the bet is heads-up
    or the round's opening bet multi-way; otherwise the floor decides, and the engine rules
    the full call the sources ask for (D12: an under-call is corrected)."""
    heads_up = state.in_hand == 2
    opening = state.level == state.increment if not state.fixed else state.raises == 0
    if heads_up or opening:
        msgid = gettext_noop(
            "%(name)s put out %(put)s, less than the %(call)s to call: an undercall of %(what)s "
            "is a full call"
        )
        what = gettext_noop("a bet heads-up") if heads_up else gettext_noop("the opening bet")
    else:
        msgid = gettext_noop(
            "%(name)s put out %(put)s, less than the %(call)s to call: ruled a full call; "
            "facing a raise multi-way the floor may instead let %(name)s forfeit the %(put)s "
            "and fold (%(what)s)"
        )
        what = gettext_noop("the floor's discretion")
    from tdsystem.engine.explain import phrase

    return Counted(
        "call",
        None,
        0,
        _said(
            "binding_declarations",
            msgid,
            name=me.name,
            put=put,
            call=me.owe,
            what=phrase(what),
        ),
    )


def _opening(
    state: HandState, me: _Seat, chips: tuple[int, ...], put: int, amount_only: bool
) -> Counted:
    """Chips (or an amount alone) put out with no bet in the round: a bet."""
    name = me.name
    if me.low is None:
        return _call_back(state, me, put, "blocked", "methods_of_betting")
    assert me.high is not None
    wanted = me.put + put
    if state.fixed:
        to = me.low
        msgid = gettext_noop(
            "%(name)s put out %(put)s opening the betting: in fixed limit a bet of %(to)s"
        )
        concept = "methods_of_betting"
    elif wanted >= me.high and me.high == me.total:
        to = me.total
        msgid = gettext_noop("%(name)s put out all %(put)s opening the betting: all-in")
        concept = "methods_of_betting"
    elif wanted < me.low:
        to = me.low
        msgid = gettext_noop(
            "%(name)s put out %(put)s opening the betting, below the minimum bet: it is made "
            "the minimum, %(to)s"
        )
        concept = "underbets"
    elif wanted > me.high:
        to = me.high
        msgid = gettext_noop(
            "%(name)s put out %(put)s opening the betting, above the pot-limit maximum: it is "
            "brought down to %(to)s"
        )
        concept = "underbets"
    elif len(chips) == 1 and not amount_only:
        to = wanted
        msgid = gettext_noop(
            "%(name)s put out one chip of %(put)s without a word, no bet to face: a bet of the "
            "most the chip allows, %(to)s"
        )
        concept = "oversized_chip"
    else:
        to = wanted
        msgid = gettext_noop("%(name)s put out %(put)s opening the betting: a bet of %(to)s")
        concept = "methods_of_betting"
    do = "all-in" if to == me.total else "bet"
    return Counted(do, to, max(0, wanted - to), _said(concept, msgid, name=name, put=put, to=to))
