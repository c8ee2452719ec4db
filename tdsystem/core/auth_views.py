"""Staff login with rate limiting, and the API token page."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from .access import DIRECTOR, has_right, roles_of, staff_required
from .models import ApiToken, LoginFailure, hash_token

WINDOW = timedelta(minutes=15)
MAX_PER_IP = 20
MAX_PER_USERNAME = 5


def client_ip(request: HttpRequest) -> str | None:
    return request.META.get("REMOTE_ADDR")


def too_many_failures(ip: str | None, username: str) -> bool:
    since = timezone.now() - WINDOW
    recent = LoginFailure.objects.filter(at__gte=since)
    by_ip = recent.filter(ip=ip).count() if ip else 0
    by_name = recent.filter(username=username).count() if username else 0
    return by_ip >= MAX_PER_IP or by_name >= MAX_PER_USERNAME


class LoginView(auth_views.LoginView):
    """Refuses further attempts for a while after repeated failures (HTTP 429)."""

    def post(self, request, *args, **kwargs):
        username = request.POST.get("username", "")[:150]
        if too_many_failures(client_ip(request), username):
            return render(
                request,
                "registration/login.html",
                {"locked": True, "form": self.get_form()},
                status=429,
            )
        return super().post(request, *args, **kwargs)

    def get_default_redirect_url(self) -> str:
        """Staff go to the console; a table device to its table (it has no console)."""
        user = self.request.user
        if not has_right(user, "console") and has_right(user, "table"):
            return reverse("seating:device_home")
        return super().get_default_redirect_url()

    def form_invalid(self, form):
        LoginFailure.objects.create(
            ip=client_ip(self.request), username=self.request.POST.get("username", "")[:150]
        )
        LoginFailure.objects.filter(at__lt=timezone.now() - WINDOW * 4).delete()
        return super().form_invalid(form)


def _visible_tokens(user):
    tokens = ApiToken.objects.select_related("user")
    if DIRECTOR in roles_of(user):
        return tokens
    return tokens.filter(user=user)


@staff_required("console")
def tokens(request: HttpRequest) -> HttpResponse:
    new_key = None
    if request.method == "POST":
        label = request.POST.get("label", "").strip()[:80]
        new_key = ApiToken.new_key()
        ApiToken.objects.create(
            user=request.user, label=label, prefix=new_key[:8], key_hash=hash_token(new_key)
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
    token = get_object_or_404(_visible_tokens(request.user), pk=token_id)
    if token.revoked_at is None:
        ApiToken.objects.filter(pk=token.pk).update(revoked_at=timezone.now())
        messages.success(request, f"Token {token.prefix}… of {token.user} revoked")
    return redirect("tokens")
