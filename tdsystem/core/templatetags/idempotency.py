"""`{% idempotency_key %}`: a form's hidden key (core.idempotency), fresh at each render.

A form that creates something carries one: sent twice (a double tap, a browser sending
it again after a dropped connection) it changes things once, and the second sending gets
the first one's answer. static/js/page-actions.js gives the form a fresh key once an
answer has come, for the form's next use.
"""

from __future__ import annotations

import secrets

from django import template
from django.utils.html import format_html

from tdsystem.core.idempotency import FORM_FIELD

register = template.Library()


@register.simple_tag
def idempotency_key() -> str:
    return format_html(
        '<input type="hidden" name="{}" value="{}" autocomplete="off" data-idempotency-key>',
        FORM_FIELD,
        secrets.token_hex(16),
    )
