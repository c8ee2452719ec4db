"""The printing pages: the room's printers, an event's printing (its switches, printing on
demand, the queue and what waits), a document's print page, and the results files."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor
from tdsystem.events.models import Event
from tdsystem.seating.views import qr_svg

from . import services
from .documents import document_of, layout
from .errors import PrintingError
from .forms import EventPrintingForm, PrinterForm, PrintForm
from .models import Document, Printer, PrintJob

JOBS_SHOWN = 40


def _event(event_id: int) -> Event:
    return get_object_or_404(Event, pk=event_id)


@require_http_methods(["GET", "POST"])
@staff_required("events")
def printers(request: HttpRequest) -> HttpResponse:
    """The room's printers, and a new one added."""
    form = PrinterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        low, high = data["tables_from"], data["tables_to"]
        try:
            printer = services.printer_add(
                name=data["name"],
                url=data["url"],
                paper=data["paper"],
                documents=data["documents"],
                desk=data["desk"],
                tables=(low, high) if low is not None and high is not None else None,
                language=data["language"],
            )
        except PrintingError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        else:
            messages.success(request, _("Printer %(name)s added") % {"name": printer.name})
            return redirect("printing:printers")
    context = {"form": form, "printers": Printer.objects.all(), "waiting": services.queue_state()}
    return render(request, "printing/printers.html", context, status=400 if form.errors else 200)


@require_POST
@staff_required("events")
def printer_test(request: HttpRequest, printer_id: int) -> HttpResponse:
    printer = get_object_or_404(Printer, pk=printer_id)
    services.printer_test(printer=printer, actor=Actor.of(request.user))
    messages.success(request, _("Test page sent to %(name)s") % {"name": printer.name})
    return redirect("printing:printers")


@require_POST
@staff_required("events")
def printer_remove(request: HttpRequest, printer_id: int) -> HttpResponse:
    printer = get_object_or_404(Printer, pk=printer_id)
    services.printer_remove(printer_id=printer.pk)
    messages.success(request, _("Printer %(name)s removed") % {"name": printer.name})
    return redirect("printing:printers")


@require_GET
@staff_required("seating")
def event_printing(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    return _event_page(request, event)


def _event_page(request, event, *, switches=None, print_form=None, status=200) -> HttpResponse:
    jobs = PrintJob.objects.filter(event=event).select_related("printer")[:JOBS_SHOWN]
    context = {
        "event": event,
        "switches": switches or EventPrintingForm(instance=services.event_printing(event)),
        "print_form": print_form or PrintForm(),
        "jobs": jobs,
        "waiting": services.queue_state(),
        "printers": Printer.objects.all(),
    }
    return render(request, "printing/event.html", context, status=status)


@require_POST
@staff_required("events")
def event_switches(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    form = EventPrintingForm(request.POST, instance=services.event_printing(event))
    if not form.is_valid():
        return _event_page(request, event, switches=form, status=400)
    services.event_printing_save(event=event, values=form.cleaned_data)
    messages.success(request, _("What this event prints by itself is saved"))
    return redirect("printing:event", event.pk)


@require_POST
@staff_required("seating")
def event_print(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    form = PrintForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            jobs = services.documents_print(event=event, actor=Actor.of(request.user), **data)
        except PrintingError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        else:
            messages.success(
                request,
                ngettext("%(count)s document queued", "%(count)s documents queued", len(jobs))
                % {"count": len(jobs)},
            )
            return redirect("printing:event", event.pk)
    return _event_page(request, event, print_form=form, status=400)


@require_POST
@staff_required("seating")
def card_print(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """An entry's seat card, from the console's entry panel or its registration: queued on
    the printer that takes it, else a page for the browser's printer."""
    event = _event(event_id)
    actor = Actor.of(request.user)
    try:
        (job,) = services.documents_print(
            event=event, document=Document.SEAT_CARD, entry=number, actor=actor
        )
    except PrintingError as exc:
        job, error = None, str(exc)
    else:
        error = ""
    if request.htmx:
        context = {"event": event, "job": job, "error": error}
        return render(request, "printing/_card_printed.html", context, status=200)
    if error:
        messages.error(request, error)
    elif job.status == PrintJob.Status.BROWSER:
        return redirect("printing:job", event.pk, job.pk)
    else:
        messages.success(request, _("Seat card sent to %(name)s.") % {"name": job.printer})
    return redirect("seating:console", event.pk)


def _job(event_id: int, job_id: int) -> PrintJob:
    job = PrintJob.objects.filter(pk=job_id, event_id=event_id).first()
    if job is None:
        raise Http404
    return job


@require_GET
@staff_required("seating")
def job_page(request: HttpRequest, event_id: int, job_id: int) -> HttpResponse:
    """The document as a page for the browser's printer (80 mm wide, or A4 for a PDF)."""
    job = _job(event_id, job_id)
    doc = document_of(job.document, job.data)
    with translation.override(job.language):
        blocks = layout(doc, job.copies)
        shown = [
            (block, mark_safe(qr_svg(block.text)) if block.kind == "qr" else "") for block in blocks
        ]
        return render(
            request,
            "printing/page.html",
            {"job": job, "blocks": shown, "bidi": translation.get_language_bidi()},
        )


@require_POST
@staff_required("seating")
def job_reprint(request: HttpRequest, event_id: int, job_id: int) -> HttpResponse:
    job = _job(event_id, job_id)
    services.job_reprint(job_id=job.pk, actor=Actor.of(request.user))
    messages.success(request, _("Printed again: %(document)s") % {"document": job})
    return redirect("printing:event", event_id)


@require_POST
@staff_required("seating")
def job_cancel(request: HttpRequest, event_id: int, job_id: int) -> HttpResponse:
    job = _job(event_id, job_id)
    if services.job_cancel(job_id=job.pk):
        messages.success(request, _("Not printed: %(document)s") % {"document": job})
    return redirect("printing:event", event_id)
