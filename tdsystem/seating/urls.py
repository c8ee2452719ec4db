from django.urls import path

from . import views

app_name = "seating"

urlpatterns = [
    path("events/<int:event_id>/seats/", views.seat_lookup, name="lookup"),
    path("api/events/<int:event_id>/seats", views.api_seats, name="api_seats"),
]
