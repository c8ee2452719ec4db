"""Text drawn as a picture: for the lines a receipt printer's own fonts cannot print.

A receipt printer prints text in one of its code pages (receipts.py prints CP858, Western
Europe with the euro sign). A line in another script (Arabic, Japanese, most Vietnamese
words) is drawn here with the machine's own fonts, as fontconfig finds them for the
script, and printed as a picture (ESC/POS raster). Arabic is shaped and laid right to left
by Pillow's raqm layout.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import unicodedata

from PIL import Image, ImageDraw, ImageFont

# Dot heights of the three sizes of line (the printer's Font A is 24 dots high).
SIZES = {"small": 18, "text": 22, "title": 22, "big": 44}
PAD = 4  # dots above and below a line, as the printer's own line spacing leaves
INK = 200  # a dot is printed where the drawn text is darker than this (0 black, 255 white)


def script_of(text: str, language: str) -> str:
    """The language whose font draws `text`: its own script's when it has one the
    language's font may lack (CJK, Arabic), else the document's language."""
    for ch in text:
        name = unicodedata.name(ch, "")
        if name.startswith(("CJK", "HIRAGANA", "KATAKANA")):
            return "ja"
        if name.startswith("ARABIC"):
            return "ar"
    return language


@functools.cache
def font_file(language: str, *, bold: bool = False, mono: bool = False) -> tuple[str, int] | None:
    """(file, index) of the machine's font for the language, or None without fontconfig."""
    if not shutil.which("fc-match"):
        return None
    family = "monospace" if mono else "sans-serif"
    pattern = f"{family}:lang={language}" + (":weight=bold" if bold else "")
    try:
        found = subprocess.run(
            ["fc-match", "-f", "%{file}|%{index}", pattern],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    path, _, index = found.partition("|")
    return (path, int(index or 0)) if path else None


@functools.cache
def font(language: str, size: int, *, bold: bool = False, mono: bool = False):
    found = font_file(language, bold=bold, mono=mono)
    if found is None:
        return ImageFont.load_default(size)
    path, index = found
    return ImageFont.truetype(path, size, index=index)


def line_image(
    start: str,
    end: str = "",
    *,
    width: int,
    kind: str = "text",
    language: str = "en",
    rtl: bool = False,
    center: bool = False,
) -> Image.Image:
    """One line (wrapped into as many as it needs) as a 1-bit picture `width` dots wide:
    `start` at the line's start, `end` at its end (right and left for right-to-left)."""
    size = SIZES.get(kind, SIZES["text"])
    bold = kind in ("title", "big")
    face = font(script_of(start + end, language), size, bold=bold)
    direction = "rtl" if rtl else "ltr"
    lines = _wrap(start, face, width, direction) if not end else [start]
    # A line is as tall as the font's ascent and descent (not its size): a comma's tail
    # or a "g" reaches below the size's box in the CJK fonts.
    step = sum(face.getmetrics()) + 2 * PAD
    height = step * (len(lines) + (1 if end and _too_wide(start, end, face, width) else 0))
    # Drawn in grey and then made black and white with a light threshold: drawn straight
    # onto 1-bit, a font's thin strokes (the tail of a comma) fall between the dots.
    image = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(image)
    y = PAD
    for line in lines:
        length = draw.textlength(line, font=face, direction=direction)
        x = (width - length) / 2 if center else width - length if rtl else 0
        draw.text((x, y), line, font=face, fill=0, direction=direction)
        y += step
    if end:
        if _too_wide(start, end, face, width):
            pass  # the value goes on a line of its own below
        else:
            y -= step
        length = draw.textlength(end, font=face, direction=direction)
        x = 0 if rtl else width - length
        draw.text((x, y), end, font=face, fill=0, direction=direction)
    return image.point(lambda grey: 255 if grey > INK else 0, mode="1")


def _too_wide(start: str, end: str, face, width: int) -> bool:
    probe = ImageDraw.Draw(Image.new("1", (1, 1)))
    room = probe.textlength(start, font=face) + probe.textlength(end, font=face) + 16
    return room > width


def _wrap(text: str, face, width: int, direction: str) -> list[str]:
    """Words onto lines no wider than the paper (CJK text breaks between any two letters)."""
    probe = ImageDraw.Draw(Image.new("1", (1, 1)))
    pieces = (
        text.split(" ") if " " in text else list(text) if script_of(text, "") == "ja" else [text]
    )
    joiner = " " if " " in text else ""
    lines: list[str] = []
    line = ""
    for piece in pieces:
        tried = f"{line}{joiner}{piece}" if line else piece
        if line and probe.textlength(tried, font=face, direction=direction) > width:
            lines.append(line)
            line = piece
        else:
            line = tried
    return [*lines, line] if line or not lines else lines
