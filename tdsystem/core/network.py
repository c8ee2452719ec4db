"""The venue network: this machine's own addresses, and the public address that links for
other devices (TVs, phones, table tablets) carry.

Nothing here sends a packet. The LAN address is the source address the kernel picks for a
UDP socket "connected" to an outside address (a UDP connect only looks up a route), and the
interface addresses come from the operating system's list (getifaddrs through `ifaddr`).

The public address never comes from a request's Host header: a director who opens the QR
poster on the laptop at http://127.0.0.1:8000 must still print a code the phones can reach.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import threading
import time
from collections.abc import Iterable, Iterator
from urllib.parse import urlsplit

import ifaddr

# Documentation addresses (RFC 5737, RFC 3849): only used to ask for a route, never reached.
_ROUTE_PROBES = (
    (socket.AF_INET, ("203.0.113.1", 9)),
    (socket.AF_INET6, ("2001:db8::1", 9)),
)
LOOPBACK_NAMES = ("localhost", ".localhost", "127.0.0.1", "[::1]")
WILDCARDS = ("", "0.0.0.0", "::", "[::]")
DEFAULT_BIND = "0.0.0.0:8000"


def lan_address() -> str | None:
    """The address other devices on the venue network reach this machine at, or None when
    there is no network (only loopback). IPv4 first: phones type and scan it more easily."""
    for family, probe in _ROUTE_PROBES:
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect(probe)
                address = s.getsockname()[0]
        except OSError:
            continue
        ip = ipaddress.ip_address(address.split("%", 1)[0])
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local):
            return address
    return None


def interface_addresses() -> set[str]:
    """Every address of every interface, IPv6 without its zone (Django compares the Host
    header's address, which carries none)."""
    addresses: set[str] = set()
    try:
        adapters = ifaddr.get_adapters()
    except OSError:
        adapters = []
    for adapter in adapters:
        for ip in adapter.ips:
            addresses.add(ip.ip[0].split("%", 1)[0] if isinstance(ip.ip, tuple) else ip.ip)
    return addresses


def host_names() -> set[str]:
    """This machine's own names: as it calls itself, and on mDNS (.local), the names a phone
    on the venue network may know it by. No DNS look-up (getfqdn): at a venue without a
    name server it would hang a request for seconds."""
    name = socket.gethostname().lower()
    short = name.split(".", 1)[0]
    names = {name, short, f"{short}.local"}
    return {n for n in names if n and n not in ("localhost", "localhost.local")}


def host_pattern(address: str) -> str:
    """An address or name as Django's ALLOWED_HOSTS spells it: IPv6 in brackets."""
    return f"[{address}]" if ":" in address else address


def own_hosts() -> list[str]:
    """Loopback names, this machine's names and every interface address."""
    found = {host_pattern(a) for a in interface_addresses()} | host_names()
    lan = lan_address()
    if lan:
        found.add(host_pattern(lan))
    return [*LOOPBACK_NAMES, *sorted(found - set(LOOPBACK_NAMES))]


class OwnHosts(list):
    """ALLOWED_HOSTS for the embedded run: this machine's own addresses and names (and the
    extra hosts given, such as PUBLIC_URL's), read again at most every `ttl` seconds, so a
    laptop whose DHCP address changes during the night keeps answering its TVs. Any other
    Host is refused, as a fixed list would. A list, since Django insists on one; reads go
    through the fresh copy, and the list's own items follow it for code that reads them
    directly."""

    def __init__(self, extra: Iterable[str] = (), *, ttl: float = 5.0, source=own_hosts):
        super().__init__()
        self._extra = tuple(extra)
        self._ttl, self._source = ttl, source
        self._hosts: tuple[str, ...] = ()
        self._read_at = float("-inf")
        self._lock = threading.Lock()

    def _current(self) -> tuple[str, ...]:
        if time.monotonic() - self._read_at >= self._ttl:
            with self._lock:
                if time.monotonic() - self._read_at >= self._ttl:
                    self._hosts = (*self._source(), *self._extra)
                    super().__setitem__(slice(None), self._hosts)
                    self._read_at = time.monotonic()
        return self._hosts

    def __getitem__(self, index):
        return self._current()[index]

    def __len__(self) -> int:
        return len(self._current())

    def __iter__(self) -> Iterator[str]:
        return iter(self._current())

    def __contains__(self, host: object) -> bool:
        return host in self._current()

    def __repr__(self) -> str:
        return f"OwnHosts({list(self._current())!r})"


def split_bind(bind: str) -> tuple[str, int]:
    """("0.0.0.0", 8000) from "0.0.0.0:8000", ("::", 8000) from "[::]:8000"; a bare port
    means every address. ValueError on anything else."""
    host, sep, port = bind.rpartition(":")
    if not sep:
        host, port = "", bind
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{bind!r}: expected HOST:PORT, e.g. 0.0.0.0:8000")
    return host.strip("[]"), int(port)


def public_base(*, public_url: str = "", bind: str = "") -> tuple[str, str]:
    """(base URL for other devices, where it comes from). PUBLIC_URL wins; a run bound to one
    address gives that address; a run on every address gives the LAN address, or 127.0.0.1
    when the machine has no network."""
    if public_url:
        return public_url.rstrip("/"), "PUBLIC_URL"
    host, port = split_bind(bind or os.environ.get("WEB_BIND", DEFAULT_BIND))
    if host not in WILDCARDS:
        return f"http://{host_pattern(host)}:{port}", "the address it listens on"
    lan = lan_address()
    if lan:
        return f"http://{host_pattern(lan)}:{port}", "the LAN address"
    return f"http://127.0.0.1:{port}", "no network found"


def public_url(path: str = "") -> str:
    """The absolute URL of `path` for another device (the QR poster, the table draw, the
    API's examples), from settings.PUBLIC_URL or the machine's current LAN address."""
    from django.conf import settings

    base, _ = public_base(public_url=settings.PUBLIC_URL)
    return base + path


def parse_public_url(value: str) -> str:
    """PUBLIC_URL checked: http(s)://host[:port][/prefix], without a query; '' stays ''."""
    value = value.strip().rstrip("/")
    if not value:
        return ""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
        raise ValueError(f"{value!r}: expected http(s)://HOST[:PORT], e.g. https://poker.example")
    return value


def is_loopback_url(url: str) -> bool:
    """True when the URL names this machine only (127.x, ::1, localhost)."""
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
