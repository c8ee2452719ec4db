"""deploy/: each file checked by the tool that reads it, where it is installed (systemd's
systemd-analyze, nginx -t, the compose-spec schema through check-jsonschema), and its
shape read with PyYAML or by line. A missing tool skips its check, saying which, unless
REQUIRE_DEPLOY_TOOLS=1 (CI installs them: .ci/run).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNITS = (
    "tdsystem-web.service",
    "tdsystem-push.service",
    "tdsystem-worker.service",
    "tdsystem-clock.service",
)
INSTALLED = "/opt/tdsystem"  # where the units and the nginx site expect the project


def tool(name: str) -> str:
    """The tool's path; skips (or fails under REQUIRE_DEPLOY_TOOLS=1) when it is missing."""
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if found:
        return found
    if os.environ.get("REQUIRE_DEPLOY_TOOLS") == "1":
        pytest.fail(f"REQUIRE_DEPLOY_TOOLS=1 but {name} is missing")
    pytest.skip(f"{name} is not installed: its check of deploy/ does not run")


def unit_lines(name: str, key: str) -> list[str]:
    text = (DEPLOY / "systemd" / name).read_text()
    return [line.split("=", 1)[1] for line in text.splitlines() if line.startswith(f"{key}=")]


def test_the_units_pass_systemd_analyze_verify(tmp_path):
    verify = tool("systemd-analyze")
    # Verify checks that each command exists: point them at this checkout's.
    for name in UNITS:
        text = (DEPLOY / "systemd" / name).read_text().replace(INSTALLED, str(ROOT))
        (tmp_path / name).write_text(text)
    done = subprocess.run(
        [verify, "verify", "--man=no", *(str(tmp_path / n) for n in UNITS)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    # A value systemd cannot read is a warning with exit status 0: no output at all is
    # the pass.
    assert (done.returncode, done.stderr.strip()) == (0, ""), done.stderr


def test_the_units_run_the_documented_commands():
    assert unit_lines("tdsystem-web.service", "ExecStartPre") == [
        f"{INSTALLED}/.venv/bin/python manage.py collectstatic --noinput --verbosity 0"
    ]
    assert unit_lines("tdsystem-web.service", "ExecStart") == [
        f"{INSTALLED}/.venv/bin/gunicorn tdsystem.wsgi"
    ]
    (push,) = unit_lines("tdsystem-push.service", "ExecStart")
    assert push.startswith(f"{INSTALLED}/.venv/bin/uvicorn tdsystem.asgi_push:application ")
    assert unit_lines("tdsystem-push.service", "LimitNOFILE") == ["65536"]
    (worker,) = unit_lines("tdsystem-worker.service", "ExecStart")
    assert worker.startswith(f"{INSTALLED}/.venv/bin/celery -A tdsystem worker ")
    (clock,) = unit_lines("tdsystem-clock.service", "ExecStart")
    assert clock.startswith(f"{INSTALLED}/.venv/bin/celery -A tdsystem beat ")
    for name in UNITS:
        assert unit_lines(name, "EnvironmentFile") == ["/etc/tdsystem/tdsystem.env"]
        assert unit_lines(name, "Restart") == ["always"]


def nginx_site(tmp_path: Path, site: str, **rewrite: str) -> Path:
    """A main configuration holding the site as deployed, its paths moved into tmp_path
    (and `rewrite`'s other strings replaced): nginx -t reads the certificate, the
    snippets and resolves the upstreams."""
    snippets = tmp_path / "snippets"
    snippets.mkdir(parents=True, exist_ok=True)
    static = tmp_path / "static"
    static.mkdir(exist_ok=True)
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    if not cert.exists():
        subprocess.run(
            [tool("openssl"), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
             "-subj", "/CN=td.example.com", "-keyout", str(key), "-out", str(cert)],
            capture_output=True, check=True, timeout=60,
        )  # fmt: skip
    moves = {
        "/etc/nginx/snippets/": f"{snippets}/",
        "/var/lib/tdsystem/staticfiles/": rewrite.pop("static", f"{static}/"),
        "/etc/ssl/tdsystem/fullchain.pem": str(cert),
        "/etc/ssl/tdsystem/privkey.pem": str(key),
        **rewrite,
    }

    def moved(text: str) -> str:
        for old, new in moves.items():
            text = text.replace(old, new)
        return text

    for name in ("tdsystem-proxy.conf", "tdsystem-headers.conf"):
        (snippets / name).write_text(moved((DEPLOY / "nginx" / name).read_text()))
    (tmp_path / "site.conf").write_text(moved((DEPLOY / "nginx" / site).read_text()))
    user = "user root;\n" if os.geteuid() == 0 else ""  # the test's files are root's
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"{user}pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n include /etc/nginx/mime.types;\n access_log {tmp_path}/access.log;\n"
        f" client_body_temp_path {tmp_path}/body;\n proxy_temp_path {tmp_path}/proxy;\n"
        f" include {tmp_path}/site.conf;\n}}\n"
    )
    return conf


@pytest.mark.parametrize(
    ("site", "rewrite"),
    [
        ("tdsystem.conf", {}),
        # The compose network's names resolved here as this machine.
        (
            "compose.conf",
            {
                "server web1:": "server 127.0.0.1:",
                "server web2:": "server localhost:",
                "server push1:": "server 127.0.0.1:",
                "server push2:": "server localhost:",
            },
        ),
    ],
)
def test_the_nginx_sites_pass_nginx_t(tmp_path, site, rewrite):
    nginx = tool("nginx")
    conf = nginx_site(tmp_path, site, **rewrite)
    done = subprocess.run(
        [nginx, "-t", "-c", str(conf), "-p", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "[warn]" not in done.stderr and "[emerg]" not in done.stderr, done.stderr


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def test_the_compose_file_passes_the_compose_spec_schema():
    checker = tool("check-jsonschema")
    done = subprocess.run(
        [checker, "--builtin-schema", "vendor.compose-spec", str(DEPLOY / "compose.yaml")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_compose_file_runs_the_installation_from_the_projects_image():
    services = compose()["services"]
    assert set(services) == {
        "db", "redis", "migrate", "web1", "web2", "push1", "push2", "worker1", "worker2",
        "clock", "proxy",
    }  # fmt: skip
    assert services["db"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    ours = {n: s for n, s in services.items() if n not in ("db", "redis")}
    for name, service in ours.items():
        build = service["build"]
        assert (ROOT / "deploy" / build["context"] / build["dockerfile"]).resolve() == (
            DEPLOY / "Dockerfile"
        ), name
        for needed in service.get("depends_on", {}):
            assert needed in services, f"{name} depends on {needed}"
    stages = re.findall(r"^FROM \S+ AS (\w+)$", (DEPLOY / "Dockerfile").read_text(), re.M)
    assert {s["build"]["target"] for s in ours.values()} == set(stages) == {"app", "proxy"}
    assert (
        services["web1"]["command"] == services["web2"]["command"] == ["gunicorn", "tdsystem.wsgi"]
    )
    assert services["clock"]["command"][:4] == ["celery", "-A", "tdsystem", "beat"]
    for name in ("push1", "push2"):
        assert services[name]["command"][:2] == ["uvicorn", "tdsystem.asgi_push:application"]
        assert name in services["proxy"]["depends_on"]
    for name in ("worker1", "worker2"):
        assert services[name]["command"][:4] == ["celery", "-A", "tdsystem", "worker"]
        assert services[name]["depends_on"]["migrate"]["condition"] == (
            "service_completed_successfully"
        )
    assert services["proxy"]["ports"] == ["${HTTP_PORT:-8080}:80"]
    env = services["web1"]["environment"]
    assert env["TRUSTED_PROXY_COUNT"] == "1" and env["DATABASE_URL"].startswith("postgres://")
    assert env["PUSH_SAME_ORIGIN"] == "1"  # the pages' streams through the proxy


def test_the_dockerfile_builds_from_python_311_slim_with_what_it_copies():
    text = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim AS app$", text, re.M)
    for line in re.findall(r"^COPY (?!--from)(.+)$", text, re.M):
        *sources, _target = line.split()
        for source in sources:
            assert (ROOT / source).exists(), source
    assert 'CMD ["gunicorn", "tdsystem.wsgi"]' in text
    assert "collectstatic" in text  # the manifest is in the image
