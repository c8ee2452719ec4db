"""Players' names, notes and member ids stored in Unicode NFC, as core.text stores every
new one: "José" typed as e + combining accent is stored as é, one player with the José
typed as é.

Two players whose names now read the same stay two players: the name was never unique, and
a registration finds namesakes by the name key, which already read both spellings as one
(NFKC). A member id is unique: one whose NFC form another player holds already is left as
it was (the two were always two members), so the migration never fails on a collision.
Nothing else of the name changes here (its spaces, its characters): only what NFC changes.
"""

import unicodedata

from django.db import migrations

FIELDS = ("name", "note", "member_id")
BATCH = 2000


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def names_nfc(apps, schema_editor):
    Player = apps.get_model("seating", "Player")
    changed = []
    for player in Player.objects.only("id", *FIELDS).iterator(chunk_size=BATCH):
        if all(unicodedata.is_normalized("NFC", getattr(player, f)) for f in FIELDS):
            continue
        member_id = _nfc(player.member_id)
        if member_id != player.member_id:
            taken = Player.objects.filter(member_id=member_id).exclude(pk=player.pk).exists()
            if not taken and not any(p.member_id == member_id for p in changed):
                player.member_id = member_id
        player.name, player.note = _nfc(player.name), _nfc(player.note)
        changed.append(player)
        if len(changed) == BATCH:
            Player.objects.bulk_update(changed, FIELDS)
            changed = []
    Player.objects.bulk_update(changed, FIELDS)


class Migration(migrations.Migration):
    dependencies = [
        ("seating", "0016_spread_count"),
    ]

    operations = [
        migrations.RunPython(names_nfc, migrations.RunPython.noop),
    ]
