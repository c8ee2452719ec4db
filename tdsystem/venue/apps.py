from django.apps import AppConfig


class VenueConfig(AppConfig):
    name = "tdsystem.venue"
    label = "venue"
