"""Published blind structures shipped as templates.

Amounts are chips, durations minutes. Each row: (small blind, big blind, ante) for a level,
or ("break", minutes, colour-up note).

The notes are stored in English, as shipped, and marked for the catalogues: the pages show
them in the reader's language (core.templatetags.humanize_td.shipped).
"""

from __future__ import annotations

from django.utils.translation import gettext_noop as _

BREAK = "break"


def _wpt_toc_2018() -> dict:
    rows = [
        (75, 150, 25),
        (100, 200, 25),
        (150, 300, 50),
        (200, 400, 50),
        (BREAK, 15, _("Registration closes")),
        (250, 500, 75),
        (300, 600, 75),
        (BREAK, 75, _("Colour up the 25s")),
        (400, 800, 100),
        (500, 1000, 100),
        (600, 1200, 200),
        (800, 1600, 200),
        (1000, 2000, 300),
        (1200, 2400, 400),
        (BREAK, 15, _("Colour up the 100s")),
        (1500, 3000, 500),
        (2000, 4000, 500),
        (2500, 5000, 500),
        (3000, 6000, 1000),
        (BREAK, 75, _("Colour up the 500s")),
        (4000, 8000, 1000),
        (5000, 10000, 1000),
        (6000, 12000, 2000),
        (8000, 16000, 2000),
        (10000, 20000, 3000),
        (12000, 24000, 4000),
        (BREAK, 15, _("Colour up the 1,000s")),
        # Level 25 is printed "25,000 - 30,000" on the published sheet: a typo for 50,000.
        (15000, 30000, 5000),
        (20000, 40000, 5000),
        (25000, 50000, 5000),
        (30000, 60000, 10000),
        (40000, 80000, 10000),
        (50000, 100000, 15000),
    ]
    return {
        "name": "WPT Tournament of Champions 2018",
        "ante_type": "each",
        "starting_stack": 50_000,
        "notes": _(
            "Traditional ante, 60-minute levels. Registration closes after level 4. "
            "Day 1 ends after level 10."
        ),
        "levels": _levels(rows, 60),
    }


def _wsop_main_2019() -> dict:
    rows = [
        (100, 200, 0),
        (100, 200, 200),
        (200, 300, 300),
        (200, 400, 400),
        (300, 500, 500),
        (300, 600, 600),
    ]
    return {
        "name": "WSOP Main Event 2019 (first levels)",
        "ante_type": "big-blind",
        "starting_stack": 60_000,
        "notes": _("Big blind ante, 120-minute levels. Only levels 1-6 are included."),
        "levels": _levels(rows, 120),
    }


def _ept_barcelona_2006() -> dict:
    rows = [
        (25, 50, 0),
        (50, 100, 0),
        (75, 150, 0),
        (100, 200, 0),
        (150, 300, 0),
        (150, 300, 25),
        (200, 400, 50),
        (300, 600, 75),
        (BREAK, 15, _("Colour up the 25s")),
        (400, 800, 100),
    ]
    return {
        "name": "EPT Barcelona 2006, Day 1",
        "ante_type": "each",
        "starting_stack": 10_000,
        "notes": _(
            "Traditional ante, 60-minute levels. The published sheet colours up the 25s "
            "after level 8 without naming a break length: 15 minutes here."
        ),
        "levels": _levels(rows, 60),
    }


def _button_ante_2018() -> dict:
    bbs = [
        10,
        15,
        20,
        25,
        30,
        40,
        50,
        60,
        80,
        100,
        120,
        150,
        160,
        200,
        250,
        300,
        350,
        400,
        450,
        500,
        520,
        540,
        560,
        580,
        600,
    ]
    rows = []
    for i, bb in enumerate(bbs):
        big = bb * 1000
        rows.append((big // 2, big, 5000 if i == 0 else big))
    return {
        "name": "Button ante main event 2018",
        "ante_type": "button",
        "starting_stack": 1_000_000,
        "notes": _(
            "Published: 25 levels from 5,000/10,000 to 300,000/600,000; the button "
            "antes for the table, 5,000 at level 1 and the big blind from level 2. The levels "
            "in between, the starting stack and the durations were not published: they are "
            "filled in here as a plausible progression with 60-minute levels. Check before use."
        ),
        "levels": _levels(rows, 60),
    }


def _levels(rows: list[tuple], minutes: int) -> list[dict]:
    out = []
    for row in rows:
        if row[0] == BREAK:
            out.append({"kind": "break", "duration_minutes": row[1], "note": row[2]})
        else:
            sb, bb, ante = row
            out.append(
                {
                    "kind": "level",
                    "small_blind": sb,
                    "big_blind": bb,
                    "ante": ante,
                    "duration_minutes": minutes,
                }
            )
    return out


DEMO_STRUCTURE = _wpt_toc_2018
TEMPLATES = [_wpt_toc_2018, _wsop_main_2019, _ept_barcelona_2006, _button_ante_2018]
