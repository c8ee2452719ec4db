"""Structure templates: list, import (CSV/JSON, with warnings to confirm), view, export."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from tdsystem.core.access import has_right, staff_required
from tdsystem.core.actors import Actor
from tdsystem.engine.errors import RuleError
from tdsystem.engine.structure_gen import GeneratorInputs

from . import editing, generator, services
from .forms import GeneratorForm
from .models import AnteType, Structure

GENERATOR_INPUTS = (
    "starting_stack",
    "entries",
    "target_minutes",
    "level_minutes",
    "ante_type",
    "chips",
    "break_every",
    "break_minutes",
    "start_big_blinds",
)


@staff_required("console")
def structure_list(request: HttpRequest) -> HttpResponse:
    context: dict = {"ante_types": AnteType.choices}
    status = 200
    if request.method == "POST":
        if not has_right(request.user, "events"):
            return HttpResponse(_("Only a director may import structures."), status=403)
        text = request.POST.get("data", "")
        upload = request.FILES.get("file")
        try:
            if upload:
                if upload.size > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
                    raise services.StructureError([_("the file is too large for a structure")])
                # utf-8-sig: a spreadsheet's CSV starts with a byte order mark
                text = upload.read().decode("utf-8-sig", errors="replace")
            structure, _warnings = services.structure_import(
                text=text,
                name=request.POST.get("name", ""),
                ante_type=request.POST.get("ante_type", ""),
                starting_stack=request.POST.get("starting_stack", ""),
                confirm_warnings=request.POST.get("confirm") == "1",
                actor=Actor.of(request.user),
            )
        except services.StructureError as exc:
            errors = exc.errors
            context.update(
                errors=errors,
                data=text,
                name=request.POST.get("name", ""),
                needs_confirm=services.only_warnings(errors),
            )
            status = 200 if context["needs_confirm"] else 400
        else:
            messages.success(request, _("Imported %(name)s") % {"name": structure.name})
            return redirect("console:structure", structure.pk)
    context["structures"] = Structure.objects.filter(is_template=True).prefetch_related("levels")
    return render(request, "structures/list.html", context, status=status)


@staff_required("console")
def structure_detail(request: HttpRequest, structure_id: int) -> HttpResponse:
    structure = get_object_or_404(Structure, pk=structure_id)
    levels = list(structure.levels.order_by("position"))
    number = 0
    for level in levels:
        if not level.is_break:
            number += 1
            level.number = number
    may_edit = has_right(request.user, "events") and (
        structure.is_template or hasattr(structure, "event")
    )
    return render(
        request,
        "structures/detail.html",
        {"structure": structure, "levels": levels, "may_edit": may_edit},
    )


def editor_render(
    request: HttpRequest,
    *,
    rows: list[dict],
    current: int | None = None,
    show_bets: bool = False,
    errors: list[str] | None = None,
    **context,
) -> HttpResponse:
    """The editor page (or, for htmx, its form): shared by a template's and an event's."""
    needs_confirm = services.only_warnings(errors or [])
    focus = editing.focus_after(context.pop("operation", ""), len(rows))
    context.update(
        rows=editing.editor_table(rows, current=current, focus=focus),
        show_bets=show_bets or editing.has_bets(rows),
        errors=errors or [],
        needs_confirm=needs_confirm,
    )
    status = 400 if errors and not needs_confirm else 200
    template = "structures/editor.html#editor" if request.htmx else "structures/editor.html"
    return render(request, template, context, status=status)


def editor_saved(request: HttpRequest, url: str) -> HttpResponse:
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@staff_required("events")
def structure_edit(request: HttpRequest, structure_id: int) -> HttpResponse:
    """A template's levels; an event's own structure is edited from its event."""
    structure = get_object_or_404(Structure, pk=structure_id)
    event = getattr(structure, "event", None)
    if event is not None:
        return redirect("console:event_levels", event.pk)
    post = request.POST if request.method == "POST" else None
    rows, operation, confirm = editing.editor_context(post, editing.stored_rows(structure))
    errors: list[str] = []
    if post is not None and not operation:
        try:
            editing.structure_levels_edit(
                structure_id=structure.pk,
                rows=rows,
                actor=Actor.of(request.user),
                confirm_warnings=confirm,
                fixed_limit=editing.has_bets(rows),
            )
        except services.StructureError as exc:
            errors = exc.errors
        else:
            messages.success(request, _("Saved the levels of %(name)s") % {"name": structure.name})
            return editor_saved(request, reverse("console:structure", args=[structure.pk]))
    return editor_render(
        request,
        rows=rows,
        errors=errors,
        operation=operation,
        show_bets=request.GET.get("bets") == "1",
        title=structure.name,
        back_url=reverse("console:structure", args=[structure.pk]),
    )


@staff_required("console")
def structure_export(request: HttpRequest, structure_id: int, fmt: str) -> HttpResponse:
    structure = get_object_or_404(Structure, pk=structure_id)
    if fmt == "json":
        body, ctype = services.to_json(structure), "application/json"
    elif fmt == "csv":
        body, ctype = services.to_csv(structure), "text/csv"
    else:
        return HttpResponse(_("Export as .json or .csv"), status=404)
    response = HttpResponse(body, content_type=ctype)
    slug = "".join(c if c.isalnum() else "-" for c in structure.name.lower()).strip("-")
    response["Content-Disposition"] = f'attachment; filename="{slug}.{fmt}"'
    return response


@staff_required("console")
def structure_generator(request: HttpRequest) -> HttpResponse:
    """The form (GET with no inputs), the proposal (GET with them), or "Save as a structure"
    (POST, directors only). Bad input shows the form's messages and saves nothing."""
    saving = request.method == "POST"
    if saving and not has_right(request.user, "events"):
        return HttpResponse(_("Only a director may save structures."), status=403)
    data = request.POST if saving else (request.GET or None)
    form = GeneratorForm(data, initial={"break_every": 4, "break_minutes": 15})
    context: dict = {"form": form}
    if data is None or not form.is_valid():
        return render(request, "structures/generator.html", context, status=400 if data else 200)
    try:
        inputs = GeneratorInputs(**{k: form.cleaned_data[k] for k in GENERATOR_INPUTS})
        if saving:
            structure = generator.structure_generated_save(
                name=form.cleaned_data["name"], inputs=inputs, actor=Actor.of(request.user)
            )
            messages.success(request, _("Saved %(name)s") % {"name": structure.name})
            return redirect("console:structure", structure.pk)
        context["proposal"], context["checked"] = generator.structure_propose(inputs)
    except (services.StructureError, RuleError) as exc:
        context["errors"] = getattr(exc, "errors", [str(exc)])
        return render(request, "structures/generator.html", context, status=400)
    proposal = context["proposal"]
    context["rows"] = [
        (row, generator.colour_up_note(row), f"{row.starts_at // 60}:{row.starts_at % 60:02}")
        for row in proposal.rows
    ]
    context["projected"] = generator.hours_minutes(proposal.projected_minutes)
    context["target"] = generator.hours_minutes(proposal.target_minutes)
    if start := form.cleaned_data.get("start_time"):
        day = datetime.datetime.combine(datetime.date(2000, 1, 1), start)
        finish = day + datetime.timedelta(minutes=proposal.projected_minutes)
        context["finish_clock"] = finish.time()
    return render(request, "structures/generator.html", context)
