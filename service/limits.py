"""Request limits that are not the transport's own (message size is set on the servers):
who a client is (its address, behind trusted proxies), rate quotas per client (in the `limits`
library's notation), and the watch streams a client may hold at once.

The counts live in each process's memory: with `--workers N` every worker keeps its own,
so a client may get up to N times a per-client limit (the kernel spreads its connections).
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from limits import parse_many

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


class _Window:
    """One sliding-window counter: the counts of the current and the previous fixed window
    of `seconds`; the previous one weighs by how much of it still overlaps the last
    `seconds`."""

    __slots__ = ("current", "previous", "start")

    def __init__(self, start: float) -> None:
        self.start, self.current, self.previous = start, 0, 0

    def roll(self, now: float, seconds: float) -> None:
        passed = int((now - self.start) // seconds)
        if passed >= 1:
            self.previous = self.current if passed == 1 else 0
            self.current = 0
            self.start += passed * seconds

    def weight(self, now: float, seconds: float) -> float:
        return self.previous * (1.0 - (now - self.start) / seconds) + self.current

    def wait(self, now: float, seconds: float, amount: int, count: int = 1) -> float:
        """Seconds until `count` more requests fit (the window already rolled to `now`)."""
        if count > amount:
            return seconds  # never fits: any wait is as good
        room = amount - count
        if self.current > room:  # only the next window, with this one weighing less
            return (self.start + seconds - now) + seconds * (1.0 - room / self.current)
        # the previous window's share must shrink to what the current one leaves
        share = 1.0 - (room - self.current) / self.previous
        return max(0.0, self.start + share * seconds - now)


class RateQuota:
    """Requests per client over one or more windows, e.g. "2/second;60/minute;2000/day"
    (the `limits` library's notation, parsed by it): a request is admitted when every
    window has room, and then counts in all of them. Sliding-window counters: two counts
    per client and window.

    The counting is not the `limits` library's: its in-memory storage expires keys with a
    thread that walks every key about every 10 ms while requests come, so with 100,000
    clients tracked a 2-window hit took 82 us instead of 31 (that thread holding the
    interpreter the rest of the time, the event loop's too). Here each client's counters
    are touched only by its own requests (6-8 us a hit, 100,000 clients or not), and at
    most `max_clients` are kept, the least recently seen forgotten first (a forgotten
    client starts afresh)."""

    def __init__(self, spec: str, what: str, limit_name: str, max_clients: int = 100_000):
        self.windows: list[tuple[int, float, str]] = [
            (item.amount, float(item.get_expiry()), str(item))
            for item in (parse_many(spec) if spec.strip() else [])
        ]
        self.what = what
        self.limit_name = limit_name
        self.max_clients = max_clients
        self._clients: OrderedDict[str, list[_Window]] = OrderedDict()

    @classmethod
    def per_second(cls, rate: float, burst: int, what: str, limit_name: str) -> RateQuota:
        """`burst` requests per `burst / rate` seconds: the same long-run rate as a token
        bucket of that rate and size, and at most `burst` at once."""
        quota = cls("", what, limit_name)
        seconds = max(1, math.ceil(burst / rate))
        quota.windows = [(max(1, burst), float(seconds), f"{burst} per {seconds} seconds")]
        return quota

    def admit(self, key: str, now: float | None = None, count: int = 1,
              record: bool = True) -> None:
        """Counts `count` requests of `key` (only checks that they would fit when not
        `record`), or raises RATE_LIMITED (nothing counted) with the time until every
        window has room."""
        if not self.windows:
            return
        now = time.time() if now is None else now
        windows = self._clients.pop(key, None)
        if windows is None:
            windows = [_Window(now - now % seconds) for _, seconds, _ in self.windows]
        self._clients[key] = windows
        while len(self._clients) > self.max_clients:
            self._clients.popitem(last=False)
        waits = []
        for (amount, seconds, text), window in zip(self.windows, windows, strict=True):
            window.roll(now, seconds)
            if window.weight(now, seconds) + count > amount:
                waits.append((window.wait(now, seconds, amount, count), text))
        if waits:
            wait, text = max(waits)
            raise ServiceError(
                "RATE_LIMITED",
                f"too many {self.what} from this client: at most {text}; retry later",
                limit=self.limit_name,
                retry_after_seconds=wait,
            )
        if record:
            for window in windows:
                window.current += count


class SeatHoldings:
    """The seats each address joined (game id, seat) through this process, while it may
    still hold them: the game service drops the ones it finds left, revoked or started. At
    most `max_addresses` addresses are kept, the least recently seen forgotten first."""

    def __init__(self, max_addresses: int = 100_000) -> None:
        self.max_addresses = max_addresses
        self._held: OrderedDict[str, set[tuple[str, int]]] = OrderedDict()

    def held(self, address: str) -> list[tuple[str, int]]:
        return sorted(self._held.get(address, ()))

    def add(self, address: str, game_id: str, seat: int) -> None:
        seats = self._held.pop(address, set())
        seats.add((game_id, seat))
        self._held[address] = seats
        while len(self._held) > self.max_addresses:
            self._held.popitem(last=False)

    def drop(self, address: str, game_id: str, seat: int) -> None:
        seats = self._held.get(address)
        if seats is not None:
            seats.discard((game_id, seat))
            if not seats:
                del self._held[address]


class _WatcherCounter(Protocol):
    def watchers_of(self, game_id: str) -> int: ...


@dataclass(frozen=True)
class WatchSlot:
    """What one admitted stream counts against: its client (a seat token is a client of
    its own), its address (every stream from it, whatever the token), and its gRPC
    connection (None: REST, one stream per connection, or a trusted proxy's connection,
    which carries many clients)."""

    client: str
    address: str
    connection: str | None = None


def _count(counts: dict[str, int], key: str, step: int) -> None:
    held = counts.get(key, 0) + step
    if held > 0:
        counts[key] = held
    else:
        counts.pop(key, None)


class WatchLimiter:
    """Admits new watch streams: caps in total and per game; per address, at most
    `max_per_address` and never more than half of the slots that other addresses leave
    (so that one address can never take every slot, however many tokens it has); per gRPC
    connection and per client; and a rate of new ones per client."""

    def __init__(
        self, rate_per_second: float, burst: int, max_total: int, max_per_game: int,
        max_per_client: int, max_per_address: int, max_per_connection: int,
    ) -> None:
        self.max_total = max_total
        self.max_per_game = max_per_game
        self.max_per_client = max_per_client
        self.max_per_address = max_per_address
        self.max_per_connection = max_per_connection
        self.open_streams = 0
        # streams open now (no zero entries)
        self._held: dict[str, int] = {}  # by client
        self._by_address: dict[str, int] = {}
        self._by_connection: dict[str, int] = {}
        self._opening = RateQuota.per_second(
            rate_per_second, burst, "watch streams opened", "watch_rate"
        )

    def held_by(self, client: str) -> int:
        return self._held.get(client, 0)

    def held_by_address(self, address: str) -> int:
        return self._by_address.get(address, 0)

    def address_share(self, address: str) -> int:
        """The most streams `address` may hold now: MAX_WATCHERS_PER_ADDRESS, and at most
        half of the process's slots not held by other addresses (at least one)."""
        others = self.open_streams - self.held_by_address(address)
        return min(self.max_per_address, max(1, (self.max_total - others) // 2))

    def admit(self, slot: WatchSlot, game_id: str, counter: _WatcherCounter) -> None:
        """Counts a new stream of `slot` on `game_id`; release() it."""
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
        share = self.address_share(slot.address)
        if self.held_by_address(slot.address) >= share:
            raise ServiceError(
                "RATE_LIMITED",
                f"this address already holds {share} watch streams, its share of this "
                "server's; close one first",
                limit="max_watchers_per_address",
            )
        if (slot.connection is not None
                and self._by_connection.get(slot.connection, 0) >= self.max_per_connection):
            raise ServiceError(
                "RATE_LIMITED",
                f"this connection already carries {self.max_per_connection} watch streams, "
                "the most it may at once; close one first",
                limit="max_watchers_per_connection",
            )
        if self.held_by(slot.client) >= self.max_per_client:
            raise ServiceError(
                "RATE_LIMITED",
                f"this client already holds {self.max_per_client} watch streams, the most "
                "it may hold at once; close one first",
                limit="max_watchers_per_client",
            )
        self._opening.admit(slot.client)
        self._count(slot, 1)
        self.open_streams += 1

    def _count(self, slot: WatchSlot, step: int) -> None:
        _count(self._held, slot.client, step)
        _count(self._by_address, slot.address, step)
        if slot.connection is not None:
            _count(self._by_connection, slot.connection, step)

    def release(self, slot: WatchSlot) -> None:
        self._count(slot, -1)
        self.open_streams = max(0, self.open_streams - 1)


# Server bot seats (CreateGame's bot_seats, SetSeatBot, stand-in bots): the most search a
# seat's bot may be given per decision (mcts iterations; time budgets are refused so that a
# bot's decision costs the same on any machine), and how long the server waits for one
# decision before it plays a random legal option instead (the worker may be stuck).
BOT_SEAT_MAX_MCTS_ITERATIONS = 1000
# A server bot's whole search, in decisions played out a turn (iterations x rollout length,
# bot_seats.search_cost): mcts:iterations=1000 (rollouts of 30), 50 rollouts to the end, or
# `expert` at its default (32 x 290: 9,280) or with up to 113 iterations (as measured by
# brass_clients.bench_search_cost, about the CPU of mcts's 1000 iterations).
BOT_SEAT_MAX_SEARCH_COST = 33_000
BOT_MOVE_TIMEOUT_SECONDS = 30.0
