from django.apps import AppConfig


class ResultsConfig(AppConfig):
    name = "tdsystem.results"
    label = "results"
