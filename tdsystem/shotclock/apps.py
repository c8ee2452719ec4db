from django.apps import AppConfig


class ShotclockConfig(AppConfig):
    name = "tdsystem.shotclock"
    label = "shotclock"

    def ready(self) -> None:
        from tdsystem.results import hooks

        from .views import table_panel

        hooks.register(table_panel=table_panel)
