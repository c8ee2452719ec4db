from django.urls import path

from . import views

app_name = "players"

urlpatterns = [
    path("me/<str:token>/", views.me, name="me"),
    path("me/<str:token>/there", views.there, name="there"),
]
