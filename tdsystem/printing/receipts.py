"""A document's blocks as the receipt printer's commands (ESC/POS), by python-escpos.

Text the printer can print itself (CP858: English and the Western European languages,
accents and the euro sign) goes as text in its Font A (48 columns on 80 mm paper, 32 on
58 mm); a line in another script, and every line of a right-to-left document, goes as a
picture drawn by glyphs.py. The QR code is a picture too (every ESC/POS printer prints a
raster picture; not every one draws QR codes itself). Each copy ends with a cut.
"""

from __future__ import annotations

import copy
import os
import tempfile
import textwrap

import qrcode
from PIL import Image

from . import glyphs
from .documents import Block

# python-escpos keeps a pickled copy of its printer profiles in a folder it makes at import
# unless told one: one folder for every process, not a new one each time.
os.environ.setdefault(
    "ESCPOS_CAPABILITIES_PICKLE_DIR", os.path.join(tempfile.gettempdir(), "tdsystem-escpos")
)
os.makedirs(os.environ["ESCPOS_CAPABILITIES_PICKLE_DIR"], exist_ok=True)

from escpos.printer import Dummy  # noqa: E402  (after the folder above is set)

CODE_PAGE = "CP858"
CODEC = "cp858"
# Printable dots and Font A columns of each paper width (203 dpi printers).
DOTS = {80: 576, 58: 384}
COLUMNS = {80: 48, 58: 32}
RTL_LANGUAGES = {"ar", "he", "fa", "ur"}


def printable(value: str) -> bool:
    """Whether the printer's code page holds every letter of `value`."""
    try:
        value.encode(CODEC)
    except UnicodeEncodeError:
        return False
    return True


class Receipt:
    """Writes blocks to a python-escpos printer, in text where it can, in pictures where not."""

    def __init__(self, paper: int, language: str) -> None:
        self.paper = paper if paper in DOTS else 80
        self.dots = DOTS[self.paper]
        self.columns = COLUMNS[self.paper]
        self.language = language
        self.rtl = language in RTL_LANGUAGES
        self.out = Dummy()
        # The profile knows the paper's width (python-escpos checks pictures against it).
        profile = copy.deepcopy(self.out.profile.profile_data)
        profile["media"]["width"]["pixels"] = self.dots
        self.out.profile.profile_data = profile
        self.out.hw("INIT")
        self.out.charcode(CODE_PAGE)

    def write(self, blocks: list[Block]) -> bytes:
        for block in blocks:
            getattr(self, f"_{block.kind}")(block)
        self.out.cut()
        return self.out.output

    # One method a kind of block ---------------------------------------------------------

    def _title(self, block: Block) -> None:
        self._line(block.text, kind="title", center=True)

    def _big(self, block: Block) -> None:
        self._line(block.text, kind="big", center=True)

    def _text(self, block: Block) -> None:
        self._line(block.text, kind="text")

    def _small(self, block: Block) -> None:
        self._line(block.text, kind="small")

    def _pair(self, block: Block) -> None:
        label, value = block.text, block.value
        if self.rtl or not printable(label + value):
            self._picture(glyphs.line_image(label, value or " ", **self._drawn("text")))
            return
        self._style()
        if len(label) + len(value) + 1 <= self.columns:
            self.out.text(label + " " * (self.columns - len(label) - len(value)) + value + "\n")
        else:
            for part in textwrap.wrap(label, self.columns) or [""]:
                self.out.text(part + "\n")
            self.out.set(align="right")
            for part in textwrap.wrap(value, self.columns):
                self.out.text(part + "\n")
            self.out.set(align="left")

    def _rule(self, block: Block) -> None:
        self._style()
        self.out.text("-" * self.columns + "\n")

    def _qr(self, block: Block) -> None:
        self._picture(qr_image(block.text, self.dots))

    def _sign(self, block: Block) -> None:
        self._style()
        self.out.text("\n")
        if block.value:
            self._pair(Block("pair", block.text, block.value))
            return
        self.out.text("\n" + "_" * self.columns + "\n")
        self._line(block.text, kind="small")

    def _cut(self, block: Block) -> None:
        self.out.cut()

    # Drawing ------------------------------------------------------------------------------

    def _line(self, value: str, *, kind: str, center: bool = False) -> None:
        if self.rtl or not printable(value):
            self._picture(glyphs.line_image(value, **self._drawn(kind), center=center))
            return
        big = kind == "big"
        self._style(bold=kind in ("title", "big"), big=big, small=kind == "small", center=center)
        width = (
            self.columns // 2 if big else self.columns * 4 // 3 if kind == "small" else self.columns
        )
        for part in textwrap.wrap(value, width) or [""]:
            self.out.text(part + "\n")
        self._style()

    def _drawn(self, kind: str) -> dict:
        return {"width": self.dots, "kind": kind, "language": self.language, "rtl": self.rtl}

    def _style(
        self, *, bold: bool = False, big: bool = False, small: bool = False, center: bool = False
    ) -> None:
        self.out.set(
            align="center" if center else "left",
            font="b" if small else "a",
            bold=bold,
            normal_textsize=not big,
            double_width=big,
            double_height=big,
        )

    def _picture(self, image: Image.Image) -> None:
        self._style()
        self.out.image(image)


def qr_image(url: str, dots: int) -> Image.Image:
    """The link's QR code, centred on a picture as wide as the paper."""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(url)
    code.make(fit=True)
    modules = code.modules_count + 4
    box = max(2, min(8, (dots * 6 // 10) // modules))
    code.box_size = box
    picture = code.make_image().get_image().convert("1")
    canvas = Image.new("1", (dots, picture.height), 1)
    canvas.paste(picture, ((dots - picture.width) // 2, 0))
    return canvas


def receipt_bytes(blocks: list[Block], *, paper: int, language: str) -> bytes:
    """The printer's commands for these blocks, ending with a cut."""
    return Receipt(paper, language).write(blocks)
