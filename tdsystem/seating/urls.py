from django.urls import path

from . import (
    views,
    views_console,
    views_dayend,
    views_device,
    views_flights,
    views_moves,
    views_tables,
    views_tickets,
)

app_name = "seating"

CONSOLE = "console/events/<int:event_id>/"
SEATING = CONSOLE + "seating/"

urlpatterns = [
    # Public: players and venue screens
    path("events/<int:event_id>/seats/", views.seat_lookup, name="lookup"),
    path("events/<int:event_id>/seats/poster/", views.seat_poster, name="poster"),
    path("events/<int:event_id>/seats/draw/", views.draw_screen, name="draw_screen"),
    # Staff: the seating console and move slips (the table pages are results:table)
    path("console/my-table/", views_device.device_home, name="device_home"),
    path(SEATING, views_console.console, name="console"),
    path(SEATING + "register", views_console.register, name="register"),
    path(SEATING + "register-many", views_console.register_many, name="register_many"),
    path(SEATING + "tickets", views_tickets.ticket_give, name="ticket_give"),
    path(SEATING + "tickets/players", views_tickets.ticket_players, name="ticket_players"),
    path(SEATING + "tickets/<int:ticket_id>/register", views_tickets.ticket_use, name="ticket_use"),
    path(SEATING + "tables", views_tables.tables, name="tables"),
    path(SEATING + "release", views_tables.release, name="release"),
    path(SEATING + "break-order", views_tables.break_order, name="break_order"),
    path(SEATING + "draw", views_tables.draw, name="draw"),
    path(SEATING + "rebalance", views_tables.rebalance, name="rebalance"),
    path(SEATING + "redraw", views_tables.redraw, name="redraw"),
    path(SEATING + "search", views_console.entry_search, name="search"),
    path(SEATING + "entries/<int:entry_id>/", views_console.entry_panel, name="entry"),
    path(
        SEATING + "entries/<int:entry_id>/<str:action>",
        views_console.entry_action,
        name="entry_action",
    ),
    path(CONSOLE + "day-end/", views_dayend.panel, name="day_end"),
    path(CONSOLE + "day-end/start", views_dayend.start, name="day_end_start"),
    path(CONSOLE + "day-end/close", views_dayend.close, name="day_end_close"),
    path(CONSOLE + "day-end/next", views_dayend.next_day, name="day_next"),
    path(CONSOLE + "day-end/bag", views_dayend.bag_correct, name="bag_correct"),
    path(CONSOLE + "day-end/report", views_dayend.report, name="day_report"),
    path(
        CONSOLE + "tables/<int:number>/bags",
        views_dayend.table_bags,
        name="table_bags",
    ),
    path(CONSOLE + "moves/", views_moves.moves_page, name="moves"),
    path(CONSOLE + "moves/<int:move_id>/ack", views_moves.move_ack, name="move_ack"),
    path(CONSOLE + "moves/ack", views_moves.moves_ack, name="moves_ack"),
    path(CONSOLE + "flights/", views_flights.flights_page, name="flights"),
    path(CONSOLE + "flights/add", views_flights.flight_add, name="flight_add"),
    path(CONSOLE + "flights/day2", views_flights.day2_combine, name="day2"),
]
