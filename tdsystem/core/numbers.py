"""Numbers for people: the ranges of what they type, and how a number is shown to them.

The whole numbers people type: one range for each kind of number, for every way in.

A table number, an entry number, a hand count, a player's chips: the pages' forms
(`core.forms.WholeNumberField(span=...)`), the API's schemas (`ge=SPAN.low, le=SPAN.high`)
and the services take each within the same bounds, and refuse the rest in the same words
("a whole number from 1 to 99,999", grouped in the reader's language).

The bounds are what a room needs with a wide margin, not what a database column holds: a
director who types a number past them has mistyped, and a message that says
9,223,372,036,854,775,807 or 32,767 helps nobody. The column holds every value in range.

A number shown (a chip count, a prize, a bound in a message): `grouped`, and `money` for an
amount, in the reader's separators; the templates' `chips` and `money` filters
(`core/templatetags/humanize_td.py`) say them so too.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.utils import numberformat
from django.utils.formats import get_format
from django.utils.functional import lazy
from django.utils.translation import gettext


def grouped(number, decimals: int | None = None) -> str:
    """A number in the reader's separators, Western digits: grouped always, in threes
    where the locale's formats leave grouping out (ar, vi): a chip count or a prize read
    from across the room needs its thousands marked."""
    return numberformat.format(
        number,
        get_format("DECIMAL_SEPARATOR"),
        decimal_pos=decimals,
        grouping=get_format("NUMBER_GROUPING") or 3,
        thousand_sep=get_format("THOUSAND_SEPARATOR"),
        force_grouping=True,
    )


# grouped() when the text is read: a form's rule, written once, said in each request's locale.
grouped_lazy = lazy(grouped, str)


def money(value) -> str:
    """An amount of money in the reader's separators: Decimal("1200.00") -> "1,200",
    Decimal("1234.50") -> "1,234.50" ("1.234,50" in Vietnamese); None -> "–". Every page
    that shows money (the consoles, the screens, the results, a purchase's message) says
    it so, never as the column's "15000.00"."""
    if value is None or value == "":
        return "–"
    try:
        amount = Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        return str(value)
    return grouped(amount, 0 if amount == amount.to_integral_value() else 2)


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
