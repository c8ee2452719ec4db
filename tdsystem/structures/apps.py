from django.apps import AppConfig


class StructuresConfig(AppConfig):
    name = "tdsystem.structures"
    label = "structures"
