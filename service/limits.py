"""Request limits that are not the transport's own (message size is set on the servers):
who a client is (its address, behind trusted proxies), rate quotas per client (the `limits`
library), and the watch streams a client may hold at once.

The counts live in each process's memory: with `--workers N` every worker keeps its own,
so a client may get up to N times a per-client limit (the kernel spreads its connections).
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Sequence
from typing import Protocol

from limits import RateLimitItem, RateLimitItemPerSecond, parse_many
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter

from .errors import ServiceError

IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# The headers a trusted proxy may name the client in.
FORWARDING_HEADERS = ("x-forwarded-for", "forwarded")


def parse_networks(text: str) -> list[IpNetwork]:
    """'10.0.0.0/8, 192.168.1.7, fd00::/8' -> networks; ValueError names a bad entry."""
    networks = []
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if part:
            try:
                networks.append(ipaddress.ip_network(part, strict=False))
            except ValueError as exc:
                raise ValueError(f"{part!r} is not an IP address or CIDR network") from exc
    return networks


def _address(text: str) -> IpAddress | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def _forwarded_for(value: str) -> list[str]:
    """The `for=` nodes of a Forwarded header (RFC 7239), hop by hop, as bare addresses
    ('[2001:db8::1]:4711' -> '2001:db8::1', '"192.0.2.1:80"' -> '192.0.2.1'); nodes that
    are not addresses ('unknown', '_hidden') are kept as they are."""
    nodes = []
    for element in value.split(","):
        for pair in element.split(";"):
            key, _, node = pair.partition("=")
            if key.strip().lower() != "for":
                continue
            node = node.strip().strip('"')
            if node.startswith("["):
                node = node[1:].partition("]")[0]
            elif node.count(":") == 1:
                node = node.partition(":")[0]
            nodes.append(node)
    return nodes


class ClientAddresses:
    """The address a request comes from: the TCP peer, or, when the peer is a trusted proxy,
    the nearest address in the forwarding header that is not itself a trusted proxy.

    The header is read from the right (the hops nearest this server, which the trusted
    proxies wrote) and only as far as the trusted proxies go: entries further left were
    written by the client and could say anything. Only one header is honoured, the one
    the proxies are configured to write: a client could send the other one itself.
    """

    def __init__(self, trusted: Sequence[IpNetwork], header: str = "x-forwarded-for") -> None:
        if header not in FORWARDING_HEADERS:
            raise ValueError(f"the forwarding header is one of {', '.join(FORWARDING_HEADERS)}")
        self.trusted = list(trusted)
        self.header = header

    def _is_trusted(self, address: IpAddress) -> bool:
        return any(address in network for network in self.trusted)

    def is_trusted_peer(self, peer: str) -> bool:
        """Whether the TCP peer `peer` is one of the trusted proxies."""
        if not self.trusted:
            return False
        address = _address(peer)
        return address is not None and self._is_trusted(address)

    def resolve(self, peer: str, forwarded: str | None) -> str:
        """The client's address: `peer` is the TCP peer's host, `forwarded` the value of
        the configured header (repeated lines joined with commas), or None."""
        if not self.trusted or forwarded is None:
            return peer
        peer_address = _address(peer)
        if peer_address is None or not self._is_trusted(peer_address):
            return peer
        hops = (
            _forwarded_for(forwarded) if self.header == "forwarded" else forwarded.split(",")
        )
        client = peer
        for hop in reversed(hops):
            address = _address(hop)
            if address is None:
                break  # not written by a trusted proxy: stop at the last one that was
            client = str(address)
            if not self._is_trusted(address):
                break
        return client


def rate_key(address: str) -> str:
    """The key an address is counted under: IPv6 addresses by their /64 (one subscriber
    is usually given a whole /64, and could otherwise take a new key per request)."""
    parsed = _address(address)
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is None:
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return address


class RateQuota:
    """Requests per client over one or more windows, e.g. "2/second;60/minute;2000/day"
    (the `limits` library's notation): a request is admitted when every window has room,
    and then counts in all of them. Sliding-window counters: two counts per key and window,
    forgotten when the window has passed."""

    def __init__(self, spec: str, what: str, limit_name: str) -> None:
        self.items: list[RateLimitItem] = parse_many(spec) if spec.strip() else []
        self.what = what
        self.limit_name = limit_name
        self._limiter = SlidingWindowCounterRateLimiter(MemoryStorage())

    @classmethod
    def per_second(cls, rate: float, burst: int, what: str, limit_name: str) -> RateQuota:
        """`burst` requests per `burst / rate` seconds: the same long-run rate as a token
        bucket of that rate and size, and at most `burst` at once."""
        quota = cls("", what, limit_name)
        quota.items = [RateLimitItemPerSecond(max(1, burst), max(1, math.ceil(burst / rate)))]
        return quota

    def admit(self, key: str) -> None:
        """Counts one request of `key`, or raises RATE_LIMITED (nothing counted) with the
        time until the fullest window has room."""
        for item in self.items:
            if not self._limiter.test(item, key):
                stats = self._limiter.get_window_stats(item, key)
                raise ServiceError(
                    "RATE_LIMITED",
                    f"too many {self.what} from this client: at most {item}; retry later",
                    limit=self.limit_name,
                    retry_after_seconds=max(0.0, stats.reset_time - time.time()),
                )
        for item in self.items:
            self._limiter.hit(item, key)


class _WatcherCounter(Protocol):
    def watchers_of(self, game_id: str) -> int: ...


class WatchLimiter:
    """Admits new watch streams: at most `max_per_client` held at once by one client, a rate
    of new ones per client, and caps in total and per game."""

    def __init__(
        self, rate_per_second: float, burst: int, max_total: int, max_per_game: int,
        max_per_client: int,
    ) -> None:
        self.max_total = max_total
        self.max_per_game = max_per_game
        self.max_per_client = max_per_client
        self.open_streams = 0
        self._held: dict[str, int] = {}  # client -> streams open now (no zero entries)
        self._opening = RateQuota.per_second(
            rate_per_second, burst, "watch streams opened", "watch_rate"
        )

    def held_by(self, client: str) -> int:
        return self._held.get(client, 0)

    def admit(self, client: str, game_id: str, counter: _WatcherCounter) -> None:
        """Counts a new stream of `client` (its identity) on `game_id`; release() it."""
        if self.open_streams >= self.max_total:
            raise ServiceError(
                "RATE_LIMITED",
                f"this server already has {self.max_total} open watch streams; retry later",
                limit="max_watchers",
            )
        if counter.watchers_of(game_id) >= self.max_per_game:
            raise ServiceError(
                "RATE_LIMITED",
                f"game {game_id} already has {self.max_per_game} watchers on this server",
                limit="max_watchers_per_game",
            )
        if self.held_by(client) >= self.max_per_client:
            raise ServiceError(
                "RATE_LIMITED",
                f"this client already holds {self.max_per_client} watch streams, the most "
                "it may hold at once; close one first",
                limit="max_watchers_per_client",
            )
        self._opening.admit(client)
        self._held[client] = self.held_by(client) + 1
        self.open_streams += 1

    def release(self, client: str) -> None:
        held = self.held_by(client) - 1
        if held > 0:
            self._held[client] = held
        else:
            self._held.pop(client, None)
        self.open_streams = max(0, self.open_streams - 1)
