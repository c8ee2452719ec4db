from django.urls import path

from . import views

app_name = "rulings"

urlpatterns = [
    path("console/rulings/", views.ruling, name="page"),
    path("rulings/<str:token>/", views.shared, name="shared"),
]
