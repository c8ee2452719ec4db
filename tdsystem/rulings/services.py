"""The ruling page's rows turned into the engine's hand, and the engine's answer turned into
what the floor reads.

Nothing here touches the database or the request: the page hands in the settings it has read
and the raw text of the seat and action rows, and gets back the hand (the command line's
JSON shape), the problems found (each pinned to the field or row at fault) and the ruling.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext, pgettext

from tdsystem.core.numbers import grouped
from tdsystem.core.text import TextRefused, text_normal
from tdsystem.engine import rulesets
from tdsystem.engine.errors import RuleError
from tdsystem.engine.ruling import rule_on

log = logging.getLogger(__name__)

MIN_SEATS, MAX_SEATS = 2, 10
STUD_MAX_SEATS = 8
LATER_STREETS = ("fourth", "fifth", "sixth", "seventh")  # stud: the floor names who opens
STUD_TARGET = ("id_bring_in_seat",)
DOS = ("fold", "check", "call", "bet", "raise", "all-in")
SEAT_NAME_MAX = 120  # a player's name, as registration takes it
# An action row may also give the chips a player put out and what they said (D12): the engine
# rules what that counts as. The chips are typed in the row's amount ("1000 500"; a "/" between
# the chips of separate motions), the word said chosen beside them.
CHIPS = "chips"
ROW_DOS = (*DOS, CHIPS)
SAID_WORDS = ("call", "raise", "all-in", "check", "fold")
MAX_CHIPS = 10**12  # far above any real stack; keeps typing accidents out of the engine


@dataclass(frozen=True, slots=True)
class TableSettings:
    """The table's betting settings, read and checked by the page's form."""

    structure: str = "no-limit"
    small_blind: int = 0  # 0: a single blind
    big_blind: int = 100
    ante: int = 0
    ante_type: str = "each"
    small_bet: int | None = None  # fixed limit only; the engine defaults to BB and 2 x BB
    big_bet: int | None = None
    raise_cap: int | None = None  # fixed limit only; None: no cap
    incomplete_raise: str = "full-bet"
    raise_cap_heads_up: str = ""  # fixed limit: "at-start", "until-capped", "kept"; "": the set's
    pot_limit_preflop: str = "true-pot"
    bb_must_cover_sb: bool = False
    dead_small_blind: bool = False  # D11: nobody posts the small blind this hand
    dead_button: bool = False  # D11: the button is on an empty seat (not in the rows)
    game: str = "flop"  # "flop": the blind games; "stud": seven-card stud
    bring_in: int | None = None  # stud: the forced bet, smaller than the small bet
    bring_in_seat: int | None = None  # stud: the row that brings in (the lowest card showing)
    bring_in_completes: bool = False  # stud: that player opens for the full small bet
    first_to_act: tuple[int | None, ...] = ()  # stud: the row opening fourth... seventh street
    rule_set: str = rulesets.DEFAULT  # the event's set, or the one chosen: its numbers cited


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat as typed: a name and a stack (text, not yet read)."""

    name: str = ""
    stack: str = ""


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One action as chosen: the seat's index (text), what it did, and the "to" amount (for
    chips put out, the chips typed), and for chips what the player said ("" for nothing)."""

    player: str = ""
    do: str = ""
    to: str = ""
    said: str = ""


@dataclass(frozen=True, slots=True)
class Problem:
    """Something the page cannot rule on, with the ids of the fields or rows at fault."""

    message: str
    targets: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HandDraft:
    """The hand read from the rows.

    ``hand`` is None when the settings or the seats cannot be read. When an action row
    cannot be read, ``hand`` holds the actions before it and ``stopped_at`` names that row.
    ``action_rows[k]`` is the row of the engine's action ``k`` (rows left blank are skipped).
    """

    hand: dict[str, Any] | None
    problems: tuple[Problem, ...] = ()
    action_rows: tuple[int, ...] = ()
    skipped: tuple[int, ...] = ()
    stopped_at: int | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """The engine's ruling on a draft, or on the part of it before the first bad action."""

    ruling: dict[str, Any] | None
    problems: tuple[Problem, ...] = ()
    partial_before: int | None = None  # row: the ruling covers only the actions above it
    hand: dict[str, Any] | None = None  # what was sent to the engine in full


@dataclass(frozen=True, slots=True)
class Rows:
    seats: tuple[SeatRow, ...] = ()
    actions: tuple[ActionRow, ...] = ()


# -- reading text --------------------------------------------------------------------------


def parse_chips(text: object, *, minimum: int = 0) -> int:
    """A whole number of chips from what was typed ("1,500", " 800 "); ValueError otherwise."""
    raw = str(text if text is not None else "").strip()
    cleaned = raw.replace(",", "").replace("_", "").replace(" ", "").replace("\u202f", "")
    if not cleaned:
        raise ValueError(gettext("enter a number of chips"))
    if not cleaned.isascii() or not cleaned.isdigit():
        raise ValueError(gettext("%(value)r is not a whole number of chips") % {"value": raw})
    value = int(cleaned)
    if value > MAX_CHIPS:
        raise ValueError(gettext("%(value)s is more chips than any table holds") % {"value": raw})
    if value < minimum:
        raise ValueError(gettext("must be at least %(minimum)s") % {"minimum": minimum})
    return value


def rows_from_data(data: Any) -> Rows:
    """Seat and action rows from posted data (a QueryDict or anything with ``getlist``)."""

    def column(key: str) -> list[str]:
        return [str(v) for v in data.getlist(key)] if hasattr(data, "getlist") else []

    names, stacks = column("seat_name"), column("seat_stack")
    players, dos, tos = column("act_player"), column("act_do"), column("act_to")
    said = column("act_said")
    seats = [SeatRow(_at(names, i), _at(stacks, i)) for i in range(max(len(names), len(stacks)))]
    count = max(len(players), len(dos), len(tos))
    actions = [
        ActionRow(_at(players, i), _at(dos, i), _at(tos, i), _at(said, i)) for i in range(count)
    ]
    return Rows(tuple(seats[: MAX_SEATS * 2]), tuple(actions[:200]))


def _at(values: list[str], i: int) -> str:
    return values[i] if i < len(values) else ""


def seat_name(number: int) -> str:
    """A seat's name until the floor types the player's: "Seat 4", in the reader's words."""
    return pgettext("a player's name on the ruling page", "Seat %(number)s") % {"number": number}


def default_seats(count: int, stack: int) -> tuple[SeatRow, ...]:
    count = min(max(count, MIN_SEATS), MAX_SEATS)
    return tuple(SeatRow(seat_name(i + 1), str(stack)) for i in range(count))


# -- editing the rows (the page's buttons) --------------------------------------------------


def rows_edit(rows: Rows, *, op: str, next_seat: int | None = None) -> Rows:
    """The rows after one button: ``add-seat``, ``remove-seat:<i>``, ``add-action``,
    ``remove-action:<i>``, ``clear-actions`` or ``append:<seat>:<do>[:<to>]`` (one tap for
    the next player's action). Anything else leaves the rows as they are."""
    verb, _, arg = op.partition(":")
    seats, actions = list(rows.seats), list(rows.actions)
    index = _index(arg)
    if verb == "add-seat" and len(seats) < MAX_SEATS:
        used = {s.name.strip() for s in seats}
        number = next(k for k in range(len(seats) + 1, 99) if seat_name(k) not in used)
        seats.append(SeatRow(seat_name(number), seats[-1].stack if seats else ""))
    elif verb == "remove-seat" and index is not None and index < len(seats) > MIN_SEATS:
        del seats[index]
        actions = [_renumber(a, index) for a in actions]
    elif verb == "add-action":
        actions.append(ActionRow("" if next_seat is None else str(next_seat)))
    elif verb == "remove-action" and index is not None and index < len(actions):
        del actions[index]
    elif verb == "clear-actions":
        actions = []
    elif verb == "append":
        seat, _, rest = arg.partition(":")
        do, _, to = rest.partition(":")
        if _index(seat) is not None and do in ROW_DOS:
            actions.append(ActionRow(seat, do, to if do in ("bet", "raise") else ""))
    return Rows(tuple(seats), tuple(actions))


def _index(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) < 4 else None


def _renumber(action: ActionRow, removed: int) -> ActionRow:
    seat = _index(action.player.strip())
    if seat is None or seat < removed:
        return action
    return replace(action, player="" if seat == removed else str(seat - 1))


# -- rows to the engine's hand --------------------------------------------------------------


def positions(
    count: int,
    two_blinds: bool = True,
    *,
    dead_small_blind: bool = False,
    dead_button: bool = False,
) -> list[str]:
    """Position labels clockwise from the button, as the engine assigns the blinds (D1).

    Under the dead button (D11) the rows start with the first player after an empty button
    seat, and a dead small blind leaves the big blind to the first seat after the button."""
    if count <= 0:
        return []
    if count == 2:
        return ["BTN · SB", "BB"] if two_blinds else ["BTN", "BB"]
    small = ["SB"] if two_blinds and not dead_small_blind else []
    head = ([] if dead_button else ["BTN"]) + small + ["BB"]
    labels = head[:count]
    return labels + [_seat_word(k, count - len(labels)) for k in range(count - len(labels))]


def stud_positions(count: int, bring_in_seat: int | None) -> list[str]:
    """Stud has no button and no blinds: seat numbers, and "BI" for the bring-in."""
    return ["BI" if i == bring_in_seat else str(i + 1) for i in range(count)]


def _seat_word(k: int, rest: int) -> str:
    if k == 0:
        return "UTG"
    if k == rest - 1:
        return "CO"
    return f"UTG+{k}"


def hand_build(
    *, settings: TableSettings | None, seats: Sequence[SeatRow], actions: Sequence[ActionRow]
) -> HandDraft:
    """The engine-contract hand for what the page holds, and what is wrong with it."""
    problems: list[Problem] = []
    players = _players(seats, problems)
    names = [p["name"] for p in players] if players is not None else None
    read, rows, skipped, stopped = [], [], [], None
    for i, row in enumerate(actions):
        if not (row.do.strip() or row.to.strip()):
            skipped.append(i)  # not entered yet
            continue
        action = _action(row, i, names or [s.name.strip() for s in seats], problems)
        if action is None:
            stopped = i
            break
        read.append(action)
        rows.append(i)
    stud_problems = (
        _stud_problems(settings, players)
        if settings is not None and settings.game == "stud" and players is not None
        else []
    )
    problems += stud_problems
    if settings is None or players is None or stud_problems:
        return HandDraft(None, tuple(problems), tuple(rows), tuple(skipped), stopped)
    hand = _stud_hand(settings, players, read) if settings.game == "stud" else None
    return HandDraft(
        hand or _hand(settings, players, read),
        tuple(problems),
        tuple(rows),
        tuple(skipped),
        stopped,
    )


def _stud_problems(settings: TableSettings, players: list[dict]) -> list[Problem]:
    """What a stud hand lacks before the engine can rule on it."""
    problems = []
    if len(players) > STUD_MAX_SEATS:
        problems.append(
            Problem(
                gettext("Seven-card stud deals %(count)d players at most.")
                % {"count": STUD_MAX_SEATS},
                ("seats",),
            )
        )
    seat = settings.bring_in_seat
    if seat is None or seat >= len(players):
        problems.append(
            Problem(
                gettext("Bring-in: choose the player who brings in (the lowest card)."), STUD_TARGET
            )
        )
    if not settings.bring_in:
        problems.append(Problem(gettext("Bring-in: enter the bring-in."), ("id_bring_in",)))
    if not settings.small_bet:
        problems.append(
            Problem(gettext("Small bet: enter the small bet of the level."), ("id_small_bet",))
        )
    return problems


def _stud_hand(settings: TableSettings, players: list[dict], actions: list[dict]) -> dict[str, Any]:
    s = settings
    small = s.small_bet or 0  # checked by _stud_problems
    names = [p["name"] for p in players]
    hand: dict[str, Any] = {
        "game": "stud",
        "structure": "fixed-limit",
        "bets": [small, s.big_bet or 2 * small],
        "ante": s.ante,
        "bring_in": s.bring_in,
        "bring_in_player": names[s.bring_in_seat or 0],
    }
    if s.bring_in_completes:
        hand["bring_in_completes"] = True
    if s.raise_cap is not None:
        hand["raise_cap"] = s.raise_cap
        if s.raise_cap_heads_up:
            hand["raise_cap_heads_up"] = s.raise_cap_heads_up
    hand["incomplete_raise"] = s.incomplete_raise
    first = {
        street: names[seat]
        for street, seat in zip(LATER_STREETS, s.first_to_act, strict=False)
        if seat is not None and seat < len(names)
    }
    if first:
        hand["first_to_act"] = first
    hand["rule_set"] = s.rule_set
    hand["players"] = players
    hand["actions"] = actions
    return hand


def _players(seats: Sequence[SeatRow], problems: list[Problem]) -> list[dict] | None:
    if len(seats) < MIN_SEATS:
        problems.append(
            Problem(
                gettext("A hand needs at least %(count)s players.") % {"count": MIN_SEATS},
                ("seats",),
            )
        )
    if len(seats) > MAX_SEATS:
        problems.append(
            Problem(
                gettext("A table has at most %(count)s seats.") % {"count": MAX_SEATS}, ("seats",)
            )
        )
    players, seen, ok = [], set(), len(problems) == 0
    for i, seat in enumerate(seats):
        try:
            name, refused = text_normal(seat.name, max_length=SEAT_NAME_MAX), None
        except TextRefused as exc:
            name, refused = "", exc
        if name and name != seat_name(i + 1):
            label = gettext("Seat %(number)s (%(name)s)") % {"number": i + 1, "name": name}
        else:
            label = gettext("Seat %(number)s") % {"number": i + 1}
        if refused is not None:
            problems.append(
                Problem(
                    gettext("%(seat)s: %(error)s.") % {"seat": label, "error": refused},
                    (f"seat-{i}-name",),
                )
            )
            ok = False
        elif not name:
            problems.append(
                Problem(gettext("%(seat)s: enter a name.") % {"seat": label}, (f"seat-{i}-name",))
            )
            ok = False
        elif name.casefold() in seen:
            problems.append(
                Problem(
                    gettext("%(seat)s: the name is used twice.") % {"seat": label},
                    (f"seat-{i}-name",),
                )
            )
            ok = False
        seen.add(name.casefold())
        try:
            stack = parse_chips(seat.stack, minimum=1)
        except ValueError as err:
            problems.append(
                Problem(
                    gettext("%(seat)s: stack: %(error)s.") % {"seat": label, "error": err},
                    (f"seat-{i}-stack",),
                )
            )
            ok = False
            continue
        players.append({"name": name, "stack": stack})
    return players if ok else None


def _action(row: ActionRow, i: int, names: Sequence[str], problems: list[Problem]) -> dict | None:
    target = (f"action-{i}",)
    seat = _index(row.player.strip())
    if seat is None or seat >= len(names) or not names[seat]:
        problems.append(
            Problem(
                gettext("Action %(number)s: choose the player who acted.") % {"number": i + 1},
                target,
            )
        )
        return None
    do = row.do.strip()
    if do == CHIPS:
        return _chips_action(row, i, names[seat], problems)
    if do not in DOS:
        problems.append(
            Problem(
                gettext("Action %(number)s: choose what %(name)s did.")
                % {"number": i + 1, "name": names[seat]},
                target,
            )
        )
        return None
    action: dict[str, Any] = {"player": names[seat], "do": do}
    if do in ("bet", "raise"):
        name = names[seat]
        if not row.to.strip():
            if do == "bet":
                message = gettext("Action %(number)s: enter the total %(name)s bet to.")
            else:
                message = gettext("Action %(number)s: enter the total %(name)s raised to.")
            problems.append(Problem(message % {"number": i + 1, "name": name}, target))
            return None
        try:
            action["to"] = parse_chips(row.to, minimum=1)
        except ValueError as err:
            if do == "bet":
                message = gettext("Action %(number)s: %(name)s's bet: %(error)s.")
            else:
                message = gettext("Action %(number)s: %(name)s's raise: %(error)s.")
            problems.append(
                Problem(message % {"number": i + 1, "name": name, "error": err}, target)
            )
            return None
    return action


def parse_chip_list(text: str) -> list[int] | list[list[int]]:
    """The chips typed for one action: "1000 500" or "1,000 + 500" (one motion; a comma
    groups thousands), "1000 / 500 500" (a "/" between motions). ValueError when a chip is
    not a whole number."""
    motions = []
    for part in text.split("/"):
        chips = [
            parse_chips(word, minimum=1)
            for word in part.replace("+", " ").replace(";", " ").split()
        ]
        if not chips:
            raise ValueError(gettext("enter the value of each chip"))
        motions.append(chips)
    if not motions:
        raise ValueError(gettext("enter the value of each chip"))
    return motions[0] if len(motions) == 1 else motions


def _chips_action(row: ActionRow, i: int, name: str, problems: list[Problem]) -> dict | None:
    """A row that gives the chips a player put out (and the word said): the engine's
    ``{"player", "chips", "said"}``."""
    target = (f"action-{i}",)
    text = row.to
    if not text.strip():
        problems.append(
            Problem(
                gettext("Action %(number)s: enter the chips %(name)s put out (e.g. 1000 500).")
                % {"number": i + 1, "name": name},
                target,
            )
        )
        return None
    try:
        chips = parse_chip_list(text)
    except ValueError as err:
        problems.append(
            Problem(
                gettext("Action %(number)s: %(name)s's chips: %(error)s.")
                % {"number": i + 1, "name": name, "error": err},
                target,
            )
        )
        return None
    action: dict[str, Any] = {"player": name, "chips": chips}
    said = row.said.strip()
    if said in SAID_WORDS:
        action["said"] = said
    return action


def _hand(settings: TableSettings, players: list[dict], actions: list[dict]) -> dict[str, Any]:
    s = settings
    blinds = [s.small_blind, s.big_blind] if s.small_blind else [s.big_blind]
    hand: dict[str, Any] = {"structure": s.structure, "blinds": blinds, "ante": s.ante}
    if s.ante:
        hand["ante_type"] = s.ante_type
    if s.structure == "fixed-limit":
        if s.small_bet or s.big_bet:
            small = s.small_bet or s.big_blind
            hand["bets"] = [small, s.big_bet or 2 * small]
        if s.raise_cap is not None:
            hand["raise_cap"] = s.raise_cap
            if s.raise_cap_heads_up:
                hand["raise_cap_heads_up"] = s.raise_cap_heads_up
        hand["incomplete_raise"] = s.incomplete_raise
    if s.structure == "pot-limit":
        hand["pot_limit_preflop"] = s.pot_limit_preflop
    if s.bb_must_cover_sb:
        hand["bb_must_cover_sb"] = True
    if s.dead_small_blind:
        hand["dead_small_blind"] = True
    if s.dead_button:
        hand["dead_button"] = True
    hand["rule_set"] = s.rule_set
    hand["players"] = players
    hand["actions"] = actions
    return hand


# -- the engine's answer --------------------------------------------------------------------

_FIELD_TARGETS = {
    "structure": ("id_structure",),
    "rule_set": ("id_rule_set",),
    "blinds": ("id_small_blind", "id_big_blind"),
    "ante": ("id_ante",),
    "ante_type": ("id_ante_type",),
    "bets": ("id_small_bet", "id_big_bet", "id_big_blind"),
    "raise_cap": ("id_raise_cap",),
    "raise_cap_heads_up": ("id_raise_cap_heads_up",),
    "incomplete_raise": ("id_incomplete_raise", "id_structure"),
    "pot_limit_preflop": ("id_pot_limit_preflop",),
    "bb_must_cover_sb": ("id_bb_must_cover_sb",),
    "dead_small_blind": ("id_dead_small_blind", "seats"),
    "dead_button": ("id_dead_button", "seats"),
    "players": ("seats",),
    "bring_in": ("id_bring_in",),
    "bring_in_player": STUD_TARGET,
    "bring_in_completes": ("id_bring_in_completes",),
}


def hand_rule(draft: HandDraft) -> Outcome:
    """Ask the engine. A rule broken by an action is reported on its row, with the ruling on
    the hand just before it; nothing the engine raises escapes."""
    hand = draft.hand
    if hand is None:
        return Outcome(None, draft.problems)
    problems = list(draft.problems)
    partial = draft.stopped_at
    ruling, err = _ask(hand)
    if err is not None:
        problems.insert(0, _problem_of(err, draft))
        if isinstance(err, RuleError) and err.action_index is not None:
            index = err.action_index
            partial = draft.action_rows[index] if index < len(draft.action_rows) else partial
            ruling, _ = _ask({**hand, "actions": hand["actions"][:index]})
    return Outcome(ruling, tuple(problems), partial if ruling is not None else None, hand)


def next_seat(outcome: Outcome) -> int | None:
    """The seat (row) of the player to act, when the engine named one."""
    nxt = outcome.ruling["next"] if outcome.ruling else None
    if nxt is None or outcome.hand is None:
        return None
    names = [p["name"] for p in outcome.hand["players"]]
    return names.index(nxt["player"]) if nxt["player"] in names else None


def _ask(hand: dict[str, Any]) -> tuple[dict[str, Any] | None, Exception | None]:
    try:
        return rule_on(hand).as_explained_dict(messages=True), None
    except RuleError as err:
        return None, err
    except Exception as err:  # an engine bug must not take the page down
        log.exception("the rules engine failed on %s", json.dumps(hand))
        return None, err


def _problem_of(err: Exception, draft: HandDraft) -> Problem:
    if not isinstance(err, RuleError):
        return Problem(
            gettext(
                "The rules engine could not rule on this hand (an error in the engine: "
                "%(error)s). Copy the hand as JSON below and report it."
            )
            % {"error": type(err).__name__}
        )
    rule = f" ({err.rule})" if err.rule else ""
    index = err.action_index
    if index is not None and index < len(draft.action_rows):
        row = draft.action_rows[index]
        return Problem(
            gettext("Action %(number)s: %(message)s") % {"number": row + 1, "message": err.message}
            + rule,
            (f"action-{row}",),
        )
    return Problem(f"{err.message}{rule}", _targets_of(err.message))


def _targets_of(message: str) -> tuple[str, ...]:
    head = message.split(":", 1)[0]
    if head.startswith("first_to_act."):
        street = head.removeprefix("first_to_act.")
        return (f"id_first_{street}",) if street in LATER_STREETS else ()
    if head.startswith("players[") and "]" in head:
        index, _, rest = head[len("players[") :].partition("]")
        part = "stack" if "stack" in rest else "name"
        return (f"seat-{index}-{part}",) if index.isdigit() else ("seats",)
    return _FIELD_TARGETS.get(head, ())


# -- what the page shows --------------------------------------------------------------------


def ruling_display(ruling: Mapping[str, Any], *, hand: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's explained ruling, arranged for the page: positions, starting stacks,
    pot labels and the one-tap actions of the next player."""
    starts = {p["name"]: p["stack"] for p in hand["players"]}
    names = [p["name"] for p in hand["players"]]
    stud = hand.get("game") == "stud"
    if stud:
        labels = stud_positions(len(names), names.index(hand["bring_in_player"]))
    else:
        labels = positions(
            len(hand["players"]),
            len(hand["blinds"]) == 2,
            dead_small_blind=bool(hand.get("dead_small_blind")),
            dead_button=bool(hand.get("dead_button")),
        )
    nxt = ruling.get("next")
    players = [
        {
            **p,
            "position": labels[i] if i < len(labels) else "",
            "start": starts.get(p["name"]),
            "seat": i,
            "is_next": bool(nxt and nxt["player"] == p["name"]),
        }
        for i, p in enumerate(ruling["players"])
    ]
    in_hand = [p["name"] for p in ruling["players"] if p["status"] in ("active", "all-in")]
    pots = [
        {
            **pot,
            "label": gettext("Main pot") if k == 0 else gettext("Side pot %(n)s") % {"n": k},
            "who": _eligible_words(pot["eligible"], in_hand),
        }
        for k, pot in enumerate(ruling["pots"])
    ]
    street = ruling["street"]
    # Stud: a street is open but the floor has not named who opens it.
    opener_needed = stud and nxt is None and street in LATER_STREETS
    return {
        "street": street,
        "opener_needed": street if opener_needed else "",
        "openers": [p for p in players if p["status"] != "folded"] if opener_needed else [],
        "next": _next_display(nxt, players, street, hand["structure"]) if nxt else None,
        "pots": pots,
        "total": sum(p["amount"] for p in ruling["pots"]),
        "players": players,
        "notes": ruling.get("notes", []),
        "removed": ruling.get("removed_from_play", []),
    }


def _eligible_words(eligible: list[str], in_hand: list[str]) -> str:
    """Who can win a pot, short when it is nearly everyone (a full table reads badly)."""
    left_out = [name for name in in_hand if name not in eligible]
    if len(eligible) > 3 and set(eligible) <= set(in_hand):
        if not left_out:
            return gettext("all %(count)s players in the hand") % {"count": len(eligible)}
        if len(left_out) == 1:
            return gettext("all but %(name)s (%(count)s players)") % {
                "name": left_out[0],
                "count": len(eligible),
            }
        if len(left_out) == 2:
            return gettext("all but %(first)s and %(second)s (%(count)s players)") % {
                "first": left_out[0],
                "second": left_out[1],
                "count": len(eligible),
            }
    return ", ".join(eligible)


def _next_display(
    nxt: Mapping[str, Any], players: list[dict], street: str, structure: str
) -> dict[str, Any]:
    me = next(p for p in players if p["name"] == nxt["player"])
    low, high, call = nxt["min_raise_to"], nxt["max_raise_to"], nxt["call"]
    # No wager yet this round: a bet, not a raise (stud's bring-in is a wager).
    opens = nxt["check"] and street not in ("preflop", "third")
    verb = "bet" if opens else "raise"
    word = gettext("Bet %(amount)s") if opens else gettext("Raise to %(amount)s")
    pot = gettext("Bet %(amount)s (pot)") if opens else gettext("Raise to %(amount)s (pot)")
    taps = [{"do": "fold", "label": gettext("Fold")}]
    if nxt["check"]:
        taps.append({"do": "check", "label": gettext("Check")})
    elif call >= me["stack"]:
        taps.append(
            {"do": "call", "label": gettext("Call %(amount)s (all-in)") % {"amount": grouped(call)}}
        )
    else:
        taps.append({"do": "call", "label": gettext("Call %(amount)s") % {"amount": grouped(call)}})
    if low is not None:
        taps.append({"do": verb, "to": low, "label": word % {"amount": grouped(low)}})
        if high is not None and high > low:
            if structure == "no-limit":  # the no-limit maximum is the whole stack
                label = gettext("All-in (%(amount)s)") % {"amount": grouped(high)}
                taps.append({"do": "all-in", "label": label})
            else:
                taps.append({"do": verb, "to": high, "label": pot % {"amount": grouped(high)}})
    return {**nxt, "seat": me["seat"], "verb": verb, "taps": taps}


def actions_display(hand: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The hand's actions in order, numbered from 1 as on the page, with what each said or
    put out when the floor entered it as chips or words."""
    return [{"number": i + 1, **action} for i, action in enumerate(hand.get("actions") or ())]


def hand_json(hand: Mapping[str, Any]) -> str:
    """The hand as the command line reads it, one player and one action a line."""
    lines = []
    for key, value in hand.items():
        if key in ("players", "actions") and value:
            items = ",\n".join(f"    {json.dumps(v)}" for v in value)
            lines.append(f"  {json.dumps(key)}: [\n{items}\n  ]")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"
