from django.urls import path

from . import views

app_name = "dealers"

EVENT = "console/events/<int:event_id>/dealers/"

urlpatterns = [
    path(EVENT, views.console, name="console"),
    path(EVENT + "add", views.dealer_add, name="add"),
    path(EVENT + "<int:dealer_id>/clock-in", views.clock_in, name="clock_in"),
    path(EVENT + "<int:dealer_id>/clock-out", views.clock_out, name="clock_out"),
    path(EVENT + "push", views.push, name="push"),
    path(EVENT + "settings", views.settings_save, name="settings"),
    path(EVENT + "hours.csv", views.hours_csv, name="hours"),
    # Public: the dealers' room TV, and each dealer's own page by their secret link.
    path("events/<int:event_id>/dealers/", views.board, name="board"),
    path("dealer/<str:dealer_token>/", views.phone, name="phone"),
    path("dealer/<str:dealer_token>/clock", views.phone_clock, name="phone_clock"),
]
