from django.apps import AppConfig


class ResultsConfig(AppConfig):
    name = "tdsystem.results"
    label = "results"

    def ready(self) -> None:
        from tdsystem.events import hooks

        from . import signals  # noqa: F401  (connects the receivers)
        from .services.handforhand import clock_hold
        from .services.satellites import satellite_finished
        from .services.snapshot import screen_counts

        hooks.register(
            clock_hold=clock_hold, finished=satellite_finished, field_counts=screen_counts
        )
