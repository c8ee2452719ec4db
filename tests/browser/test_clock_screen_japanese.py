"""A venue TV set up with ?lang=ja: the clock screen follows a pause and a level change in
Japanese, its numbers grouped for the locale (docs/languages.md)."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings

from tdsystem.core.actors import Actor
from tdsystem.events import services
from tdsystem.events.services import event_create
from tdsystem.structures.services import structure_create
from tests.browser.conftest import PHONE, TV, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ACTOR = Actor(label="test")
JAPANESE = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")
ARABIC_INDIC = re.compile("[\u0660-\u0669\u06f0-\u06f9]")


def big_blind_event(name: str):
    levels = [
        {"small_blind": 500, "big_blind": 1000, "ante": 1000, "duration_seconds": 600},
        {"small_blind": 1000, "big_blind": 2000, "ante": 2000, "duration_seconds": 600},
        {"small_blind": 2500, "big_blind": 5000, "ante": 5000, "duration_seconds": 600},
    ]
    template, _ = structure_create(name=f"{name} levels", levels=levels, confirm_warnings=True)
    return event_create(name=name, template=template, actor=ACTOR, buy_in=Decimal("100"))


def japanese_compiled() -> bool:
    return (Path(settings.BASE_DIR) / "locale/ja/LC_MESSAGES/djangojs.mo").exists()


def test_the_japanese_screen_follows_a_pause_and_a_level_change(live_server, new_page):
    event = big_blind_event("日曜ディープスタック")
    services.clock_action(event_id=event.pk, action="start", actor=ACTOR)
    screen = new_page(TV)
    asked = []
    screen.on(
        "request", lambda r: "/api/" in r.url and asked.append(r.headers.get("accept-language"))
    )
    screen.goto(f"{live_server.url}/events/{event.pk}/clock/?lang=ja")
    screen.wait_for_function("document.body.classList.contains('running')")
    assert screen.evaluate("document.documentElement.lang") == "ja"
    assert screen.evaluate("document.documentElement.dir") == "ltr"
    assert screen.locator("#bb").inner_text() == "1,000"
    assert screen.locator("h1 bdi").inner_text() == "日曜ディープスタック"
    assert asked and set(asked) == {"ja"}  # the JSON's words in the page's language

    services.clock_action(event_id=event.pk, action="pause", actor=ACTOR)
    screen.wait_for_function("document.body.classList.contains('paused')", timeout=3000)
    paused = screen.evaluate("gettext('Paused')")
    screen.wait_for_function(
        "(word) => document.getElementById('status').textContent === word", arg=paused
    )

    services.clock_action(event_id=event.pk, action="next", actor=ACTOR)
    level = screen.evaluate("interpolate(gettext('Level %(n)s'), {n: 2}, true)")
    screen.wait_for_function(
        "(text) => document.getElementById('level-label').textContent === text",
        arg=level,
        timeout=3000,
    )
    assert screen.locator("#bb").inner_text() == "2,000"
    assert screen.locator("#next").inner_text() == "2,500 / 5,000"
    screenshot(screen, "clock-screen-ja-tv")
    if japanese_compiled():
        # The translations are in: the screen speaks Japanese, not English.
        assert JAPANESE.search(paused) and screen.locator("#status").inner_text() == paused
        assert JAPANESE.search(screen.locator("#level-label").inner_text())


def test_the_arabic_screen_reads_right_to_left_in_western_digits(live_server, new_page):
    event = big_blind_event("نور")
    services.clock_action(event_id=event.pk, action="start", actor=ACTOR)
    for size, name in ((TV, "tv"), (PHONE, "phone")):
        screen = new_page(size)
        screen.goto(f"{live_server.url}/events/{event.pk}/clock/?lang=ar")
        screen.wait_for_function("window.tdClock && window.tdClock.data")
        assert screen.evaluate("document.documentElement.dir") == "rtl"
        for selector in ("#bb", "#sb", "#time", "#time-of-day", "#next"):
            assert not ARABIC_INDIC.search(screen.locator(selector).inner_text()), selector
        # The script groups as the page's server-side filter does (Django's Arabic formats).
        assert screen.locator("#bb").inner_text() == "1.000"
        assert screen.locator("#next").inner_text() == "1.000 / 2.000"
        screenshot(screen, f"clock-screen-ar-{name}")
