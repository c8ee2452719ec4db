"""Staff login (throttled by django-axes, known devices apart), the one-time code login,
and the API token page."""

from __future__ import annotations

import hashlib
import ipaddress
import math
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from axes.helpers import get_cool_off
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth import views as auth_views
from django.db import connection, transaction
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tdsystem.core.actors import Actor

from .access import SUPERUSER, has_right, refusal_record, refuse, staff_required
from .devices import attempt_name, device_remember
from .forms import LoginCodeForm
from .login_codes import login_code_use
from .models import ApiToken
from .tokens import api_token_create, api_token_revoke


def client_ip(request: HttpRequest) -> str | None:
    """The address of the device logging in (django-axes counts failures per user name and
    this address together).

    REMOTE_ADDR, unless TRUSTED_PROXY_COUNT proxies stand in front: then the address the
    outermost of them saw, read from the right of X-Forwarded-For, where each proxy appends
    the address it was reached from. Whatever a client wrote there itself sits further left
    and is never read, so it cannot pick a fresh address for every guess.
    """
    remote = request.META.get("REMOTE_ADDR")
    count = settings.TRUSTED_PROXY_COUNT
    if count <= 0:
        return remote
    forwarded = [
        part.strip()
        for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if part.strip()
    ]
    if len(forwarded) < count:
        return remote
    try:
        return str(ipaddress.ip_address(forwarded[-count]))
    except ValueError:
        return remote


def lockout(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """django-axes's answer once a name has failed too often from one device: a page in the
    site's style (JSON under /api/), 429 with Retry-After."""
    cool_off = get_cool_off(request) or timedelta(minutes=15)
    minutes = max(1, math.ceil(cool_off.total_seconds() / 60))
    message = ngettext(
        "Too many failed logins for this name from this device; "
        "try again in %(minutes)d minute or ask the director.",
        "Too many failed logins for this name from this device; "
        "try again in %(minutes)d minutes or ask the director.",
        minutes,
    ) % {"minutes": minutes}
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"error": message}, status=429)
    else:
        response = render(request, "registration/locked_out.html", {"message": message}, status=429)
    response["Retry-After"] = str(int(cool_off.total_seconds()))
    return response


@contextmanager
def login_turn(username: str, ip: str | None) -> Iterator[None]:
    """Attempts for one name from one device take turns on PostgreSQL (a transaction-level
    advisory lock), so each sees the failures recorded before it and parallel guesses cannot
    all pass the limit check at once. SQLite takes its write lock at BEGIN: holding it over
    a password hash would stall every other write, so there the attempts run as they come."""
    if connection.vendor != "postgresql":
        yield
        return
    digest = hashlib.sha256(f"login\0{username}\0{ip}".encode()).digest()
    key = int.from_bytes(digest[:8], "big", signed=True)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])
        yield


def landing(user) -> str:
    """Where a login lands: staff on the console, a table device on its table."""
    if not has_right(user, "console") and has_right(user, "table"):
        return reverse("seating:device_home")
    return resolve_url(settings.LOGIN_REDIRECT_URL)


class LoginView(auth_views.LoginView):
    """Django's login; django-axes refuses a name that failed too often from this device.
    A good login gives the browser its device cookie for the name (core/devices.py)."""

    def post(self, request, *args, **kwargs):
        with login_turn(attempt_name(request) or "", client_ip(request)):
            return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        response = super().form_valid(form)
        device_remember(self.request, response, form.get_user().get_username())
        return response

    def get_default_redirect_url(self) -> str:
        return landing(self.request.user)


@require_http_methods(["GET", "POST"])
def login_code(request: HttpRequest) -> HttpResponse:
    """Log in with a one-time code from `manage.py login_code`, locked out or not."""
    form = LoginCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = login_code_use(
            username=form.cleaned_data["username"], code=form.cleaned_data["code"]
        )
        if user is not None:
            auth_login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            response = redirect(landing(user))
            device_remember(request, response, user.get_username())
            return response
        form.add_error(
            None,
            gettext(
                "This code does not work for this name: it was mistyped, used already, "
                "or is older than 15 minutes. Ask for a new one."
            ),
        )
    status = 400 if form.errors else 200
    return render(request, "registration/login_code.html", {"form": form}, status=status)


def _visible_tokens(user):
    """A superuser manages everybody's tokens; anyone else only their own."""
    tokens = ApiToken.objects.select_related("user")
    if user.is_superuser:
        return tokens
    return tokens.filter(user=user)


@staff_required("console")
def tokens(request: HttpRequest) -> HttpResponse:
    new_key = None
    if request.method == "POST":
        label = request.POST.get("label", "").strip()[:80]
        _token, new_key = api_token_create(
            user=request.user, label=label, actor=Actor.of(request.user)
        )
    context = {
        "tokens": _visible_tokens(request.user).filter(
            Q(revoked_at__isnull=True) | Q(revoked_at__gte=timezone.now() - timedelta(days=7))
        ),
        "new_key": new_key,
    }
    return render(request, "core/tokens.html", context)


@require_POST
@staff_required("console")
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    token = get_object_or_404(ApiToken.objects.select_related("user"), pk=token_id)
    if not _visible_tokens(request.user).filter(pk=token.pk).exists():
        refusal_record(request, SUPERUSER)
        return refuse(request)
    if api_token_revoke(token=token, actor=Actor.of(request.user)):
        messages.success(
            request,
            gettext("Token %(token)s… of %(user)s revoked")
            % {"token": token.prefix, "user": token.user},
        )
    return redirect("tokens")
