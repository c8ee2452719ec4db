"""The project's routes plus the API reference's two, as tdsystem/urls.py will have them."""

from django.urls import path

from tdsystem.core import api_docs
from tdsystem.urls import urlpatterns as project

urlpatterns = [
    path("api/openapi.json", api_docs.openapi_json, name="api_openapi"),
    path("api/docs", api_docs.api_docs, name="api_docs"),
    *project,
]
