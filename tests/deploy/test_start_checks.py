"""What a machine checks or sets at start: its static files before the web server serves,
and the database settings behind a transaction pooler."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from .test_deploy_files import ROOT


def start(code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=os.environ | {"DEBUG": "0", "SECRET_KEY": "start-check-only", **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_web_server_refuses_to_start_without_its_static_files(tmp_path):
    env = {"VAR_DIR": str(tmp_path)}
    missing = start("import tdsystem.wsgi", **env)
    assert missing.returncode == 1
    assert (
        f"The static files are not collected on this machine (no manifest in {tmp_path}/"
        "staticfiles): run `python manage.py collectstatic --noinput` here"
    ) in missing.stderr
    collect = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT, env=os.environ | {"DEBUG": "0", "SECRET_KEY": "x", **env}, timeout=120,
    )  # fmt: skip
    assert collect.returncode == 0
    assert start("import tdsystem.wsgi", **env).returncode == 0
    # An older release's manifest: a file of this release is missing from it.
    manifest = tmp_path / "staticfiles" / "staticfiles.json"
    stored = json.loads(manifest.read_text())
    del stored["paths"]["js/clock.js"]
    manifest.write_text(json.dumps(stored))
    stale = start("import tdsystem.wsgi", **env)
    assert stale.returncode == 1
    assert "are an older release's: js/clock.js missing" in stale.stderr


def test_behind_a_transaction_pooler_nothing_outlives_a_transaction():
    show = (
        "from django.conf import settings as s; d = s.DATABASES['default']; "
        "print(d.get('DISABLE_SERVER_SIDE_CURSORS', False), "
        "d['OPTIONS'].get('prepare_threshold', 'default'), d['CONN_MAX_AGE'])"
    )
    url = {"DATABASE_URL": "postgres://tdsystem@127.0.0.1:6432/tdsystem"}
    pooled = start(f"import django; django.setup(); {show}", DB_TRANSACTION_POOLER="1", **url)
    assert pooled.stdout.split() == ["True", "None", "0"], pooled.stderr
    direct = start(f"import django; django.setup(); {show}", **url)
    assert direct.stdout.split() == ["False", "default", "0"], direct.stderr
