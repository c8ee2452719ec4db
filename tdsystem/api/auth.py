"""Staff writes need an API token (`Authorization: Bearer td_...`) whose user has the
operation's right. A session cookie never authorises a write, so the API has no CSRF hole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from ninja.security.http import HttpAuthBase

from tdsystem.core.access import has_right, refusal_record, refusal_text, user_from_bearer

from .errors import Refused

if TYPE_CHECKING:
    # A token's user is a row of AUTH_USER_MODEL, the default User (as for Actor).
    from django.contrib.auth.models import User


class AuthedRequest(HttpRequest):
    """The request of an operation behind a StaffToken, for annotations: ninja sets
    `auth` to what the authenticator returned (the token's user) on Django's own request,
    an attribute Django's type of the request does not know."""

    auth: User


def refuse(request: HttpRequest, user: User, right: str) -> Refused:
    """The 403 for `user`, written to the audit log as a refused page is."""
    refusal_record(request, right, user=user)
    return Refused(refusal_text(user))


class StaffToken(HttpAuthBase):
    """A bearer token with a staff right: 401 without a valid one, 403 without the right
    (an untied table device is told why). The token's user is `request.auth`."""

    openapi_scheme = "bearer"
    openapi_description = (
        "A staff API token, from /console/tokens/ or `manage.py create_api_token`; a "
        "session cookie does not authorise API writes."
    )

    def __init__(self, right: str) -> None:
        super().__init__()
        self.right = right

    def __call__(self, request: HttpRequest) -> User | None:
        user = user_from_bearer(request)
        if user is None:
            return None  # ninja answers 401
        if not has_right(user, self.right):
            raise refuse(request, user, self.right)
        return user
