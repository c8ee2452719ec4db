"""Whether this machine's collected static files serve its pages, checked at start.

With DEBUG off every page names its scripts and styles by the hashed names in
STATIC_ROOT's manifest (whitenoise's CompressedManifestStaticFilesStorage), and a name the
manifest lacks fails the page with a 500 ("Missing staticfiles manifest entry"). A web
machine whose static files were collected on another machine, or by an older release,
would then answer 500 on every HTML page while its health URLs said 200. So the web
server refuses to start instead, saying what to run (tdsystem/wsgi.py); the systemd unit
collects them before each start (deploy/systemd/tdsystem-web.service).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage

# collectstatic's own default ignore patterns: files it never collects.
IGNORED = ["CVS", ".*", "*~"]


def static_files_problem() -> str | None:
    """A sentence saying what is wrong with the collected static files, or None when
    every static file of this release is in the manifest (or no manifest is used)."""
    if not isinstance(staticfiles_storage, ManifestFilesMixin):
        return None
    try:
        collected, _hash = staticfiles_storage.load_manifest()
    except ValueError as exc:
        collected = None
        reason = str(exc)
    else:
        reason = "no manifest"
    if not collected:
        return (
            f"The static files are not collected on this machine ({reason} in "
            f"{settings.STATIC_ROOT}): run `python manage.py collectstatic --noinput` here "
            "before starting the web server."
        )
    missing = sorted(
        {path for finder in finders.get_finders() for path, _ in finder.list(IGNORED)}
        - set(collected)
    )
    if missing:
        shown = ", ".join(missing[:5]) + (
            f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        )
        return (
            f"The static files in {settings.STATIC_ROOT} are an older release's: {shown} "
            "missing. Run `python manage.py collectstatic --noinput` here before starting "
            "the web server."
        )
    return None
