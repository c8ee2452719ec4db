"""What a hand is made of: the table's settings, the players and the actions so far.

``parse_hand`` reads the command line's JSON shape (see docs/engine.md) into a ``HandSpec``
and names the field at fault when it cannot; building a ``HandSpec`` directly from Python
runs the same checks on the values.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import TYPE_CHECKING, Any, NamedTuple

from tdsystem.engine.errors import RuleError

if TYPE_CHECKING:
    from tdsystem.engine.declarations import Declaration

STRUCTURES = ("no-limit", "pot-limit", "fixed-limit", "spread-limit", "half-pot-limit")
# The structures whose raises a cap may count, and where the half-bet rule may apply (D5, D9).
LIMIT_STRUCTURES = ("fixed-limit", "spread-limit")
# The structures a cap-limit game plays until the cap (D5).
CAPPED_STRUCTURES = ("no-limit", "pot-limit", "half-pot-limit")
# "big-blind-ante-first": the big blind ante posted before the blind (the default posts the
# blind first, so a short big blind keeps a live blind rather than dead ante money).
ANTE_TYPES = ("each", "big-blind", "button", "big-blind-ante-first")
INCOMPLETE_RAISE_RULES = ("full-bet", "half-bet")
# When the raise cap of a limit game is lifted heads-up (D5): "at-start", when only two players
# are in the pot at the start of the round (the reference article); "until-capped", whenever
# the action becomes heads-up before the raising is capped (Robert's Rules, the Vietnamese
# page); "kept", never (TDA 2024 rule 48). Absent: the rule set's (``rule_set``), else
# "at-start".
RAISE_CAP_HEADS_UP = ("at-start", "until-capped", "kept")  # rulesets.CAP_HEADS_UP
POT_LIMIT_PREFLOP = ("true-pot", "assumed-call")
DOS = ("fold", "check", "call", "bet", "raise", "all-in")
STREETS = ("preflop", "flop", "turn", "river", "showdown", "complete")
PREFLOP, RIVER, SHOWDOWN, COMPLETE = 0, 3, 4, 5  # indices into STREETS
# "flop": the blind games (hold'em, Omaha, short deck); "stud": seven-card stud (D5).
GAMES = ("flop", "stud")
STUD_STREETS = ("third", "fourth", "fifth", "sixth", "seventh")
STUD_MAX_PLAYERS = 8  # seven cards each: a deck deals eight players at most
BLINDS_WANTED = (
    "blinds: one, two or three positive whole numbers of chips ([big], [small, big] or "
    "[button, small, big])"
)
# Fields of the blind games that a stud hand does not have.
_FLOP_ONLY = ("blinds", "pot_limit_preflop", "bb_must_cover_sb", "dead_small_blind", "dead_button")

_HAND_KEYS = frozenset(
    {
        "structure",
        "blinds",
        "ante",
        "ante_type",
        "bets",
        "raise_cap",
        "incomplete_raise",
        "pot_limit_preflop",
        "bb_must_cover_sb",
        "dead_small_blind",
        "dead_button",
        "game",
        "bring_in",
        "bring_in_player",
        "bring_in_completes",
        "first_to_act",
        "rule_set",
        "raise_cap_heads_up",
        "silent_chips",
        "spread",
        "cap",
        "straddles",
        "kill",
        "missed_blinds",
        "players",
        "actions",
    }
)
_STUD_ONLY = ("bring_in", "bring_in_player", "bring_in_completes", "first_to_act")
_FLOP_ONLY_KEYS, _STUD_ONLY_KEYS = frozenset(_FLOP_ONLY), frozenset(_STUD_ONLY)
_PLAYER_KEYS = frozenset({"name", "stack"})
# A JSON array as decoded, or a tuple; a tuple of types, as ``list | tuple`` would make a new
# union object at every test (four for each hand read).
_LIST_LIKE = (list, tuple)
_ACTION_KEYS = frozenset({"player", "do", "to"})
# An action may say what the player put out and said instead of what they did (D12), or be
# given out of turn: docs/engine.md, "Chips and declarations".
_DECLARATION_KEYS = frozenset({"chips", "said", "out_of_turn"})
DECLARED = "declared"  # the do of such an action, its ``to`` a ``Declaration``


# A player and an action are small immutable records made by the dozen for every hand a
# page shows: named tuples, which build in half the time of frozen dataclasses.
class PlayerSpec(NamedTuple):
    name: str
    stack: int


class Action(NamedTuple):
    """One action; ``to`` is the player's total for the betting round (bet and raise only)."""

    player: str
    do: str
    to: int | None = None


# An action's values as the replay reads them (an ``Action`` is one): ``read_hand`` hands the
# actions over as these plain tuples, without an ``Action`` made for each. An action given as
# chips and words (or out of turn) is ``(player, DECLARED, Declaration)``.
Move = tuple[str, str, "int | Declaration | None"]


# ``Action(...)`` runs the named tuple's ``__new__``, a Python function; reading a hand makes
# a few dozen players and actions, so it makes them as tuples of their type directly, with
# ``tuple.__new__(Action, values)`` (a ``functools.partial`` of it costs a call more).


# Not slotted: ``parse_hand`` hands a new spec the dict of the fields it read in one go (a
# field not given reads its default from the class), where a frozen dataclass's __init__
# sets all eighteen one by one (28,000 instructions of the 490,000 of an ``adjudicate``).
@dataclass(frozen=True)
class HandSpec:
    """A hand as the engine replays it. Players are listed clockwise from the button.

    ``blinds`` holds one value (a single blind) or two (small, big). Under the dead button
    (D11) ``dead_small_blind`` says nobody posts the small blind (the seat after the button
    posts the big blind) and ``dead_button`` that the button is on an empty seat (the
    players are then listed from the first seat after it, the small blind).

    ``game="stud"`` is seven-card stud: no blinds (``blinds=()``), fixed limit with ``bets``,
    antes from every player, and ``bring_in`` posted by ``bring_in_player`` (the floor names
    the low card; ``bring_in_completes``: that player opens for the full small bet instead).
    ``first_to_act`` pairs a later street with the player the floor names to open it (the
    best hand showing), e.g. ``(("fourth", "Bob"),)``. Players are listed clockwise.
    """

    structure: str
    blinds: tuple[int, ...]
    players: tuple[PlayerSpec, ...]
    actions: tuple[Action, ...] = ()
    ante: int = 0
    ante_type: str = "each"
    bets: tuple[int, int] | None = None
    raise_cap: int | None = None
    incomplete_raise: str = "full-bet"
    pot_limit_preflop: str = "true-pot"
    bb_must_cover_sb: bool = False
    dead_small_blind: bool = False
    dead_button: bool = False
    game: str = "flop"
    bring_in: int = 0
    bring_in_player: str | None = None
    bring_in_completes: bool = False
    first_to_act: tuple[tuple[str, str], ...] = ()
    rule_set: str | None = None
    raise_cap_heads_up: str | None = None
    silent_chips: str | None = None
    spread: tuple[int, ...] | None = None
    cap: int | None = None
    straddles: tuple[int, ...] = ()
    kill: tuple[str, str] | None = None  # (player, "full" | "half")
    missed_blinds: tuple[tuple[str, str], ...] = ()  # (player, "big" | "small" | "both")
    # Whether the hand uses any of the fields the contract gained after the first (a rule
    # set, declarations' reading, spread, half-pot and cap limit, three blinds, straddles,
    # kill and missed blinds): worked out when the spec is made, so that a plain hand's
    # replay asks once (not an input field).
    extras: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "extras", _has_extras(self))
        _check_spec(self)

    @property
    def small_blind(self) -> int:
        """The small blind, 0 with a single blind."""
        return self.blinds[-2] if len(self.blinds) >= 2 else 0

    @property
    def first_seat(self) -> int:
        """The seat of the first player after the button: 0 when the button is dead."""
        return 0 if self.dead_button else 1

    @property
    def big_blind(self) -> int:
        """The big blind (the single blind), 0 in stud."""
        return self.blinds[-1] if self.blinds else 0

    def first_to_act_on(self, street: str) -> str | None:
        """Stud: the player named to open ``street`` ("fourth"...), None when not named."""
        return dict(self.first_to_act).get(street)

    @property
    def limit_bets(self) -> tuple[int, int]:
        """Fixed-limit small and big bet (the big blind and its double when not given)."""
        return self.bets or (self.big_blind, 2 * self.big_blind)

    @property
    def cap_heads_up(self) -> str:
        """When the raise cap is lifted heads-up: the hand's setting, else its rule set's,
        else "at-start" (D5)."""
        if self.raise_cap_heads_up is not None:
            return self.raise_cap_heads_up
        if self.rule_set is not None:
            from tdsystem.engine.rulesets import rule_set

            return rule_set(self.rule_set).settings.limit_cap_heads_up
        return "at-start"

    @property
    def silent_chips_reading(self) -> str:
        """Several chips put out without a word beyond a call (D12): the hand's reading,
        else its rule set's, else the 50% standard."""
        if self.silent_chips is not None:
            return self.silent_chips
        if self.rule_set is not None:
            from tdsystem.engine.rulesets import rule_set

            return rule_set(self.rule_set).settings.silent_chips
        return "fifty-percent"


def _is_int(value: object) -> bool:
    return type(value) is int  # bool is an int subclass and a JSON true is no chip count


def _check_spec(spec: HandSpec, players_read: bool = False, actions_read: bool = False) -> None:
    """Refuse a spec at its first fault. ``players_read``/``actions_read``: ``parse_hand``
    has already found every player's name and stack (every action's values) good, while
    reading them, so only the checks between them run, in the same order."""
    if spec.structure not in STRUCTURES:
        raise RuleError(
            f"structure: must be one of {', '.join(STRUCTURES)}, got {spec.structure!r}"
        )
    if spec.game not in GAMES:
        raise RuleError(f"game: must be one of {', '.join(GAMES)}, got {spec.game!r}")
    if spec.game == "stud":
        _check_stud(spec, players_read)
    else:
        _check_blind_game(spec, players_read)
    if not actions_read:
        _check_actions(spec.actions)
    if spec.extras:
        _check_rules(spec)
        _check_structure(spec)
        _check_forced(spec)


# The input fields the contract gained after its first version (``HandSpec.extras``).
_EXTENSION_KEYS = frozenset(
    {
        "rule_set",
        "raise_cap_heads_up",
        "silent_chips",
        "spread",
        "cap",
        "straddles",
        "kill",
        "missed_blinds",
    }
)


def _is_new_structure(structure: object) -> bool:
    return type(structure) is str and structure in _NEW_STRUCTURES


def _has_extras(spec: HandSpec) -> bool:
    return (
        spec.rule_set is not None
        or spec.raise_cap_heads_up is not None
        or spec.silent_chips is not None
        or spec.spread is not None
        or spec.cap is not None
        or _is_new_structure(spec.structure)
        or bool(spec.straddles)
        or spec.kill is not None
        or bool(spec.missed_blinds)
        or len(spec.blinds) == 3
    )


def _check_forced(spec: HandSpec) -> None:
    """Three blinds, straddles, the kill blind and missed blinds (D7), checked after all the
    rest, so that a hand refused before is refused for the same fault."""
    if (
        not (spec.straddles or spec.kill is not None or spec.missed_blinds)
        and len(spec.blinds) != 3
    ):
        return
    n, names = len(spec.players), {p.name: i for i, p in enumerate(spec.players)}
    stack = {p.name: p.stack for p in spec.players}
    if spec.game == "stud" and (spec.straddles or spec.kill or spec.missed_blinds):
        raise RuleError("straddles, kill and missed blinds: a stud hand has no blinds")
    if len(spec.blinds) == 3:
        button, small, big = spec.blinds
        if n < 3 or spec.dead_button or spec.dead_small_blind:
            raise RuleError(
                "blinds: three blinds need three players or more and a button in play (the "
                "first blind is posted on the button)",
                rule="D7",
            )
        if not button <= small <= big:
            raise RuleError(
                f"blinds: the button's {button}, the small {small} and the big {big} blind must "
                "not decrease",
                rule="D7",
            )
    posting = _blind_seats(spec)
    bb = max(posting) if len(spec.blinds) == 3 else sorted(posting)[-1]
    straddlers = {(bb + 1 + k) % n for k in range(len(spec.straddles))}
    if spec.straddles:
        if spec.game != "flop" or n < 3 or len(spec.straddles) > n - len(posting):
            raise RuleError(
                "straddles: the players after the big blind, one straddle each, three players "
                "or more",
                rule="D7",
            )
        previous = spec.big_blind
        for k, amount in enumerate(spec.straddles):
            if not _is_int(amount) or amount < 2 * previous:
                raise RuleError(
                    f"straddles: each straddle is at least twice the blind or straddle before "
                    f"it ({2 * previous}), got {amount!r}",
                    rule="D7",
                )
            poster = spec.players[(bb + 1 + k) % n]
            if poster.stack < amount:
                raise RuleError(
                    f"straddles: {poster.name} has only {poster.stack}, less than the straddle of "
                    f"{amount} (a straddle is by choice: leave it out)",
                    rule="D7",
                )
            if spec.structure == "fixed-limit" and amount != previous + spec.limit_bets[0]:
                raise RuleError(
                    f"straddles: in fixed limit a straddle is a raise of one small bet, to "
                    f"{previous + spec.limit_bets[0]}",
                    rule="D7",
                )
            previous = amount
    if spec.kill is not None:
        who, kind = spec.kill
        if spec.structure != "fixed-limit" or n < 3:
            raise RuleError(
                "kill: kill pots are a fixed-limit game's, three players or more", rule="D7"
            )
        if kind not in ("full", "half"):
            raise RuleError(f"kill.kind: full or half, got {kind!r}")
        if who not in names:
            raise RuleError(f"kill.player: unknown player {who!r}")
        if names[who] in posting or names[who] in straddlers:
            raise RuleError(
                f"kill.player: {who} posts a blind already this hand; who posts the kill blind "
                "then is a house rule the engine does not take",
                rule="D7",
            )
        amount = 2 * spec.big_blind if kind == "full" else spec.big_blind * 3
        if kind == "half" and (amount % 2 or any(b * 3 % 2 for b in spec.limit_bets)):
            raise RuleError(
                "kill: a half kill multiplies the blind and the bets by 1.5: they must stay "
                "whole chips",
                rule="D7",
            )
        if kind == "half":
            amount //= 2
        if stack[who] < amount:
            raise RuleError(
                f"kill: {who} has only {stack[who]}, less than the kill blind of {amount}",
                rule="D7",
            )
    if spec.missed_blinds:
        if len(spec.blinds) != 2 or n < 3:
            raise RuleError(
                "missed_blinds: a game with a small and a big blind, three players or more",
                rule="D7",
            )
        seen = set()
        for who, which in spec.missed_blinds:
            if who not in names:
                raise RuleError(f"missed_blinds: unknown player {who!r}")
            if which not in ("big", "small", "both"):
                raise RuleError(f"missed_blinds.{who}: big, small or both, got {which!r}")
            seat = names[who]
            if seat in (1, 2) and not spec.dead_button:
                raise RuleError(
                    f"missed_blinds.{who}: {who} is in the blinds this hand and posts them anyway",
                    rule="D7",
                )
            if who in seen:
                raise RuleError(f"missed_blinds: {who} is listed twice")
            seen.add(who)


_NEW_STRUCTURES = frozenset({"spread-limit", "half-pot-limit"})


def _check_structure(spec: HandSpec) -> None:
    """Spread limit, half-pot limit and cap limit (D5), checked after all the rest."""
    if spec.spread is None and spec.cap is None and not _is_new_structure(spec.structure):
        return
    if spec.structure == "spread-limit":
        spread = spec.spread
        if spread is None:
            raise RuleError(
                "spread: a spread-limit game needs its range, [least, most] or [least, most, "
                "most on the last round]",
                rule="D5",
            )
        if not (
            isinstance(spread, tuple)
            and len(spread) in (2, 3)
            and all(_is_int(v) and v > 0 for v in spread)
        ):
            shown = list(spread) if isinstance(spread, tuple) else spread
            raise RuleError(
                "spread: [least, most] or [least, most, most on the last round], positive "
                f"whole numbers of chips, got {shown!r}"
            )
        if not spread[0] <= spread[1] <= spread[-1]:
            raise RuleError(
                f"spread: the least {spread[0]} must not be above the most {spread[1]}, nor "
                "the most above the last round's",
                rule="D5",
            )
        if spec.big_blind > spread[1]:
            raise RuleError(
                f"spread: the big blind {spec.big_blind} is above the most a bet may be, "
                f"{spread[1]}",
                rule="D5",
            )
    elif spec.spread is not None:
        raise RuleError("spread: only a spread-limit game has a range of bets", rule="D5")
    if spec.cap is not None:
        if spec.structure not in CAPPED_STRUCTURES:
            raise RuleError(
                "cap: a cap-limit game plays no limit, pot limit or half-pot limit up to the cap",
                rule="D5",
            )
        if not _is_int(spec.cap) or spec.cap < spec.big_blind:
            raise RuleError(
                "cap: the most each player may put in this hand, a whole number of chips at "
                f"least the big blind, got {spec.cap!r}",
                rule="D5",
            )


def _check_rules(spec: HandSpec) -> None:
    """The fields that name the rules a hand follows (extensions of the contract, checked
    after all the others so that a hand refused before is refused for the same fault)."""
    from tdsystem.engine.rulesets import RULE_SETS

    if spec.rule_set is None and spec.raise_cap_heads_up is None and spec.silent_chips is None:
        return

    if spec.rule_set is not None and spec.rule_set not in RULE_SETS:
        raise RuleError(f"rule_set: must be one of {', '.join(RULE_SETS)}, got {spec.rule_set!r}")
    if spec.raise_cap_heads_up is not None:
        if spec.raise_cap_heads_up not in RAISE_CAP_HEADS_UP:
            raise RuleError(
                "raise_cap_heads_up: must be one of "
                f"{', '.join(RAISE_CAP_HEADS_UP)}, got {spec.raise_cap_heads_up!r}"
            )
        if spec.structure not in LIMIT_STRUCTURES:
            raise RuleError(
                "raise_cap_heads_up: only a fixed-limit game caps the raises", rule="D5"
            )
    if spec.silent_chips is not None:
        from tdsystem.engine.declarations import SILENT_CHIPS

        if spec.silent_chips not in SILENT_CHIPS:
            raise RuleError(
                f"silent_chips: must be one of {', '.join(SILENT_CHIPS)}, got {spec.silent_chips!r}"
            )


def _check_blind_game(spec: HandSpec, players_read: bool) -> None:
    if (
        spec.bring_in
        or spec.bring_in_player is not None
        or spec.bring_in_completes
        or spec.first_to_act
    ):
        raise RuleError('bring_in: only a stud hand ("game": "stud") has a bring-in')
    if len(spec.blinds) not in (1, 2, 3):
        raise RuleError(BLINDS_WANTED)
    for blind in spec.blinds:
        if type(blind) is not int or blind <= 0:  # as _is_int, without a call for each
            raise RuleError(BLINDS_WANTED)
    if len(spec.blinds) == 2 and spec.blinds[0] > spec.blinds[1]:
        raise RuleError(
            f"blinds: the small blind {spec.blinds[0]} is larger than the big blind "
            f"{spec.blinds[1]}",
            rule="D7",
        )
    # _check_ante and _check_incomplete_raise, in line: a call each on every hand read.
    if type(spec.ante) is not int or spec.ante < 0:  # as _is_int
        _check_ante(spec)
    if spec.ante_type not in ANTE_TYPES:
        raise RuleError(
            f"ante_type: must be one of {', '.join(ANTE_TYPES)}, got {spec.ante_type!r}"
        )
    if spec.incomplete_raise not in INCOMPLETE_RAISE_RULES:
        _check_incomplete_raise(spec)
    if spec.pot_limit_preflop not in POT_LIMIT_PREFLOP:
        raise RuleError(
            "pot_limit_preflop: must be one of "
            f"{', '.join(POT_LIMIT_PREFLOP)}, got {spec.pot_limit_preflop!r}"
        )
    if type(spec.bb_must_cover_sb) is not bool:
        raise RuleError("bb_must_cover_sb: must be true or false")
    _check_limit_settings(spec)
    _check_players(spec, players_read)
    _check_dead_button(spec)


# The checks that a blind game and a stud hand share, stated once.


def _check_ante(spec: HandSpec) -> None:
    if type(spec.ante) is not int or spec.ante < 0:  # as _is_int
        raise RuleError(f"ante: must be a whole number of chips, 0 or more, got {spec.ante!r}")


def _check_incomplete_raise(spec: HandSpec) -> None:
    if spec.incomplete_raise not in INCOMPLETE_RAISE_RULES:
        raise RuleError(
            "incomplete_raise: must be one of "
            f"{', '.join(INCOMPLETE_RAISE_RULES)}, got {spec.incomplete_raise!r}"
        )


def _check_players(spec: HandSpec, players_read: bool) -> None:
    if len(spec.players) < 2:
        raise RuleError("players: a hand needs at least 2 players")
    if players_read:
        return
    seen: set[str] = set()
    for i, (name, stack) in enumerate(spec.players):
        if (type(name) is not str and not isinstance(name, str)) or not name.strip():
            raise RuleError(f"players[{i}].name: must be a non-empty text")
        if type(stack) is not int or stack <= 0:  # as _is_int: true is no chip count
            raise RuleError(
                f"players[{i}].stack: must be a positive whole number of chips, got {stack!r}"
            )
        if name in seen:
            raise RuleError(f"players: {name} is listed twice")
        seen.add(name)


def _check_stud(spec: HandSpec, players_read: bool) -> None:
    if spec.structure != "fixed-limit":
        raise RuleError("structure: seven-card stud is played fixed limit", rule="D5")
    if spec.blinds:
        raise RuleError("blinds: a stud hand has no blinds; its forced bet is the bring-in")
    if spec.bb_must_cover_sb or spec.dead_small_blind or spec.dead_button:
        raise RuleError("a stud hand has no blinds and no button to be dead")
    if spec.pot_limit_preflop != "true-pot":
        raise RuleError("pot_limit_preflop: a stud hand is fixed limit")
    if spec.ante_type != "each":
        raise RuleError('ante_type: in stud every player antes ("each")', rule="D6")
    if spec.bets is None:
        raise RuleError("bets: a stud hand needs the small and big bet")
    _check_limit_settings(spec)
    _check_players(spec, players_read)
    if len(spec.players) > STUD_MAX_PLAYERS:
        raise RuleError(f"players: seven-card stud deals {STUD_MAX_PLAYERS} players at most")
    small = spec.bets[0]
    if not _is_int(spec.bring_in) or not 0 < spec.bring_in < small:
        raise RuleError(
            f"bring_in: a whole number of chips, more than 0 and less than the small bet "
            f"{small}, got {spec.bring_in!r}",
            rule="D5",
        )
    names = {p.name for p in spec.players}
    if spec.bring_in_player not in names:
        raise RuleError(
            "bring_in_player: the name of the player who brings in (the lowest card showing), "
            f"got {spec.bring_in_player!r}"
        )
    if type(spec.bring_in_completes) is not bool:
        raise RuleError("bring_in_completes: must be true or false")
    seen: set[str] = set()
    for pair in spec.first_to_act:
        street, name = pair if isinstance(pair, tuple) and len(pair) == 2 else (None, None)
        if street not in STUD_STREETS[1:] or street in seen:
            raise RuleError(
                f"first_to_act: one player for each of {', '.join(STUD_STREETS[1:])}, "
                f"got {street!r}"
            )
        if name not in names:
            raise RuleError(f"first_to_act.{street}: unknown player {name!r}")
        seen.add(street)
    # Checked after the rest, so that a hand refused before for another fault still is.
    _check_ante(spec)
    _check_incomplete_raise(spec)


def _check_limit_settings(spec: HandSpec) -> None:
    fixed = spec.structure == "fixed-limit"
    if spec.bets is not None:
        if not fixed:
            raise RuleError("bets: only a fixed-limit game has fixed bets")
        if len(spec.bets) != 2 or not all(_is_int(b) and b > 0 for b in spec.bets):
            raise RuleError("bets: two positive whole numbers of chips (small bet, big bet)")
        if spec.bets[0] > spec.bets[1]:
            raise RuleError(f"bets: the small bet {spec.bets[0]} is larger than the big bet")
    if fixed and spec.big_blind > spec.limit_bets[0]:
        raise RuleError(
            f"bets: the big blind {spec.big_blind} is larger than the small bet "
            f"{spec.limit_bets[0]}",
            rule="D5",
        )
    if spec.raise_cap is not None:
        if not fixed and spec.structure != "spread-limit":
            raise RuleError("raise_cap: only a fixed-limit game caps the raises")
        if not _is_int(spec.raise_cap) or spec.raise_cap < 0:
            raise RuleError(f"raise_cap: must be a whole number, 0 or more, got {spec.raise_cap!r}")
    if spec.incomplete_raise == "half-bet" and spec.structure not in LIMIT_STRUCTURES:
        raise RuleError("incomplete_raise: the half-bet rule is for fixed-limit games", rule="D9")


def _check_dead_button(spec: HandSpec) -> None:
    if spec.dead_small_blind is False and spec.dead_button is False:
        return  # the usual hand: a live button, nothing below can refuse it
    for key, dead in (
        ("dead_small_blind", spec.dead_small_blind),
        ("dead_button", spec.dead_button),
    ):
        if type(dead) is not bool:
            raise RuleError(f"{key}: must be true or false")
        if dead and len(spec.players) == 2:
            raise RuleError(
                f"{key}: heads-up there is no dead button or dead small blind: the button "
                "posts the small blind (TDA 34-B)",
                rule="D11",
            )
    if spec.dead_small_blind and len(spec.blinds) == 1:
        raise RuleError(
            "dead_small_blind: the game has a single blind, so there is no small blind to be dead",
            rule="D11",
        )


# Whether each ``do`` takes a ``to`` (a bet and a raise do).
_SIZED = {do: do in ("bet", "raise") for do in DOS}


def _check_actions(actions: tuple[Move, ...]) -> None:
    for index, (player, do, to) in enumerate(actions):
        if do is DECLARED and _is_declaration(to):
            continue  # checked as read (``_declaration``)
        if type(player) is not str and not isinstance(player, str):
            raise RuleError("'player' must be a player's name", index)
        # Only text is looked up: a list would not hash.
        sized = _SIZED.get(do) if isinstance(do, str) else None
        if sized is None:
            raise RuleError(f"'do' must be one of {', '.join(DOS)}, got {do!r}", index)
        if sized:
            if to is None:
                raise RuleError(f"{do} needs 'to', the player's total for the round", index)
            if type(to) is not int or to <= 0:
                raise RuleError(f"'to' must be a positive whole number of chips, got {to!r}", index)
        elif to is not None:
            raise RuleError(f"{do} takes no 'to'", index)


def parse_hand(data: Any) -> HandSpec:
    """Read the command line's JSON object (already decoded) into a ``HandSpec``."""
    return _read(data, True)[0]


def read_hand(data: Any) -> tuple[HandSpec, tuple[Move, ...]]:
    """``parse_hand`` for a replay that only reads the actions' values: the spec without its
    actions, and the actions as plain ``(player, do, to)`` tuples. The same checks, the same
    refusal for a bad hand."""
    spec, entries = _read(data, False)
    return spec, read_actions(entries)


def read_table(data: Any) -> tuple[HandSpec, Sequence[Any]]:
    """``parse_hand`` for a replay that reads the actions as it goes (``play_actions``,
    ``adjudicate``): the spec without its actions, and the action entries as given. A
    refusal raised here is ``parse_hand``'s; when it returns, a fault ``parse_hand`` would
    refuse is in an action entry, which ``read_actions`` (and so ``play_actions``) refuses."""
    return _read(data, False)


def read_actions(entries: Sequence[Any]) -> tuple[Move, ...]:
    """The action entries as plain ``(player, do, to)`` tuples, or ``parse_hand``'s refusal
    of the first bad one (an entry read wrong before a value that breaks a rule)."""
    moves, good = _parse_actions(entries)
    if not good:
        _check_actions(moves)
    return moves


def play_actions(
    entries: Sequence[Any],
    play: Callable[[str, str, Any, int], None],
    play_any: Callable[[str, str, Any, int], None] | None = None,
) -> None:
    """Read the action entries of ``read_table`` one at a time and hand each to ``play``
    (``HandState.play_plain``: the player, the do, the to and its index), as it is read, so
    the actions are not gone through twice; from the first entry given as chips and words or
    out of turn on, to ``play_any`` (``HandState.play``). The refusals come in
    ``parse_hand``'s order: a bad entry anywhere, even after one that ``play`` refuses, is
    refused first, as when every entry is read before the replay starts."""
    takes_to = _SIZED.get
    try:
        for index, entry in enumerate(entries):
            # The usual entries: an object with a known do and exactly the fields it takes,
            # a to being a positive whole number; any other is read the long way below,
            # which refuses it or reads it as parse_hand does. The player's name is not
            # tested here: ``play`` takes only the name of the player in turn, and refuses
            # any other value (a name that is no text among them).
            try:
                player, do = entry["player"], entry["do"]
                sized = takes_to(do)  # None for an unknown do
            except (KeyError, TypeError):  # not an object, a field missing, a do unhashable
                pass
            else:
                if sized is False:
                    if len(entry) == 2:
                        play(player, do, None, index)
                        continue
                elif sized and len(entry) == 3:
                    to = entry.get("to")
                    if type(to) is int and to > 0:
                        play(player, do, to, index)
                        continue
            moves = read_actions(entries)
            # From the first action read the long way on: one given as chips and words, or
            # out of turn (D12), takes ``play_any``, and so does every action after it.
            slow = play_any or play
            for later in range(index, len(moves)):
                player, do, to = moves[later]
                slow(player, do, to, later)
            return
    except RuleError:
        read_actions(entries)  # a bad entry is refused before any action is
        raise


def _read(data: Any, named: bool) -> tuple[HandSpec, Sequence[Any]]:
    """The spec, with its actions as ``Action``s when ``named`` (all checked), or else
    without them and the action entries as given, left to ``read_actions``: then a fault
    that the spec's checks find is refused only once no entry is read wrong, as it comes
    after those."""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise RuleError("the hand must be a JSON object")
    if not _HAND_KEYS.issuperset(data):
        unknown = sorted(set(data) - _HAND_KEYS, key=str)
        raise RuleError(f"unknown field {unknown[0]!r}")
    game = data.get("game")
    if game is None:
        game = "flop"
    elif game not in GAMES:
        raise RuleError(f"game: must be one of {', '.join(GAMES)}, got {game!r}")
    stud = game == "stud"
    for key in ("structure", "players") if stud else ("structure", "blinds", "players"):
        if key not in data:
            raise RuleError(f"missing field {key!r}")
    if stud and not _FLOP_ONLY_KEYS.isdisjoint(data):
        given = [key for key in _FLOP_ONLY if key in data]
        raise RuleError(f"{given[0]}: a stud hand has no blinds and no button")
    if not stud and not _STUD_ONLY_KEYS.isdisjoint(data):
        given = [key for key in _STUD_ONLY if key in data]
        raise RuleError(f'{given[0]}: only a stud hand ("game": "stud") has a bring-in')
    # A field that is absent or null reads as "not given": HandSpec's default. Every field
    # is set, in one order for every hand: a field read from the class, or from a dict laid
    # out differently each time, is read without the interpreter's shortcut for it.
    fields = {**_SPEC_FIELDS, **data}
    if None in data.values():
        for key, value in data.items():
            if value is None:
                fields[key] = _DEFAULTS[key]
    blinds = data.get("blinds", ())
    if type(blinds) is int:  # as _is_int: one blind given as a number
        blinds = [blinds]
    if not isinstance(blinds, _LIST_LIKE):
        raise RuleError(BLINDS_WANTED)
    fields["blinds"] = tuple(blinds)
    bets = fields.get("bets")
    if bets is not None:
        if not isinstance(bets, _LIST_LIKE):
            raise RuleError("bets: two positive whole numbers of chips (small bet, big bet)")
        fields["bets"] = tuple(bets)
    structure = fields["structure"] = data["structure"]
    # The fields the contract gained after its first version: a plain hand has none.
    extras = fields["extras"] = (
        not _EXTENSION_KEYS.isdisjoint(data)
        or len(blinds) == 3
        or (type(structure) is str and structure in _NEW_STRUCTURES)
    )
    if extras:
        spread = fields.get("spread")
        if spread is not None and isinstance(spread, _LIST_LIKE):
            fields["spread"] = tuple(spread)
        if "straddles" in data or "kill" in data or "missed_blinds" in data:
            _read_forced(fields)
    fields["players"], players_read = _parse_players(data["players"])
    entries = data.get("actions")
    if entries is None:
        entries = ()
    elif not isinstance(entries, _LIST_LIKE):
        raise RuleError("actions: must be a list of {player, do, to}")
    good = True
    if named and entries:
        moves, good = _parse_actions(entries)
        fields["actions"] = tuple(map(tuple.__new__, repeat(Action), moves))
    else:
        fields["actions"] = ()
    try:
        if data.get("first_to_act") is not None:
            fields["first_to_act"] = _parse_first_to_act(data["first_to_act"])
        fields["game"] = game
        # HandSpec(**fields) in one go: the same fields (the keys are HandSpec's), the same
        # checks.
        spec = object.__new__(HandSpec)
        object.__setattr__(spec, "__dict__", fields)
        _check_spec(spec, players_read, good)
    except RuleError:
        if not named:
            _parse_actions(entries)  # an entry read wrong is refused first
        raise
    return spec, entries


# Every field of a spec with its default, in the order of the class (``parse_hand`` always
# sets the three without one).
_DEFAULTS: dict[str, Any] = {
    field.name: None if field.default is dataclasses.MISSING else field.default
    for field in dataclasses.fields(HandSpec)
}
# The fields a parsed spec is handed in one go (``_read``): every field of the first version
# of the contract, in the class's order; the later ones (``_EXTENSION_KEYS``) only when
# given. A plain hand never reads those (``extras`` tells it so), and a dict of the same
# fields in the same order for every hand keeps the interpreter's shortcut for reading them.
_SPEC_FIELDS: dict[str, Any] = {
    name: default for name, default in _DEFAULTS.items() if name not in _EXTENSION_KEYS
}


def _parse_first_to_act(raw: Any) -> tuple[tuple[str, str], ...]:
    """``{"fourth": "Bob", ...}``: the player the floor names to open each later street."""
    if not _object(raw):
        raise RuleError(
            'first_to_act: an object naming who opens each later street, e.g. {"fourth": "Bob"}'
        )
    pairs = []
    for street in STUD_STREETS[1:]:
        if street in raw:
            name = raw[street]
            if not isinstance(name, str):
                raise RuleError(f"first_to_act.{street}: must be a player's name")
            pairs.append((street, name))
    unknown = sorted(set(raw) - set(STUD_STREETS[1:]), key=str)
    if unknown:
        raise RuleError(
            f"first_to_act: {unknown[0]!r} is not a later street ({', '.join(STUD_STREETS[1:])})"
        )
    return tuple(pairs)


def _object(entry: Any) -> bool:
    return type(entry) is dict or isinstance(entry, Mapping)


def _parse_players(raw: Any) -> tuple[tuple[PlayerSpec, ...], bool]:
    """The players, and whether every name and stack is good (``_check_players``'s test of
    each, made while reading them; its refusal is left to it, in its turn among the checks)."""
    if not isinstance(raw, _LIST_LIKE):
        raise RuleError("players: must be a list of {name, stack}, from the button clockwise")
    players = []
    seen: set[str] = set()
    good = True
    new, player_type = tuple.__new__, PlayerSpec
    for i, entry in enumerate(raw):
        if type(entry) is not dict or len(entry) != 2:
            _refuse_player(i, entry)  # a mapping of another type with the two is read on
        try:
            # Two keys, both found: exactly a name and a stack.
            name, stack = entry["name"], entry["stack"]
        except KeyError:
            _refuse_player(i, entry)
            raise
        if good:
            if type(name) is str and name.strip() and type(stack) is int and stack > 0:
                good = name not in seen
                seen.add(name)
            else:
                good = False
        players.append(new(player_type, (name, stack)))
    return tuple(players), good


def _refuse_player(i: int, entry: Any) -> None:
    """Raise for a player entry that is not an object with exactly a name and a stack."""
    if type(entry) is not dict and not isinstance(entry, Mapping):
        raise RuleError(f"players[{i}]: must be an object with name and stack")
    if not _PLAYER_KEYS.issuperset(entry):
        extra = sorted(set(entry) - _PLAYER_KEYS, key=str)
        raise RuleError(f"players[{i}]: unknown field {extra[0]!r}")
    if len(entry) != 2:
        missing = "name" if "name" not in entry else "stack"
        raise RuleError(f"players[{i}]: missing field {missing!r}")


# The ``do``s that take no ``to`` and the two that need one (``_check_actions``).
_UNSIZED = frozenset(do for do in DOS if not _SIZED[do])
_SIZED_DOS = frozenset(do for do in DOS if _SIZED[do])


def _parse_actions(raw: Any) -> tuple[tuple[Move, ...], bool]:
    """The actions, and whether every action's values are good (``_check_actions``'s test,
    made while reading them; its refusal comes after the table's and the players' checks)."""
    if not isinstance(raw, _LIST_LIKE):
        raise RuleError("actions: must be a list of {player, do, to}")
    actions = []
    good = True
    for i, entry in enumerate(raw):
        if type(entry) is not dict:
            _refuse_action(i, entry)
        try:
            player, do = entry["player"], entry["do"]
        except KeyError:
            if not _DECLARATION_KEYS.isdisjoint(entry):
                actions.append(_declaration(i, entry))
                continue
            _refuse_action(i, entry)  # a dict without one of them: refused there
        to = entry.get("to")
        # A player and a do, and a to when given (null counts as given).
        if len(entry) != 2 and (len(entry) != 3 or (to is None and "to" not in entry)):
            if not _DECLARATION_KEYS.isdisjoint(entry):
                actions.append(_declaration(i, entry))
                continue
            _refuse_action(i, entry)
        if good:
            good = (
                type(player) is str
                and type(do) is str
                and (
                    do in _UNSIZED
                    if to is None
                    else do in _SIZED_DOS and type(to) is int and to > 0
                )
            )
        actions.append((player, do, to))
    return tuple(actions), good


def _refuse_action(i: int, entry: Any) -> None:
    """Raise for an action entry that is not an object with a player, a do and maybe a to."""
    if type(entry) is not dict and not isinstance(entry, Mapping):
        raise RuleError("must be an object with player and do", i)
    if not _ACTION_KEYS.issuperset(entry):
        extra = sorted(set(entry) - _ACTION_KEYS, key=str)
        raise RuleError(f"unknown field {extra[0]!r}", i)
    if "player" not in entry or "do" not in entry:
        raise RuleError(f"missing field {'player' if 'player' not in entry else 'do'!r}", i)


def _is_declaration(value: Any) -> bool:
    from tdsystem.engine.declarations import Declaration

    return isinstance(value, Declaration)


def _declaration(i: int, entry: Any) -> Move:
    """An action that says what the player put out and said, or one given out of turn (D12),
    checked field by field: ``(player, DECLARED, Declaration)``."""
    from tdsystem.engine.declarations import MAX_CHIPS_PUT, SAID_WORDS, Declaration

    allowed = _ACTION_KEYS | _DECLARATION_KEYS
    if not allowed.issuperset(entry):
        extra = sorted(set(entry) - allowed, key=str)
        raise RuleError(f"unknown field {extra[0]!r}", i)
    player = entry.get("player")
    if "player" not in entry:
        raise RuleError("missing field 'player'", i)
    if type(player) is not str:
        raise RuleError("'player' must be a player's name", i)
    out_of_turn = entry.get("out_of_turn", False)
    if type(out_of_turn) is not bool:
        raise RuleError("out_of_turn: must be true or false", i)
    do, to, said = entry.get("do"), entry.get("to"), entry.get("said")
    if do is not None:
        if "chips" in entry or "said" in entry:
            raise RuleError(
                "do: give what the player did, or what they put out and said, not both", i
            )
        sized = _SIZED.get(do) if isinstance(do, str) else None
        if sized is None:
            raise RuleError(f"'do' must be one of {', '.join(DOS)}, got {do!r}", i)
        if sized and (type(to) is not int or to <= 0):
            raise RuleError(f"{do} needs 'to', the player's total for the round", i)
        if not sized and to is not None:
            raise RuleError(f"{do} takes no 'to'", i)
        return (player, DECLARED, Declaration(do, to, (), None, out_of_turn))
    chips = _read_chips(i, entry.get("chips"), MAX_CHIPS_PUT)
    if said is not None and not (
        (type(said) is str and said in SAID_WORDS) or (type(said) is int and said > 0)
    ):
        raise RuleError(
            f"said: one of {', '.join(SAID_WORDS)}, or an amount alone (a positive whole "
            f"number of chips), got {said!r}",
            i,
        )
    if not chips and said is None:
        raise RuleError("an action needs 'do', or 'chips' or 'said' (what was put out or said)", i)
    if to is not None:
        if said not in ("bet", "raise"):
            raise RuleError("'to' goes with said bet or raise: the amount declared", i)
        if type(to) is not int or to <= 0:
            raise RuleError(f"'to' must be a positive whole number of chips, got {to!r}", i)
    return (player, DECLARED, Declaration(None, to, chips, said, out_of_turn))


def _read_chips(i: int, raw: Any, most: int) -> tuple[tuple[int, ...], ...]:
    """``[500, 100]`` (one motion) or ``[[500], [100, 100]]`` (one list per motion)."""
    if raw is None:
        return ()
    message = (
        "chips: the values of the chips put out, a list of positive whole numbers (one list "
        "per motion when put out in several)"
    )
    if not isinstance(raw, _LIST_LIKE) or not raw:
        raise RuleError(message, i)
    motions = raw if all(isinstance(m, _LIST_LIKE) for m in raw) else [raw]
    read = []
    count = 0
    for motion in motions:
        if not motion or not all(type(c) is int and c > 0 for c in motion):
            raise RuleError(message, i)
        count += len(motion)
        read.append(tuple(motion))
    if count > most:
        raise RuleError(f"chips: at most {most} chips in one action", i)
    return tuple(read)


def _blind_seats(spec: HandSpec) -> set[int]:
    """The seats that post a blind, as the replay seats them (``HandState``)."""
    n, count = len(spec.players), len(spec.blinds)
    first = 0 if spec.dead_button else 1
    if count == 3:
        return {0, 1, 2}
    if count == 2 and n == 2:
        return {0, 1}
    if count == 2 and not spec.dead_small_blind:
        return {first, first + 1}
    return {first}


def _read_forced(fields: dict[str, Any]) -> None:
    """The straddles, the kill blind and the missed blinds as JSON gives them (D7)."""
    straddles = fields.get("straddles")
    if straddles is None:
        fields["straddles"] = ()
    elif isinstance(straddles, _LIST_LIKE):
        fields["straddles"] = tuple(straddles)
    else:
        raise RuleError("straddles: a list of amounts, the straddles after the big blind in turn")
    kill = fields.get("kill")
    if kill is not None:
        if not _object(kill) or set(kill) != {"player", "kind"}:
            raise RuleError('kill: an object {"player": ..., "kind": "full" or "half"}')
        fields["kill"] = (kill["player"], kill["kind"])
    missed = fields.get("missed_blinds")
    if missed is None or missed == ():
        fields["missed_blinds"] = ()
    elif _object(missed):
        fields["missed_blinds"] = tuple((str(k), v) for k, v in missed.items())
    else:
        raise RuleError('missed_blinds: an object {"player": "big", "small" or "both"}')
