"""Known devices: nobody who shares the director's address can lock her out.

django-axes counts failed logins per user name and client address. Behind the venue's
router, or on the laptop itself, everyone shares an address, so five wrong passwords
typed by anyone for "director" would refuse the director too. The OWASP "device cookie"
scheme ends that: a successful login gives the browser a signed, long-lived cookie naming
the user. A login attempt for a name the cookie carries is that device's own: its
failures count against that device alone (wherever it connects from), and a lockout of
the name from unknown devices does not touch it.

This is django-axes configured, not reimplemented: `attempt_name` is its
AXES_USERNAME_CALLABLE (an attempt from a known device is kept under the name and the
device, `dora [device 3kq…]`) and `lockout_parameters` its AXES_LOCKOUT_PARAMETERS (a
known device's attempts are counted by that key alone, an unknown device's by the name
and the address, as before).
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse

COOKIE = "td_device"
SALT = "tdsystem.core.devices"
LIFETIME = timedelta(days=365)
# The names one browser remembers: a tablet handed round the floor has a few users.
MAX_NAMES = 10
# What makes a device's attempts its own in django-axes's records; a user name never ends
# like this (Django's names are letters, digits and @.+-_; the login form takes 150
# characters at most, and the device's part is random and secret).
_MARK = " [device "


def _known(request: HttpRequest) -> dict[str, str]:
    """The names this browser logged in as, each with the device's secret id for it; empty
    when the cookie is missing, forged or older than a year."""
    raw = request.COOKIES.get(COOKIE)
    if not raw:
        return {}
    try:
        value = signing.loads(raw, salt=SALT, max_age=LIFETIME)
    except signing.BadSignature:  # expired too
        return {}
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}


def device_key(name: str, device_id: str) -> str:
    return f"{name}{_MARK}{device_id}]"


def device_keys_prefix(name: str) -> str:
    """Where every device's records of this name start (to clear them all at once)."""
    return f"{name}{_MARK}"


def _typed(request: HttpRequest, credentials: dict | None) -> tuple[str | None, str | None]:
    """The name typed, and the device's id for it when this browser has logged in as it."""
    field = getattr(settings, "AXES_USERNAME_FORM_FIELD", "username")  # django-axes's default
    if credentials and credentials.get(field) is not None:
        name = credentials[field]
    else:
        name = getattr(request, "POST", {}).get(field)
    if not name:
        return name, None
    return name, _known(request).get(name)


def attempt_name(request: HttpRequest, credentials: dict | None = None) -> str | None:
    """django-axes's user name of an attempt: the name typed, or the name and the device
    when this browser has logged in as that name before."""
    name, device_id = _typed(request, credentials)
    return device_key(name, device_id) if name and device_id else name


def lockout_parameters(request_or_attempt, credentials: dict | None = None) -> list:
    """A known device's attempts are counted by its own key, from any address; an unknown
    device's by the name and the address together (behind one router, one person's typos
    must not lock out colleagues on their own names)."""
    if isinstance(request_or_attempt, HttpRequest):
        known = _typed(request_or_attempt, credentials)[1] is not None
    else:  # one of django-axes's AccessAttempt rows (its cache handler asks so)
        known = _MARK in (request_or_attempt.username or "")
    return ["username"] if known else [["username", "ip_address"]]


def device_remember(request: HttpRequest, response: HttpResponse, name: str) -> None:
    """After a good login: the browser keeps (or gets) its device id for this name."""
    known = _known(request)
    device_id = known.pop(name, None) or secrets.token_urlsafe(16)
    known[name] = device_id  # the newest last; the oldest names go first past the limit
    kept = dict(list(known.items())[-MAX_NAMES:])
    response.set_cookie(
        COOKIE,
        signing.dumps(kept, salt=SALT, compress=True),
        max_age=int(LIFETIME.total_seconds()),
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
