from django.apps import AppConfig


class SeatingConfig(AppConfig):
    name = "tdsystem.seating"
    label = "seating"

    def ready(self) -> None:
        from tdsystem.events import hooks

        from . import views_dayend, views_flights

        hooks.register(console_panel=("above_clock", views_flights.console_panel))
        hooks.register(console_panel=("below_clock", views_dayend.console_panel))
