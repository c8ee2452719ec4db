"""Every request and response body of the JSON API, with each field's type and range.

This is the one place the API states its input rules: the handlers get values of these
types and the services keep only the rules of the game. A request field's description is
also what a 400 says about it (`"seconds: ..."`), so the reference and the error agree:
it is marked for translation with gettext_noop and translated when the 400 is written
(tdsystem.api.errors), since pydantic takes a description as a plain string.
Whole numbers are strict (`true` is not 1, `"5"` is not 5; `5.0` is 5, as JSON Schema
counts it: the body's parser reads it so, tdsystem.api.body) and fit 64 bits. Text people
read is `PlainText`: core.text's rule (NFC, spaces trimmed and collapsed, no control or
invisible character), its length counted on the text as stored. A range the pages' forms
state too (chips, hand counts, table numbers) is the owning app's constant, used by both;
the description spells its figure out (tests/api check that they agree).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from ninja import Field, Schema
from pydantic import BeforeValidator, ConfigDict, model_validator
from pydantic_core import PydanticCustomError

from tdsystem.core.numbers import (
    CHIP_AMOUNT,
    ENTRY_NUMBER,
    HAND,
    ROW_ID,
    RULE_COUNT,
    STACK,
    TABLE_NUMBER,
)
from tdsystem.core.text import TextRefused, text_normal

from .errors import TEXT_ERROR

# The ranges are core.numbers', the pages' forms' too: one statement of each.
INT64 = ROW_ID.high  # a row's id or a draw's seed: what the column holds
MAX_CHIPS, HAND_MAX, TABLE_NUMBER_MAX = STACK.high, HAND.high, TABLE_NUMBER.high
ENTRY_RULE_COUNT_MAX, ENTRY_RULE_STACK_MAX = RULE_COUNT.high, CHIP_AMOUNT.high
BUY_STACK_MAX = CHIP_AMOUNT.high
DAY_SECONDS = 24 * 3600
TIME_ACTIONS = ("add_time", "set_time")
CLOCK_ACTIONS = ("start", "pause", "resume", "next", "previous", *TIME_ACTIONS)
MAX_ON_ONE_HAND = 10


def field_error(field: str, message: str) -> PydanticCustomError:
    """A rule across fields, raised from a model validator, that still names its field."""
    return PydanticCustomError("field_rule", message, {"field": field})


def _text_normal(value: Any) -> Any:
    if not isinstance(value, str):
        return value  # the strict str says what is wrong with it
    try:
        return text_normal(value)
    except TextRefused as exc:
        raise PydanticCustomError(TEXT_ERROR, str(exc)) from None


# Text people read (a name, a note, a label): stored as core.text says. The field's
# min_length and max_length are checked on the text as stored (after this).
PlainText = Annotated[str, BeforeValidator(_text_normal)]


# Request bodies. Unknown fields are ignored, as they always were.


class ClockActionIn(Schema):
    action: Literal[CLOCK_ACTIONS] = Field(  # type: ignore[valid-type]
        description=gettext_noop("one of start, pause, resume, next, previous, add_time, set_time"),
    )
    seconds: int | None = Field(
        None,
        strict=True,
        ge=-DAY_SECONDS,
        le=DAY_SECONDS,
        description=gettext_noop(
            "a whole number of seconds within a day (-86400 to 86400), for add_time and "
            "set_time only and required there; negative removes time"
        ),
    )

    @model_validator(mode="after")
    def _seconds_for_time(self) -> ClockActionIn:
        if self.action in TIME_ACTIONS and self.seconds is None:
            raise field_error(
                "seconds",
                _("seconds: %(action)s needs a whole number of seconds") % {"action": self.action},
            )
        return self

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"action": "add_time", "seconds": -60}]}
    )


# A player's name as every body that names one takes it (a registration, a ticket).
PlayerName = Annotated[
    PlainText,
    Field(
        strict=True,
        min_length=1,
        max_length=120,
        description=gettext_noop("the player's name, not blank, at most 120 characters"),
    ),
]


# A player's member id as every route takes it: at most 40 characters, blank for none.
MemberId = Annotated[PlainText, Field(strict=True, max_length=40)]


CONFIRM_CHANGES = Field(
    False,
    strict=True,
    description=gettext_noop(
        "true or false: sell it although it changes the places or prizes of players already "
        "in the money (the 409 with code confirm-changes lists them)"
    ),
)


class RegisterIn(Schema):
    name: PlayerName
    member_id: MemberId = Field(
        "",
        description=gettext_noop("a string of at most 40 characters that finds the player again"),
    )
    note: PlainText = Field(
        "",
        strict=True,
        max_length=60,
        description=gettext_noop(
            "a string of at most 60 characters telling namesakes apart (from Lyon)"
        ),
    )
    country: PlainText = Field(
        "",
        strict=True,
        max_length=10,
        description=gettext_noop(
            "the player's country, its ISO 3166 code of two letters (JP, VN), or empty"
        ),
    )
    confirm_duplicate: bool = Field(
        False,
        strict=True,
        description=gettext_noop(
            "true or false: register although the name is in the field already"
        ),
    )
    confirm_changes: bool = CONFIRM_CHANGES

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"name": "Sam Lee", "member_id": "M-17", "country": "GB"}]}
    )


class DrawIn(Schema):
    seed: int | None = Field(
        None,
        strict=True,
        ge=0,
        le=INT64,
        description=gettext_noop(
            "a whole number, 0 or more, that repeats a logged draw; random if absent"
        ),
    )


class HandIn(Schema):
    hand: int = Field(
        strict=True,
        ge=0,
        le=HAND_MAX,
        description=gettext_noop(
            "the hand count the page showed (the hand of the last answer, 0 before the "
            "first hand), a whole number from 0 to 1,000,000,000: the same hand twice "
            "answers 409"
        ),
    )
    confirm_halted: bool = Field(
        False,
        strict=True,
        description=gettext_noop(
            "true to deal on at a halted table (the floor's decision); without it a hand at "
            "a halted table answers 409 and says why the table is halted"
        ),
    )

    model_config = ConfigDict(json_schema_extra={"examples": [{"hand": 12}]})


EntryNumber = Annotated[int, Field(strict=True, ge=ENTRY_NUMBER.low, le=ENTRY_NUMBER.high)]
Chips = Annotated[int, Field(strict=True, ge=0, le=MAX_CHIPS)]
NumberKey = Annotated[str, Field(pattern=r"^[0-9]{1,19}$")]


class BustOutIn(Schema):
    entries: list[EntryNumber] = Field(
        min_length=1,
        max_length=MAX_ON_ONE_HAND,
        description=gettext_noop(
            "a list of the entry numbers who are out on this hand (whole numbers from 1 to "
            "1,000,000,000), at most 10 players on one hand"
        ),
    )
    table: int | None = Field(
        None,
        strict=True,
        ge=1,
        le=TABLE_NUMBER_MAX,
        description=gettext_noop(
            "the table's number, a whole number from 1 to 99,999, checked against where "
            "they sit; without it they must all sit at one table"
        ),
    )
    hand: int | None = Field(
        None,
        strict=True,
        ge=1,
        le=HAND_MAX,
        description=gettext_noop(
            "the hand, a whole number from 1 to 1,000,000,000: during hand-for-hand the "
            "hand-for-hand hand (the current one by default), else the table's next hand "
            "by default"
        ),
    )
    stacks: dict[NumberKey, Chips] = Field(
        default_factory=dict,
        description=gettext_noop(
            'an object of entry number to chips at the start of the hand, e.g. {"12": 4000}, '
            "each a whole number of chips from 0 to 999,999,999,999,999; needed for two or "
            "more players and during hand-for-hand"
        ),
    )

    eliminated_by: list[EntryNumber] = Field(
        default_factory=list,
        max_length=MAX_ON_ONE_HAND,
        description=gettext_noop(
            "a list of the entry numbers who eliminated these players (two or more: a split "
            "pot, each player out shared by all), players still in at the same table; "
            "required in a bounty event, whose bounties it pays"
        ),
    )

    @model_validator(mode="after")
    def _stacks_of_these_players(self) -> BustOutIn:
        for key in self.stacks:
            if int(key) not in self.entries:
                raise field_error(
                    "stacks", _("stacks names #%(key)s, who is not in entries") % {"key": key}
                )
        return self

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"entries": [17, 23], "table": 3, "stacks": {"17": 4000, "23": 4000}}]
        }
    )


# Response bodies: exactly what the selectors give (an undeclared key is a test failure,
# never a silently dropped field on a screen).


class Out(Schema):
    model_config = ConfigDict(extra="forbid")


class Error(Out):
    error: str = Field(description="What went wrong, for people.")
    field: str | None = Field(None, description="The body field at fault (400 only).")


class EventSummary(Out):
    id: int
    name: str
    status: str = Field(description="planned, running, paused or finished.")
    archived: bool | None = Field(None, description="Filed away by the director (the list only).")


class Level(Out):
    level: int
    small_blind: int | None
    big_blind: int | None
    ante: int | None
    small_bet: int | None
    big_bet: int | None
    min_raise_to: int | None
    max_raise_to: int | None
    duration_seconds: int


class NextBreak(Out):
    duration_seconds: int
    note: str


class ClockEvent(Out):
    id: int
    name: str
    status: str
    betting: str
    game: str


class Move(Out):
    id: int = Field(description="The slip's id, to acknowledge it.")
    entry: int = Field(description="Entry number in the event.")
    player: str
    from_table: int | None
    from_seat: int | None
    to_table: int
    to_seat: int
    reason: str = Field(description="balance, break, redraw or manual.")
    dealt_in: bool = Field(description="The player is dealt into the next hand at the new seat.")
    acknowledged: bool


class RecentMove(Move):
    text: str = Field(description="The slip as one line.")
    created_at: str = Field(json_schema_extra={"format": "date-time"})


class SlipsPage(Out):
    count: int = Field(description="Every slip the clock screen shows, on every page.")
    page: int = Field(description="This page's number, from 1.")
    pages: int
    page_size: int
    moves: list[RecentMove] = Field(description="This page's slips, newest first.")


class Payout(Out):
    place: int
    amount: str


class ChipLeader(Out):
    player: str
    entry: int
    table: int | None
    seat: int | None
    chips: int
    counted_at: str = Field(json_schema_extra={"format": "date-time"})


class EntryNotice(Out):
    code: str = Field(description="late-registration, reentries, rebuys or addon.")
    params: dict[str, int | bool | None] = Field(
        description="The figures: level, ms (to late registration's end, counted like "
        "remaining_ms), limit, break, now."
    )
    text: str = Field(description="The notice in the screen's language.")


class LastHands(Out):
    day: int
    hands: int = Field(description="The last hands every table plays (WSOP R125).")
    tables_playing: int = Field(description="Tables with hands still to play; 0: bagging.")
    text: str = Field(description="What the screen says, in the reader's language.")


class EntriesClosed(Out):
    code: str = Field(
        description="closed-in-the-money, closed-final-table, closed-heads-up or last-hands."
    )
    text: str = Field(description="Why, in the reader's language.")


class FinalPlace(Out):
    place: int
    label: str = Field(
        description='"1st", or "5-6" for players who tie, in the reader\'s language.'
    )
    player: str
    entry: int = Field(description="Entry number in the event.")
    prize: str = Field(description="What the place won (a deal's amount), two decimals.")


class Final(Out):
    winner: FinalPlace | None
    places: list[FinalPlace] = Field(description="The final table's places, the winner first.")
    deal: bool = Field(description="The prizes are a deal's amounts.")


class WholeEvent(Out):
    flight: str = Field(description="The flight this clock is, e.g. 1A.")
    entries: int = Field(description="The whole event's entries over its flights.")


class Clock(Out):
    event: ClockEvent
    status: str = Field(description="not-started, running, paused or finished.")
    version: int = Field(description="Grows with every change; screens follow it.")
    level_index: int
    level: int | None
    on_break: bool
    break_note: str | None
    small_blind: int | None
    big_blind: int | None
    ante: int | None
    ante_type: str
    small_bet: int | None
    big_bet: int | None
    min_raise_to: int | None
    max_raise_to: int | None = Field(description="Null unless pot-limit.")
    schedule_assumption: str
    duration_ms: int
    remaining_ms: int = Field(description="Computed from stored times at server_time.")
    level_ends_at: str | None = Field(json_schema_extra={"format": "date-time"})
    server_time: str = Field(json_schema_extra={"format": "date-time"})
    next: Level | None
    next_break: NextBreak | None
    ms_to_break: int | None = Field(description="0 during a break.")
    ms_to_next_break: int | None = Field(
        description="To the start of the next break; during a break, the one after it."
    )
    late_registration_level: int = Field(
        description="Late registration closes at the end of this level (0: at the start)."
    )
    late_registration_open: bool
    ms_to_late_registration_end: int | None
    entry_notices: list[EntryNotice] = Field(
        description="What players need to know about entries now (docs/entry-rules.md)."
    )
    entries: int
    players_left: int
    chips_in_play: int
    average_stack: int | None
    prize_pool: str
    whole_event: WholeEvent | None = Field(
        None, description="A flight's clock only: the event it is a flight of (festivals)."
    )
    moves: list[RecentMove] = Field(
        description="Slips not yet acknowledged and those of the last minutes, newest first: "
        "the first page of them (20 at most; the others from `/api/events/{id}/slips`)."
    )
    moves_count: int = Field(
        0, description="How many such slips there are in all (`moves` holds the first 20)."
    )
    payouts: list[Payout] = Field(description="Each paid place's prize for the field now.")
    in_the_money: bool = Field(
        False, description="The bubble has burst: every player still in is paid."
    )
    chip_leader: ChipLeader | None
    last_hands: LastHands | None = Field(
        None, description="The end of the day: from its last hands until the day closes."
    )
    entries_closed: EntriesClosed | None = Field(
        None,
        description="Why the field takes no new entry nor re-entry whatever its level (the "
        "money or the final table by the rule set, heads-up, the day's last hands); then "
        "late registration reads closed and neither notice is given.",
    )
    final: Final | None = Field(
        None, description="Once the event has finished: the winner and the final table."
    )


class Seat(Out):
    player: str
    entry: int = Field(description="Entry number in the event.")
    table: int | None
    seat: int | None
    note: str | None = Field(None, description="Only when set: tells namesakes apart.")


class Entry(Out):
    entry: int = Field(description="Entry number in the event.")
    player: str
    note: str
    status: str = Field(description="active or busted.")
    table: int | None
    seat: int | None
    chips: int
    place: int | None


class Registered(Entry):
    dealt_in: bool
    moves: list[Move] = Field(description="Balancing moves the new seat set off.")
    player_url: str = Field(
        description="The player's own page (`/me/<token>/`, no login): give it to the "
        "player, as the seat card's QR code does. Secret: whoever has it sees the page."
    )


class PrizeChange(Out):
    entry: int = Field(description="The entry number of a player out in the money.")
    player: str
    place_before: str = Field(description='Its place now: "5", or "5-6" for a tie.')
    place_after: str
    prize_before: str = Field(description="Its prize now, with two decimals.")
    prize_after: str
    paid: bool = Field(description="Marked paid: then nothing is sold.")


class DuplicateName(Out):
    error: str
    existing: list[Entry] | None = Field(
        None, description="When the name is in the field: the entries of that name."
    )
    code: str | None = Field(None, description="The entry rule's code, as in a buy's 409.")
    params: dict[str, str | int] | None = Field(None, description="The figures in the sentence.")
    changes: list[PrizeChange] | None = Field(
        None, description="With code confirm-changes: what the entry would change."
    )


class Drawn(Out):
    seated: int


class HandForHandReport(Out):
    hand: int
    waiting_for: list[int] = Field(description="Tables yet to finish this hand.")
    completed: bool


class HandFinished(Out):
    table: int
    hand: int = Field(description="The table's hand count now: send it with the next hand.")
    button: int | None
    small_blind: int | None
    big_blind: int | None
    hand_for_hand: HandForHandReport | None


class Finish(Out):
    entry: int
    player: str
    place: int
    place_to: int = Field(description="Last place of a tie; else the place.")
    place_label: str = Field(examples=["17", "26-27"])
    prize: str = Field(description="Two decimals.")
    starting_stack: int | None


class BustOutRecorded(Out):
    bustout: int = Field(description="Its id, for undo.")
    table: int
    hand: int | None
    hand_for_hand: bool
    finishes: list[Finish]
    group: list[Finish] = Field(description="The whole simultaneous group (hand-for-hand).")
    players_left: int
    rebalance: str | None = Field(examples=["balance", "break"])
    broken: list[int] = Field(description="Tables broken.")
    moves: list[Move]
    winner: Finish | None


class SeatBack(Out):
    entry: int
    player: str
    table: int
    seat: int


class BustOutUndone(Out):
    bustout: int
    undone: Literal[True]
    entries: list[SeatBack]
    moves_withdrawn: int
    tables_back_in_play: list[int]


class ResultsEvent(Out):
    id: int
    name: str
    status: str


class ResultRow(Out):
    place: int
    place_to: int
    place_label: str
    player: str
    entry: int
    prize: str
    paid: bool = Field(False, description="The cashier marked the prize paid: it never changes.")
    seat: str | None = Field(None, description="A satellite's seat won: “Seat in <event>”.")


class SatelliteSeats(Out):
    target: int = Field(description="The event the seats are in.")
    seat_value: str = Field(description="The target's buy-in and fee; two decimals.")
    seats: int
    remainder: str = Field(description="Paid in cash to the place after the seats.")
    decided: bool = Field(description="The players left are no more than the seats.")
    winners: list[int] = Field(description="The entry numbers winning a seat (once decided).")


class PrizePaidIn(Schema):
    paid: bool = Field(
        True,
        strict=True,
        description=gettext_noop(
            "true: the prize is paid (from then on it never changes); false: not paid after all"
        ),
    )


class Results(Out):
    event: ResultsEvent
    entries: int
    players_left: int
    prize_pool: str = Field(description="Two decimals.")
    paid_places: int
    payouts: list[str] = Field(description="By place, two decimals.")
    results: list[ResultRow]
    satellite: SatelliteSeats | None = Field(None, description="A satellite's seats.")


# Chip counts: the count list (public) and a table's counts (staff).

CountChips = Annotated[int, Field(strict=True, ge=1, le=MAX_CHIPS)]
MAX_COUNTS = 1000


class ChipCountIn(Schema):
    entry: EntryNumber = Field(
        description=gettext_noop(
            "the entry number of a player still in, a whole number from 1 to 1,000,000,000"
        )
    )
    chips: CountChips = Field(
        description=gettext_noop("the player's chips, a whole number from 1 to 999,999,999,999,999")
    )


class ChipCountsIn(Schema):
    counts: list[ChipCountIn] = Field(
        min_length=1,
        max_length=MAX_COUNTS,
        description=gettext_noop(
            'a list of counts, e.g. [{"entry": 12, "chips": 48500}], 1 to 1,000 of them, '
            "each entry once; recorded together or not at all"
        ),
    )
    table: int | None = Field(
        None,
        strict=True,
        ge=1,
        le=TABLE_NUMBER_MAX,
        description=gettext_noop(
            "the table's number, a whole number from 1 to 99,999: every player counted "
            "must sit there"
        ),
    )

    @model_validator(mode="after")
    def _each_entry_once(self) -> ChipCountsIn:
        seen: set[int] = set()
        for count in self.counts:
            if count.entry in seen:
                raise field_error(
                    "counts", _("counts names #%(entry)s twice") % {"entry": count.entry}
                )
            seen.add(count.entry)
        return self

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"counts": [{"entry": 12, "chips": 48500}, {"entry": 3, "chips": 21000}]}]
        }
    )


class ChipCountRow(Out):
    rank: int | None = Field(description="By chips, 1 the largest; null: never counted.")
    entry: int
    player: str
    table: int | None
    seat: int | None
    chips: int | None = Field(description="The latest count; null: never counted.")
    counted_at: str | None = Field(json_schema_extra={"format": "date-time"})


class ChipCountTotal(Out):
    chips_in_play: int = Field(
        description="Every chip bought (busted players' included) minus those taken out of play."
    )
    counted_chips: int = Field(description="The latest counts of the players still in, added.")
    counted: int
    players_left: int
    all_counted: bool
    difference: int | None = Field(
        description="Counted minus in play, once every player still in is counted; else null."
    )
    summary: str
    warning: str | None = Field(description="When all are counted and the counts differ.")


class ChipCounts(Out):
    event: ResultsEvent
    total: ChipCountTotal
    counts: list[ChipCountRow] = Field(description="By chips, then those never counted.")


class ChipCountsSaved(Out):
    saved: int
    table: int | None
    counts: list[ChipCountRow] = Field(description="The counts just saved.")
    total: ChipCountTotal


# Entry rules: rebuys, the add-on and re-entries (docs/entry-rules.md).


class BuyIn(Schema):
    confirm_changes: bool = CONFIRM_CHANGES


class RebuyIn(Schema):
    confirm_changes: bool = CONFIRM_CHANGES
    stack: int | None = Field(
        None,
        strict=True,
        ge=0,
        le=BUY_STACK_MAX,
        description=gettext_noop(
            "the chips the player has now, a whole number from 0 to 1,000,000,000,000; "
            "required when the rebuy needs a stack at or below the event's limit"
        ),
    )


class Bought(Out):
    entry: int = Field(description="Entry number in the event.")
    player: str
    kind: str = Field(description="rebuy or addon.")
    chips: int = Field(description="The chips this buy brought.")
    amount: str = Field(description="To the prize pool (a decimal string).")
    fee: str = Field(description="Kept by the house (a decimal string).")
    entry_chips: int = Field(description="Every chip the entry has bought, this buy included.")


class Refused(Out):
    error: str = Field(description="Why the entry rules refuse it, for people.")
    code: str | None = Field(
        None,
        description="The entry rule's code: registration-closed, reentry-limit, reentry-closed, "
        "rebuy-none, rebuy-closed, rebuy-limit, rebuy-over-threshold, rebuy-stack-unknown, "
        "addon-none, addon-not-now, addon-taken, event-finished, closed-in-the-money, "
        "closed-final-table, closed-heads-up, last-hands, prize-paid, confirm-changes...",
    )
    params: dict[str, str | int] | None = Field(
        None, description="The figures in the sentence (level, limit, count, stack...)."
    )
    changes: list[PrizeChange] | None = Field(
        None, description="With confirm-changes or prize-paid: what it would change."
    )


# Changing an event's levels (PUT /api/events/{id}/levels). The types and ranges are said
# here; the structure's own rules (blinds never decrease, a small blind under the big one,
# what is already played) are the service's, the import's `check_levels`.
class LevelRowIn(Schema):
    kind: Literal["level", "break"] = Field("level", description=gettext_noop("level or break"))
    small_blind: int = Field(
        0,
        strict=True,
        ge=0,
        le=CHIP_AMOUNT.high,
        description=gettext_noop("a whole number of chips"),
    )
    big_blind: int = Field(
        0,
        strict=True,
        ge=0,
        le=CHIP_AMOUNT.high,
        description=gettext_noop("a whole number of chips"),
    )
    ante: int = Field(
        0,
        strict=True,
        ge=0,
        le=CHIP_AMOUNT.high,
        description=gettext_noop("a whole number of chips"),
    )
    small_bet: int | None = Field(
        None,
        strict=True,
        ge=0,
        le=CHIP_AMOUNT.high,
        description=gettext_noop("fixed-limit only: the small bet, a whole number of chips"),
    )
    big_bet: int | None = Field(
        None,
        strict=True,
        ge=0,
        le=CHIP_AMOUNT.high,
        description=gettext_noop("fixed-limit only: the big bet, a whole number of chips"),
    )
    duration_seconds: int = Field(
        strict=True,
        ge=1,
        le=DAY_SECONDS,
        description=gettext_noop("the level's length in seconds, 1 to 86400"),
    )
    note: PlainText = Field(
        "", strict=True, max_length=200, description=gettext_noop("at most 200 characters")
    )


class LevelsIn(Schema):
    levels: list[LevelRowIn] = Field(
        min_length=1,
        max_length=1000,
        description=gettext_noop(
            "every level and break in order, the played ones unchanged (1 to 1,000 rows)"
        ),
    )
    confirm_warnings: bool = Field(
        False,
        strict=True,
        description=gettext_noop("true to save despite the warnings a first answer listed"),
    )
    expected_version: int | None = Field(
        None,
        strict=True,
        ge=0,
        description=gettext_noop(
            "the clock's version the levels were read at: refused if it has moved since"
        ),
    )

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "levels": [
                        {"small_blind": 100, "big_blind": 200, "duration_seconds": 1200},
                        {"kind": "break", "duration_seconds": 900, "note": "Colour up"},
                        {
                            "small_blind": 200,
                            "big_blind": 400,
                            "ante": 400,
                            "duration_seconds": 1800,
                        },
                    ]
                }
            ]
        }
    )


class LevelRow(Out):
    kind: str
    small_blind: int
    big_blind: int
    ante: int
    small_bet: int | None
    big_bet: int | None
    duration_seconds: int
    note: str


class LevelsOut(Out):
    version: int = Field(description="The clock's version after the change.")
    level_index: int = Field(description="The segment being played (0 is the first).")
    warnings: list[str] = Field(description="The warnings that were confirmed.")
    levels: list[LevelRow]


# Changing an existing event's entry rules (PATCH /api/events/{id}/entry-rules). The ranges
# are the console page's form's (events.forms); the service keeps the event's state.
# Left out: unchanged; null only where the column takes it (chips: the starting stack).
def _rule_count(what: str) -> Any:
    return Field(
        None,
        strict=True,
        ge=0,
        le=ENTRY_RULE_COUNT_MAX,
        description=what,
    )


def _money(what: str) -> Any:
    return Field(None, ge=0, max_digits=12, decimal_places=2, description=what)


def _flag(what: str) -> Any:
    return Field(None, strict=True, description=what)


class EntryRulesIn(Schema):
    late_registration_end_level: int = _rule_count(
        gettext_noop(
            "new entries until this level ends, a whole number from 0 to 1,000 (0: entries "
            "until the clock starts)"
        )
    )
    reentry_allowed: bool = _flag(gettext_noop("true or false: may a busted player re-enter"))
    reentry_max: int = _rule_count(
        gettext_noop("re-entries per player, a whole number from 0 to 1,000 (0: no limit)")
    )
    reentry_until_level: int = _rule_count(
        gettext_noop(
            "re-entries until this level ends, a whole number from 0 to 1,000 (0: while late "
            "registration is open)"
        )
    )
    rebuy_until_level: int = _rule_count(
        gettext_noop("rebuys until this level ends, a whole number from 0 to 1,000 (0: no rebuys)")
    )
    rebuy_threshold: int | None = Field(
        None,
        strict=True,
        ge=0,
        le=ENTRY_RULE_STACK_MAX,
        description=gettext_noop(
            "a rebuy needs a stack of at most this many chips, a whole number from 0 to "
            "1,000,000,000,000; null: the starting stack"
        ),
    )
    rebuy_chips: int | None = Field(
        None,
        strict=True,
        ge=1,
        le=ENTRY_RULE_STACK_MAX,
        description=gettext_noop(
            "chips per rebuy, a whole number from 1 to 1,000,000,000,000; null: the starting stack"
        ),
    )
    rebuy_price: Decimal = _money(
        gettext_noop("the rebuy's price to the prize pool, 0 or more, at most 2 decimals")
    )
    rebuy_fee: Decimal = _money(
        gettext_noop("the rebuy's fee kept by the house, 0 or more, at most 2 decimals")
    )
    rebuy_max: int = _rule_count(
        gettext_noop("rebuys per player, a whole number from 0 to 1,000 (0: no limit)")
    )
    addon_break: int = _rule_count(
        gettext_noop(
            "the add-on is taken at this break (1: the first), a whole number from 0 to "
            "1,000 (0: no add-on)"
        )
    )
    addon_chips: int | None = Field(
        None,
        strict=True,
        ge=1,
        le=ENTRY_RULE_STACK_MAX,
        description=gettext_noop(
            "the add-on's chips, a whole number from 1 to 1,000,000,000,000; null: the "
            "starting stack"
        ),
    )
    addon_price: Decimal = _money(
        gettext_noop("the add-on's price to the prize pool, 0 or more, at most 2 decimals")
    )
    addon_fee: Decimal = _money(
        gettext_noop("the add-on's fee kept by the house, 0 or more, at most 2 decimals")
    )

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"late_registration_end_level": 8, "reentry_max": 3}]}
    )


class EntryRulesOut(Out):
    changed: list[str] = Field(description="The rules this request changed (none: nothing).")
    late_registration_end_level: int
    reentry_allowed: bool
    reentry_max: int
    reentry_until_level: int
    rebuy_until_level: int
    rebuy_threshold: int | None
    rebuy_chips: int | None
    rebuy_price: str = Field(description="A decimal string.")
    rebuy_fee: str = Field(description="A decimal string.")
    rebuy_max: int
    addon_break: int
    addon_chips: int | None
    addon_price: str = Field(description="A decimal string.")
    addon_fee: str = Field(description="A decimal string.")
