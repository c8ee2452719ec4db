"""The sentences of a ruling: what happened and why the next player may do what they may.

Each ``Note`` carries the rule it applies, by the project's numbering ("D8"), for the staff
ruling page; the figures they quote are worked out in ``tdsystem.engine.betting``.

A note is a message id and its parameters: the engine says it in English (``Note.text``,
the command line's words), the ruling page in the reader's language. Every message id is
one whole sentence, or a clause joined to others by a message of its own ("%(first)s;
%(then)s"), and is marked with ``gettext_noop`` so that the translators' catalogues hold it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tdsystem.engine.spec import PREFLOP

if TYPE_CHECKING:
    from tdsystem.engine.betting import HandState

# A parameter is a number, a name, a ``Phrase``, a tuple (a list read "A, B and C") or a
# ``Commas`` (a list read "A, B, C").
Params = tuple[tuple[str, Any], ...]


def gettext_noop(message: str) -> str:
    """Marks an English message for the catalogues: Django's makemessages extracts the calls
    by this name, and the ruling page translates the message id when it shows the note."""
    return message


# The rule each message applies, as a concept of the rule sets (``rulesets.CONCEPTS``): a
# note cites the number its hand's rule set gives that concept ("TDA 47", "TDA 49").
_CONCEPT_OF: dict[str, str] = {}


def cited(concept: str, msgid: str) -> str:
    """``msgid``, recorded as applying the rule of ``concept``."""
    _CONCEPT_OF[msgid] = concept
    return msgid


def concept_of(msgid: str, params: Params = ()) -> str:
    """The concept a message applies: its own, else its first clause's; "" for none."""
    concept = _CONCEPT_OF.get(msgid)
    if concept is not None:
        return concept
    for _, value in params:
        if isinstance(value, Phrase):
            return concept_of(value.msgid, value.params)
    return ""


class Commas(tuple[Any, ...]):
    """A list parameter read "A, B, C", without "and"."""

    __slots__ = ()


def _params(values: dict[str, Any]) -> Params:
    return tuple((key, tuple(v) if isinstance(v, list) else v) for key, v in values.items())


@dataclass(frozen=True, slots=True)
class Phrase:
    """Part of a sentence that is a message of its own: a clause, a list item."""

    msgid: str
    params: Params = ()


def phrase(msgid: str, **params: Any) -> Phrase:
    return Phrase(msgid, _params(params))


def english(msgid: str, params: Params) -> str:
    """The message in English: ``msgid % params``, lists joined "A, B and C"."""
    return msgid % {key: _english(value) for key, value in params}


def _english(value: Any) -> Any:
    if isinstance(value, Phrase):
        return english(value.msgid, value.params)
    if isinstance(value, Commas):
        return ", ".join(str(_english(v)) for v in value)
    if isinstance(value, tuple):
        return _and([str(_english(v)) for v in value])
    return value


def plain(value: Any) -> Any:
    """A parameter as JSON-friendly values (the ruling page's dicts): a phrase as
    ``{"msgid", "params"}``, a list as ``{"and": [...]}`` or ``{"commas": [...]}``."""
    if isinstance(value, Phrase):
        return {"msgid": value.msgid, "params": {k: plain(v) for k, v in value.params}}
    if isinstance(value, Commas):
        return {"commas": [plain(v) for v in value]}
    if isinstance(value, tuple):
        return {"and": [plain(v) for v in value]}
    return value


class Note:
    """One sentence of a ruling, with the rule it applies ("D8"): ``text`` is its English,
    made from ``msgid`` and ``params``. Two notes are equal when rule and text are.

    The English is worked out the first time it is read: a replay makes notes on the way
    (a short blind, an all-in short of a raise) and most callers (the command line's
    ``adjudicate``, the pages' chip counts) never read them. A note is immutable.
    """

    __slots__ = ("_text", "msgid", "params", "rule")

    rule: str
    msgid: str
    params: Params
    _text: str | None

    def __init__(self, rule: str, text: str = "", msgid: str = "", params: Params = ()) -> None:
        setter = object.__setattr__
        setter(self, "rule", rule)
        setter(self, "_text", text or None)
        setter(self, "msgid", msgid)
        setter(self, "params", params)

    @property
    def text(self) -> str:
        text: str | None = self._text
        if text is None:
            text = english(self.msgid, self.params)
            object.__setattr__(self, "_text", text)
        return text

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Note is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Note is immutable: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Note):
            return NotImplemented
        return self.rule == other.rule and self.text == other.text

    def __hash__(self) -> int:
        return hash((self.rule, self.text))

    def __repr__(self) -> str:
        return f"Note(rule={self.rule!r}, text={self.text!r})"

    def __reduce__(self) -> tuple[type[Note], tuple[str, str, str, Params]]:
        return (Note, (self.rule, self.text, self.msgid, self.params))

    @property
    def cite(self) -> str:
        """The concept of the rule sets this note applies ("reopening"), "" for none."""
        return concept_of(self.msgid, self.params)

    def as_dict(self, messages: bool = False, rule_set: str | None = None) -> dict[str, Any]:
        """``{"rule", "text"}``; with ``rule_set``, ``"cite"`` too: the rule's number in that
        set ("TDA 47"), where it has one; with ``messages``, the message id, its parameters
        and the concept too."""
        out: dict[str, Any] = {"rule": self.rule, "text": self.text}
        if rule_set is not None:
            from tdsystem.engine.rulesets import citation

            number = citation(rule_set, self.cite)
            if number:
                out["cite"] = number
        if messages:
            out["msgid"] = self.msgid
            out["params"] = {key: plain(value) for key, value in self.params}
            out["concept"] = self.cite
        return out


def note(rule: str, msgid: str, **params: Any) -> Note:
    """The note saying ``msgid`` with ``params`` (a message marked with ``gettext_noop``)."""
    return Note(rule, "", msgid, _params(params))


def said(rule: str, what: Phrase) -> Note:
    """The note saying ``what``."""
    return Note(rule, "", what.msgid, what.params)


def joined(first: Phrase, *more: Phrase) -> Phrase:
    """Clauses of one note joined "first; then", each clause a message of its own."""
    for then in more:
        # Translators: two clauses of one ruling note, e.g. "the short big blind counts in
        # full (TDA 54-B); the small blind is counted as called (assumed call)".
        first = phrase(gettext_noop("%(first)s; %(then)s"), first=first, then=then)
    return first


def short_all_in_note(state: HandState, seat: int, to: int, full: int) -> Note:
    """An all-in wager short of a full one: who it shuts out and who it reopens for."""
    name, reopen = state.names[seat], state.reopen_size()
    raised = any(state.bet[j] for j in range(state.n) if j != seat)
    shut: list[str] = []
    reopened: list[str] = []
    for j in range(state.n):
        if j != seat and state.acted[j] and not state.folded[j] and state.stack[j]:
            closed = state.level - state.acted_level[j] < reopen
            (shut if closed else reopened).append(state.names[j])
    if raised:
        wager = cited(
            "reopening",
            gettext_noop("%(name)s's all-in for %(to)s is not a full raise (that is to %(full)s)"),
        )
    else:
        wager = cited(
            "reopening",
            gettext_noop("%(name)s's all-in for %(to)s is not a full bet (that is to %(full)s)"),
        )
    head = phrase(wager, name=name, to=to, full=full)
    why = []
    if shut:
        why.append(
            phrase(gettext_noop("betting is not reopened for %(names)s"), names=Commas(shut))
        )
    if len(reopened) == 1:
        why.append(
            phrase(
                gettext_noop(
                    "with the all-ins before it, %(name)s now faces a full raise, so the "
                    "betting is reopened for %(name)s"
                ),
                name=reopened[0],
            )
        )
    elif reopened:
        why.append(
            phrase(
                gettext_noop(
                    "with the all-ins before it, %(names)s now face a full raise, so the "
                    "betting is reopened for them"
                ),
                names=Commas(reopened),
            )
        )
    if not why:
        return said("D9", head)
    # Translators: a ruling note and the reasons that follow from it, e.g. "Ann's all-in
    # for 300 is not a full raise (that is to 400): betting is not reopened for Bo".
    return note("D9", gettext_noop("%(sentence)s: %(why)s"), sentence=head, why=joined(*why))


_ANTE_SHORT = {
    (True, True): gettext_noop(
        "%(name)s is all-in for the ante (%(paid)s of %(ante)s): the main pot takes %(paid)s "
        "from every player, the rest of the antes and all bets go to a side pot"
    ),
    (True, False): gettext_noop(
        "%(name)s is all-in for the ante (%(paid)s of %(ante)s): the main pot takes %(paid)s "
        "from every player, the rest of the antes and all bets go to side pots"
    ),
    (False, True): gettext_noop(
        "%(name)s is all-in for the ante (%(paid)s of %(ante)s): side pot %(number)s takes "
        "%(more)s more from every player but %(names)s, the rest of the antes and all bets go "
        "to a side pot"
    ),
    (False, False): gettext_noop(
        "%(name)s is all-in for the ante (%(paid)s of %(ante)s): side pot %(number)s takes "
        "%(more)s more from every player but %(names)s, the rest of the antes and all bets go "
        "to side pots"
    ),
}


def partial_ante_notes(names: list[str], short: list[tuple[int, int]], ante: int) -> list[Note]:
    """D8: each player all-in for part of the ante (``short``: seat and chips paid) caps a
    pot at what they paid, taken from every player: the smallest is the main pot, each larger
    one a side pot over the one below, which the players below it cannot win."""
    levels = sorted({paid for _, paid in short})
    notes = []
    for seat, paid in sorted(short, key=lambda item: (item[1], item[0])):
        k = levels.index(paid)
        msgid = _ANTE_SHORT[k == 0, k == len(levels) - 1]
        if k == 0:
            notes.append(note("D8", msgid, name=names[seat], paid=paid, ante=ante))
        else:
            below = [names[j] for j, chips in short if chips < paid]
            more = paid - levels[k - 1]
            notes.append(
                note(
                    "D8",
                    msgid,
                    name=names[seat],
                    paid=paid,
                    ante=ante,
                    number=k,
                    more=more,
                    names=below,
                )
            )
    return notes


def all_in_note(one_left: bool) -> Note:
    """D9: a betting round nobody can open, everyone (or everyone but one) all-in."""
    return _ALL_IN_NOTES[one_left]


# The two notes, made once: a note is immutable, and more than half of the hands a page
# replays end with one of them.
_ALL_IN_NOTES = {
    True: note(
        "D9",
        cited(
            "all_in_face_up",
            gettext_noop("all players still in the pot but one are all-in: no more betting"),
        ),
    ),
    False: note(
        "D9",
        cited(
            "all_in_face_up",
            gettext_noop("all players still in the pot are all-in: no more betting"),
        ),
    ),
}


CAPPED = cited("raise_cap", gettext_noop("the betting is capped at one bet and %(raises)s raises"))


def block_note(state: HandState, seat: int, block: str) -> Note:
    """Why ``seat`` may not bet or raise (``block``: a code from ``HandState``)."""
    name = state.names[seat]
    if block == "short":
        return note(
            "D3", gettext_noop("%(name)s has no chips beyond a call (table stakes)"), name=name
        )
    if block == "not-reopened":
        if state.fixed and state.spec.incomplete_raise == "half-bet":
            msgid = gettext_noop(
                "%(name)s has already acted and the all-ins since add up to less than half a "
                "bet (%(added)s of %(full)s): the betting is not reopened"
            )
        else:
            msgid = gettext_noop(
                "%(name)s has already acted and the all-ins since add up to less than a full "
                "raise (%(added)s of %(full)s): the betting is not reopened"
            )
        cited("reopening", msgid)
        return note(
            "D9",
            msgid,
            name=name,
            added=state.level - state.acted_level[seat],
            full=state.reopen_size(),
        )
    if block == "capped":
        return note("D5", CAPPED, raises=state.raises)
    return _nobody_to_answer(state, seat)


def _nobody_to_answer(state: HandState, seat: int) -> Note:
    """Why no raise is possible: every other player still in the hand is all-in, or has
    no more than the bet, so could only call (D9)."""
    all_in: list[str] = []
    callers: list[str] = []
    totals: list[int] = []
    for j in range(state.n):
        if j == seat or state.folded[j]:
            continue
        if state.stack[j]:
            callers.append(state.names[j])
            totals.append(state.bet[j] + state.stack[j])
        else:
            all_in.append(state.names[j])
    if not callers:
        return note(
            "D9",
            gettext_noop(
                "every other player still in the hand is all-in (%(names)s): no more raising"
            ),
            names=all_in,
        )
    if not all_in:
        msgid = gettext_noop(
            "nobody left could call a raise (%(callers)s can at most call, with %(totals)s for "
            "the round): no more raising"
        )
    elif len(all_in) == 1:
        msgid = gettext_noop(
            "nobody left could call a raise (%(callers)s can at most call, with %(totals)s for "
            "the round; %(all_in)s is all-in): no more raising"
        )
    else:
        msgid = gettext_noop(
            "nobody left could call a raise (%(callers)s can at most call, with %(totals)s for "
            "the round; %(all_in)s are all-in): no more raising"
        )
    return note("D9", msgid, callers=callers, totals=totals, all_in=all_in)


def _and(words: list[str]) -> str:
    if len(words) <= 1:
        return words[0] if words else ""  # a message may not use an empty list it is given
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _pot_limit_maximum(state: HandState, high: int) -> Note:
    """D4: the maximum, with what the pot counts that a player might not expect."""
    level = state.level
    if state.pot_limit == 2:
        maximum = gettext_noop(
            "the half-pot-limit maximum is to %(to)s: the %(level)s faced plus half the pot "
            "after the call, %(pot)s (antes and dead money included)"
        )
    else:
        maximum = cited(
            "pot_limit",
            gettext_noop(
                "the pot-limit maximum is to %(to)s: the %(level)s faced plus the whole pot "
                "after the call, %(pot)s (antes and dead money included)"
            ),
        )
    said_first = phrase(maximum, to=high, level=level, pot=high - level)
    more = []
    dead_sb = state.spec.dead_small_blind  # no small blind seat: counted, never short
    sb_short = 0 if dead_sb else state.sb_shortfall
    if state.street == PREFLOP and state.shortfall and sb_short:
        more.append(phrase(gettext_noop("the short blinds count in full (TDA 54-B)")))
    elif state.street == PREFLOP and state.shortfall:
        more.append(phrase(gettext_noop("the short big blind counts in full (TDA 54-B)")))
    elif state.street == PREFLOP and sb_short:
        more.append(phrase(gettext_noop("the short small blind counts in full (TDA 54-B)")))
    if state.street == PREFLOP and dead_sb:
        more.append(phrase(gettext_noop("the dead small blind counts as if posted (TDA 54-B)")))
    if (
        state.street == PREFLOP
        and state.spec.pot_limit_preflop == "assumed-call"
        and state.sb_seat is not None
    ):
        more.append(phrase(gettext_noop("the small blind is counted as called (assumed call)")))
    return said("D4", joined(said_first, *more))


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
    if state.acted_since_full_raise(seat):
        reasons.append(
            note(
                "D9",
                cited(
                    "reopening",
                    gettext_noop(
                        "the all-ins since %(name)s acted add up to a full raise (%(added)s of "
                        "%(full)s): the betting is reopened for %(name)s"
                    ),
                ),
                name=name,
                added=level - state.acted_level[seat],
                full=state.reopen_size(),
            )
        )
    if state.fixed:
        size = state.bet_sizes[state.street >= 2]
        if low == total and low < state.full_level + size:
            if level:
                msgid = gettext_noop(
                    "%(name)s may go all-in for %(to)s, short of a full raise to %(full)s "
                    "(table stakes)"
                )
            else:
                msgid = gettext_noop(
                    "%(name)s may go all-in for %(to)s, short of a full bet to %(full)s "
                    "(table stakes)"
                )
            reasons.append(note("D5", msgid, name=name, to=low, full=state.full_level + size))
        elif level:
            reasons.append(
                note(
                    "D5",
                    gettext_noop(
                        "fixed limit: bets and raises go up by %(size)s, so the raise is to %(to)s"
                    ),
                    size=size,
                    to=low,
                )
            )
        else:
            reasons.append(
                note(
                    "D5",
                    gettext_noop(
                        "fixed limit: bets and raises go up by %(size)s, so the bet is %(to)s"
                    ),
                    size=size,
                    to=low,
                )
            )
        return tuple(reasons)
    if low == total and low < level + state.increment:
        reasons.append(
            note(
                "D3",
                gettext_noop(
                    "%(name)s may go all-in for %(to)s, short of a full raise (table stakes)"
                ),
                name=name,
                to=low,
            )
        )
    elif not level and state.spread is not None:
        reasons.append(note("D5", gettext_noop("spread limit: the least bet is %(to)s"), to=low))
    elif not level:
        reasons.append(note("D3", gettext_noop("the minimum bet is the big blind, %(to)s"), to=low))
    elif state.street == PREFLOP and state.increment == state.big_blind:
        reasons.append(
            note(
                "D3",
                cited(
                    "raise_amounts",
                    gettext_noop(
                        "the minimum raise is to %(to)s: the bet of %(level)s plus "
                        "%(increment)s, the big blind, which counts as the opening bet"
                    ),
                ),
                to=low,
                level=level,
                increment=state.increment,
            )
        )
    else:
        reasons.append(
            note(
                "D3",
                cited(
                    "raise_amounts",
                    gettext_noop(
                        "the minimum raise is to %(to)s: the bet of %(level)s plus "
                        "%(increment)s, the largest full bet or raise this round"
                    ),
                ),
                to=low,
                level=level,
                increment=state.increment,
            )
        )
    if state.spread is not None:
        most = state.spread_most()
        if high == total and total < level + most:
            reasons.append(
                note(
                    "D5",
                    gettext_noop(
                        "spread limit: a bet or raise adds at most %(most)s, more than "
                        "%(name)s's %(chips)s: all-in"
                    ),
                    most=most,
                    name=name,
                    chips=total,
                )
            )
        else:
            reasons.append(
                note(
                    "D5",
                    gettext_noop(
                        "spread limit: a bet or raise adds at most %(most)s, so to at most %(to)s"
                    ),
                    most=most,
                    to=high,
                )
            )
    elif not state.pot_limit:
        reasons.append(
            note("D3", gettext_noop("no limit: the most is all %(chips)s chips"), chips=total)
        )
    elif high == total and total < level + state.pot_after_call(seat) // state.pot_limit:
        reasons.append(
            note(
                "D4",
                cited(
                    "pot_limit",
                    gettext_noop("the pot-limit maximum is more than %(name)s's %(chips)s: all-in"),
                ),
                name=name,
                chips=total,
            )
        )
    else:
        reasons.append(_pot_limit_maximum(state, high))
    return tuple(reasons)
