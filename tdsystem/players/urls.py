from django.urls import path

from . import views, views_alternates, views_floor, views_follow, views_webhooks

app_name = "players"

HOOKS = "console/webhooks/"
ENTRY_PAGE = "console/events/<int:event_id>/entries/<int:number>/page/"
DESK = "console/events/<int:event_id>/alternates/"

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
    path("me/<str:token>/alternate", views_alternates.me_alternate_poll, name="me_alternate"),
    path("events/<int:event_id>/alternates/join", views_alternates.join_public, name="join"),
    path(DESK, views_alternates.desk, name="alternates"),
    path(DESK + "join", views_alternates.desk_join, name="alternates_join"),
    path(DESK + "settings", views_alternates.desk_settings, name="alternates_settings"),
    path(DESK + "call", views_alternates.desk_action, {"action": "call"}, name="alternates_call"),
    path(
        DESK + "<int:alternate_id>/<str:action>",
        views_alternates.desk_action,
        name="alternates_action",
    ),
]
