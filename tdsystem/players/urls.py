from django.urls import path

from . import views, views_alternates

app_name = "players"

DESK = "console/events/<int:event_id>/alternates/"

urlpatterns = [
    path("me/<str:token>/", views.me, name="me"),
    path("me/<str:token>/alternate", views_alternates.me_alternate_poll, name="me_alternate"),
    path("events/<int:event_id>/alternates/join", views_alternates.join_public, name="join"),
    path(DESK, views_alternates.desk, name="alternates"),
    path(DESK + "join", views_alternates.desk_join, name="alternates_join"),
    path(DESK + "settings", views_alternates.desk_settings, name="alternates_settings"),
    path(DESK + "call", views_alternates.desk_action, {"action": "call"}, name="alternates_call"),
    path(
        DESK + "<int:alternate_id>/<str:action>",
        views_alternates.desk_action,
        name="alternates_action",
    ),
]
