from django.urls import path

from tdsystem.events import views
from tdsystem.structures import views as structure_views

app_name = "console"

urlpatterns = [
    path("", views.console_home, name="home"),
    path("events/new/", views.event_new, name="event_new"),
    path("events/<int:event_id>/", views.console_event, name="event"),
    path("events/<int:event_id>/clock", views.clock_control, name="clock"),
    path("structures/", structure_views.structure_list, name="structures"),
    path("structures/<int:structure_id>/", structure_views.structure_detail, name="structure"),
    path(
        "structures/<int:structure_id>/export.<str:fmt>",
        structure_views.structure_export,
        name="structure_export",
    ),
]
