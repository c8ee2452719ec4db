from django.apps import AppConfig


class PrintingConfig(AppConfig):
    name = "tdsystem.printing"
    label = "printing"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects the receivers)
