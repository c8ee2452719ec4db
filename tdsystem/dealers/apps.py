from django.apps import AppConfig


class DealersConfig(AppConfig):
    name = "tdsystem.dealers"
    label = "dealers"

    def ready(self) -> None:
        from tdsystem.results.simulation import alongside_register

        from . import receivers  # noqa: F401  (connects the receivers)
        from .simulation import DealersAlongside

        alongside_register("dealers", DealersAlongside)
