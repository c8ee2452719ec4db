"""The whole numbers people type: one range for each kind of number, for every way in.

A table number, an entry number, a hand count, a player's chips: the pages' forms
(`core.forms.WholeNumberField(span=...)`), the API's schemas (`ge=SPAN.low, le=SPAN.high`)
and the services take each within the same bounds, and refuse the rest in the same words
("a whole number from 1 to 99,999", grouped in the reader's language).

The bounds are what a room needs with a wide margin, not what a database column holds: a
director who types a number past them has mistyped, and a message that says
9,223,372,036,854,775,807 or 32,767 helps nobody. The column holds every value in range.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils.functional import lazy
from django.utils.translation import gettext

from .templatetags.humanize_td import grouped


@dataclass(frozen=True)
class Span:
    """The whole numbers from `low` to `high`, both included."""

    low: int
    high: int

    def __contains__(self, value: object) -> bool:
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and self.low <= value <= self.high
        )

    def rule(self) -> str:
        """ "a whole number from 1 to 99,999", in the reader's language (lazy: said when
        read, so a form's message follows each request's language)."""
        return _rule(self.low, self.high)

    @property
    def digits(self) -> int:
        """The most digits a number in range has (a quick refusal before int())."""
        return len(str(self.high))


def _said(low: int, high: int) -> str:
    return gettext("a whole number from {low} to {high}").format(
        low=grouped(low), high=grouped(high)
    )


_rule = lazy(_said, str)


# A table's number in the room (the consoles, the copy of an event, the API).
TABLE_NUMBER = Span(1, 99_999)
# An entry's number in its event (1, 2, ... in the order they registered): a festival's
# biggest field is tens of thousands.
ENTRY_NUMBER = Span(1, 10**9)
# A table's hand count, 0 before the first hand.
HAND = Span(0, 10**9)
# A player's chips at the table: a count, a bag, a stack at a bust-out. A field of entries
# of up to CHIP_AMOUNT each stays within it.
STACK = Span(0, 10**15 - 1)
# Chips an entry or a buy brings (a starting stack, a rebuy's, an add-on's), a blind.
CHIP_AMOUNT = Span(1, 10**12)
# A level, a break's number, a limit per player in the entry rules (a structure holds at
# most a thousand levels).
RULE_COUNT = Span(0, 1000)
# The minutes a hand-for-hand hand may take off the level clock.
MINUTES_PER_HAND = Span(1, 10)
# Seats at one of an event's tables.
SEATS_PER_TABLE = Span(6, 10)
# A row's id in a URL or a ticked box: what the column holds. Never said to a person (a
# box that is not in the list is refused as such).
ROW_ID = Span(1, 2**63 - 1)


# An amount of money (a buy-in, a fee, a price): what the columns hold (12 digits, cents).
AMOUNT_MAX = Decimal("9999999999.99")


def _amount_said() -> str:
    return gettext("an amount from 0 to %(most)s, in cents at most") % {
        "most": grouped(AMOUNT_MAX, 2)
    }


amount_rule = lazy(_amount_said, str)
