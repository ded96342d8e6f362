"""The address phones can reach: NIGHTSHIFT_PUBLIC_URL, else the LAN address read from the network interfaces."""

from __future__ import annotations

import ipaddress
import socket
import time
from dataclasses import dataclass

import psutil

# Interfaces that carry a machine's own virtual networks, which no phone on the Wi-Fi can reach.
VIRTUAL_PREFIXES = ("lo", "docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "cni", "flannel", "podman",
                    "tailscale", "zt", "utun", "tun", "tap", "wg")


@dataclass(frozen=True)
class Address:
    """A candidate address and the interface it was read from."""

    interface: str
    ip: str


# The machine's addresses, read at most this often: every host reply names the join link, and reading the network
# interfaces (psutil) cost more than the rest of a move's reply. A laptop that changes Wi-Fi shows it within a minute.
READ_EVERY = 60.0
_read: tuple[float, list[Address]] | None = None


def candidates(interfaces: dict | None = None, stats: dict | None = None) -> list[Address]:
    """Every IPv4 address on an up, non-virtual interface, best first; no packet is sent to find them."""
    global _read
    if interfaces is None and stats is None:
        if _read is None or time.monotonic() - _read[0] > READ_EVERY:
            _read = (time.monotonic(), _candidates(psutil.net_if_addrs(), psutil.net_if_stats()))
        return list(_read[1])
    return _candidates(psutil.net_if_addrs() if interfaces is None else interfaces,
                       psutil.net_if_stats() if stats is None else stats)


def _candidates(interfaces: dict, stats: dict) -> list[Address]:
    found = []
    for name, addresses in interfaces.items():
        if name in stats and not stats[name].isup:
            continue
        for address in addresses:
            if address.family != socket.AF_INET:
                continue
            ip = ipaddress.ip_address(address.address)
            if ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified:
                continue
            found.append(Address(name, address.address))
    return sorted(found, key=_rank)


def _rank(address: Address) -> tuple:
    ip = ipaddress.ip_address(address.ip)
    virtual = address.interface.lower().startswith(VIRTUAL_PREFIXES)
    home_network = ip in ipaddress.ip_network("192.168.0.0/16")
    return (virtual, not ip.is_private, not home_network, address.interface, address.ip)


@dataclass(frozen=True)
class BaseUrl:
    """The base of the join link, and a sentence saying where it came from (shown on the host screen)."""

    url: str
    source: str
    reachable: bool  # False when only a loopback address was left: phones cannot use it


def base_url(public_url: str, port: int, fallback_host: str, found: list[Address] | None = None,
             scheme: str = "http") -> BaseUrl:
    """NIGHTSHIFT_PUBLIC_URL when set; otherwise the best LAN address and the port the server answers on, over
    `scheme` (https under `nightshift --https`)."""
    if public_url:
        return BaseUrl(public_url.rstrip("/"), "NIGHTSHIFT_PUBLIC_URL", True)
    found = candidates() if found is None else found
    usable = [address for address in found if not address.interface.lower().startswith(VIRTUAL_PREFIXES)]
    if usable:
        best = usable[0]
        return BaseUrl(f"{scheme}://{best.ip}:{port}", f"the LAN address of interface {best.interface}", True)
    return BaseUrl(f"{scheme}://{fallback_host}", "this browser's address (no LAN interface was found)", False)
