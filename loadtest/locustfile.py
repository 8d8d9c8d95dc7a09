"""Locust scenarios for the Brass game service (run through loadtest/run.sh).

Users:
- GrpcPlayer: creates games over gRPC (the generated stubs) and plays random legal moves to
  the end: SubmitAction with the version it saw, an idempotency key and
  include_legal_actions, so the answer carries the caller's next options (next_actions)
  whenever it is still the seat to act; ListLegalActions only when it is not (the turn
  passed to another seat) or the options are unknown (after a refresh or a failed race).
- RestPlayer: the same over REST/JSON (locust's FastHttpUser: geventhttpclient, much cheaper
  per request than requests).
- GrpcWatcher / SseWatcher: spectators that follow a game in progress through WatchGame
  streams or Server-Sent Events and check that versions only move forward. SseWatcher stays
  an HttpUser (requests): it needs a per-request read timeout on a streamed body.

next_actions must be for the accepted answer's version and the caller's seat, present
exactly when the game goes on and the caller is to act, and equal to what ListLegalActions
answers: a share of them (--verify-next-fraction) is checked against a ListLegalActions call.

Now and then a player races two submissions at the same version (exactly one must win; the
loser's STALE_VERSION / NOT_YOUR_TURN is an *expected rejection*, reported on its own row as
"SubmitAction [STALE_VERSION]" and never as a failure), or resends a submission with the
same idempotency key (it must come back as the stored answer, "SubmitAction [replayed]").
Some games start from a near-end position (CreateGameFromPosition) so that game ends are
exercised even in short runs.

Every other error response, and every broken invariant ("invariant: ..." rows), is a
failure. Counters are written as JSON to --summary-file when the test stops.

Only loopback targets are accepted.
"""

from __future__ import annotations

import ipaddress
import json
import os
import random
import threading
import time
import uuid
from collections import Counter
from typing import Any, NamedTuple
from urllib.parse import urlparse

import gevent
import grpc
import grpc.experimental.gevent as grpc_gevent
from google.rpc import error_details_pb2, status_pb2
from locust import FastHttpUser, HttpUser, User, constant, events
from locust.env import Environment
from locust.user.task import task

import brass
from brass_service.gen import game_service_pb2 as pb
from brass_service.gen import game_service_pb2_grpc as pb_grpc

# CreateGameFromPosition needs the server's operator token; run.sh gives both the same.
OPERATOR_TOKEN = os.environ.get("BRASS_OPERATOR_TOKEN") or None

grpc_gevent.init_gevent()  # gRPC's I/O must yield to gevent like everything else here

EXPECTED_RACE_REJECTIONS = frozenset({"STALE_VERSION", "NOT_YOUR_TURN"})
CALL_TIMEOUT_SECONDS = 30.0
NEAR_END_POOL = 24

STATS: Counter[str] = Counter()
_stats_lock = threading.Lock()
_user_seq = iter(range(1, 1 << 30))
_near_end_positions: list[str] = []


def count(name: str, amount: int = 1) -> None:
    with _stats_lock:
        STATS[name] += amount


# --------------------------------------------------------------------------- options


@events.init_command_line_parser.add_listener
def _options(parser: Any) -> None:
    parser.add_argument("--grpc-target", type=str, env_var="LOADTEST_GRPC_TARGET",
                        default="127.0.0.1:50051", help="gRPC address of the service")
    parser.add_argument("--summary-file", type=str, env_var="LOADTEST_SUMMARY_FILE",
                        default="", help="write the scenario counters here as JSON")
    parser.add_argument("--race-fraction", type=float, env_var="LOADTEST_RACE_FRACTION",
                        default=0.03, help="share of decisions raced by two submissions")
    parser.add_argument("--replay-fraction", type=float, env_var="LOADTEST_REPLAY_FRACTION",
                        default=0.02, help="share of decisions resent with the same key")
    parser.add_argument("--near-end-fraction", type=float,
                        env_var="LOADTEST_NEAR_END_FRACTION", default=0.2,
                        help="share of games created from a near-end position")
    parser.add_argument("--watch-seconds", type=float, env_var="LOADTEST_WATCH_SECONDS",
                        default=8.0, help="how long a watcher follows one game")
    parser.add_argument("--verify-next-fraction", type=float,
                        env_var="LOADTEST_VERIFY_NEXT_FRACTION", default=0.02,
                        help="share of next_actions answers checked against ListLegalActions")
    parser.add_argument("--seed", type=int, env_var="LOADTEST_SEED", default=1,
                        help="seed of the users' random choices")


def _require_loopback(host: str) -> None:
    if host == "localhost":
        return
    try:
        if ipaddress.ip_address(host.strip("[]")).is_loopback:
            return
    except ValueError:
        pass
    raise SystemExit(f"load tests only target loopback addresses, not {host!r}")


@events.init.add_listener
def _on_init(environment: Environment, **_kwargs: Any) -> None:
    options = environment.parsed_options
    if options is None:
        return
    _require_loopback(options.grpc_target.rpartition(":")[0])
    if environment.host:
        _require_loopback(urlparse(environment.host).hostname or "")
    rng = random.Random(options.seed)
    # A pool of positions a few decisions before the end of a random game.
    for _ in range(NEAR_END_POOL):
        players, seed = rng.choice((2, 3, 4)), rng.getrandbits(40)
        game, decisions = brass.Game.new(players=players, seed=seed), []
        while not game.is_over:
            decisions.append(rng.choice(game.legal_ids()))
            game.apply(decisions[-1])
        near = brass.Game.new(players=players, seed=seed)
        for decision in decisions[: max(0, len(decisions) - rng.randrange(4, 40))]:
            near.apply(decision)
        _near_end_positions.append(json.dumps(near.position()))


@events.test_stop.add_listener
def _on_test_stop(environment: Environment, **_kwargs: Any) -> None:
    options = environment.parsed_options
    if options is None or not options.summary_file:
        return
    with _stats_lock:
        counters = dict(STATS)
    with open(options.summary_file, "w") as handle:
        json.dump({"counters": counters}, handle, indent=2, sort_keys=True)


# ---------------------------------------------------------------------- shared logic


class Rejection(Exception):
    """An error answer of the service: its reason and message."""

    def __init__(self, reason: str, message: str, status: str = "") -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message
        self.status = status


class InvariantBroken(Exception):
    pass


def fire(environment: Environment, request_type: str, name: str, started: float,
         length: int = 0, exception: BaseException | None = None) -> None:
    environment.events.request.fire(
        request_type=request_type,
        name=name,
        response_time=(time.perf_counter() - started) * 1000.0,
        response_length=length,
        exception=exception,
        context={},
    )


def invariant(environment: Environment, what: str, detail: str) -> None:
    """A broken promise of the service: counted as a failure on its own row."""
    count("invariants_broken")
    environment.events.request.fire(
        request_type="check", name=f"invariant: {what}", response_time=0.0,
        response_length=0, exception=InvariantBroken(detail), context={},
    )


class Legal(NamedTuple):
    """The fields of a ListLegalActionsResponse the players use (options by id)."""

    version: int
    seat: int
    decision: str
    option_ids: list[int]


class After(NamedTuple):
    """A SubmitAction answer: its state's version, seat to act, end, replayed flag and
    next_actions (None when absent)."""

    version: int
    current_seat: int | None
    over: bool
    replayed: bool
    next: Legal | None


class Seat:
    """What a player knows about its current game."""

    def __init__(self, game_id: str, tokens: list[str], version: int,
                 current_seat: int | None, over: bool) -> None:
        self.game_id = game_id
        self.tokens = tokens
        self.version = version
        self.current_seat = current_seat
        self.over = over
        # The options of the seat to act at `version`, from the last accepted answer's
        # next_actions; None when unknown (ListLegalActions then).
        self.next: Legal | None = None

    def set_state(self, version: int, current_seat: int | None, over: bool) -> None:
        self.version, self.current_seat, self.over = version, current_seat, over
        self.next = None


class Player:
    """The game loop both transports share; subclasses supply the calls."""

    environment: Environment
    rng: random.Random
    game: Seat | None = None
    near_end_first: bool = False

    def create(self, players: int) -> Seat: ...
    def create_near_end(self, position_json: str) -> Seat: ...
    def refresh(self, game: Seat) -> None: ...  # must end with game.set_state(...)
    def legal(self, game: Seat, seat: int) -> Legal: ...
    def submit(self, game: Seat, seat: int, option: int, version: int, key: str,
               name: str, expected: frozenset[str]) -> After: ...

    def setup_player(self) -> None:
        index = next(_user_seq)
        self.rng = random.Random(self.environment.parsed_options.seed * 7919 + index)
        # Every other player starts near the end, so even short runs finish games.
        self.near_end_first = index % 2 == 0

    def step(self) -> None:
        options = self.environment.parsed_options
        try:
            if self.game is None or self.game.over:
                near_end = self.near_end_first or self.rng.random() < options.near_end_fraction
                self.near_end_first = False
                if _near_end_positions and near_end:
                    self.game = self.create_near_end(self.rng.choice(_near_end_positions))
                else:
                    self.game = self.create(self.rng.choice((2, 3, 4)))
                count("games_created")
                return
            self.decide(self.game, options)
        except Rejection:
            # Already reported as a failure; start over from what the server says.
            if self.game is not None:
                try:
                    self.refresh(self.game)
                except Rejection:
                    self.game = None

    def decide(self, game: Seat, options: Any) -> None:
        seat = game.current_seat
        assert seat is not None
        known, game.next = game.next, None
        if known is not None and known.version == game.version and known.seat == seat:
            version, option_ids = known.version, known.option_ids
            count("options_from_submit")
            if self.rng.random() < options.verify_next_fraction:
                listed = self.legal(game, seat)
                count("next_actions_verified")
                if listed != known:
                    invariant(self.environment, "next_actions = ListLegalActions",
                              f"{game.game_id}: next_actions {known}, listed {listed}")
                    version, option_ids = listed.version, listed.option_ids
        else:
            listed = self.legal(game, seat)
            count("options_listed")
            if listed.seat != seat:
                invariant(self.environment, "legal seat",
                          f"{game.game_id}: options for seat {listed.seat}, asked as {seat}")
            version, option_ids = listed.version, listed.option_ids
        if version != game.version:
            invariant(self.environment, "legal version",
                      f"{game.game_id}: options for {version}, state at {game.version}")
            game.version = version
        if not option_ids:
            invariant(self.environment, "no legal option", f"{game.game_id} at {version}")
            self.refresh(game)
            return
        if self.rng.random() < options.race_fraction:
            self.race(game, seat, version, option_ids)
            return
        option, key = self.rng.choice(option_ids), uuid.uuid4().hex
        after = self.submit(game, seat, option, version, key, "SubmitAction", frozenset())
        self.accepted(game, version, after)
        if not after[2] and self.rng.random() < options.replay_fraction:
            again = self.submit(game, seat, option, version, key, "SubmitAction [replayed]",
                                frozenset())
            if not again.replayed or again[:3] != after[:3] or again.next != after.next:
                invariant(self.environment, "idempotent replay",
                          f"{game.game_id}: resent key gave {again}, first answer {after}")
            else:
                count("idempotent_replays")

    def accepted(self, game: Seat, version: int, after: After) -> None:
        new_version, current, over, replayed, nxt = after
        seat = game.current_seat
        if replayed or new_version <= version:
            invariant(self.environment, "submit advances",
                      f"{game.game_id}: {version} -> {new_version} (replayed={replayed})")
        count("decisions_accepted")
        game.set_state(new_version, current, over)
        if over:
            count("games_finished")
        self.check_next(game, seat, after)
        if nxt is not None and not over and current == seat and nxt.version == new_version \
                and nxt.seat == seat:
            game.next = nxt

    def check_next(self, game: Seat, seat: int | None, after: After) -> None:
        """next_actions: present exactly when the game goes on with the caller to act, for
        the answer's version and the caller's seat."""
        nxt = after.next
        to_act = not after.over and after.current_seat == seat
        if nxt is None:
            if to_act:
                invariant(self.environment, "next_actions present",
                          f"{game.game_id} at {after.version}: seat {seat} acts, none sent")
            return
        if not to_act:
            invariant(self.environment, "next_actions only for the seat to act",
                      f"{game.game_id} at {after.version}: sent to seat {seat}, "
                      f"current {after.current_seat}, over {after.over}")
        if nxt.version != after.version or nxt.seat != seat:
            invariant(self.environment, "next_actions version and seat",
                      f"{game.game_id}: state {after.version} seat {seat}, next_actions "
                      f"{nxt.version} seat {nxt.seat}")

    def race(self, game: Seat, seat: int, version: int, option_ids: list[int]) -> None:
        """Two submissions at the same version: exactly one may be accepted."""
        outcomes: list[Any] = [None, None]

        def one(index: int) -> None:
            try:
                outcomes[index] = self.submit(
                    game, seat, self.rng.choice(option_ids), version, uuid.uuid4().hex,
                    "SubmitAction", EXPECTED_RACE_REJECTIONS,
                )
            except Rejection as rejection:
                outcomes[index] = rejection

        gevent.joinall([gevent.spawn(one, 0), gevent.spawn(one, 1)])
        count("races")
        wins = [o for o in outcomes if isinstance(o, After)]
        losses = [o for o in outcomes if isinstance(o, Rejection)]
        expected = [o for o in losses if o.reason in EXPECTED_RACE_REJECTIONS]
        if len(wins) == 1 and len(expected) == 1:
            count(f"expected_rejections.{expected[0].reason}")
            self.accepted(game, version, wins[0])
            return
        if len(wins) != 1 and not (losses and len(expected) != len(losses)):
            invariant(self.environment, "race has one winner",
                      f"{game.game_id} at {version}: {outcomes}")
        self.refresh(game)


# ------------------------------------------------------------------------------ gRPC


def _grpc_rejection(error: grpc.RpcError) -> Rejection:
    code = error.code()
    reason, message = code.name if code else "UNKNOWN", error.details() or ""
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    info = error_details_pb2.ErrorInfo()
                    detail.Unpack(info)
                    reason = info.reason
    return Rejection(reason, message, code.name if code else "")


class GrpcClient:
    """The generated stub, with every call reported to locust."""

    def __init__(self, target: str, environment: Environment) -> None:
        self.environment = environment
        self.channel = grpc.insecure_channel(target)
        self.stub = pb_grpc.GameServiceStub(self.channel)

    def close(self) -> None:
        self.channel.close()

    def call(self, method: str, request: Any, token: str | None = None,
             expected: frozenset[str] = frozenset(), name: str | None = None) -> Any:
        metadata = (("authorization", f"Bearer {token}"),) if token else ()
        started = time.perf_counter()
        try:
            response = getattr(self.stub, method)(
                request, metadata=metadata, timeout=CALL_TIMEOUT_SECONDS
            )
        except grpc.RpcError as error:
            rejection = _grpc_rejection(error)
            if rejection.reason in expected:
                fire(self.environment, "grpc", f"{method} [{rejection.reason}]", started)
            else:
                fire(self.environment, "grpc", name or method, started, exception=rejection)
            raise rejection from None
        fire(self.environment, "grpc", name or method, started, response.ByteSize())
        return response


def _grpc_legal(response: pb.ListLegalActionsResponse) -> Legal:
    return Legal(response.version, response.seat, response.decision,
                 [o.id for o in response.options])


def _from_state(state: pb.GameState) -> tuple[int, int | None, bool]:
    summary = state.summary
    over = summary.status == pb.GAME_STATUS_FINISHED
    current = summary.current_seat if summary.HasField("current_seat") else None
    return summary.version, current, over


class GrpcPlayer(Player, User):
    weight = 6
    wait_time = constant(0)

    def on_start(self) -> None:
        self.setup_player()
        self.client = GrpcClient(self.environment.parsed_options.grpc_target, self.environment)

    def on_stop(self) -> None:
        self.client.close()

    def _seat(self, response: pb.CreateGameResponse) -> Seat:
        return Seat(response.game_id, [s.token for s in response.seats],
                    *_from_state(response.state))

    def create(self, players: int) -> Seat:
        request = pb.CreateGameRequest(ruleset=pb.RULESET_BIRMINGHAM, players=players,
                                       seed=self.rng.getrandbits(63))
        return self._seat(self.client.call("CreateGame", request))

    def create_near_end(self, position_json: str) -> Seat:
        request = pb.CreateGameFromPositionRequest(ruleset=pb.RULESET_BIRMINGHAM,
                                                   position_json=position_json)
        return self._seat(
            self.client.call("CreateGameFromPosition", request, OPERATOR_TOKEN)
        )

    def refresh(self, game: Seat) -> None:
        state = self.client.call("GetGame", pb.GetGameRequest(game_id=game.game_id)).state
        game.set_state(*_from_state(state))

    def legal(self, game: Seat, seat: int) -> Legal:
        return _grpc_legal(self.client.call(
            "ListLegalActions", pb.ListLegalActionsRequest(game_id=game.game_id),
            game.tokens[seat],
        ))

    def submit(self, game: Seat, seat: int, option: int, version: int, key: str,
               name: str, expected: frozenset[str]) -> After:
        request = pb.SubmitActionRequest(
            game_id=game.game_id, action=pb.Action(option_id=option),
            expected_version=version, idempotency_key=key, include_legal_actions=True,
        )
        response = self.client.call("SubmitAction", request, game.tokens[seat], expected, name)
        nxt = _grpc_legal(response.next_actions) if response.HasField("next_actions") else None
        return After(*_from_state(response.state), response.replayed, nxt)

    @task
    def play(self) -> None:
        self.step()


class GrpcWatcher(User):
    """A spectator following a game in progress over WatchGame."""

    weight = 1
    wait_time = constant(0.2)

    def on_start(self) -> None:
        self.client = GrpcClient(self.environment.parsed_options.grpc_target, self.environment)
        self.rng = random.Random(next(_user_seq))

    def on_stop(self) -> None:
        self.client.close()

    @task
    def watch(self) -> None:
        try:
            page = self.client.call("ListGames", pb.ListGamesRequest(
                page_size=20, status=pb.GAME_STATUS_IN_PROGRESS))
        except Rejection:
            return
        if not page.games:
            return
        summary = self.rng.choice(page.games)
        last = max(0, summary.version - 3)
        seconds = self.environment.parsed_options.watch_seconds
        started = time.perf_counter()
        stream = self.client.stub.WatchGame(
            pb.WatchGameRequest(game_id=summary.game_id, from_version=last), timeout=seconds
        )
        first = True
        try:
            for update in stream:
                if first:
                    fire(self.environment, "grpc", "WatchGame (first update)", started)
                    first = False
                count("watch_updates")
                if update.version <= last and not (update.version == last == 0):
                    invariant(self.environment, "watch moves forward",
                              f"{summary.game_id}: {last} then {update.version}")
                if any(e.version <= last or e.version > update.version for e in update.events):
                    invariant(self.environment, "watch event versions",
                              f"{summary.game_id}: events outside ({last}, {update.version}]")
                if update.HasField("state"):
                    for player in update.state.birmingham.player_state:
                        if player.hand:
                            invariant(self.environment, "spectator sees no hand",
                                      f"{summary.game_id} at {update.version}")
                last = update.version
        except grpc.RpcError as error:
            rejection = _grpc_rejection(error)
            if rejection.status != "DEADLINE_EXCEEDED":  # the watch time is up: normal
                fire(self.environment, "grpc", "WatchGame", started, exception=rejection)
                return
        finally:
            stream.cancel()
        count("watch_streams")


# ------------------------------------------------------------------------------ REST


def _rest_state(state: dict[str, Any]) -> tuple[int, int | None, bool]:
    summary = state["summary"]
    over = summary["status"] == "GAME_STATUS_FINISHED"
    return int(summary["version"]), summary.get("currentSeat"), over


def _rest_legal(legal: dict[str, Any]) -> Legal:
    return Legal(int(legal["version"]), int(legal.get("seat", 0)), legal.get("decision", ""),
                 [int(o["id"]) for o in legal["options"]])


class RestPlayer(Player, FastHttpUser):
    weight = 3
    wait_time = constant(0)
    network_timeout = CALL_TIMEOUT_SECONDS
    connection_timeout = CALL_TIMEOUT_SECONDS

    def on_start(self) -> None:
        self.setup_player()

    def _json(self, method: str, path: str, name: str, body: Any = None,
              token: str | None = None, expected: frozenset[str] = frozenset()) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        with self.client.request(method, path, json=body, headers=headers, name=name,
                                 catch_response=True) as response:
            content = response.content or b""  # None after a connection error
            if response.status_code == 200:
                return json.loads(content)  # bytes: no charset sniffing (response.text)
            try:
                error = json.loads(content)["error"]
                rejection = Rejection(error["reason"], error["message"], str(error["code"]))
            except (ValueError, KeyError, TypeError):
                error_text = getattr(response, "error", None) or content[:200].decode(
                    "utf-8", "replace")
                rejection = Rejection(f"HTTP {response.status_code}", str(error_text))
            if rejection.reason in expected:
                response.request_meta["name"] = f"{name} [{rejection.reason}]"
                response.success()
            else:
                response.failure(rejection)
            raise rejection

    def _seat(self, created: dict[str, Any]) -> Seat:
        return Seat(created["gameId"], [s["token"] for s in created["seats"]],
                    *_rest_state(created["state"]))

    def create(self, players: int) -> Seat:
        body = {"players": players, "seed": str(self.rng.getrandbits(63))}
        return self._seat(self._json("POST", "/v1/games", "CreateGame", body))

    def create_near_end(self, position_json: str) -> Seat:
        return self._seat(self._json("POST", "/v1/games:fromPosition", "CreateGameFromPosition",
                                     {"positionJson": position_json}, OPERATOR_TOKEN))

    def refresh(self, game: Seat) -> None:
        state = self._json("GET", f"/v1/games/{game.game_id}", "GetGame")["state"]
        game.set_state(*_rest_state(state))

    def legal(self, game: Seat, seat: int) -> Legal:
        return _rest_legal(self._json("GET", f"/v1/games/{game.game_id}/actions",
                                      "ListLegalActions", token=game.tokens[seat]))

    def submit(self, game: Seat, seat: int, option: int, version: int, key: str,
               name: str, expected: frozenset[str]) -> After:
        body = {"action": {"optionId": option}, "expectedVersion": str(version),
                "idempotencyKey": key, "includeLegalActions": True}
        response = self._json("POST", f"/v1/games/{game.game_id}/actions", name, body,
                              game.tokens[seat], expected)
        nxt = response.get("nextActions")
        return After(*_rest_state(response["state"]), bool(response.get("replayed")),
                     None if nxt is None else _rest_legal(nxt))

    @task
    def play(self) -> None:
        self.step()


class SseWatcher(HttpUser):
    """A spectator following a game in progress over Server-Sent Events."""

    weight = 1
    wait_time = constant(0.2)

    def on_start(self) -> None:
        self.rng = random.Random(next(_user_seq))

    @task
    def watch(self) -> None:
        with self.client.get("/v1/games?status=GAME_STATUS_IN_PROGRESS&pageSize=20",
                             name="ListGames", catch_response=True) as listing:
            if listing.status_code != 200:
                listing.failure(f"HTTP {listing.status_code}: {listing.text[:200]}")
                return
            games = listing.json().get("games", [])
        if not games:
            return
        summary = self.rng.choice(games)
        game_id, last = summary["gameId"], max(0, int(summary["version"]) - 3)
        seconds = self.environment.parsed_options.watch_seconds
        deadline = time.monotonic() + seconds
        with self.client.get(f"/v1/games/{game_id}/events?fromVersion={last}",
                             name="WatchGame (SSE open)", stream=True, catch_response=True,
                             headers={"Accept": "text/event-stream"},
                             timeout=(5.0, min(3.0, seconds))) as response:
            if response.status_code != 200:
                response.failure(f"HTTP {response.status_code}: {response.text[:200]}")
                return
            try:
                self._follow(response, game_id, last, deadline)
            except Exception as exc:  # requests wraps socket timeouts in its own classes
                if "timed out" not in str(exc).lower():  # an idle game: the watch just ends
                    response.failure(f"SSE stream broke: {exc!r}")
                    return
            finally:
                response.close()
            response.success()
        count("sse_streams")

    def _follow(self, response: Any, game_id: str, last: int, deadline: float) -> int:
        event, data = "message", []
        for raw in response.iter_lines(decode_unicode=True):
            if raw is None:
                continue
            if raw == "":
                if event == "update" and data:
                    update = json.loads("\n".join(data))
                    version = int(update["version"])
                    if version <= last and not (version == last == 0):
                        invariant(self.environment, "SSE moves forward",
                                  f"{game_id}: {last} then {version}")
                    for player in update.get("state", {}).get("birmingham", {}).get(
                            "playerState", []):
                        if player.get("hand"):
                            invariant(self.environment, "spectator sees no hand",
                                      f"{game_id} at {version}")
                    last = version
                    count("sse_updates")
                elif event == "error":
                    invariant(self.environment, "SSE error event", f"{game_id}: {data}")
                elif event == "end":
                    return last
                event, data = "message", []
                if time.monotonic() >= deadline:
                    return last
                continue
            if raw.startswith(":"):
                continue
            key, _, value = raw.partition(":")
            value = value.removeprefix(" ")
            if key == "event":
                event = value
            elif key == "data":
                data.append(value)
        return last
