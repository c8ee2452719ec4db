"""Structure templates: list, import (CSV/JSON, with warnings to confirm), view, export."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tdsystem.core.access import has_right, staff_required
from tdsystem.core.actors import Actor

from . import services
from .models import AnteType, Structure


@staff_required("console")
def structure_list(request: HttpRequest) -> HttpResponse:
    context: dict = {"ante_types": AnteType.choices}
    status = 200
    if request.method == "POST":
        if not has_right(request.user, "events"):
            return HttpResponse("Only a director may import structures.", status=403)
        text = request.POST.get("data", "")
        upload = request.FILES.get("file")
        try:
            if upload:
                if upload.size > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
                    raise services.StructureError([_("the file is too large for a structure")])
                text = upload.read().decode("utf-8", errors="replace")
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
                needs_confirm=all(e.startswith("warning:") for e in errors),
            )
            status = 200 if context["needs_confirm"] else 400
        else:
            messages.success(request, f"Imported {structure.name}")
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
    return render(request, "structures/detail.html", {"structure": structure, "levels": levels})


@staff_required("console")
def structure_export(request: HttpRequest, structure_id: int, fmt: str) -> HttpResponse:
    structure = get_object_or_404(Structure, pk=structure_id)
    if fmt == "json":
        body, ctype = services.to_json(structure), "application/json"
    elif fmt == "csv":
        body, ctype = services.to_csv(structure), "text/csv"
    else:
        return HttpResponse("Export as .json or .csv", status=404)
    response = HttpResponse(body, content_type=ctype)
    slug = "".join(c if c.isalnum() else "-" for c in structure.name.lower()).strip("-")
    response["Content-Disposition"] = f'attachment; filename="{slug}.{fmt}"'
    return response
