"""A player's own page's JSON: `GET /api/me/<token>` (docs/api.md, "The player's page").

The token of the secret link is the key: no other authentication, and nothing but this
entry's details. The page polls it each second with the ETag of its last answer, and is
answered 304 without a body while nothing changed (`players.selectors.me_answer`).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.http import http_date
from django.utils.translation import gettext as _
from ninja import Field, Router
from ninja.responses import NinjaJSONEncoder

from tdsystem.core.languages import screen_language
from tdsystem.players.selectors import link_read, me_answer
from tdsystem.players.views import link_seen

from .common import READ_ERRORS
from .errors import NotFound
from .events import JSON, NEVER_CACHE, SERVER_TIME, unchanged
from .schemas import LastHands, Out, Payout

router = Router(tags=["Players"], exclude_unset=True)
_ENCODER = NinjaJSONEncoder()


class MeEvent(Out):
    id: int
    name: str


class MeMove(Out):
    id: int
    table: int = Field(description="The table to go to.")
    seat: int
    from_table: int
    from_seat: int
    at: str = Field(json_schema_extra={"format": "date-time"})
    reason: str = Field(description="balance, break, redraw, manual or reserved.")
    reason_label: str = Field(description="The reason in the reader's language.")


class MeChips(Out):
    count: int
    at: str = Field(json_schema_extra={"format": "date-time"})


class MeDay2(Out):
    event_id: int
    event_name: str
    number: int = Field(description="The entry's number in Day 2.")
    table: int | None = Field(description="Null until Day 2's seats are drawn.")
    seat: int | None


class MeReentry(Out):
    price: str = Field(description="The re-entry's price, fee included.")


class MeClock(Out):
    status: str
    level: int | None
    on_break: bool
    break_note: str | None
    small_blind: int | None
    big_blind: int | None
    ante: int | None
    small_bet: int | None
    big_bet: int | None
    duration_ms: int
    remaining_ms: int = Field(description="At server_time; count down from level_ends_at.")
    level_ends_at: str | None = Field(json_schema_extra={"format": "date-time"})
    players_left: int
    entries: int
    average_stack: int | None
    prize_pool: str
    in_the_money: bool
    late_registration_open: bool
    last_hands: LastHands | None
    payouts: list[Payout] = Field(description="The first paid places.")
    paid_places: int


class Me(Out):
    event: MeEvent
    entry: int = Field(description="The entry's number in the event.")
    player: str
    status: str = Field(description="active, busted, or carried (through to Day 2).")
    table: int | None
    seat: int | None
    move: MeMove | None = Field(
        description='The move slip naming this player, until they tap "I\'m there" or the '
        "floor acknowledges it; null otherwise."
    )
    place: int | None = Field(description="Once out: the place (the first of a tie).")
    place_to: int | None = Field(description="The last place of a tie (= place otherwise).")
    prize: str | None
    prize_paid: bool
    chips: MeChips | None = Field(description="The last count the floor recorded.")
    breaking_next: bool = Field(description="The player's table is the next to break.")
    hand_for_hand: bool
    day2: MeDay2 | None
    reentry: MeReentry | None = Field(description="A re-entry the rules allow now, once out.")
    clock: MeClock
    server_time: str = Field(json_schema_extra={"format": "date-time"})


@router.get(
    "/me/{token}",
    response={200: Me, **READ_ERRORS},
    url_name="me",
    summary="Read a player's own page",
    description="The entry of a player's secret link (`/me/<token>/`): the seat, the move "
    "slip to follow, the clock, the chip count, the finish. 404 for an unknown or revoked "
    "token. Send the last answer's ETag in If-None-Match: 304 without a body while nothing "
    "changed (the server's time in X-Server-Time). The answer may be up to "
    "`SCREEN_CACHE_SECONDS` (1 s) old.",
)
def me(request: HttpRequest, token: str):
    link = link_read(token)
    if link is None or link.entry_id is None:
        raise NotFound(_("no such player's page"))
    screen_language(request, link.screen_language)
    link_seen(link.pk)
    answer = me_answer(link)
    if unchanged(request, answer.tag):
        response = HttpResponse(status=304)
        del response.headers["Content-Type"]
    else:
        response = HttpResponse(_ENCODER.encode(answer.as_json()), content_type=JSON)
    response.headers["ETag"] = answer.tag
    response.headers[SERVER_TIME] = answer.server_time
    response.headers["Expires"] = http_date()
    response.headers["Cache-Control"] = NEVER_CACHE
    return response
