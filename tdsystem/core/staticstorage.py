"""The static files' storage when DEBUG is off: WhiteNoise's compressed manifest storage,
with each file's address worked out once a process.

Every page names its style sheets and scripts (`{% static %}`), and the manifest storage
works each address out again every time (the manifest's lookup, then joining it to
STATIC_URL). The manifest is read once, when the process starts, and collectstatic runs
before a release starts its processes (docs/deployment.md), so an address worked out once
is the one it would work out again. A name the manifest lacks is not kept: it raises, as
before, every time.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ManifestStorage(CompressedManifestStaticFilesStorage):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._urls: dict[str, str] = {}

    def url(self, name, force=False):
        if force or name is None:
            return super().url(name, force)
        try:
            return self._urls[name]
        except KeyError:
            address = self._urls[name] = super().url(name)
            return address
