from django.apps import AppConfig


class SeatingConfig(AppConfig):
    name = "tdsystem.seating"
    label = "seating"
