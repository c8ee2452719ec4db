"""Names in a reader's order: the Unicode Collation Algorithm (pyuca, with the Unicode
default table), not the database's byte order.

"ánh" sorts beside "Anh", not after "Zed"; "ＡＢＣ" (full width) beside "abc"; upper and
lower case together; Arabic, kana and kanji in their Unicode blocks' order. The default
table is the same for every language: tailorings of one language (Vietnamese "đ" as a
letter after "d", for instance) are not applied (docs/languages.md).
"""

from __future__ import annotations

from functools import lru_cache

from pyuca import Collator  # type: ignore[import-untyped]


@lru_cache(maxsize=1)
def _collator() -> Collator:
    return Collator()


def name_order(name: str) -> tuple[int, ...]:
    """The sort key of a name as people read it (use with `sorted(key=...)`)."""
    key: tuple[int, ...] = _collator().sort_key(name)
    return key
