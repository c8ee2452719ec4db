from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "tdsystem.events"
    label = "events"

    def ready(self) -> None:
        from tdsystem.core.restore import restored

        from .services import clocks_rearm

        restored.connect(clocks_rearm, dispatch_uid="events.clocks_rearm")
