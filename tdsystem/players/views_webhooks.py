"""The director's webhooks page: the room's webhooks (added, paused, resumed, removed,
tried with a ping) and their recent deliveries (a failed one sent again). Directors only:
a webhook sends players' names and places out of the system."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor

from . import webhooks
from .errors import PlayersRefused
from .forms_webhooks import WebhookForm
from .models import Webhook, WebhookDelivery

PAGE = "players/webhooks.html"
DELIVERIES_SHOWN = 50


def _context(**extra) -> dict:
    deliveries = WebhookDelivery.objects.select_related("webhook")[:DELIVERIES_SHOWN]
    return {
        "webhooks": Webhook.objects.order_by("created_at", "pk"),
        "deliveries": deliveries,
        "attempts_max": webhooks.ATTEMPTS,
        **extra,
    }


def _answer(request: HttpRequest, fragment: str) -> HttpResponse:
    """The changed part of the page to an htmx request, else the page again."""
    if request.htmx:
        return render(request, f"{PAGE}#{fragment}", _context())
    return redirect("players:webhooks")


@require_http_methods(["GET", "POST"])
@staff_required("events")
def webhooks_page(request: HttpRequest) -> HttpResponse:
    """The list and the form; a webhook added answers with its secret, shown this once."""
    form = WebhookForm(request.POST or None)
    added = None
    if request.method == "POST" and form.is_valid():
        try:
            added = webhooks.webhook_add(
                url=form.cleaned_data["url"],
                kinds=form.cleaned_data["kinds"],
                actor=Actor.of(request.user),
            )
        except PlayersRefused as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        else:
            form = WebhookForm()
    status = 400 if form.errors else 200
    return render(request, PAGE, _context(form=form, added=added), status=status)


@require_GET
@staff_required("events")
def deliveries(request: HttpRequest) -> HttpResponse:
    return render(request, f"{PAGE}#deliveries", _context())


@require_POST
@staff_required("events")
def webhook_active(request: HttpRequest, webhook_id: int) -> HttpResponse:
    webhook = get_object_or_404(Webhook, pk=webhook_id)
    active = request.POST.get("active") == "1"
    webhooks.webhook_activate(webhook=webhook, active=active, actor=Actor.of(request.user))
    return _answer(request, "hooks")


@require_POST
@staff_required("events")
def webhook_remove(request: HttpRequest, webhook_id: int) -> HttpResponse:
    webhook = get_object_or_404(Webhook, pk=webhook_id)
    webhooks.webhook_remove(webhook=webhook, actor=Actor.of(request.user))
    if not request.htmx:
        messages.success(request, _("Webhook removed"))
    return _answer(request, "hooks")


@require_POST
@staff_required("events")
def webhook_ping(request: HttpRequest, webhook_id: int) -> HttpResponse:
    webhooks.webhook_ping(webhook=get_object_or_404(Webhook, pk=webhook_id))
    if not request.htmx:
        messages.success(request, _("Test sent"))
    return _answer(request, "deliveries")


@require_POST
@staff_required("events")
def delivery_resend(request: HttpRequest, delivery_id: int) -> HttpResponse:
    delivery = get_object_or_404(WebhookDelivery, pk=delivery_id)
    if not webhooks.delivery_resend(delivery=delivery) and not request.htmx:
        messages.info(request, _("Delivered meanwhile: not sent again"))
    return _answer(request, "deliveries")
