"""The project's URLs plus a bare view returning constant JSON, the baseline of bench_clock."""

from django.http import JsonResponse
from django.urls import include, path


def constant(request):
    return JsonResponse({"status": "running", "level": 1, "remaining_ms": 600000})


urlpatterns = [path("bench/constant", constant), path("", include("tdsystem.urls"))]
