from django.apps import AppConfig


class DealersConfig(AppConfig):
    name = "tdsystem.dealers"
    label = "dealers"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects the receivers)
