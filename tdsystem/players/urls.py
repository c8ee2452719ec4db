from django.urls import path

from . import views, views_floor, views_follow

app_name = "players"

ENTRY_PAGE = "console/events/<int:event_id>/entries/<int:number>/page/"

urlpatterns = [
    path("me/<str:token>/", views.me, name="me"),
    # Public: the seat lookup's "Follow my seat" (a POST: it may make the link).
    path("events/<int:event_id>/seats/follow/", views_follow.follow, name="follow"),
    # Staff: an entry's page link on the seating console's entry panel.
    path(ENTRY_PAGE, views_floor.entry_page, name="entry_page"),
    path(ENTRY_PAGE + "renew", views_floor.entry_page_renew, name="entry_page_renew"),
]
