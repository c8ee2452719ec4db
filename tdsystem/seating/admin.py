"""Admin for looking things up and for tying a tablet to its table.

Seats are changed through the seating console and its services (they lock, balance and
log); the admin shows entries, moves and buys read-only.
"""

from __future__ import annotations

from django.contrib import admin
from django.db import models

from tdsystem.core.forms import TextField

from .models import Entry, EventTable, Move, Player, Purchase, TableDevice, VenueTable


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "member_id", "created_at")
    search_fields = ("name", "member_id")
    formfield_overrides = {models.CharField: {"form_class": TextField}}  # name, note, id


@admin.register(VenueTable)
class VenueTableAdmin(admin.ModelAdmin):
    list_display = ("number", "seats")


@admin.register(TableDevice)
class TableDeviceAdmin(admin.ModelAdmin):
    list_display = ("user", "venue_table")
    autocomplete_fields = ("user",)


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(EventTable)
class EventTableAdmin(ReadOnly):
    list_display = ("number", "event", "seats", "in_play", "button", "small_blind", "big_blind")
    list_filter = ("in_play",)


@admin.register(Entry)
class EntryAdmin(ReadOnly):
    list_display = ("number", "player", "event", "status", "table", "seat", "chips")
    list_filter = ("status",)
    search_fields = ("player__name",)
    list_select_related = ("player", "event", "table")


@admin.register(Move)
class MoveAdmin(ReadOnly):
    list_display = ("__str__", "reason", "created_at", "acknowledged_at")
    list_select_related = ("entry__player",)


@admin.register(Purchase)
class PurchaseAdmin(ReadOnly):
    list_display = ("entry", "kind", "chips", "amount", "created_at", "actor_label")
