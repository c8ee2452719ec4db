"""The ruling page: the rules engine in the floor's hands."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tdsystem.core.access import staff_required


@staff_required("ruling")
def ruling(request: HttpRequest) -> HttpResponse:
    return render(request, "rulings/ruling.html", {})
