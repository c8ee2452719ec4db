"""A network receipt printer on loopback: it records what each connection sends.

It answers the paper status request (DLE EOT 4) as a printer with paper does, or as one
without (`paper_out`), and can be switched off (`stop`: connections are refused) and on
again on the same port (`start`), as a printer unplugged for a while.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time

STATUS_REQUEST = b"\x10\x04\x04"
PAPER_OK = b"\x12"
PAPER_END = b"\x72"


class FakePrinter:
    def __init__(self) -> None:
        self.port = 0
        self.received: list[bytes] = []  # one item a connection, the status request left out
        self.paper_out = False
        self._server: socket.socket | None = None
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"tcp://127.0.0.1:{self.port}"

    def start(self) -> None:
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", self.port))
        server.listen(8)
        self.port = server.getsockname()[1]
        self._server = server
        threading.Thread(target=self._serve, args=(server,), daemon=True).start()

    def stop(self) -> None:
        if self._server is not None:
            # Shut down first: a thread blocked in accept() would keep a closed socket
            # listening.
            with contextlib.suppress(OSError):
                self._server.shutdown(socket.SHUT_RDWR)
            self._server.close()
            self._server = None

    def documents(self, count: int = 0, timeout: float = 10) -> list[bytes]:
        """What it printed, once it has `count` documents at least (a sender is done when its
        bytes are sent, a moment before they are all read here)."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                if len(self.received) >= count or time.monotonic() > deadline:
                    return list(self.received)
            time.sleep(0.02)

    def _serve(self, server: socket.socket) -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:
                return  # stopped
            threading.Thread(target=self._take, args=(connection,), daemon=True).start()

    def _take(self, connection: socket.socket) -> None:
        data = b""
        with connection:
            connection.settimeout(10)
            try:
                while chunk := connection.recv(65536):
                    data += chunk
                    if data.startswith(STATUS_REQUEST) and len(data) == len(STATUS_REQUEST):
                        connection.sendall(PAPER_END if self.paper_out else PAPER_OK)
            except OSError:
                pass
        data = data.removeprefix(STATUS_REQUEST)
        if data:
            with self._lock:
                self.received.append(data)
