from django.urls import path

from . import views, views_follow

app_name = "players"

urlpatterns = [
    path("me/<str:token>/", views.me, name="me"),
    # Public: the seat lookup's "Follow my seat" (a POST: it may make the link).
    path("events/<int:event_id>/seats/follow/", views_follow.follow, name="follow"),
]
