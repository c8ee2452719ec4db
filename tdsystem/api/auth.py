"""Staff writes need an API token (`Authorization: Bearer td_...`) whose user has the
operation's right, on the event the route names (its staff, or a superuser). A session
cookie never authorises a write, so the API has no CSRF hole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from ninja.security.http import HttpAuthBase

from tdsystem.core.access import (
    has_right,
    refusal_record,
    refusal_text,
    route_allowed,
    route_event,
    user_from_bearer,
)

from .errors import Refused

if TYPE_CHECKING:
    # A token's user is a row of AUTH_USER_MODEL, the default User (as for Actor).
    from django.contrib.auth.models import User


class AuthedRequest(HttpRequest):
    """The request of an operation behind a StaffToken, for annotations: ninja sets
    `auth` to what the authenticator returned (the token's user) on Django's own request,
    an attribute Django's type of the request does not know."""

    auth: User


def refuse(request: HttpRequest, user: User, right: str, event: int | None = None) -> Refused:
    """The 403 for `user`, written to the audit log as a refused page is."""
    refusal_record(request, right, user=user, event=event)
    return Refused(refusal_text(user))


def require_right(request: AuthedRequest, right: str, event: int | None) -> None:
    """Refuse (403, logged) unless the token's user has the right on the event: for an
    event named in the body rather than the path, or a right beyond the route's."""
    if not has_right(request.auth, right, event=event):
        raise refuse(request, request.auth, right, event=event)


class StaffToken(HttpAuthBase):
    """A bearer token with a staff right: 401 without a valid one, 403 without the right
    (an untied table device is told why), on the event of the route's path when it names
    one. The token's user is `request.auth`."""

    openapi_scheme = "bearer"
    openapi_description = (
        "A staff API token, from /console/tokens/ or `manage.py create_api_token`; a "
        "session cookie does not authorise API writes. On an event, its user must be on "
        "the event's staff (or a superuser)."
    )

    def __init__(self, right: str) -> None:
        super().__init__()
        self.right = right

    def __call__(self, request: HttpRequest) -> User | None:
        user = user_from_bearer(request)
        if user is None:
            return None  # ninja answers 401
        event = route_event(request)
        if not route_allowed(user, self.right, event):
            raise refuse(request, user, self.right, event=event)
        return user
