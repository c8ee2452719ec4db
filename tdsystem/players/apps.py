from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "tdsystem.players"
    label = "players"

    def ready(self) -> None:
        from tdsystem.results.signals import players_out
        from tdsystem.seating.models import Move
        from tdsystem.seating.signals import moves_applied

        from . import signals, tasks_webhooks, webhooks  # noqa: F401  (the tasks registered)

        moves_applied.connect(
            webhooks.moves_made, sender=Move, dispatch_uid="players-webhooks-moved"
        )
        signals.seat_ready.connect(webhooks.seat_made_ready, dispatch_uid="players-webhooks-seat")
        players_out.connect(webhooks.players_busted, dispatch_uid="players-webhooks-out")

        from . import receivers  # noqa: F401  (connects them)
