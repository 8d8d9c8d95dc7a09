"""Where webhooks may be sent (the guard against server-side request forgery): a URL's
form, and the addresses its host is or resolves to. Every address a name resolves to is
checked, and the connection is made to the checked addresses only (GuardedResolver: no
second lookup a rebinding DNS server could answer differently). Refused unless the
operator allows them: private, loopback, link-local, multicast, reserved, unspecified and
other non-global addresses (BRASS_WEBHOOK_ALLOW_PRIVATE=true allows every address;
BRASS_WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8,… allows those networks only).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import SplitResult, urlsplit

from aiohttp.abc import AbstractResolver, ResolveResult

from ..errors import ServiceError

MAX_URL_CHARS = 2048
IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


class TargetRefused(OSError):
    """An address webhooks may not reach; `kind` says why (loopback, private, …). An
    OSError, so that aiohttp hands it back from a resolver as the cause of its error."""

    def __init__(self, address: str, kind: str) -> None:
        super().__init__(f"{address} is a {kind} address")
        self.address = address
        self.kind = kind

    def service_error(self) -> ServiceError:
        return ServiceError("WEBHOOK_TARGET_REFUSED",
                            f"webhooks may not be sent to {self.address} (a {self.kind} "
                            "address)", address=self.address, kind=self.kind)


def address_kind(ip: IpAddress) -> str | None:
    """Why webhooks may not reach `ip` by default, or None for a global address."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    for kind, refused in (("unspecified", ip.is_unspecified), ("loopback", ip.is_loopback),
                          ("link-local", ip.is_link_local), ("multicast", ip.is_multicast),
                          ("reserved", ip.is_reserved), ("private", ip.is_private)):
        if refused:
            return kind
    return None if ip.is_global else "non-global"


@dataclass(frozen=True)
class TargetPolicy:
    allow_private: bool = False
    allowed_networks: tuple[IpNetwork, ...] = ()

    @classmethod
    def parse(cls, allow_private: bool, allowed_networks: str) -> TargetPolicy:
        """The operator's settings; a network that cannot be read is refused (ValueError)."""
        return cls(allow_private, tuple(
            ipaddress.ip_network(item.strip(), strict=False)
            for item in allowed_networks.split(",") if item.strip()))

    def check(self, address: str) -> None:
        """Raises TargetRefused for an address webhooks may not reach."""
        ip = ipaddress.ip_address(address.split("%", 1)[0])
        if self.allow_private or any(ip in network for network in self.allowed_networks):
            return
        kind = address_kind(ip)
        if kind is not None:
            raise TargetRefused(str(ip), kind)

    async def resolve(self, host: str, port: int, family: int = socket.AF_UNSPEC
                      ) -> list[tuple[int, str]]:
        """(family, address) of every address of `host`, each checked (TargetRefused)."""
        if is_ip_literal(host):
            self.check(host)
            ip = ipaddress.ip_address(host)
            return [(socket.AF_INET6 if ip.version == 6 else socket.AF_INET, host)]
        infos = await asyncio.get_running_loop().getaddrinfo(
            host, port, family=family, type=socket.SOCK_STREAM)
        found = [(info[0], str(info[4][0])) for info in infos]
        for _family, address in found:
            self.check(address)
        return found


def is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def parse_target(url: str) -> SplitResult:
    """The URL's parts once its form is acceptable (INVALID_ARGUMENT otherwise)."""
    if len(url) > MAX_URL_CHARS:
        raise ServiceError("INVALID_ARGUMENT", f"url is at most {MAX_URL_CHARS} characters",
                           field="url")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise ServiceError("INVALID_ARGUMENT", f"url cannot be read: {exc}",
                           field="url") from exc
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ServiceError("INVALID_ARGUMENT", "url must be an http:// or https:// URL with "
                           "a host", field="url")
    if parts.username is not None or parts.password is not None:
        raise ServiceError("INVALID_ARGUMENT", "url may not hold a user name or password",
                           field="url")
    if parts.fragment or port == 0:
        raise ServiceError("INVALID_ARGUMENT", "url may not have a fragment or port 0",
                           field="url")
    return parts


def default_port(parts: SplitResult) -> int:
    return parts.port or (443 if parts.scheme == "https" else 80)


class GuardedResolver(AbstractResolver):
    """aiohttp's resolver for the sender: the policy's checked addresses only."""

    def __init__(self, policy: TargetPolicy) -> None:
        self.policy = policy

    async def resolve(self, host: str, port: int = 0,
                      family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        found = await self.policy.resolve(host, port, family)
        results: list[ResolveResult] = []
        for address_family, address in found:
            results.append({"hostname": host, "host": address, "port": port,
                            "family": address_family, "proto": 0,
                            "flags": socket.AI_NUMERICHOST})
        return results

    async def close(self) -> None:
        return None


def resolver_kwargs(policy: TargetPolicy) -> dict[str, Any]:
    """The connector's settings for the sender: the guarded resolver, no DNS cache (each
    connection's addresses are looked up and checked again)."""
    return {"resolver": GuardedResolver(policy), "use_dns_cache": False}
