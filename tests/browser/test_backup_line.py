"""The console's last-backup line, its warning and the banner, and the import page, on a
TV, a tablet and a phone."""

from __future__ import annotations

import pytest

from tdsystem.core.backup import BackupError, backup_take
from tests.browser.conftest import PHONE, TABLET, TV, login, screenshot
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"tv": TV, "tablet": TABLET, "phone": PHONE}


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_last_backup_and_its_failure_are_seen_at_every_size(
    live_server, new_page, settings, tmp_path
):
    settings.BACKUP_DIR = tmp_path / "a-long-folder-name-for-the-night" / "backups"
    settings.BACKUP_EVERY_MINUTES = 5
    make_user("dora", "director")
    make_event(600, name="Friday night")
    taken = backup_take()
    for size, viewport in SIZES.items():
        page = new_page(viewport)
        login(page, live_server, "dora", PASSWORD)
        page.goto(f"{live_server.url}/console/")
        line = page.locator(".backup-line")
        assert line.is_visible() and "Last backup" in line.inner_text()
        assert taken.path in line.inner_text()
        assert no_sideways_scroll(page), size
        screenshot(page, f"backup/console-{size}")

    blocked = tmp_path / "usb-pulled-out"
    blocked.write_text("")
    with pytest.raises(BackupError):
        backup_take(into=blocked / "backups")
    for size, viewport in SIZES.items():
        page = new_page(viewport)
        login(page, live_server, "dora", PASSWORD)
        page.goto(f"{live_server.url}/console/")
        assert "The last backup failed at" in page.locator(".backup-line").inner_text()
        page.wait_for_selector(".health-banner:has-text('The last backup failed')")
        assert no_sideways_scroll(page), size
        screenshot(page, f"backup/console-failed-{size}")
        page.goto(f"{live_server.url}/console/events/import/")
        assert page.locator("input[type=file]").is_visible()
        assert no_sideways_scroll(page), size
        screenshot(page, f"backup/import-{size}", full_page=True)
