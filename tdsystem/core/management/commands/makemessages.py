"""Django's makemessages, also collecting `ngettext_noop(singular, plural)`: the plural
log summaries (`core.log.Text`) whose number is known only when read."""

from django.core.management.commands.makemessages import Command as MakeMessages


class Command(MakeMessages):
    xgettext_options = [*MakeMessages.xgettext_options, "--keyword=ngettext_noop:1,2"]
