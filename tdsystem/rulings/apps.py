from django.apps import AppConfig


class RulingsConfig(AppConfig):
    name = "tdsystem.rulings"
    label = "rulings"
