"""Headless Chromium (Debian's) driven by Playwright, against pytest-django's live server."""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
TV = {"width": 1920, "height": 1080}
TV_SMALL = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}


def _wait_for_function(page, expression, *, arg=None, timeout=None, polling=None):
    """Page.wait_for_function, polled from here: Playwright's own polls the predicate with
    eval() inside the page, which the Content-Security-Policy refuses (no 'unsafe-eval');
    page.evaluate goes through the DevTools protocol, which the policy does not govern."""
    import time

    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    wait = 30_000 if timeout is None else timeout or float("inf")  # 0: no timeout
    deadline = time.monotonic() + wait / 1000
    while True:
        result = page.evaluate(expression, arg)
        if result:
            return result
        if time.monotonic() > deadline:
            raise PlaywrightTimeout(f"Timeout {timeout}ms exceeded waiting for {expression!r}")
        page.wait_for_timeout(polling if isinstance(polling, (int, float)) else 50)


@pytest.fixture(scope="session")
def chromium():
    from playwright.sync_api import Page, sync_playwright

    Page.wait_for_function = _wait_for_function
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(chromium):
    """new_page(viewport) -> a page in a fresh context; closed after the test."""
    contexts = []

    def make(viewport: dict | None = None, **kwargs):
        context = chromium.new_context(viewport=viewport or TABLET, **kwargs)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def screenshot(page, name: str, *, full_page: bool = False) -> Path:
    """var/screenshots/<name>.png (a name may hold a folder: "pages/home-tv")."""
    path = SCREENSHOTS / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page)
    return path


def login(page, live_server, username: str, password: str) -> None:
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)
