from django.urls import path

from . import views, views_device, views_staff

app_name = "seating"

CONSOLE = "console/events/<int:event_id>/"
SEATING = CONSOLE + "seating/"

urlpatterns = [
    # Public: players and venue screens
    path("events/<int:event_id>/seats/", views.seat_lookup, name="lookup"),
    path("events/<int:event_id>/seats/poster/", views.seat_poster, name="poster"),
    path("events/<int:event_id>/seats/draw/", views.draw_screen, name="draw_screen"),
    # Staff: the seating console, move slips, table pages
    path("console/my-table/", views_device.device_home, name="device_home"),
    path(SEATING, views_staff.console, name="console"),
    path(SEATING + "register", views_staff.register, name="register"),
    path(SEATING + "register-many", views_staff.register_many, name="register_many"),
    path(SEATING + "tables", views_staff.tables, name="tables"),
    path(SEATING + "release", views_staff.release, name="release"),
    path(SEATING + "break-order", views_staff.break_order, name="break_order"),
    path(SEATING + "draw", views_staff.draw, name="draw"),
    path(SEATING + "rebalance", views_staff.rebalance, name="rebalance"),
    path(SEATING + "redraw", views_staff.redraw, name="redraw"),
    path(SEATING + "search", views_staff.entry_search, name="search"),
    path(SEATING + "entries/<int:entry_id>/", views_staff.entry_panel, name="entry"),
    path(
        SEATING + "entries/<int:entry_id>/<str:action>",
        views_staff.entry_action,
        name="entry_action",
    ),
    path(CONSOLE + "moves/", views_staff.moves_page, name="moves"),
    path(CONSOLE + "moves/<int:move_id>/ack", views_staff.move_ack, name="move_ack"),
    path(CONSOLE + "tables/<int:number>/", views_staff.table_page, name="table"),
    path(CONSOLE + "tables/<int:number>/hand", views_staff.table_hand, name="table_hand"),
]
