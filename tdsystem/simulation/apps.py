from django.apps import AppConfig


class SimulationConfig(AppConfig):
    name = "tdsystem.simulation"
    label = "simulation"
