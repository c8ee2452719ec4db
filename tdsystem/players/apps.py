from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "tdsystem.players"
    label = "players"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects them)
