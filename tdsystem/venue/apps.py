from django.apps import AppConfig


class VenueConfig(AppConfig):
    name = "tdsystem.venue"
    label = "venue"

    def ready(self) -> None:
        from .hooks import register

        register()
