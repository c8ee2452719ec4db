"""A sample of every document, for the pictures in docs/printing.md and a room that wants
to see its printer's paper before the night (`manage.py printer samples DIR`)."""

from __future__ import annotations

from pathlib import Path

from django.utils import translation

from . import preview
from .documents import (
    ChipVoucher,
    Doc,
    EntryReceipt,
    MoveSlip,
    PayoutSlip,
    RedrawReceipt,
    SeatCard,
    TableBreak,
    layout,
)
from .receipts import receipt_bytes

AT = "2026-03-13T21:04:00+00:00"
NAMES = {
    "en": ("Friday Deepstack", ["Ann Lee", "José Ortega", "Bo Chen", "Mia Novak"]),
    "ja": ("金曜ディープスタック", ["山田 花子", "佐藤 健", "Ann Lee", "鈴木 一郎"]),
    "vi": ("Giải Thứ Sáu", ["Nguyễn Văn An", "Trần Thị Bích", "Ann Lee", "Lê Minh"]),
    "ar": ("بطولة الجمعة", ["ليلى حسن", "عمر خالد", "Ann Lee", "سارة علي"]),
}


def documents(language: str) -> dict[str, tuple[Doc, int]]:
    """Each document's sample and its copies, named for its file."""
    event, (a, b, c, d) = NAMES.get(language, NAMES["en"])
    link = "http://192.168.1.20:8000/me/q3Vx8kTq0yN2bLwZr7cH1A/"
    return {
        "entry-receipt": (
            EntryReceipt(event, AT, a, 12, "entry", "90.00", "10.00", 20000, "cage"),
            2,
        ),
        "seat-card": (SeatCard(event, AT, a, 12, 3, 4, link), 1),
        "move-slip": (MoveSlip(event, AT, b, 31, 7, 2, 3, 9, "balance"), 1),
        "table-break": (
            TableBreak(event, AT, 7, ((1, c, 5, 3, 9), (4, b, 31, 2, 6), (8, d, 40, 5, 1))),
            1,
        ),
        "payout-slip": (PayoutSlip(event, AT, a, 12, 3, 3, "1250.00", bounties="150.00"), 1),
        "chip-voucher": (ChipVoucher(event, AT, 1, d, 40, "A-17", 184500, 5, 2, 6), 1),
        "redraw-receipt": (
            RedrawReceipt(
                event, AT, 2, ((1, 1, a, 12), (1, 2, c, 5), (2, 1, b, 31), (2, 2, d, 40))
            ),
            1,
        ),
    }


def write(folder: Path, language: str, paper: int = 80) -> list[Path]:
    """Every sample as the PNG of the paper its ESC/POS bytes print."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (doc, copies) in documents(language).items():
        with translation.override(language):
            data = receipt_bytes(layout(doc, copies), paper=paper, language=language)
        path = folder / f"{name}-{language}.png"
        preview.read(data, paper=paper).image().save(path, optimize=True)
        written.append(path)
    return written
