"""Bytes to a printer: on the network (`tcp://host:9100`, the raw port of most receipt
printers) or into a device or plain file (`file:///dev/usb/lp0` for a USB printer
the kernel knows, any other path for a test).

A printer that refuses the connection, does not answer within the timeout, or says it is
out of paper raises `Unavailable` with what happened; nothing was printed then.
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

from django.utils.translation import gettext as _

DEFAULT_PORT = 9100
# DLE EOT 4: the paper roll sensor's status. Bits 5 and 6 set: the paper has run out.
STATUS_PAPER = b"\x10\x04\x04"
PAPER_OUT = 0x60


class Unavailable(Exception):
    """The printer could not take the document; the reason is for the console."""


def check_url(url: str) -> str:
    """The address as stored, or ValueError saying what a printer's address looks like."""
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme == "tcp":
        try:
            port = parts.port
        except ValueError:
            port = -1
        if not parts.hostname or port == -1 or parts.path not in ("", "/"):
            raise ValueError(_("a network printer's address is tcp://HOST:PORT"))
        return f"tcp://{parts.netloc}"
    if parts.scheme == "file" and parts.path.startswith("/") and not parts.netloc:
        return url
    raise ValueError(
        _("a printer's address is tcp://HOST:9100 or file:///dev/usb/lp0 (a device or a file)")
    )


def send(url: str, data: bytes, *, timeout: float, status_timeout: float = 0) -> None:
    parts = urlsplit(url)
    if parts.scheme == "tcp":
        _send_tcp(parts.hostname or "", parts.port or DEFAULT_PORT, data, timeout, status_timeout)
    elif parts.scheme == "file":
        try:
            with open(parts.path, "ab") as device:
                device.write(data)
        except OSError as exc:
            raise Unavailable(exc.strerror or str(exc)) from exc
    else:
        raise Unavailable(_("not a printer's address: %(url)s") % {"url": url})


def _send_tcp(host: str, port: int, data: bytes, timeout: float, status_timeout: float) -> None:
    try:
        connection = socket.create_connection((host, port), timeout=timeout)
    except TimeoutError as exc:
        raise Unavailable(
            _("no answer from %(host)s:%(port)s") % {"host": host, "port": port}
        ) from exc
    except OSError as exc:
        raise Unavailable(
            _("%(host)s:%(port)s: %(error)s")
            % {"host": host, "port": port, "error": exc.strerror or exc}
        ) from exc
    with connection:
        try:
            if status_timeout > 0 and _paper_out(connection, status_timeout):
                raise Unavailable(_("out of paper"))
            connection.settimeout(timeout)
            connection.sendall(data)
            connection.shutdown(socket.SHUT_WR)
        except OSError as exc:
            raise Unavailable(
                _("%(host)s:%(port)s: %(error)s")
                % {"host": host, "port": port, "error": exc.strerror or exc}
            ) from exc


def _paper_out(connection: socket.socket, wait: float) -> bool:
    """Ask the paper sensor; a printer that does not answer in time is taken to have paper
    (some do not answer status requests on their network port)."""
    connection.sendall(STATUS_PAPER)
    connection.settimeout(wait)
    try:
        answer = connection.recv(1)
    except TimeoutError:
        return False
    return bool(answer) and answer[0] & PAPER_OUT == PAPER_OUT
