from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "tdsystem.events"
    label = "events"

    def ready(self) -> None:
        from tdsystem.core import screencache
        from tdsystem.core.restore import restored

        from .selectors import screens_family
        from .services import clocks_rearm

        restored.connect(clocks_rearm, dispatch_uid="events.clocks_rearm")
        # A change to a flight changes what its main event's and sibling flights' screens
        # show (the whole event's pool and entries): their cached answers go with it.
        screencache.family_register(screens_family)
