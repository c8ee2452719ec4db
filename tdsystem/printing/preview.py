"""The paper a receipt printer would give for some ESC/POS bytes, as a picture and as text.

It reads the commands receipts.py sends (python-escpos writes them) as an 80 mm or 58 mm
printer at 203 dpi does: text in Font A (12 x 24 dots) or Font B (9 x 17), bold, double
size, alignment, the code page, raster pictures (GS v 0), feeds and cuts. The printer's
own fonts are stood in for by the machine's monospaced font, so the letters' shapes differ
from a real printer's, their places do not. A command it does not know stops it with an
error rather than draw something the printer would not: the tests read every document's
bytes through it (the text for what a document says, the picture for its QR code), and the
pictures in docs/printing.md are made by it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from . import glyphs
from .receipts import DOTS

ESC, GS, DLE, LF = 0x1B, 0x1D, 0x10, 0x0A
FONTS = {0: (12, 24), 1: (9, 17)}  # Font A, Font B: cell width and height in dots
LINE_GAP = 6
# ESC t n: the code pages python-escpos may select, as Python codecs.
CODE_PAGES = {0: "cp437", 2: "cp850", 16: "cp1252", 19: "cp858"}
CUT_GAP = 40


class UnknownCommand(ValueError):
    pass


@dataclass
class _Style:
    align: int = 0
    bold: bool = False
    font: int = 0
    width: int = 1
    height: int = 1
    codec: str = "cp437"


@dataclass
class Paper:
    """What came out: a picture per cut piece of paper and the text printed as text."""

    dots: int
    pieces: list[Image.Image] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    cuts: int = 0

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def image(self) -> Image.Image:
        """Every piece one under the other, a dashed line where the paper was cut."""
        height = sum(p.height for p in self.pieces) + CUT_GAP * max(0, len(self.pieces) - 1)
        sheet = Image.new("L", (self.dots + 40, height + 40), 230)
        y = 20
        draw = ImageDraw.Draw(sheet)
        for index, piece in enumerate(self.pieces):
            sheet.paste(piece.convert("L"), (20, y))
            y += piece.height
            if index < len(self.pieces) - 1:
                mid = y + CUT_GAP // 2
                for x in range(0, self.dots + 40, 16):
                    draw.line([(x, mid), (x + 8, mid)], fill=120, width=2)
                y += CUT_GAP
        return sheet


class _Printer:
    def __init__(self, dots: int) -> None:
        self.paper = Paper(dots)
        self.style = _Style()
        self.rows: list[Image.Image] = []  # the current piece of paper, line by line
        self.line: list[tuple[str, _Style]] = []

    # Text ---------------------------------------------------------------------------------

    def char(self, byte: int) -> None:
        letter = bytes([byte]).decode(self.style.codec, errors="replace")
        cell = FONTS[self.style.font][0] * self.style.width
        if self._width() + cell > self.paper.dots:
            self.feed()  # the printer wraps a line at the paper's edge
        self.line.append((letter, _Style(**vars(self.style))))

    def _width(self) -> int:
        return sum(FONTS[s.font][0] * s.width for _, s in self.line)

    def feed(self) -> None:
        """LF: print the line (an empty one is a line's height of paper)."""
        style = self.line[0][1] if self.line else self.style
        height = max([FONTS[s.font][1] * s.height for _, s in self.line] or [FONTS[style.font][1]])
        row = Image.new("1", (self.paper.dots, height + LINE_GAP), 1)
        width = self._width()
        x = {0: 0, 1: (self.paper.dots - width) // 2, 2: self.paper.dots - width}[style.align]
        draw = ImageDraw.Draw(row)
        for letter, s in self.line:
            cell_w, cell_h = FONTS[s.font]
            face = glyphs.font("en", int(cell_h * s.height * 0.82), bold=s.bold, mono=True)
            draw.text((x, height - cell_h * s.height), letter, font=face, fill=0)
            x += cell_w * s.width
        self.rows.append(row)
        self.paper.lines.append("".join(letter for letter, _ in self.line).rstrip())
        self.line = []

    def picture(self, image: Image.Image) -> None:
        if self.line:
            self.feed()
        self.rows.append(image)

    def cut(self) -> None:
        if self.line:
            self.feed()
        height = sum(r.height for r in self.rows)
        piece = Image.new("1", (self.paper.dots, max(height, 1)), 1)
        y = 0
        for row in self.rows:
            piece.paste(row, (0, y))
            y += row.height
        self.paper.pieces.append(piece)
        self.paper.cuts += 1
        self.rows = []


def read(data: bytes, *, paper: int = 80) -> Paper:
    """The paper these bytes print on a printer of this paper width."""
    printer = _Printer(DOTS.get(paper, DOTS[80]))
    i = 0
    while i < len(data):
        byte = data[i]
        if byte == LF:
            printer.feed()
            i += 1
        elif byte == ESC:
            i = _esc(printer, data, i)
        elif byte == GS:
            i = _gs(printer, data, i)
        elif byte == DLE and data[i + 1 : i + 2] == b"\x04":
            i += 3  # a status request: nothing on paper
        elif byte >= 0x20:
            printer.char(byte)
            i += 1
        else:
            raise UnknownCommand(f"byte {byte:#04x} at {i}")
    if printer.rows or printer.line:
        printer.cut()  # paper printed but not cut: still shown
        printer.paper.cuts -= 1
    return printer.paper


def _esc(printer: _Printer, data: bytes, i: int) -> int:
    command, arg = data[i + 1], data[i + 2] if i + 2 < len(data) else 0
    style = printer.style
    if command == 0x40:  # ESC @: initialise
        printer.style = _Style()
        return i + 2
    if command == 0x74:  # ESC t n: code page
        if arg not in CODE_PAGES:
            raise UnknownCommand(f"code page {arg}")
        style.codec = CODE_PAGES[arg]
    elif command == 0x21:  # ESC ! n: print mode
        style.font = arg & 1
        style.bold = bool(arg & 0x08)
        style.height = 2 if arg & 0x10 else 1
        style.width = 2 if arg & 0x20 else 1
    elif command == 0x45:  # ESC E n: bold
        style.bold = bool(arg & 1)
    elif command == 0x4D:  # ESC M n: font
        style.font = arg & 1
    elif command == 0x61:  # ESC a n: alignment
        style.align = arg % 48 if arg >= 48 else arg
    elif command == 0x2D:  # ESC - n: underline (not drawn)
        pass
    elif command == 0x64:  # ESC d n: print and feed n lines
        if printer.line:
            printer.feed()
        for _ in range(arg):
            printer.feed()
    else:
        raise UnknownCommand(f"ESC {command:#04x} at {i}")
    return i + 3


def _gs(printer: _Printer, data: bytes, i: int) -> int:
    command = data[i + 1]
    if command == 0x21:  # GS ! n: character size
        n = data[i + 2]
        printer.style.width, printer.style.height = (n >> 4) + 1, (n & 0x0F) + 1
        return i + 3
    if command == 0x56:  # GS V m [n]: cut
        printer.cut()
        return i + 4 if data[i + 2] in (65, 66, 97, 98) else i + 3
    if command == 0x76 and data[i + 2] == 0x30:  # GS v 0 m xL xH yL yH d1...dk: raster
        width_bytes = data[i + 4] + 256 * data[i + 5]
        height = data[i + 6] + 256 * data[i + 7]
        start = i + 8
        end = start + width_bytes * height
        bits = bytes(b ^ 0xFF for b in data[start:end])  # 1 is a black dot on paper
        image = Image.frombytes("1", (width_bytes * 8, height), bits)
        if image.width > printer.paper.dots:
            image = image.crop((0, 0, printer.paper.dots, height))
        row = Image.new("1", (printer.paper.dots, height), 1)
        row.paste(image, (0, 0))
        printer.picture(row)
        return end
    raise UnknownCommand(f"GS {command:#04x} at {i}")
