from django.urls import path

from . import views, views_webhooks

app_name = "players"

HOOKS = "console/webhooks/"

urlpatterns = [
    path("me/<str:token>/", views.me, name="me"),
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
    path("me/<str:token>/there", views.there, name="there"),
]
