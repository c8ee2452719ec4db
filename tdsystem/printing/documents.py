"""The documents the floor hands out, as plain values, and their layout.

Each document is a frozen dataclass of what it says (names, numbers, amounts as strings,
times as ISO text), kept in its print job as JSON (`as_data`, `from_data`). Its `blocks`
lay it out in the active language as a list of `Block`s: a title, lines, label and value
pairs, a QR code, a line to sign on. The receipt printer's commands (receipts.py), the print
page (templates/printing/page.html) and the picture of the printed paper (preview.py) are
all made from those blocks, so the three say the same thing.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any, ClassVar

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from tdsystem.core.numbers import grouped
from tdsystem.results.templatetags.results_tags import ordinal

from .models import Document


@dataclass(frozen=True)
class Block:
    """One piece of a printed document.

    kind: "title" (bold, centred), "big" (double size, centred), "text", "small", "pair"
    (a label on the left, `value` on the right), "rule", "qr" (`text` is the link), "sign"
    (a line to sign or write on, `text` under it), "cut" (between two copies).
    """

    kind: str
    text: str = ""
    value: str = ""


def title(text: str) -> Block:
    return Block("title", text)


def big(text: str) -> Block:
    return Block("big", text)


def text(value: str) -> Block:
    return Block("text", value)


def small(value: str) -> Block:
    return Block("small", value)


def pair(label: str, value: str) -> Block:
    return Block("pair", label, value)


def rule() -> Block:
    return Block("rule")


def qr(url: str) -> Block:
    return Block("qr", url)


def sign(label: str, value: str = "") -> Block:
    return Block("sign", label, value)


def when(at: str) -> str:
    """An ISO time as the reader writes a date and time, in the room's time zone."""
    moment = datetime.fromisoformat(at)
    return formats.date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


def amount(value: str) -> str:
    return grouped(Decimal(value), 2)


def seat_text(table: int, seat: int) -> str:
    return _("Table %(table)s, seat %(seat)s") % {"table": table, "seat": seat}


@dataclass(frozen=True)
class Doc:
    """What every document says first: the event and when it was made."""

    KIND: ClassVar[str]
    event: str
    at: str

    def as_data(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_data(cls, data: dict[str, Any]):
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: _tuples(v) for k, v in data.items() if k in names})

    def table(self) -> int | None:
        """The table whose section's printer prints it, if any."""
        return None

    def head(self, name: str) -> list[Block]:
        return [title(name), text(self.event), small(when(self.at)), rule()]

    def blocks(self, copy: int = 1, copies: int = 1) -> list[Block]:
        raise NotImplementedError


def _tuples(value):
    """JSON lists back into the tuples the dataclasses hold."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


@dataclass(frozen=True)
class EntryReceipt(Doc):
    """A buy at the cage: an entry, re-entry, rebuy or add-on, who paid what, who took it."""

    KIND = Document.ENTRY_RECEIPT
    player: str
    entry: int
    kind: str  # seating's Purchase.Kind
    amount: str
    fee: str
    chips: int
    cashier: str

    def blocks(self, copy: int = 1, copies: int = 1) -> list[Block]:
        names = {
            "entry": _("Entry receipt"),
            "reentry": _("Re-entry receipt"),
            "rebuy": _("Rebuy receipt"),
            "addon": _("Add-on receipt"),
        }
        total = Decimal(self.amount) + Decimal(self.fee)
        out = self.head(names.get(self.kind, names["entry"]))
        out += [
            pair(_("Player"), self.player),
            pair(_("Entry"), f"#{self.entry}"),
            pair(_("Prize pool"), amount(self.amount)),
            pair(_("Fee"), amount(self.fee)),
            pair(_("Total paid"), amount(str(total))),
            pair(_("Chips"), grouped(self.chips)),
            pair(_("Cashier"), self.cashier),
        ]
        if copies > 1:
            whose = _("Player's copy") if copy == 1 else _("House copy")
            out += [
                rule(),
                small(
                    _("%(whose)s (%(copy)s of %(copies)s)")
                    % {"whose": whose, "copy": copy, "copies": copies}
                ),
            ]
        return out


@dataclass(frozen=True)
class SeatCard(Doc):
    """Where a player sits, with a QR code of the player's own page (its secret link)."""

    KIND = Document.SEAT_CARD
    player: str
    entry: int
    table_number: int
    seat: int
    url: str
    dealt_in: bool = True

    def table(self) -> int | None:
        return self.table_number

    def blocks(self, copy: int = 1, copies: int = 1) -> list[Block]:
        out = self.head(_("Seat card"))
        out += [big(seat_text(self.table_number, self.seat)), text(f"{self.player}  #{self.entry}")]
        if not self.dealt_in:
            out.append(small(_("Wait for the button to pass your seat before you are dealt in.")))
        out += [
            qr(self.url),
            small(_("Scan for your own page: your seat, your moves and the clock.")),
            # The code opens the player's page without a login: whoever holds the card does.
            small(_("This code is yours alone: keep the card to yourself.")),
        ]
        return out


@dataclass(frozen=True)
class MoveSlip(Doc):
    """One player moves: from where, to where, why."""

    KIND = Document.MOVE_SLIP
    player: str
    entry: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: str
    dealt_in: bool = True

    def table(self) -> int | None:
        return self.from_table

    def blocks(self, copy: int = 1, copies: int = 1) -> list[Block]:
        reasons = {
            "balance": _("Balancing"),
            "break": _("Table break"),
            "redraw": _("Redraw"),
            "manual": _("Director"),
            "reserved": _("Reserved seat"),
        }
        out = self.head(_("Move slip"))
        out += [
            text(f"{self.player}  #{self.entry}"),
            pair(_("From"), seat_text(self.from_table, self.from_seat)),
            big(seat_text(self.to_table, self.to_seat)),
            pair(_("Why"), reasons.get(self.reason, self.reason)),
        ]
        if not self.dealt_in:
            out.append(small(_("Wait for the button to pass your seat before you are dealt in.")))
        return out


@dataclass(frozen=True)
class TableBreak(Doc):
    """A breaking table's card: every player's new seat (seat, name, entry, table, seat)."""

    KIND = Document.TABLE_BREAK
    table_number: int
    moves: tuple[tuple[int, str, int, int, int], ...] = field(default_factory=tuple)

    def table(self) -> int | None:
        return self.table_number

    def blocks(self, copy: int = 1, copies: int = 1) -> list[Block]:
        out = self.head(_("Table %(table)s breaks") % {"table": self.table_number})
        for seat, player, entry, to_table, to_seat in self.moves:
            out += [
                text(f"{pgettext('seat number', 'Seat %(seat)s') % {'seat': seat}}: {player}"),
                pair(f"#{entry}", seat_text(to_table, to_seat)),
            ]
        return out


@dataclass(frozen=True)
class PayoutSlip(Doc):
    """A player's prize: the place, the amount (a deal's when there was one), bounties won,
    and lines for the player's signature and for who paid and when."""

    KIND = Document.PAYOUT_SLIP
    player: str
    entry: int
    place: int
    place_to: int
    prize: str
    deal: str = ""  # the deal's amount, when the player was in one
    bounties: str = ""
    table_number: int | None = None
    paid_by: str = ""
    paid_at: str = ""

    def table(self) -> int | None:
        return self.table_number

    def blocks(self, copy: int = 1, copies: int = 1) -> list[Block]:
        place = ordinal(self.place)
        if self.place_to != self.place:
            place = f"{place}–{ordinal(self.place_to)}"
        paid = Decimal(self.deal or self.prize) + Decimal(self.bounties or "0")
        out = self.head(_("Payout slip"))
        out += [pair(_("Player"), self.player), pair(_("Entry"), f"#{self.entry}")]
        out.append(pair(_("Place"), place))
        if self.deal:
            out += [
                pair(_("Prize of the place"), amount(self.prize)),
                pair(_("Deal"), amount(self.deal)),
            ]
        else:
            out.append(pair(_("Prize"), amount(self.prize)))
        if self.bounties:
            out.append(pair(_("Bounties"), amount(self.bounties)))
        out += [
            big(amount(str(paid))),
            sign(_("Player's signature")),
            sign(_("Paid by"), self.paid_by),
            sign(_("Paid at"), when(self.paid_at) if self.paid_at else ""),
        ]
        return out


@dataclass(frozen=True)
class ChipVoucher(Doc):
    """A bagged stack at the end of a day: the bag, the chips, the next day's seat once drawn."""

    KIND = Document.CHIP_VOUCHER
    day: int
    player: str
    entry: int
    bag: str
    chips: int
    table_number: int  # where the stack was bagged
    next_table: int | None = None
    next_seat: int | None = None

    def table(self) -> int | None:
        return self.table_number

    def blocks(self, copy: int = 1, copies: int = 1) -> list[Block]:
        out = self.head(_("Chip count, end of day %(day)s") % {"day": self.day})
        out += [
            pair(_("Player"), self.player),
            pair(_("Entry"), f"#{self.entry}"),
            pair(_("Bag"), self.bag),
            big(grouped(self.chips)),
        ]
        label = _("Day %(day)s") % {"day": self.day + 1}
        if self.next_table is not None and self.next_seat is not None:
            out.append(pair(label, seat_text(self.next_table, self.next_seat)))
        else:
            out.append(pair(label, _("seat drawn later")))
        out += [sign(_("Player's signature")), sign(_("Floor"))]
        return out


@dataclass(frozen=True)
class RedrawReceipt(Doc):
    """A redraw's result: every player's new seat (table, seat, name, entry)."""

    KIND = Document.REDRAW_RECEIPT
    tables: int
    seats: tuple[tuple[int, int, str, int], ...] = field(default_factory=tuple)

    def blocks(self, copy: int = 1, copies: int = 1) -> list[Block]:
        out = self.head(
            ngettext("Redraw into %(count)s table", "Redraw into %(count)s tables", self.tables)
            % {"count": self.tables}
        )
        table = None
        for number, seat, player, entry in self.seats:
            if number != table:
                out.append(pair(_("Table %(table)s") % {"table": number}, ""))
                table = number
            out.append(text(f"{seat}. {player}  #{entry}"))
        return out


@dataclass(frozen=True)
class TestPage(Doc):
    """A printer's test: its name, address and paper, accented letters and a QR code."""

    KIND = Document.TEST_PAGE
    printer: str
    url: str
    paper: int
    link: str

    def blocks(self, copy: int = 1, copies: int = 1) -> list[Block]:
        return [
            title(_("Test page")),
            small(when(self.at)),
            rule(),
            pair(_("Printer"), self.printer),
            pair(_("Address"), self.url),
            pair(_("Paper"), f"{self.paper} mm"),
            text("Àéîõü ß € 0123456789"),
            big("8 ♠ 8"),
            qr(self.link),
        ]


DOCUMENTS: dict[str, type[Doc]] = {
    cls.KIND: cls
    for cls in (
        EntryReceipt,
        SeatCard,
        MoveSlip,
        TableBreak,
        PayoutSlip,
        ChipVoucher,
        RedrawReceipt,
        TestPage,
    )
}


def document_of(kind: str, data: dict[str, Any]) -> Doc:
    return DOCUMENTS[kind].from_data(data)


def layout(doc: Doc, copies: int = 1) -> list[Block]:
    """Every copy's blocks, a cut between two copies."""
    out: list[Block] = []
    for copy in range(1, copies + 1):
        if copy > 1:
            out.append(Block("cut"))
        out += doc.blocks(copy, copies)
    return out
