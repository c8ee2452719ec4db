from django.apps import AppConfig


class ResultsConfig(AppConfig):
    name = "tdsystem.results"
    label = "results"

    def ready(self) -> None:
        from tdsystem.events import hooks
        from tdsystem.seating.services.dayend import bag_hook_register

        from . import signals  # noqa: F401  (connects the receivers)
        from .bag_counts import bags_counted
        from .services.handforhand import clock_hold
        from .services.satellites import satellite_finished

        hooks.register(clock_hold=clock_hold, finished=satellite_finished)
        bag_hook_register(bags_counted)
