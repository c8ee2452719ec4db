from django.apps import AppConfig


class ResultsConfig(AppConfig):
    name = "tdsystem.results"
    label = "results"

    def ready(self) -> None:
        from tdsystem.events import hooks
        from tdsystem.seating import hooks as seating_hooks
        from tdsystem.seating.services.dayend import bag_hook_register

        from . import signals  # noqa: F401  (connects the receivers)
        from .bag_counts import bags_counted
        from .services.cashier import field_changes, paid_places
        from .services.handforhand import clock_hold
        from .services.satellites import satellite_finished

        hooks.register(clock_hold=clock_hold, finished=satellite_finished)
        bag_hook_register(bags_counted)
        seating_hooks.register(paid_places=paid_places, field_changes=field_changes)
