from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "tdsystem.players"
    label = "players"
