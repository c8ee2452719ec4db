from django.urls import path

from . import views, views_floor, views_follow, views_webhooks

app_name = "players"

HOOKS = "console/webhooks/"
ENTRY_PAGE = "console/events/<int:event_id>/entries/<int:number>/page/"

urlpatterns = [
    path("me/<str:token>/", views.me, name="me"),
    path("me/<str:token>/there", views.there, name="there"),
    # Public: the seat lookup's "Follow my seat" (a POST: it may make the link).
    path("events/<int:event_id>/seats/follow/", views_follow.follow, name="follow"),
    # Staff: an entry's page link on the seating console's entry panel.
    path(ENTRY_PAGE, views_floor.entry_page, name="entry_page"),
    path(ENTRY_PAGE + "renew", views_floor.entry_page_renew, name="entry_page_renew"),
    path(HOOKS, views_webhooks.webhooks_page, name="webhooks"),
    path(HOOKS + "deliveries", views_webhooks.deliveries, name="webhook_deliveries"),
    path(HOOKS + "<int:webhook_id>/active", views_webhooks.webhook_active, name="webhook_active"),
    path(HOOKS + "<int:webhook_id>/remove", views_webhooks.webhook_remove, name="webhook_remove"),
    path(HOOKS + "<int:webhook_id>/ping", views_webhooks.webhook_ping, name="webhook_ping"),
    path(
        HOOKS + "deliveries/<int:delivery_id>/resend",
        views_webhooks.delivery_resend,
        name="delivery_resend",
    ),
]
