"""Log summaries are kept as a message id with its parameters: each reader reads them in
their own language, and `summary` keeps the English."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.log import Text, log_record, text_of

pytestmark = pytest.mark.django_db
ACTOR = Actor(label="dora")


def test_a_text_is_stored_with_its_parameters_and_its_english(event):
    entry = log_record(
        event=event,
        actor=ACTOR,
        action="test.text",
        summary=Text(gettext_noop("Entry #%(number)s: %(name)s"), number=12, name="Nguyễn"),
    )
    assert entry.summary == "Entry #12: Nguyễn"
    assert entry.data["message"] == {
        "msgid": "Entry #%(number)s: %(name)s",
        "params": {"number": 12, "name": "Nguyễn"},
    }
    assert entry.text == "Entry #12: Nguyễn"


def test_a_text_may_quote_another_and_the_reader_translates_both(event, monkeypatch):
    first = log_record(
        event=event, actor=ACTOR, action="a", summary=Text(gettext_noop("Clock paused"))
    )
    undo = log_record(
        event=event,
        actor=ACTOR,
        action="b",
        summary=Text(gettext_noop("Undone: %(action)s"), action=text_of(first)),
    )
    assert undo.summary == "Undone: Clock paused"
    catalogue = {"Undone: %(action)s": "取り消し: %(action)s", "Clock paused": "一時停止"}
    monkeypatch.setattr("tdsystem.core.log.gettext", lambda s: catalogue.get(s, s))
    with translation.override("ja"):
        assert undo.text == "取り消し: 一時停止"


def test_an_entry_written_as_plain_text_reads_as_it_was_written(event):
    entry = log_record(event=event, actor=ACTOR, action="old", summary="Levels edited")
    assert entry.text == "Levels edited" and text_of(entry) == "Levels edited"


def test_a_translation_that_does_not_fit_its_parameters_falls_back_to_the_english(
    event, monkeypatch
):
    entry = log_record(
        event=event, actor=ACTOR, action="a", summary=Text(gettext_noop("#%(n)s out"), n=3)
    )
    monkeypatch.setattr("tdsystem.core.log.gettext", lambda s: "%(missing)s")
    assert entry.text == "#3 out"


def test_a_plural_text_reads_with_the_count(event, monkeypatch):
    from tdsystem.core.log import ngettext_noop

    entry = log_record(
        event=event,
        actor=ACTOR,
        action="a",
        summary=Text(ngettext_noop("%(count)s slip", "%(count)s slips"), count=3),
    )
    one = log_record(
        event=event,
        actor=ACTOR,
        action="a",
        summary=Text(ngettext_noop("%(count)s slip", "%(count)s slips"), count=1),
    )
    assert (entry.summary, one.summary) == ("3 slips", "1 slip")
    monkeypatch.setattr(
        "tdsystem.core.log.ngettext", lambda s, p, n: "%(count)s 枚" if n else "なし"
    )
    assert entry.text == "3 枚"


def test_a_plural_text_without_its_count_is_refused():
    from tdsystem.core.log import ngettext_noop

    with pytest.raises(TypeError, match="count"):
        Text(ngettext_noop("%(count)s slip", "%(count)s slips"), n=3)


def test_makemessages_collects_the_plural_log_messages(tmp_path):
    import subprocess

    source = tmp_path / "x.py"
    source.write_text('Text(ngettext_noop("%(count)s slip", "%(count)s slips"), count=n)\n')
    from tdsystem.core.management.commands.makemessages import Command

    out = subprocess.run(
        ["xgettext", "--language=Python", *Command.xgettext_options, "-o", "-", str(source)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert 'msgid "%(count)s slip"' in out and 'msgid_plural "%(count)s slips"' in out


def test_a_grouped_number_reads_with_the_readers_thousands_separator(event):
    from tdsystem.core.log import Grouped

    entry = log_record(
        event=event,
        actor=ACTOR,
        action="a",
        summary=Text(gettext_noop("%(chips)s chips"), chips=Grouped(1234567)),
    )
    assert entry.summary == "1,234,567 chips"
    assert entry.data["message"]["params"] == {"chips": {"grouped": 1234567}}
    with translation.override("vi"):
        assert "1.234.567" in entry.text
    undo = Text(gettext_noop("Undone: %(action)s"), action=text_of(entry))
    assert undo.english() == "Undone: 1,234,567 chips"


def test_a_grouped_amount_keeps_its_english_and_reads_as_the_results_pages_show_money(event):
    from decimal import Decimal

    from tdsystem.core.log import Grouped

    entry = log_record(
        event=event,
        actor=ACTOR,
        action="a",
        summary=Text(gettext_noop("Prize %(prize)s"), prize=Grouped(Decimal("1200.00"))),
    )
    assert entry.summary == "Prize 1200.00"
    with translation.override("vi"):
        assert entry.text.endswith(" 1.200") or entry.text == "Prize 1.200"
    assert text_of(entry).english() == "Prize 1200.00"


def test_a_page_reads_the_names_and_numbers_isolated_from_the_sentence(event, monkeypatch):
    """In an Arabic line "#10 Jonas Berg" must not read "Jonas Berg 10#": the page's log
    puts each parameter in <bdi>, escaped; a quoted phrase is part of the sentence."""
    entry = log_record(
        event=event,
        actor=ACTOR,
        action="a",
        summary=Text(
            gettext_noop("%(who)s out: %(why)s"),
            who="#10 Jonas <Berg>",
            why=Text(gettext_noop("Clock paused")),
        ),
    )
    catalogue = {"%(who)s out: %(why)s": "خرج %(who)s: %(why)s", "Clock paused": "أوقفت"}
    monkeypatch.setattr("tdsystem.core.log.gettext", lambda s: catalogue.get(s, s))
    with translation.override("ar"):
        assert entry.html == "خرج <bdi>#10 Jonas &lt;Berg&gt;</bdi>: أوقفت"
        assert entry.text == "خرج #10 Jonas <Berg>: أوقفت"


def test_a_page_escapes_the_sentence_itself(event):
    entry = log_record(event=event, actor=ACTOR, action="a", summary=Text("Tom & <Jerry>"))
    assert entry.html == "Tom &amp; &lt;Jerry&gt;"
    plain = log_record(event=event, actor=ACTOR, action="b", summary="Levels <edited>")
    assert str(plain.html) == "Levels <edited>"  # plain text: the template escapes it
