from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "tdsystem.events"
    label = "events"
