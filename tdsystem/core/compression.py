"""Compressed answers: Django's GZipMiddleware, for text only.

Every TV and phone of the room polls: uncompressed, the clock JSON of a big field and the
room's pages were most of the venue network's traffic (docs/load-and-faults.md, "Bytes
a poll"). Pictures and files that are compressed already (PNG, the backups, PDF) are
passed on as they are: compressing them again costs CPU for nothing. whitenoise serves
the static files' own .gz copies, which carry Content-Encoding and are left alone here.

BREACH (compression over TLS leaking a secret the page holds, guessed byte by byte from
the answers' lengths with input the attacker reflects into the same page): the secrets a
page holds here are the CSRF token, masked afresh for every answer by Django so no two
answers hold the same bytes, and the CSP nonce, new for every answer; Django's
GZipMiddleware also pads each answer with up to 100 random bytes (Heal The Breach). The
session and CSRF cookies travel in headers, which gzip does not touch. The public JSON
(the clock, the seats) holds no secret at all.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

COMPRESSED_TYPES = (
    "text/html",
    "text/plain",
    "text/css",
    "text/csv",
    "text/javascript",
    "application/javascript",
    "application/json",
    "image/svg+xml",
)


class TextGZipMiddleware(GZipMiddleware):
    """GZipMiddleware for the text types above only."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        kind = response.get("Content-Type", "").split(";", 1)[0].strip().lower()
        if kind not in COMPRESSED_TYPES:
            return response
        return super().process_response(request, response)
