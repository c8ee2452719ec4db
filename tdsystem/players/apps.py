from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "tdsystem.players"
    label = "players"

    def ready(self) -> None:
        from tdsystem.seating.models import Move
        from tdsystem.seating.signals import moves_applied

        from . import signals, tasks_webhooks, webhooks  # noqa: F401  (the tasks registered)

        moves_applied.connect(
            webhooks.moves_made, sender=Move, dispatch_uid="players-webhooks-moved"
        )
        signals.seat_ready.connect(webhooks.seat_made_ready, dispatch_uid="players-webhooks-seat")

        from . import receivers  # noqa: F401  (connects them)
