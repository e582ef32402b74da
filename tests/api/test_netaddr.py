"""This machine's address on the table's network, found without sending a packet: the sockets
are fakes that record what was asked of them and fail the test if anything is sent."""

from __future__ import annotations

import socket
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from api import netaddr


@dataclass
class FakeNetwork:
    """Stands in for the ``socket`` module: a route's source address, or no route at all, and
    what the host name resolves to."""

    source: str | None = "192.168.1.20"  # None: connect() finds no route
    hostname: str = "bank"
    resolves_to: str | None = "127.0.1.1"  # None: the host name does not resolve
    sockets: list[FakeSocket] = field(default_factory=list)

    def module(self) -> SimpleNamespace:
        return SimpleNamespace(
            AF_INET=socket.AF_INET,
            SOCK_DGRAM=socket.SOCK_DGRAM,
            socket=self.socket,
            gethostname=lambda: self.hostname,
            gethostbyname=self.gethostbyname,
        )

    def socket(self, family: int, kind: int) -> FakeSocket:
        made = FakeSocket(self, family, kind)
        self.sockets.append(made)
        return made

    def gethostbyname(self, name: str) -> str:
        if name != self.hostname or self.resolves_to is None:
            raise socket.gaierror(-2, "Name or service not known")
        return self.resolves_to


@dataclass
class FakeSocket:
    network: FakeNetwork
    family: int
    kind: int
    connected_to: tuple[str, int] | None = None
    closed: bool = False

    def __enter__(self) -> FakeSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.closed = True

    def connect(self, address: tuple[str, int]) -> None:
        if self.network.source is None:
            raise OSError(101, "Network is unreachable")
        self.connected_to = address

    def getsockname(self) -> tuple[str, int]:
        assert self.connected_to is not None
        return (str(self.network.source), 40000)

    def __getattr__(self, name: str) -> Any:
        pytest.fail(f"lan_address called socket.{name}: it must send nothing")


@pytest.fixture
def network(monkeypatch: pytest.MonkeyPatch) -> FakeNetwork:
    fake = FakeNetwork()
    monkeypatch.setattr(netaddr, "socket", fake.module())
    return fake


def test_lan_address_is_the_source_of_the_route_to_a_private_address(
    network: FakeNetwork,
) -> None:
    assert netaddr.lan_address() == "192.168.1.20"
    (probe,) = network.sockets
    assert (probe.family, probe.kind) == (socket.AF_INET, socket.SOCK_DGRAM)
    assert probe.connected_to == ("10.254.254.254", 1)
    assert probe.closed


def test_lan_address_falls_back_to_the_host_name_without_a_route(network: FakeNetwork) -> None:
    network.source = None
    network.resolves_to = "192.168.1.30"
    assert netaddr.lan_address() == "192.168.1.30"


def test_lan_address_skips_a_route_through_loopback(network: FakeNetwork) -> None:
    network.source = "127.0.0.1"
    network.resolves_to = "10.0.0.7"
    assert netaddr.lan_address() == "10.0.0.7"


def test_lan_address_is_loopback_when_the_host_name_maps_to_loopback(
    network: FakeNetwork,
) -> None:
    network.source = None  # Debian's /etc/hosts: the host name is 127.0.1.1
    assert netaddr.lan_address() == "127.0.0.1"


def test_lan_address_is_loopback_when_nothing_resolves(network: FakeNetwork) -> None:
    network.source = None
    network.resolves_to = None
    assert netaddr.lan_address() == "127.0.0.1"


@pytest.mark.parametrize("every", ["0.0.0.0", "::", "[::]", ""])
def test_every_interface_is_opened_at_the_lan_address(every: str) -> None:
    assert netaddr.public_url(every, 8000, lambda: "192.168.1.20") == "http://192.168.1.20:8000"


def test_every_interface_without_a_lan_address_is_for_this_machine_only() -> None:
    assert netaddr.public_url("0.0.0.0", 8000, lambda: "127.0.0.1") is None


def test_public_url_finds_the_lan_address_when_it_is_asked(network: FakeNetwork) -> None:
    network.source = "10.1.2.3"
    assert netaddr.public_url("0.0.0.0", 8080) == "http://10.1.2.3:8080"


@pytest.mark.parametrize(
    ("host", "url"),
    [
        ("192.168.1.7", "http://192.168.1.7:8000"),
        ("fd00::5", "http://[fd00::5]:8000"),
        ("bank.lan", "http://bank.lan:8000"),
    ],
)
def test_a_specific_host_is_opened_at_that_address(host: str, url: str) -> None:
    def unused() -> str:
        raise AssertionError("a specific host needs no search")

    assert netaddr.public_url(host, 8000, unused) == url


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])
def test_a_loopback_host_is_for_this_machine_only(host: str) -> None:
    assert netaddr.public_url(host, 8000) is None


def test_url_host_brackets_ipv6_only() -> None:
    assert netaddr.url_host("::") == "[::]"
    assert netaddr.url_host("[::1]") == "[::1]"
    assert netaddr.url_host("0.0.0.0") == "0.0.0.0"
