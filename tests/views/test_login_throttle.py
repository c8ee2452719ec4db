"""Failed logins are counted per user name and device together.

Behind the venue's router every tablet and phone has one address: one person's typos
must not lock a colleague out, and nobody can lock a director out by typing her name on
another device. X-Forwarded-For counts only when a proxy is configured.
"""

from __future__ import annotations

import pytest
from django.test import override_settings

from tests.personas import PASSWORD, make_user

pytestmark = pytest.mark.django_db

ROUTER = "192.168.1.1"
LOCKED = "Too many failed logins for this name from this device"


def attempt(client, username: str, password: str, **meta):
    meta.setdefault("REMOTE_ADDR", ROUTER)
    return client.post("/login/", {"username": username, "password": password}, **meta)


def fail(client, username: str, times: int, **meta) -> None:
    for _ in range(times):
        assert attempt(client, username, "wrong", **meta).status_code in (200, 429)


def test_it_locks_a_name_on_one_device_after_five_failures(client, director):
    for _ in range(4):
        assert attempt(client, "dora", "wrong").status_code == 200
    locked = attempt(client, "dora", "wrong")
    assert locked.status_code == 429 and LOCKED in locked.content.decode()
    response = attempt(client, "dora", PASSWORD)
    assert response.status_code == 429
    text = response.content.decode()
    assert LOCKED in text and "try again in 15 minutes or ask the director" in text
    assert "_auth_user_id" not in client.session


def test_it_lets_a_colleague_log_in_behind_the_same_router(client, director, floor_person):
    fail(client, "dora", 8)
    assert attempt(client, "fred", PASSWORD).status_code == 302
    assert client.session["_auth_user_id"] == str(floor_person.pk)


def test_it_does_not_count_everyones_typos_against_the_router(client, director):
    for name in ("ann", "bob", "cat", "dan", "eve", "fay"):
        fail(client, name, 4)  # 24 failures from one address, none locked
    assert attempt(client, "dora", PASSWORD).status_code == 302


def test_it_does_not_let_another_device_lock_a_user_out(client, director):
    fail(client, "dora", 10, REMOTE_ADDR="10.9.9.9")
    assert attempt(client, "dora", PASSWORD, REMOTE_ADDR="192.168.1.20").status_code == 302


def test_it_forgets_the_failures_after_a_good_login(client, director):
    fail(client, "dora", 4)
    assert attempt(client, "dora", PASSWORD).status_code == 302
    client.logout()
    fail(client, "dora", 4)
    assert attempt(client, "dora", PASSWORD).status_code == 302


def test_it_ignores_a_forwarded_address_without_a_proxy(client, director):
    for n in range(6):
        attempt(client, "dora", "wrong", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}")
    assert attempt(client, "dora", PASSWORD, HTTP_X_FORWARDED_FOR="10.0.0.99").status_code == 429


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_it_reads_the_client_address_from_the_proxy_when_one_is_configured(client, director):
    proxy = {"REMOTE_ADDR": "127.0.0.1"}
    fail(client, "dora", 6, HTTP_X_FORWARDED_FOR="10.0.0.5", **proxy)
    # The proxy appends the address it saw; what a client wrote before it is not trusted.
    spoofed = "10.0.0.77, 10.0.0.5"
    refused = attempt(client, "dora", PASSWORD, HTTP_X_FORWARDED_FOR=spoofed, **proxy)
    assert refused.status_code == 429
    another = attempt(client, "dora", PASSWORD, HTTP_X_FORWARDED_FOR="10.0.0.6", **proxy)
    assert another.status_code == 302


def test_it_throttles_the_admin_login_too(client, director):
    for _ in range(5):
        client.post("/admin/login/", {"username": "dora", "password": "wrong"}, REMOTE_ADDR=ROUTER)
    response = client.post(
        "/admin/login/", {"username": "dora", "password": PASSWORD}, REMOTE_ADDR=ROUTER
    )
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_it_keeps_a_locked_name_locked_for_every_password(client, director):
    make_user("table7", "table")
    fail(client, "table7", 5)
    assert attempt(client, "table7", PASSWORD).status_code == 429
