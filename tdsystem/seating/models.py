"""Players, entries, the venue's tables, the event's tables with their seats, and moves."""

from __future__ import annotations

import unicodedata

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop
from django_countries.fields import CountryField

from tdsystem.core.log import Text
from tdsystem.events.models import Event

HOLD_REASON_MAX = 80  # why a seat is reserved, or why a player must not move


# Letters that carry their mark inside them (no decomposition), read as their plain letter
# when searching: "Đặng" is found by "dang", "Łukasz" by "lukasz".
_PLAIN_LETTERS = str.maketrans({"đ": "d", "ł": "l", "ø": "o", "æ": "ae", "œ": "oe", "ı": "i"})
# The kana voicing marks are letters of their own ("ガ" is not "カ"), not accents.
_KANA_MARKS = {"\u3099", "\u309a"}


def name_key(name: str) -> str:
    """A name as a director reads it: case, spacing and width do not count, accents do.

    "ann  LEE" is "Ann Lee"; full-width "ＡＮＮ" is "ANN"; half-width "ｱﾝ" is "アン";
    "José" is not "Jose" (two names; the name is kept as entered).
    """
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def search_key(text: str) -> str:
    """A name as a search reads it: name_key without accents or other marks, so "Nguyen"
    finds "Nguyễn" and "jose" finds "José" (a search may show one name too many, never
    miss one)."""
    decomposed = unicodedata.normalize("NFKD", name_key(text))
    plain = "".join(
        ch for ch in decomposed if ch in _KANA_MARKS or not unicodedata.category(ch).startswith("M")
    )
    return unicodedata.normalize("NFKC", plain.translate(_PLAIN_LETTERS))


class Player(models.Model):
    name = models.CharField(max_length=120)
    # name_key(name), stored and indexed so a registration finds the same name in a field of
    # thousands with one index look-up (Python's casefold: SQLite's LOWER() is ASCII only).
    name_key = models.CharField(max_length=240, db_index=True, editable=False, default="")
    # search_key(name): what the seat search matches a part of.
    search_key = models.CharField(max_length=240, editable=False, default="")
    member_id = models.CharField(max_length=40, blank=True)
    # Where the player comes from, when the desk knows it (ISO 3166 code): the results
    # files a ranking site takes list it.
    country = CountryField(blank=True)
    note = models.CharField(
        max_length=60,
        blank=True,
        help_text=_("Tells two players of the same name apart (e.g. “from Lyon”)."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["member_id"], condition=~Q(member_id=""), name="player_member_id_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.note})" if self.note else self.name

    def save(self, *args, **kwargs) -> None:
        self.name_key = name_key(self.name)
        self.search_key = search_key(self.name)
        fields = kwargs.get("update_fields")
        if fields is not None and "name" in fields:
            kwargs["update_fields"] = {*fields, "name_key", "search_key"}
        super().save(*args, **kwargs)


class VenueTable(models.Model):
    """A physical table in the room."""

    number = models.PositiveIntegerField(unique=True)
    seats = models.PositiveSmallIntegerField(default=9)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seats__gte=2) & Q(seats__lte=10), name="venue_table_seats_range"
            )
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"


class EventTable(models.Model):
    """A venue table in use by an event, with its button and blinds (seat numbers)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tables")
    venue_table = models.ForeignKey(VenueTable, on_delete=models.PROTECT, related_name="uses")
    number = models.PositiveIntegerField()
    seats = models.PositiveSmallIntegerField()
    in_play = models.BooleanField(default=True)
    break_rank = models.PositiveIntegerField(
        default=0, help_text=_("Tables break in increasing rank (default: highest number first).")
    )
    button = models.PositiveSmallIntegerField(null=True, blank=True)
    small_blind = models.PositiveSmallIntegerField(null=True, blank=True)
    big_blind = models.PositiveSmallIntegerField(null=True, blank=True)
    hand_number = models.PositiveIntegerField(default=0)
    sitting_out = models.JSONField(
        default=list,
        blank=True,
        help_text=_("Seats not dealt into the current hand: newcomers waiting for the button."),
    )
    broken_at = models.DateTimeField(null=True, blank=True)
    # The end of a day (DayEnd): the hands this table has still to play; null otherwise.
    hands_left = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["event_id", "number"]
        indexes = [
            # The break order among the tables in play (`seatmap.table_spread` reads the
            # first of them with a player, without sorting every table).
            models.Index(
                fields=["event", "in_play", "break_rank", "-number"], name="event_table_break_order"
            ),
        ]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="event_table_unique"),
            models.UniqueConstraint(
                fields=["venue_table"],
                condition=Q(in_play=True),
                name="venue_table_one_event_at_a_time",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"


class TableCount(models.Model):
    """The players seated at a table, counted as they sit down and leave: kept by the
    database's own triggers on the entries table (migration 0015), in the transaction
    that seats, moves, busts or deletes an entry, so every path keeps it, the ORM's or not.

    A bust-out asks whether the tables need a break or a move (`seatmap.table_spread`):
    one row of sums over these counts, where counting each table's seats cost a row a
    table (the figures: docs/load-and-faults.md). No foreign key, as with the field's
    counts (results.FieldCount): the row of a deleted table is left behind, at zero once
    its entries are gone, rather than put back by a trigger while the table is deleted.
    `manage.py check_counters` compares every row with the entries (`results.counters`).
    """

    table_id = models.BigIntegerField(primary_key=True)
    # Kept by the triggers on seating_entry (migration 0015): seating_tablecount_insert,
    # _delete, and on a change of table _leave and _join (SQLite) or _update (PostgreSQL).
    players = models.IntegerField(default=0)

    def __str__(self) -> str:
        return f"Table {self.table_id}: {self.players} players"


class SpreadCount(models.Model):
    """An event's tables in play that have a player, by their head count: for each count
    of players, how many tables have that many (`tables`) and their seats (`seats`).
    Kept by the database's own triggers on the head counts and the tables (migration
    0016), in the transaction that changes either, as `TableCount` is kept.

    A bust-out's test of whether anything is to do (`seatmap.table_spread`) sums these
    few rows (one per head count, nine or ten an event) instead of every table in play,
    so it costs the same whatever the field. A count no table has any more stays behind
    at zero tables. No foreign key, as with `TableCount`. `manage.py check_counters`
    compares every row with the tables and entries (`results.counters`).
    """

    event_id = models.BigIntegerField()
    players = models.IntegerField()
    # `tables` and `seats` are kept by the triggers of migration 0016: on
    # seating_tablecount (seating_spreadcount_count_insert, _count_update: a table's head
    # count changed) and on seating_eventtable (seating_spreadcount_table_insert,
    # _table_delete, _table_update: a table made, deleted, in or out of play, resized).
    tables = models.IntegerField(default=0)
    seats = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event_id", "players"], name="spread_count_unique")
        ]

    def __str__(self) -> str:
        return f"Event {self.event_id}: {self.tables} tables of {self.players} players"


class Entry(models.Model):
    """One buy-in of a player into an event (a re-entry is a new entry)."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        BUSTED = "busted", _("Busted")
        # A flight's survivor once its event combined Day 2: the bag plays on there.
        CARRIED = "carried", _("Through to Day 2")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveIntegerField(help_text=_("Entry number within the event."))
    is_reentry = models.BooleanField(default=False)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE)
    chips = models.PositiveBigIntegerField(help_text=_("Chips bought into play by this entry."))
    chips_removed = models.PositiveBigIntegerField(
        default=0, help_text=_("Chips taken out of play (house-rule elimination).")
    )
    paid = models.DecimalField(
        max_digits=12, decimal_places=2, default=0, help_text=_("Prize-pool share of the buy-ins.")
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    # RESTRICT, not SET_NULL: a seat without its table would break the check below, and a
    # table with players seated is never deleted on its own (only with its event).
    table = models.ForeignKey(
        EventTable, null=True, blank=True, on_delete=models.RESTRICT, related_name="entries"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # A seat kept for a player with special needs (TDA 9): its number, at this table
    # number when it matters, else at whichever table the player sits.
    reserved_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    reserved_table = models.PositiveIntegerField(null=True, blank=True)
    reserve_reason = models.CharField(
        max_length=HOLD_REASON_MAX,
        blank=True,
        help_text=_("Why the seat is kept, e.g. “wheelchair”."),
    )
    # Balancing never moves this player; a break of their table still does.
    do_not_move = models.BooleanField(default=False)
    do_not_move_reason = models.CharField(max_length=HOLD_REASON_MAX, blank=True)
    # Day 2 of a festival: the flight entry whose bag this entry plays on with.
    carried_from = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="carried_to"
    )

    class Meta:
        ordering = ["event_id", "number"]
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="entry_number_unique"),
            models.UniqueConstraint(
                fields=["table", "seat"],
                condition=Q(table__isnull=False),
                name="one_player_per_seat",
            ),
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=Q(status="active"),
                name="one_active_entry_per_player",
            ),
            models.CheckConstraint(
                condition=Q(table__isnull=True, seat__isnull=True)
                | Q(table__isnull=False, seat__isnull=False),
                name="entry_table_and_seat_together",
            ),
            models.CheckConstraint(
                condition=Q(status="active") | Q(table__isnull=True),
                name="busted_entry_has_no_seat",
            ),
            models.CheckConstraint(
                condition=Q(reserved_seat__isnull=True, reserved_table__isnull=True)
                | Q(reserved_seat__gte=1, reserved_seat__lte=10),
                name="entry_reserved_seat_range",
            ),
            models.UniqueConstraint(
                fields=["event", "reserved_table", "reserved_seat"],
                condition=Q(status="active", reserved_table__isnull=False),
                name="one_reservation_per_seat",
            ),
        ]
        indexes = [
            models.Index(fields=["event", "status"], name="entry_event_status"),
            # The few players the seating holds (a reserved seat, do not move), read on
            # every change of seats: found without scanning the field.
            models.Index(
                fields=["event"],
                condition=Q(reserved_seat__isnull=False) | Q(do_not_move=True),
                name="entry_held",
            ),
            # The field's size and pool (results' `field_read`, on every bust-out) counted
            # from this index alone, without reading the field's rows.
            models.Index(fields=["event", "status", "carried_from", "paid"], name="entry_field"),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.player.name}" if self.player_id else f"#{self.number}"


class Move(models.Model):
    """An instruction to the floor: a player changes seat. Acknowledged once done."""

    class Reason(models.TextChoices):
        BALANCE = "balance", _("Balancing")
        BREAK = "break", _("Table break")
        REDRAW = "redraw", _("Redraw")
        MANUAL = "manual", _("Director")
        RESERVED = "reserved", _("Reserved seat")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="moves")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="moves")
    from_table = models.PositiveIntegerField()
    from_seat = models.PositiveSmallIntegerField()
    to_table = models.PositiveIntegerField()
    to_seat = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=8, choices=Reason.choices)
    dealt_in = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # The player tapped "I'm there" on their own page (the floor sees it on the slip).
    player_there_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["event", "acknowledged_at"], name="move_event_pending"),
            # The pending slips counted by table (`selectors.pending_slip_counts`) and a
            # table's own found: read from these in order, not sorted, however many.
            models.Index(
                fields=["event", "to_table", "to_seat"],
                condition=Q(acknowledged_at__isnull=True),
                name="move_pending_to",
            ),
            models.Index(
                fields=["event", "from_table"],
                condition=Q(acknowledged_at__isnull=True),
                name="move_pending_from",
            ),
        ]

    def __str__(self) -> str:
        return str(self.text())

    def text(self) -> Text:
        """The slip as a sentence in the reader's language (the log keeps it so)."""
        where = {
            "name": self.entry.player.name,
            "from_table": self.from_table,
            "from_seat": self.from_seat,
            "to_table": self.to_table,
            "to_seat": self.to_seat,
        }
        if self.dealt_in:
            return Text(
                gettext_noop(
                    "%(name)s: table %(from_table)s seat %(from_seat)s "
                    "to table %(to_table)s seat %(to_seat)s"
                ),
                **where,
            )
        return Text(
            gettext_noop(
                "%(name)s: table %(from_table)s seat %(from_seat)s "
                "to table %(to_table)s seat %(to_seat)s (waits for the button)"
            ),
            **where,
        )


class Purchase(models.Model):
    """One buy of chips by an entry: its buy-in, a rebuy or an add-on.

    Entry.chips and Entry.paid are the running sums of these rows; the rows say who bought
    what and when, for the prize pool and for disputes.
    """

    class Kind(models.TextChoices):
        ENTRY = "entry", _("Buy-in")
        REENTRY = "reentry", _("Re-entry")
        REBUY = "rebuy", _("Rebuy")
        ADDON = "addon", _("Add-on")
        # A Day 2 entry's bagged stack, carried from its flight (no money: the flight's
        # buy-in is already in the pool).
        CARRY = "carry", _("Carried stack")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="purchases")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="purchases")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    amount = models.DecimalField(
        max_digits=12, decimal_places=2, help_text=_("Share of the prize pool.")
    )
    fee = models.DecimalField(
        max_digits=12, decimal_places=2, default=0, help_text=_("The house's fee, kept apart.")
    )
    chips = models.PositiveBigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    actor_label = models.CharField(max_length=150)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gte=0), name="purchase_amount_not_negative"),
            models.CheckConstraint(condition=Q(fee__gte=0), name="purchase_fee_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of entry {self.entry_id}: {self.chips} chips"


class TableDevice(models.Model):
    """A tablet fixed to a venue table: its login opens that table's page and no other."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_device"
    )
    venue_table = models.ForeignKey(VenueTable, on_delete=models.CASCADE, related_name="devices")

    def __str__(self) -> str:
        return f"{self.user} at table {self.venue_table.number}"


class DayEnd(models.Model):
    """The end of a day of play (WSOP R125): a random number of last hands, drawn when the
    director starts them, then every stack bagged and tagged. One per event and day. With
    three tables or fewer the day runs the clock out: `hands` is 0 and every table bags."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="day_ends")
    day = models.PositiveSmallIntegerField()
    hands = models.PositiveSmallIntegerField(
        help_text=_("The last hands every table plays (0: the day ran the clock out).")
    )
    started_at = models.DateTimeField(auto_now_add=True)
    # When the day closed: every stack bagged, the clock stopped for the night.
    closed_at = models.DateTimeField(null=True, blank=True)
    actor_label = models.CharField(max_length=150)

    class Meta:
        ordering = ["event_id", "day"]
        constraints = [
            models.UniqueConstraint(fields=["event", "day"], name="day_end_unique"),
            models.CheckConstraint(
                condition=Q(hands__gte=0) & Q(hands__lte=20), name="day_end_hands_range"
            ),
        ]

    def __str__(self) -> str:
        return f"End of day {self.day} of event {self.event_id}: {self.hands} hands"


class Bag(models.Model):
    """A survivor's stack at the end of a day: counted, sealed in a numbered bag."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="bags")
    day = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="bags")
    chips = models.PositiveBigIntegerField()
    number = models.CharField(max_length=20, help_text=_("The number on the bag."))
    table_number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    actor_label = models.CharField(max_length=150)

    class Meta:
        ordering = ["event_id", "day", "table_number", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["event", "day", "entry"], name="bag_one_per_entry"),
            models.UniqueConstraint(fields=["event", "day", "number"], name="bag_number_unique"),
            models.CheckConstraint(condition=Q(chips__gt=0), name="bag_chips_gt_0"),
        ]

    def __str__(self) -> str:
        return f"Bag {self.number}: entry {self.entry_id}, {self.chips} chips"


class Ticket(models.Model):
    """A seat in an event won (in a satellite) or given: its holder registers in the target
    without paying again; the ticket's value goes into the target's prize pool."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tickets")
    target = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="tickets")
    source = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="tickets_won"
    )
    value = models.DecimalField(max_digits=12, decimal_places=2)
    note = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    actor_label = models.CharField(max_length=150)
    used_by = models.OneToOneField(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="ticket"
    )
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["target_id", "created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(value__gte=0), name="ticket_value_not_negative"),
        ]

    def __str__(self) -> str:
        return f"Ticket of {self.player} for event {self.target_id}"
