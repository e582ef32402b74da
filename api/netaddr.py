"""The address other devices on the table's network reach this server at.

``tablebank serve --host 0.0.0.0`` listens on every interface, but "0.0.0.0" is no address a
phone can open: ``public_url`` turns the bind address into one, with ``lan_address`` for the
machine's address on its local network. Nothing here sends a packet.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable

LOOPBACK = "127.0.0.1"
EVERY_INTERFACE = frozenset({"0.0.0.0", "::", "[::]", ""})
# Any private address will do: connect() on a UDP socket sends nothing, it only asks the kernel
# which route, and so which source address, a packet there would take. Not a .255 address,
# which may be a broadcast address and is then refused.
ROUTE_PROBE = ("10.254.254.254", 1)


def lan_address() -> str:
    """This machine's IPv4 address on its local network, else ``"127.0.0.1"``."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(ROUTE_PROBE)
            address = str(probe.getsockname()[0])
        if not is_local_only(address):
            return address
    except OSError:  # no route at all: no network, or not up yet
        pass
    try:
        address = socket.gethostbyname(socket.gethostname())
        if not is_local_only(address):  # Debian maps the host name to 127.0.1.1
            return address
    except OSError:
        pass
    return LOOPBACK


def is_local_only(host: str) -> bool:
    """Whether only this machine can reach ``host``: a loopback or unspecified address, or
    ``localhost``."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:  # a host name: assume the network resolves it
        return False
    return address.is_loopback or address.is_unspecified


def url_host(host: str) -> str:
    """``host`` as the host part of a URL: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def public_url(host: str, port: int, find: Callable[[], str] | None = None) -> str | None:
    """The URL other devices open for a server bound to ``host:port`` (for every interface, the
    address ``find``, by default ``lan_address``, returns), or None if only this machine can."""
    if host in EVERY_INTERFACE:
        host = (find or lan_address)()
    if is_local_only(host):
        return None
    return f"http://{url_host(host)}:{port}"
