"""The embedded run on the venue network: the real `manage.py runsystem` (gunicorn, the push
process, worker, beat) with a var dir of its own, reached on a second loopback address with
the machine's LAN address as the Host, as a TV or a phone would reach it. Traffic goes to
127.0.0.0/8 only; the LAN address is only discovered (a UDP connect sends nothing) and
named."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import time

import pytest
import zxingcpp

from tdsystem.core import network

from .runs import migrated, run_environment, runsystem, wait_for_banner
from .servers import _kill_group, free_port

pytestmark = [pytest.mark.worker, pytest.mark.slow]


def get(address: str, port: int, path: str, host: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection(address, port, timeout=10)
    try:
        connection.request("GET", path, headers={"Host": host})
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def decode_svg_qr(html: str) -> str:
    """The text of the inline SVG QR code (qrcode's path image: one square per module)."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', html).group(1))
    scale = 8
    pixels = bytearray(b"\xff" * (size * scale) ** 2)
    width = size * scale
    for x, y in re.findall(r"M(\d+),(\d+)H", html):
        for row in range(int(y) * scale, (int(y) + 1) * scale):
            start = row * width + int(x) * scale
            pixels[start : start + scale] = b"\x00" * scale
    code = zxingcpp.read_barcode(memoryview(bytes(pixels)).cast("B", (width, width)))
    assert code is not None, "no QR code found in the poster"
    return code.text


def test_it_serves_the_venue_network_from_the_embedded_run(tmp_path):
    lan = network.lan_address()
    if lan is None:
        pytest.skip("this machine has no network address to name in the Host header")
    env = run_environment(tmp_path / "var")
    migrated(env, demo=True)
    port = free_pair()
    log = tmp_path / "runsystem.log"
    proc = runsystem(env, port, log, host="0.0.0.0")
    lan_host = f"{network.host_pattern(lan)}:{port}"
    try:
        printed = wait_for_banner(proc, log)
        lookup = re.search(r"Player seat lookup: (\S+)", printed).group(1)
        assert lookup == f"http://{lan_host}/seats/", printed  # the stable address
        assert f"Director console (this laptop): http://127.0.0.1:{port}/console/" in printed
        assert "▄▄▄▄▄" in printed  # the terminal QR code
        assert f"Players' own pages:             sent their changes from port {port + 1}" in (
            printed
        )

        # A TV on the venue network: the LAN address as Host, on another loopback address.
        status, body = get("127.0.0.2", port, "/healthz", lan_host)
        assert status in (200, 503) and '"database"' in body
        status, _ = get("127.0.0.2", port, "/", lan_host)
        assert status == 200
        assert get("127.0.0.2", port, "/", "evil.example")[0] == 400  # never any Host
        status, _ = get("127.0.0.2", port, "/clock/", lan_host)
        assert status == 302  # to the demo's clock screen

        # A phone's page asks the push process, on the next port, for its stream: an unknown
        # link is refused there as on the web server.
        status, body = get("127.0.0.2", port + 1, "/api/me/no-such-link/stream", lan_host)
        assert status == 404 and '"detail"' in body
        status, page = get("127.0.0.2", port, "/me/no-such-link/", lan_host)
        assert status == 404

        # The poster opened on the laptop itself still carries the LAN address (the
        # permanent one, /seats/poster/, for the stable lookup).
        path = lookup.removeprefix(f"http://{lan_host}") + "poster/"
        status, poster = get("127.0.0.1", port, path, f"127.0.0.1:{port}")
        assert status == 200
        assert decode_svg_qr(poster) == lookup
        assert f'<p class="url" dir="ltr">{lookup}</p>' in poster and "127.0.0.1" not in poster

        # DEBUG is off: an unknown URL is the house 404, with no debug page.
        status, page = get("127.0.0.2", port, "/no/such/page/", lan_host)
        assert status == 404 and "This page is not here" in page
        assert "Traceback" not in page and "URLconf" not in page
        key = tmp_path / "var" / "secret-key"
        assert key.exists() and key.stat().st_mode & 0o777 == 0o600

        os.kill(proc.pid, signal.SIGTERM)  # as Ctrl-C: all three stop
        proc.wait(20)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not _refused(port):
            time.sleep(0.2)
        assert _refused(port), "the web server outlived runsystem"
        assert _refused(port + 1), "the push process outlived runsystem"
    finally:
        _kill_group(proc)


def free_pair() -> int:
    """A free port whose next one is free too (the push process's)."""
    while True:
        port = free_port()
        with socket.socket() as s:
            try:
                s.bind(("0.0.0.0", port + 1))
            except OSError:
                continue
        return port


def _refused(port: int) -> bool:
    try:
        get("127.0.0.1", port, "/healthz", f"127.0.0.1:{port}")
    except OSError:
        return True
    return False
