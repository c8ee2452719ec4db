"""Nobody who shares the director's address can lock her out (the device cookie).

A good login leaves a signed cookie naming the user in the browser. Attempts for that
name from that browser are counted on their own: wrong passwords typed for the director
on any other device (the laptop's other browser, a phone behind the venue's router, every
client behind a proxy) lock that name out of unknown devices only. Five wrong passwords
typed on the director's own device lock that device (and a one-time code still gets her
in: test_login_code.py).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import signing
from django.test import Client, override_settings
from django.utils import timezone

from tdsystem.core import devices
from tests.personas import PASSWORD

pytestmark = pytest.mark.django_db

ROUTER = "192.168.1.1"


def attempt(client, username: str, password: str, **meta):
    meta.setdefault("REMOTE_ADDR", ROUTER)
    return client.post("/login/", {"username": username, "password": password}, **meta)


def fail(client, username: str, times: int, **meta) -> None:
    for _ in range(times):
        assert attempt(client, username, "wrong", **meta).status_code in (200, 429)


def known_device(username: str = "dora", **meta) -> Client:
    """A browser that has logged in as the name once (and logged out again)."""
    browser = Client()
    assert attempt(browser, username, PASSWORD, **meta).status_code == 302
    log_out(browser)
    return browser


def log_out(browser: Client) -> None:
    """The logout page: the session ends, the device cookie stays (the test client's own
    logout() would drop every cookie)."""
    browser.post("/logout/")
    assert "_auth_user_id" not in browser.session


def test_a_good_login_gives_the_browser_a_signed_cookie_naming_the_user(client, director):
    response = attempt(client, "dora", PASSWORD)
    cookie = response.cookies[devices.COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) == 365 * 24 * 3600
    named = signing.loads(cookie.value, salt=devices.SALT)
    assert list(named) == ["dora"]


def test_the_correct_password_from_a_known_device_is_never_locked_out(director):
    laptop = known_device()
    stranger = Client()  # the same address: the laptop's other browser, or the router
    fail(stranger, "dora", 10)
    assert attempt(stranger, "dora", PASSWORD).status_code == 429
    response = attempt(laptop, "dora", PASSWORD)
    assert response.status_code == 302
    assert laptop.session["_auth_user_id"] == str(director.pk)


def test_without_the_cookie_the_same_address_is_locked_out(director):
    """What the cookie ends: a laptop that has not logged in before is refused too."""
    stranger, laptop = Client(), Client()
    fail(stranger, "dora", 5)
    assert attempt(laptop, "dora", PASSWORD).status_code == 429


@override_settings(TRUSTED_PROXY_COUNT=0)
def test_behind_a_proxy_every_client_shares_one_address_and_the_device_still_gets_in(director):
    proxy = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.9"}
    laptop = known_device(**proxy)
    fail(Client(), "dora", 20, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert attempt(laptop, "dora", PASSWORD, **proxy).status_code == 302


def test_a_known_devices_failures_count_against_that_device_only(director):
    laptop = known_device()
    fail(laptop, "dora", 5)
    assert attempt(laptop, "dora", PASSWORD).status_code == 429  # its own lockout
    assert attempt(Client(), "dora", PASSWORD).status_code == 302  # same address, no cookie
    elsewhere = known_device(REMOTE_ADDR="10.0.0.7")  # another known device of hers
    assert attempt(elsewhere, "dora", PASSWORD).status_code == 302


def test_a_known_device_is_counted_by_its_cookie_from_any_address(director):
    laptop = known_device()
    for n in range(5):
        attempt(laptop, "dora", "wrong", REMOTE_ADDR=f"10.0.0.{n + 1}")
    assert attempt(laptop, "dora", PASSWORD, REMOTE_ADDR="10.0.0.99").status_code == 429


def test_the_cookie_counts_only_for_the_names_it_carries(director, floor_person):
    tablet = known_device("fred")  # the floor's tablet knows fred, not dora
    fail(Client(), "dora", 5)
    assert attempt(tablet, "dora", PASSWORD).status_code == 429
    assert attempt(tablet, "fred", PASSWORD).status_code == 302


def test_one_browser_remembers_each_name_it_logged_in_as(director, floor_person):
    tablet = known_device("fred")
    assert attempt(tablet, "dora", PASSWORD).status_code == 302
    log_out(tablet)
    named = signing.loads(tablet.cookies[devices.COOKIE].value, salt=devices.SALT)
    assert set(named) == {"fred", "dora"}
    fail(Client(), "fred", 5)
    fail(Client(), "dora", 5)
    assert attempt(tablet, "fred", PASSWORD).status_code == 302
    log_out(tablet)
    assert attempt(tablet, "dora", PASSWORD).status_code == 302


def test_a_forged_cookie_counts_as_an_unknown_device(director):
    forger = Client()
    forger.cookies[devices.COOKIE] = signing.dumps({"dora": "guess"}, salt="another salt")
    fail(Client(), "dora", 5)
    assert attempt(forger, "dora", PASSWORD).status_code == 429
    forger.cookies[devices.COOKIE] = "garbage"
    assert attempt(forger, "dora", PASSWORD).status_code == 429


def test_a_cookie_older_than_a_year_counts_as_an_unknown_device(director):
    with time_machine.travel(timezone.now() - timedelta(days=366), tick=False):
        laptop = known_device()
    fail(Client(), "dora", 5)
    assert attempt(laptop, "dora", PASSWORD).status_code == 429


def test_a_good_login_from_a_known_device_leaves_the_lockout_of_unknown_ones(director):
    laptop = known_device()
    fail(Client(), "dora", 5)
    assert attempt(laptop, "dora", PASSWORD).status_code == 302
    assert attempt(Client(), "dora", PASSWORD).status_code == 429
