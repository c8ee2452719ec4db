"""Ten wrong passwords for one name at the same moment, on PostgreSQL with threads.

With a limit of five, at most five are checked against the password: the attempts for one
name from one device take turns, so the sixth sees five failures and is refused, and the
right password is refused afterwards. Another user on the same address still logs in.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tdsystem.core import auth_views
from tests.concurrency.threads import errors_of, run_together
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUTER = "192.168.1.1"


def attempt(username: str, password: str) -> int:
    response = Client().post(
        "/login/", {"username": username, "password": password}, REMOTE_ADDR=ROUTER
    )
    return response.status_code


def checked_passwords(monkeypatch) -> list[str]:
    """Record every password the model backend is asked to check."""
    from django.contrib.auth.backends import ModelBackend

    seen: list[str] = []
    real = ModelBackend.authenticate

    def counting(self, request, username=None, password=None, **kwargs):
        seen.append(password)
        return real(self, request, username=username, password=password, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", counting)
    return seen


def test_it_checks_parallel_guesses_no_more_often_than_the_limit(monkeypatch):
    make_user("dora", "director")
    make_user("fred", "floor")
    seen = checked_passwords(monkeypatch)
    results = run_together(*[lambda: attempt("dora", "wrong") for _ in range(10)])
    assert errors_of(results) == []
    assert len(seen) == 5, seen
    assert sorted(results) == [200] * 4 + [429] * 6
    assert attempt("dora", PASSWORD) == 429
    assert attempt("fred", PASSWORD) == 302


def test_it_lets_parallel_guesses_past_the_limit_without_the_turns(monkeypatch):
    """The race is real: without the turns, all ten pass the check before any failure is
    recorded, so ten passwords are tried. The count still locks the name afterwards."""
    from contextlib import nullcontext

    make_user("dora", "director")
    monkeypatch.setattr(auth_views, "login_turn", lambda username, ip: nullcontext())
    seen = checked_passwords(monkeypatch)
    from django.contrib.auth.hashers import get_hasher

    hasher = type(get_hasher())  # the suite's (tests/conftest.py)
    real_verify = hasher.verify

    def slow_verify(self, password, encoded):
        import time

        time.sleep(0.3)  # widen the window between the limit check and the record
        return real_verify(self, password, encoded)

    monkeypatch.setattr(hasher, "verify", slow_verify)
    results = run_together(*[lambda: attempt("dora", "wrong") for _ in range(10)])
    assert errors_of(results) == []
    assert len(seen) > 5
    assert attempt("dora", PASSWORD) == 429


def test_parallel_guesses_from_the_address_leave_a_known_device_in():
    """Ten wrong passwords for the director at once, from the address her laptop shares:
    the name is locked on unknown devices, and her laptop (its device cookie) still logs in."""
    make_user("dora", "director")
    laptop = Client()
    assert (
        laptop.post(
            "/login/", {"username": "dora", "password": PASSWORD}, REMOTE_ADDR=ROUTER
        ).status_code
        == 302
    )
    laptop.post("/logout/")
    results = run_together(*[lambda: attempt("dora", "wrong") for _ in range(10)])
    assert errors_of(results) == []
    assert sorted(results) == [200] * 4 + [429] * 6
    assert attempt("dora", PASSWORD) == 429
    again = laptop.post("/login/", {"username": "dora", "password": PASSWORD}, REMOTE_ADDR=ROUTER)
    assert again.status_code == 302
