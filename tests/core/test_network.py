"""The venue network: own addresses, the public address for other devices, host checks."""

from __future__ import annotations

import pytest
from django.http.request import validate_host

from tdsystem.core import network


def test_it_finds_a_lan_address_among_the_machines_own():
    lan = network.lan_address()
    if lan is None:
        pytest.skip("this machine has no network address")
    assert lan in network.interface_addresses()
    assert network.host_pattern(lan) in network.own_hosts()


def test_it_lists_loopback_names_and_the_host_name():
    hosts = network.own_hosts()
    assert {"localhost", "127.0.0.1", "[::1]"} <= set(hosts)
    assert all(name in hosts for name in network.host_names())


def test_it_spells_ipv6_in_brackets():
    assert network.host_pattern("fd00::2") == "[fd00::2]"
    assert network.host_pattern("192.168.1.5") == "192.168.1.5"


@pytest.mark.parametrize(
    ("bind", "expected"),
    [("0.0.0.0:8000", ("0.0.0.0", 8000)), ("[::]:9000", ("::", 9000)), ("8001", ("", 8001))],
)
def test_it_splits_a_bind_address(bind, expected):
    assert network.split_bind(bind) == expected


@pytest.mark.parametrize("bind", ["localhost", "1.2.3.4:http", "1.2.3.4:70000", ""])
def test_it_rejects_a_bad_bind_address(bind):
    with pytest.raises(ValueError, match="HOST:PORT"):
        network.split_bind(bind)


def test_it_links_devices_to_public_url_first():
    base = network.public_base(public_url="https://poker.venue.example", bind="0.0.0.0:8000")
    assert base == ("https://poker.venue.example", "PUBLIC_URL")


def test_it_links_devices_to_the_lan_address_when_listening_everywhere(monkeypatch):
    monkeypatch.setattr(network, "lan_address", lambda: "192.168.1.23")
    assert network.public_base(bind="0.0.0.0:8123")[0] == "http://192.168.1.23:8123"


def test_it_links_devices_to_the_one_address_it_listens_on(monkeypatch):
    monkeypatch.setattr(network, "lan_address", lambda: "192.168.1.23")
    assert network.public_base(bind="10.0.0.7:8000")[0] == "http://10.0.0.7:8000"


def test_it_falls_back_to_loopback_and_says_so_without_a_network(monkeypatch):
    monkeypatch.setattr(network, "lan_address", lambda: None)
    assert network.public_base(bind="0.0.0.0:8000") == ("http://127.0.0.1:8000", "no network found")


def test_public_url_never_reads_the_request(settings, monkeypatch):
    settings.PUBLIC_URL = ""
    monkeypatch.setenv("WEB_BIND", "0.0.0.0:8000")
    monkeypatch.setattr(network, "lan_address", lambda: "192.168.1.23")
    assert network.public_url("/events/1/seats/") == "http://192.168.1.23:8000/events/1/seats/"
    settings.PUBLIC_URL = "https://poker.venue.example"
    assert network.public_url("/x") == "https://poker.venue.example/x"


def test_own_hosts_accept_this_machine_and_refuse_any_other_host():
    hosts = network.OwnHosts(source=lambda: ["localhost", "192.168.1.23", "[fd00::2]"])
    assert validate_host("192.168.1.23", hosts)
    assert validate_host("[fd00::2]", hosts)
    assert not validate_host("evil.example", hosts)
    assert not validate_host("192.168.1.24", hosts)
    assert isinstance(hosts, list) and len(hosts) == 3
    assert [*hosts, "testserver"][-1] == "testserver"


def test_own_hosts_follow_a_new_dhcp_address_after_the_ttl(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(network.time, "monotonic", lambda: now[0])
    current = ["192.168.1.23"]
    hosts = network.OwnHosts(["poker.venue.example"], ttl=5, source=lambda: list(current))
    assert "192.168.1.23" in hosts
    current[:] = ["192.168.1.77"]
    now[0] += 4
    assert "192.168.1.77" not in hosts  # at most one read every few seconds
    now[0] += 2
    assert "192.168.1.77" in hosts and "192.168.1.23" not in hosts
    assert "poker.venue.example" in hosts


@pytest.mark.parametrize("value", ["ftp://x.example", "poker.example", "https://", "http://a/?q=1"])
def test_it_rejects_a_bad_public_url(value):
    with pytest.raises(ValueError, match="expected http"):
        network.parse_public_url(value)


def test_it_keeps_a_good_public_url_without_its_trailing_slash():
    assert network.parse_public_url(" https://poker.example:8443/ ") == "https://poker.example:8443"
    assert network.parse_public_url("") == ""


@pytest.mark.parametrize(
    ("url", "local"),
    [("http://127.0.0.1:8000/x", True), ("http://[::1]:8000/", True),
     ("http://localhost:8000/", True), ("http://192.168.1.5:8000/", False),
     ("https://poker.example/", False)],
)  # fmt: skip
def test_it_tells_a_link_only_this_machine_can_open(url, local):
    assert network.is_loopback_url(url) is local
