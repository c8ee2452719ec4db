"""Console pages for rule sets: the rules of an event, and the room's house sets."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor
from tdsystem.engine import rulesets

from . import rules as wording
from . import services
from .forms import EventRulesForm, HouseRuleSetForm, HouseRuleSetNewForm
from .models import Event, HouseRuleSet


@staff_required("events")
def event_rules(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("house_rules"), pk=event_id)
    form = EventRulesForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.event_rules_set(
                event_id=event.pk,
                rule_set=data["rule_set"],
                house=data["house"],
                settings=data["settings"],
                balance_threshold=data["balance_threshold"],
                actor=Actor.of(request.user),
            )
        except rulesets.RuleSetError as exc:
            form.add_error(None, wording.refusal(exc))
        except services.RulesError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("The rules of %(name)s are saved.") % {"name": event.name})
            return redirect("console:event", event.pk)
    status = 400 if form.errors else 200
    context = {"event": event, "form": form, "running": event.status != Event.Status.PLANNED}
    return render(request, "events/rules.html", context, status=status)


@staff_required("events")
def house_sets(request: HttpRequest) -> HttpResponse:
    """The room's house sets, and a new one copied from a built-in set or another."""
    form = HouseRuleSetNewForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        base, copy_of = form.cleaned_data["source"]
        try:
            house = services.house_rule_set_create(
                name=form.cleaned_data["name"],
                base=base,
                copy_of=copy_of,
                actor=Actor.of(request.user),
            )
        except services.RulesError as exc:
            form.add_error("name", str(exc))
        else:
            return redirect("console:house_set", house.pk)
    houses = [
        {"house": house, "label": wording.set_label(house.base, house), "used_by": house.used_by}
        for house in HouseRuleSet.objects.annotate(used_by=Count("events"))
    ]
    context = {"houses": houses, "form": form, "builtin": _builtin_sets()}
    return render(request, "events/house_sets.html", context, status=400 if form.errors else 200)


def _builtin_sets() -> list[dict]:
    return [
        {"set": rs, "description": wording.DESCRIPTIONS.get(code, rs.source)}
        for code, rs in rulesets.RULE_SETS.items()
    ]


@staff_required("events")
def house_set(request: HttpRequest, house_id: int) -> HttpResponse:
    house = get_object_or_404(HouseRuleSet, pk=house_id)
    form = HouseRuleSetForm(request.POST or None, house=house)
    if request.method == "POST" and form.is_valid():
        try:
            services.house_rule_set_update(
                house_id=house.pk,
                name=form.cleaned_data["name"],
                overrides=form.cleaned_data["settings"],
                actor=Actor.of(request.user),
            )
        except rulesets.RuleSetError as exc:
            form.add_error(None, wording.refusal(exc))
        except services.RulesError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("%(name)s is saved.") % {"name": form.cleaned_data["name"]})
            return redirect("console:house_sets")
    context = {
        "house": house,
        "form": form,
        "events": house.events.order_by("-created_at")[:20],
        "refusal": services.house_rule_set_delete_refusal(house),
    }
    return render(request, "events/house_set.html", context, status=400 if form.errors else 200)


@require_POST
@staff_required("events")
def house_set_delete(request: HttpRequest, house_id: int) -> HttpResponse:
    try:
        name = services.house_rule_set_delete(house_id=house_id, actor=Actor.of(request.user))
    except services.RulesError as exc:
        messages.error(request, str(exc))
        return redirect("console:house_set", house_id)
    messages.success(request, _("%(name)s is deleted.") % {"name": name})
    return redirect("console:house_sets")
