from django.urls import path

from . import views

app_name = "shotclock"

TABLE = "console/events/<int:event_id>/tables/<int:number>/shot-clock/"

urlpatterns = [
    path(TABLE, views.panel, name="panel"),
    path(TABLE + "<str:action>", views.act, name="act"),
    path("console/shot-clocks/", views.floor_list, name="floor"),
    path("console/events/<int:event_id>/shot-clock/", views.event_log, name="log"),
]
