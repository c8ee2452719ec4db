"""A webhook receiver for the tests: a real HTTP server on 127.0.0.1 in a thread, which
answers the statuses it is given in turn (the last one again and again) and keeps what
it was sent."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    headers: Message  # case-insensitive, as a web framework's
    body: bytes


@dataclass
class Receiver:
    statuses: list[int] = field(default_factory=lambda: [200])
    received: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receiver.received.append(Received(self.headers, body))
                status = receiver.statuses[min(len(receiver.received), len(receiver.statuses)) - 1]
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
