"""Who may do what. Roles are Django groups; superusers are directors."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from .actors import Actor
from .log import Text, log_record
from .models import ApiToken, LogEntry, hash_token
from .transactions import outside_write

DIRECTOR = "director"
FLOOR = "floor"
TABLE = "table"
ROLES = (DIRECTOR, FLOOR, TABLE)

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


def has_right(user, right: str) -> bool:
    return any(right in RIGHTS[role] or role == DIRECTOR for role in roles_of(user))


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


def refusal_record(request: HttpRequest, right: str, user=None) -> None:
    """Write a refused staff action to the audit log: who, which right, the path.

    `user` is who asked when it is not the session's (an API token's user). The same
    person refused the same path again within a minute (a retry, a page's poll) is not
    written again, so the log stays readable.
    """
    actor = Actor.of(user or request.user)
    path = request.path[:200]
    summary = Text(
        gettext_noop("%(user)s was refused %(method)s %(path)s (needs the right %(right)s)"),
        user=actor.label,
        method=request.method,
        path=path,
        right=right,
    )
    recent = LogEntry.objects.filter(
        event=None,
        action="access.refused",
        actor=actor.user,
        summary=summary.english()[:300],
        at__gte=timezone.now() - REFUSAL_LOG_QUIET,
    )
    if recent.exists():
        return
    # Kept when the refused request's transaction rolls back (core.writes).
    outside_write(
        request,
        lambda: log_record(
            event=None,
            actor=actor,
            action="access.refused",
            summary=summary,
            data={"path": path, "method": request.method, "right": right},
        ),
    )


def staff_required(right: str) -> Callable:
    """Page decorator: log in first, then 403 without the right (nothing is changed; the
    refusal goes to the audit log)."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not has_right(request.user, right):
                refusal_record(request, right)
                return refuse(request)
            return view(request, *args, **kwargs)

        wrapped.staff_right = right  # type: ignore[attr-defined]
        return wrapped

    return decorator
