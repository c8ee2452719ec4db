"""Who may do what. Roles are Django groups; superusers are directors.

A director or floor account acts on the events it is staff of (`EventStaff`), with the
role its place there gives it; a superuser acts on every event. Every check goes through
`has_right`: a console page or an API route with an event in its path (`event_id`) is
checked against that event by `staff_required` and the API's `StaffToken`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from functools import wraps

from django.apps import apps
from django.contrib.auth.views import redirect_to_login
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from .actors import Actor
from .log import Text, log_record
from .models import ApiToken, EventStaff, LogEntry, hash_token
from .transactions import outside_write

DIRECTOR = "director"
FLOOR = "floor"
TABLE = "table"
ROLES = (DIRECTOR, FLOOR, TABLE)
# The roles an event's staff have; a table device is tied to a venue table instead.
STAFF_ROLES = frozenset({DIRECTOR, FLOOR})
_RANK = {FLOOR: 1, DIRECTOR: 2}
# What only a superuser may do: other people's API tokens, superusers' accounts.
SUPERUSER = "superuser"
# The name of the path parameter that says which event a route acts on.
EVENT_PARAM = "event_id"
# What a 64-bit id column holds: a path's id beyond it names no row.
ID_RANGE = range(-(2**63), 2**63)

# What each role may do; a director may do everything.
RIGHTS = {
    DIRECTOR: {"console", "clock", "clock.pause", "events", "seating", "bustout", "ruling"},
    FLOOR: {"console", "clock.pause", "seating", "bustout", "ruling"},
    TABLE: {"table"},
}


def roles_of(user) -> set[str]:
    """The user's roles. A table login counts as one only once the director has tied it to
    a venue table (seating's TableDevice): untied, it could otherwise act on any table."""
    if not user or not user.is_authenticated:
        return set()
    if user.is_superuser:
        return {DIRECTOR}
    cached = getattr(user, "_td_roles", None)
    if cached is None:
        cached = set(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
        if TABLE in cached and not hasattr(user, "table_device"):
            cached.discard(TABLE)
            user._td_untied = True
        user._td_roles = cached
    return cached


def untied_device(user) -> bool:
    """A table login that no venue table is tied to yet: it may do nothing."""
    roles_of(user)
    return getattr(user, "_td_untied", False)


def refusal_text(user) -> str:
    if untied_device(user):
        return _(
            "This device is not tied to a table yet, so it may do nothing: "
            "ask the director to tie it to its table."
        )
    return _("You do not have the right to do this.")


def refuse(request: HttpRequest, user=None) -> HttpResponse:
    """The 403 for a user without the right; nothing has been changed."""
    user = user or request.user
    if request.path.startswith("/api/"):
        return JsonResponse({"error": refusal_text(user)}, status=403)
    if untied_device(user):
        page = render_to_string(
            "core/untied_device.html", {"message": refusal_text(user)}, request=request
        )
        return HttpResponse(page, status=403)
    return HttpResponse(refusal_text(user), status=403)


def _capped(user, role: str | None) -> str | None:
    """A staff place's role, never more than the account's own: a floor account placed as
    a director acts as floor; an account in neither group, as nothing."""
    account = max((_RANK[r] for r in roles_of(user) if r in _RANK), default=0)
    rank = min(_RANK[role], account) if role in _RANK else 0
    return {1: FLOOR, 2: DIRECTOR}.get(rank)


def event_role(user, event_id: int) -> str | None:
    """The user's role on an event: a superuser directs every event; a director or floor
    account has the role of its staff place on the event (on the event a flight belongs
    to, for a flight), capped by its account's; anyone else has none. Asked once per
    request and event."""
    if not user or not user.is_authenticated:
        return None
    if user.is_superuser:
        return DIRECTOR
    if event_id not in ID_RANGE:
        return None  # no such event, and SQLite's driver would refuse the number
    known = user.__dict__.setdefault("_td_event_roles", {})
    if event_id not in known:
        place = (
            EventStaff.objects.filter(user=user)
            .filter(Q(event_id=event_id) | Q(event__flights__id=event_id))
            .values_list("role", flat=True)
            .first()
        )
        known[event_id] = _capped(user, place)
    return known[event_id]


def staff_event_roles(user) -> dict[int, str] | None:
    """The user's role on each event it is staff of, by the event's id (a flight has its
    event's: look it up by `parent_id`); None for a superuser, who directs them all."""
    if user.is_superuser:
        return None
    places = EventStaff.objects.filter(user=user).values_list("event_id", "role")
    capped = {event_id: _capped(user, place) for event_id, place in places}
    return {event_id: role for event_id, role in capped.items() if role}


def has_right(user, right: str, event: int | None = None) -> bool:
    """Whether the user has the right; on an event (its id), as that event's staff."""
    roles = roles_of(user)
    if event is not None and roles & STAFF_ROLES and not user.is_superuser:
        role = event_role(user, event)
        roles = (roles - STAFF_ROLES) | ({role} if role else set())
    return any(role_may(role, right) for role in roles)


def role_may(role: str | None, right: str) -> bool:
    """Whether a role has the right (a director has every right)."""
    return role is not None and (role == DIRECTOR or right in RIGHTS[role])


TOKEN_USE_PRECISION = timedelta(minutes=1)


def user_from_bearer(request: HttpRequest):
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        return None
    raw = header.removeprefix("Bearer ").strip()
    token = (
        ApiToken.objects.select_related("user")
        .filter(key_hash=hash_token(raw), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    # The tokens page shows the minute of last use: one write a minute is enough, and
    # spares every API call a write of its own.
    if token.last_used_at is None or now - token.last_used_at >= TOKEN_USE_PRECISION:
        used = ApiToken.objects.filter(pk=token.pk)
        outside_write(request, lambda: used.update(last_used_at=now))
    return token.user


REFUSAL_LOG_QUIET = timedelta(minutes=1)


def refusal_record(request: HttpRequest, right: str, user=None, event: int | None = None) -> None:
    """Write a refused staff action to the audit log: who, which right, the path, and the
    event when the right was refused on one.

    `user` is who asked when it is not the session's (an API token's user). The same
    person refused the same path again within a minute (a retry, a page's poll) is not
    written again, so the log stays readable.
    """
    actor = Actor.of(user or request.user)
    path = request.path[:200]
    if event is not None:
        message = gettext_noop(
            "%(user)s was refused %(method)s %(path)s (needs the right %(right)s on event "
            "%(event)s)"
        )
    else:
        message = gettext_noop(
            "%(user)s was refused %(method)s %(path)s (needs the right %(right)s)"
        )
    params = {"user": actor.label, "method": request.method, "path": path, "right": right}
    summary = Text(message, **params, **({"event": event} if event is not None else {}))
    recent = LogEntry.objects.filter(
        event=None,
        action="access.refused",
        actor=actor.user,
        summary=summary.english()[:300],
        at__gte=timezone.now() - REFUSAL_LOG_QUIET,
    )
    if recent.exists():
        return
    data: dict = {"path": path, "method": request.method, "right": right}
    if event is not None:
        data["event"] = event
    # Kept when the refused request's transaction rolls back (core.writes).
    outside_write(
        request,
        lambda: log_record(
            event=None, actor=actor, action="access.refused", summary=summary, data=data
        ),
    )


def event_missing(event: int | None) -> bool:
    """An event id that names no event: the page or route answers its own 404 rather than
    a refusal (the event's model is named by its label: core imports no app)."""
    if event is None:
        return False
    if event not in ID_RANGE:
        return True
    return not apps.get_model("events", "Event").objects.filter(pk=event).exists()


def route_allowed(user, right: str, event: int | None) -> bool:
    """The check of a page or an API route: the right, on the event its path names. An id
    that names no event is let through to the route's own 404 for whoever has the right
    (on no event: nothing is changed, and nothing learned but what the public pages say)."""
    if has_right(user, right, event=event):
        return True
    return event is not None and has_right(user, right) and event_missing(event)


def event_refusal(request: HttpRequest, right: str, event: int | None) -> HttpResponse | None:
    """None when the session's user has the right (on the event, when one is named); else
    the refusal, written to the audit log: a 403 that changed nothing."""
    if route_allowed(request.user, right, event):
        return None
    refusal_record(request, right, event=event)
    return refuse(request)


def staff_required(right: str) -> Callable:
    """Page decorator: log in first, then 403 without the right (nothing is changed; the
    refusal goes to the audit log). A route with an event in its path (`event_id`) needs
    the right on that event: its staff, or a superuser."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            refused = event_refusal(request, right, kwargs.get(EVENT_PARAM))
            return refused or view(request, *args, **kwargs)

        wrapped.staff_right = right  # type: ignore[attr-defined]
        return wrapped

    return decorator


def route_event(request: HttpRequest) -> int | None:
    """The event a route acts on, named by its path (`event_id`), for checks that do not
    get the view's arguments (the API's authentication)."""
    match = getattr(request, "resolver_match", None)
    value = match.kwargs.get(EVENT_PARAM) if match is not None else None
    return value if isinstance(value, int) else None
