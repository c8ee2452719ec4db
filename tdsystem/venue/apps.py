from django.apps import AppConfig


class VenueConfig(AppConfig):
    name = "tdsystem.venue"
    label = "venue"

    def ready(self) -> None:
        from .hooks import register
        from .ruling_table import register as register_ruling_table

        register()
        register_ruling_table()
