"""The director console's addresses (namespace "console"): its pages come from several
apps, the event's life from the venue's."""

from django.urls import path

from tdsystem.events import (
    views,
    views_entry_rules,
    views_levels,
    views_rules,
    views_screen,
    views_staff,
)
from tdsystem.structures import views as structure_views

from . import views_floor, views_life, views_transfer

app_name = "console"

urlpatterns = [
    path("", views_life.console_home, name="home"),
    path("events/new/", views.event_new, name="event_new"),
    path("events/import/", views_transfer.event_import, name="event_import"),
    path("events/<int:event_id>/", views.console_event, name="event"),
    path("events/<int:event_id>/clock", views.clock_control, name="clock"),
    path("events/<int:event_id>/log/<int:entry_id>/undo", views.clock_undo, name="clock_undo"),
    path("events/<int:event_id>/copy/", views_life.event_copy, name="event_copy"),
    path("events/<int:event_id>/delete/", views_life.event_delete, name="event_delete"),
    path("events/<int:event_id>/archive", views_life.event_archive, name="event_archive"),
    path("events/<int:event_id>/export.json", views_transfer.event_export, name="event_export"),
    path("events/<int:event_id>/levels/", views_levels.event_levels, name="event_levels"),
    path("events/<int:event_id>/rules/", views_rules.event_rules, name="event_rules"),
    path(
        "events/<int:event_id>/entry-rules/",
        views_entry_rules.event_entry_rules,
        name="event_entry_rules",
    ),
    path(
        "events/<int:event_id>/screen-language",
        views_screen.event_screen_language,
        name="event_screen_language",
    ),
    path("events/<int:event_id>/staff/", views_staff.staff_add, name="event_staff_add"),
    path(
        "events/<int:event_id>/staff/<int:user_id>/remove",
        views_staff.staff_remove,
        name="event_staff_remove",
    ),
    path("floor/", views_floor.floor, name="floor"),
    path("floor/give", views_floor.floor_give, name="floor_give"),
    path("house-rules/", views_rules.house_sets, name="house_sets"),
    path("house-rules/<int:house_id>/", views_rules.house_set, name="house_set"),
    path(
        "house-rules/<int:house_id>/delete", views_rules.house_set_delete, name="house_set_delete"
    ),
    path("structures/", structure_views.structure_list, name="structures"),
    path("structures/<int:structure_id>/", structure_views.structure_detail, name="structure"),
    path(
        "structures/<int:structure_id>/edit/", structure_views.structure_edit, name="structure_edit"
    ),
    path("structures/generator/", structure_views.structure_generator, name="structure_generator"),
    path(
        "structures/<int:structure_id>/export.<str:fmt>",
        structure_views.structure_export,
        name="structure_export",
    ),
]
