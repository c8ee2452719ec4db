from django.urls import path

from . import views, views_deals, views_satellites, views_table

app_name = "results"

CONSOLE = "console/events/<int:event_id>/results/"
TABLES = "console/events/<int:event_id>/tables/"

urlpatterns = [
    # Public
    path("events/<int:event_id>/results/", views.results_page, name="page"),
    path("events/<int:event_id>/results.csv", views.results_csv, name="csv"),
    # Staff: the bust-out console and the payout plan
    path(CONSOLE, views.console, name="console"),
    # Every page that busts a player (this console, the seating console's entry panel,
    # the table page) posts here.
    path(CONSOLE + "bustouts", views.bustout, name="bustout"),
    path(CONSOLE + "bustouts/<int:bustout_id>/undo", views.bustout_undo, name="undo"),
    path(CONSOLE + "short-big-blind", views.short_big_blind, name="short_big_blind"),
    path(CONSOLE + "chips", views.chip_count, name="chips"),
    path(CONSOLE + "chips/<int:number>/history", views.chip_history, name="chip_history"),
    path(CONSOLE + "hand-for-hand", views.hand_for_hand, name="hand_for_hand"),
    path(CONSOLE + "tables/<int:number>/hand", views.hand_finished, name="hand_finished"),
    path(CONSOLE + "payouts", views.payouts, name="payouts"),
    path(CONSOLE + "prizes/<int:number>/paid", views.prize_paid, name="prize_paid"),
    path(CONSOLE + "deal", views_deals.deal_page, name="deal"),
    path(CONSOLE + "deal/cancel", views_deals.deal_cancel, name="deal_cancel"),
    path(CONSOLE + "satellite", views_satellites.satellite_panel, name="satellite"),
    path(CONSOLE + "satellite/award", views_satellites.satellite_award, name="satellite_award"),
    # Staff: the table pages (a tablet at the table, or the floor's phone)
    path(TABLES + "<int:number>/", views_table.table_page, name="table"),
    path(TABLES + "<int:number>/hand", views_table.table_hand, name="table_hand"),
    path(TABLES + "<int:number>/chips", views_table.table_chips, name="table_chips"),
]
