from django.apps import AppConfig


class ResultsConfig(AppConfig):
    name = "tdsystem.results"
    label = "results"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the receivers)
