"""The printed pages in the reader's language: the schedule and the QR posters, printed to
PDF by Chromium (print media, A4) in Arabic and Japanese, read back from the PDF's text
layer (poppler's pdftotext). The PDFs stay in var/screenshots/print/ to look at."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from tdsystem.structures.models import Level
from tests.browser.conftest import SCREENSHOTS
from tests.fixtures import make_event

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils (pdftotext)"),
]

# What each printed page says in each language, and the English it must not say.
WORDS = {
    "ar": {
        "schedule": ["المستوى", "استراحة", "12.800"],
        "poster": ["ابحث عن مقعدك", "امسح"],
    },
    "ja": {
        "schedule": ["レベル", "ブレイク", "12,800"],
        "poster": ["自分の席を探す", "スマートフォン"],
    },
}
ENGLISH = {"schedule": ["Level", "Break", "Colour up"], "poster": ["Find your seat", "Scan"]}
BIDI_MARKS = re.compile("[\u200e\u200f\u202a-\u202e]")
# The A4 page's printable width at the 12 mm margins, in CSS pixels (96 per inch).
A4_PRINTABLE = (210 - 2 * 12) / 25.4 * 96


def printed(page, url: str, name: str) -> str:
    """The page at `url` printed to PDF; its text as pdftotext reads it."""
    page.goto(url)
    page.emulate_media(media="print")
    # Nothing wider than the paper: a wide table or a long address would be cut off.
    widest = page.evaluate("() => document.documentElement.scrollWidth")
    assert widest <= A4_PRINTABLE + 1, f"{name}: {widest}px on a {A4_PRINTABLE:.0f}px page"
    path = SCREENSHOTS / "print" / f"{name}.pdf"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.pdf(path=str(path), format="A4", print_background=False)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    # pdftotext marks each run's direction (U+202A..U+202C) and spaces the columns out.
    return " ".join(BIDI_MARKS.sub("", text).split())


@pytest.mark.parametrize("lang", ["ar", "ja"])
def test_it_prints_the_schedule_and_the_posters_in_the_readers_language(
    live_server, new_page, lang
):
    event = make_event(600, 600, "B900", 600, 600, 600, 600, 600, name="Hội Mùa Xuân 春")
    Level.objects.filter(structure_id=event.structure_id, kind="break").update(
        note="Colour up the 25s"
    )
    # The page laid out at the paper's width, as Chromium prints it.
    page = new_page({"width": int(A4_PRINTABLE), "height": 1000})
    base = live_server.url

    schedule = printed(page, f"{base}/events/{event.pk}/schedule/?lang={lang}", f"schedule-{lang}")
    for word in WORDS[lang]["schedule"]:
        assert word in schedule, (lang, word, schedule)
    for word in ENGLISH["schedule"]:
        assert word not in schedule, (lang, word, schedule)
    assert "Hội Mùa Xuân 春" in schedule  # the name as typed, in its own order

    for url, name in [
        (f"/events/{event.pk}/seats/poster/?lang={lang}", f"poster-{lang}"),
        (f"/seats/poster/?lang={lang}", f"room-poster-{lang}"),
    ]:
        poster = printed(page, base + url, name)
        for word in WORDS[lang]["poster"]:
            assert word in poster, (name, word, poster)
        for word in ENGLISH["poster"]:
            assert word not in poster, (name, word, poster)
        assert "/seats/" in poster  # the address under the QR code, whole, left to right
