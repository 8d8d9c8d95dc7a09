"""The past of a game: GetGame at a version and GetReplay. Replays are made once per
version and extended move by move (_ReplayParts), within bounds of count and bytes per
process; past versions are kept in a small LRU.
"""

from __future__ import annotations

import asyncio
import functools
import json
import weakref
from collections import OrderedDict
from typing import Any

import brass

from .. import hosted
from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..model import LiveGame
from ..observability import RequestRecord
from ..requests import ENGINE_RULESETS
from ..store import DecisionRow, GameRow, Store
from ..views.reply import Reply
from .access import Access, Caller, Quotas, address_identity
from .delay import SpectatorDelay
from .live import LiveGames

# Public fields of a replay record; everything else (seed, starting position) waits for
# the end of the game.
_PUBLIC_REPLAY_FIELDS = ("rules_edition", "ruleset", "players", "options", "decisions")


# GetReplay's parts kept per process (_ReplayParts): at most 64 games, and at most 4 MiB
# of their decisions' protobuf bytes and JSON text together (a finished 4-player game's
# bytes are about 11 KB; at max_undo_version, ~190 KB; the JSON about twice that).
_REPLAYS_KEPT = 64


_REPLAY_BYTES_KEPT = 4 << 20


# Past versions (GetGame at_version) kept per process: a replay viewer stepping back and
# forth, or several viewers of one game, ask the same ones again.
_PAST_STATES_KEPT = 128


def _past_version_facts(
    hosting: dict[str, Any], created_at: float, rows: list[DecisionRow], version: int
) -> tuple[int, float, dict[str, Any] | None, DecisionRow | None]:
    """From stored decisions in order (from the first, or from the one ending at a snapshot):
    the last stored version at or before `version`, when it was reached, the clock then (None:
    no decision read has one) and the decision spanning `version` (None: it is stored)."""
    base, updated_at = 0, hosted.started_at(hosting, created_at)
    clock: dict[str, Any] | None = None
    for stored in rows:
        if stored.to_version > version:
            return base, updated_at, clock, stored
        base, updated_at = stored.to_version, stored.created_at
        clock = stored.action.get("clock", clock)
    return base, updated_at, clock, None


def _json_object(fields: list[tuple[str, str, bool | None]]) -> str:
    """A message's proto3 JSON text from its fields in number order, each (name, value's
    JSON text, whether set; None: an optional field not set, left out): the order
    message_to_json_dict gives, the fields that are set first, then the unset ones with
    their default values."""
    ordered = [f for f in fields if f[2]] + [f for f in fields if f[2] is False]
    return "{" + ",".join(f'"{name}":{value}' for name, value, _ in ordered) + "}"


def _replay_decision_json(decision: pb.ReplayDecision) -> str:
    """The JSON text message_to_json_dict gives for `decision` (and json.dumps writes)."""
    return _json_object([
        ("version", f'"{decision.version}"', decision.version != 0),
        ("seat", str(decision.seat), decision.seat != 0),
        ("decision", json.dumps(decision.decision), decision.decision != ""),
        # optional: present (0 included) for an option, left out for an undo
        ("optionId", str(decision.option_id), True if decision.HasField("option_id") else None),
        ("name", json.dumps(decision.name), decision.name != ""),
        ("undo", "true" if decision.undo else "false", decision.undo),
        ("undone", str(decision.undone), decision.undone != 0),
    ])


def _field_bytes(number: int, data: bytes) -> bytes:
    """A length-delimited protobuf field: responses' fields concatenate into one message."""
    length, key = bytearray(), len(data)
    while key > 0x7F:
        length.append(key & 0x7F | 0x80)
        key >>= 7
    length.append(key)
    return bytes([number << 3 | 2]) + bytes(length) + data


_REPLAY_DECISIONS_FIELD = pb.GetReplayResponse.DESCRIPTOR.fields_by_name["decisions"].number


class _ReplayParts:
    """A game's replay made as far as `version`: the engine game there (replayed from the
    first snapshot, undos included), the decision ids, and each typed decision as the bytes
    of GetReplayResponse's `decisions` field and as its JSON text. A move extends them
    (extend_replay) instead of replaying the log again. The lists are only appended to,
    so an answer made from their first n entries stays right as they grow."""

    __slots__ = ("decision_bytes", "decision_json", "game", "ids", "reply", "size", "version")

    def __init__(self, game: Any) -> None:
        self.game = game
        self.version = 0
        self.ids: list[int | str] = []
        self.decision_bytes: list[bytes] = []
        self.decision_json: list[str] = []
        self.size = 0  # bytes and JSON characters held
        self.reply: tuple[int, bool, Reply] | None = None  # the last answer made

    def reply_at(self, row: GameRow, version: int, complete: bool) -> Reply:
        """GetReplay's answer at `version` (at most self.version): byte for byte the
        GetReplayResponse of the first `version` decisions, and its JSON text."""
        if self.reply is not None and self.reply[:2] == (version, complete):
            return self.reply[2]
        full: dict[str, Any] = {
            "rules_edition": row.rules_edition,
            "ruleset": ENGINE_RULESETS.get(row.ruleset, "birmingham"),
            "players": row.players,
            "options": row.options,
            "decisions": self.ids[:version],
        }
        if row.position_json is not None:
            full["position"] = json.loads(row.position_json)
        else:
            # a decimal string, as proto3 JSON writes 64-bit integers: a seed past 2**53 would
            # not survive a JavaScript JSON.parse as a number (Game.replay takes either)
            full["seed"] = str(row.seed)
        document = full if complete else {k: full[k] for k in _PUBLIC_REPLAY_FIELDS if k in full}
        record_json = json.dumps(document, sort_keys=True, separators=(",", ":"))
        head = pb.GetReplayResponse(complete=complete, record_json=record_json, version=version)
        decision_bytes, decision_json = self.decision_bytes, self.decision_json

        def json_text() -> str:
            return _json_object([
                ("complete", "true" if complete else "false", complete),
                ("recordJson", json.dumps(record_json), record_json != ""),
                ("version", f'"{version}"', version != 0),
                ("decisions", "[" + ",".join(decision_json[:version]) + "]", version != 0),
            ])

        reply = Reply(
            pb.GetReplayResponse,
            make_data=lambda: head.SerializeToString() + b"".join(decision_bytes[:version]),
            json_text=functools.cache(json_text))
        self.reply = (version, complete, reply)
        return reply


def extend_replay(game_id: str, parts: _ReplayParts, rows: list[DecisionRow],
                   version: int) -> None:
    """Brings `parts` to `version` with the stored decisions after its version, `rows`;
    the engine says what each id meant and who made it. Runs in a worker thread: `parts`
    is used by nobody else meanwhile (GetReplay's lock of the game)."""
    game = parts.game
    try:
        for stored in rows:
            if stored.from_version != parts.version:
                break
            steps: list[int | str] = (
                [brass.UNDO] if stored.action.get("undo")
                else [int(i) for i in stored.action["ids"]])
            for option_id in steps:
                at = parts.version + 1
                seat = game.current_seat
                if option_id == brass.UNDO:
                    decision = game.decision
                    undone = game.undo(seat=seat)[0]["decisions"]
                    typed = pb.ReplayDecision(version=at, seat=seat, decision=decision,
                                              name=brass.UNDO, undo=True, undone=undone)
                else:
                    assert isinstance(option_id, int)
                    typed = pb.ReplayDecision(
                        version=at, seat=seat, decision=game.decision, option_id=option_id,
                        name=brass.action_name(option_id, game.ruleset))
                    game.apply(option_id, seat=seat)
                field_bytes = _field_bytes(_REPLAY_DECISIONS_FIELD, typed.SerializeToString())
                text = _replay_decision_json(typed)
                parts.ids.append(option_id)
                parts.decision_bytes.append(field_bytes)
                parts.decision_json.append(text)
                parts.size += len(field_bytes) + len(text)
                parts.version = at
    except brass.EngineError as exc:
        raise ServiceError(
            "CORRUPT_GAME", f"game {game_id}: a stored decision is refused ({exc})"
        ) from exc
    if parts.version != version:
        raise ServiceError("CORRUPT_GAME", f"game {game_id}: decision log is incomplete")


class Replays:
    """The past of a game: GetGame at a version and GetReplay, with their bounded caches."""

    def __init__(self, store: Store, live: LiveGames, access: Access,
                 quotas: Quotas, delay: SpectatorDelay) -> None:
        self.delay = delay
        self.store = store
        self.live = live
        self.access = access
        self.quotas = quotas
        # GetReplay's parts by game: the same for every caller, and a replay from scratch
        # reads and replays the game's whole log (about 10 ms for a finished 4-player game,
        # up to about 0.2 s at max_undo_version); kept, a viewer asking again costs
        # nothing, and after a move only the new decisions are read and replayed.
        self._replays: OrderedDict[str, _ReplayParts] = OrderedDict()
        self._replay_bytes = 0  # the kept parts' sizes (_ReplayParts.size), summed
        self._replay_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        # Past versions (GetGame at_version) by (game, version), _PAST_STATES_KEPT at most.
        self._past_states: OrderedDict[tuple[str, int], LiveGame] = OrderedDict()

    async def game_at_version(self, row: GameRow, version: int) -> LiveGame:
        """The game at any past version: from the newest barrier snapshot at or before it
        (_snapshot_game) and the decisions stored after that snapshot only, then the first
        ids of the submission that spans the version, one by one (a compound action's
        decisions are steps of their own). Past versions never change, so the last few
        asked are kept; the engine's work runs in a worker thread, on a game restored for
        this request alone."""
        key = (row.game_id, version)
        kept = self._past_states.get(key)
        if kept is not None:
            self._past_states.move_to_end(key)
            return kept
        game, snapshot_version = await self.live.snapshot_game(row, version)
        # The decision ending at the snapshot (its time and clock; none at 0), those up
        # to the version (a row has one version or more) and the one spanning it.
        rows = await self.store.decisions_after(
            row.game_id, max(snapshot_version - 1, 0), up_to=None,
            limit=version - snapshot_version + (2 if snapshot_version > 0 else 1))
        hosting = hosted.hosting_of(row)
        if snapshot_version > 0 and (not rows or rows[0].to_version != snapshot_version):
            raise ServiceError("CORRUPT_GAME", f"game {row.game_id}: decision log is incomplete")
        base, updated_at, clock, spanning = _past_version_facts(
            hosting, row.created_at, rows, version)
        if clock is None and snapshot_version > 0 and "clock" in hosting:
            # the decisions since the snapshot have no clock: the last one before does
            earlier = await self.store.decisions_after(row.game_id, 0, up_to=snapshot_version)
            clock = _past_version_facts(hosting, row.created_at, earlier, version)[2]
        live = await asyncio.to_thread(
            self._past_game, row, LiveGame(game, snapshot_version, row.created_at),
            [r for r in rows if r.to_version <= base], base, version, spanning)
        if clock is None:  # no decision before: the clock as the game started
            started = hosted.started_at(hosting, row.created_at)
            clock = hosted.clock_start(hosting, row.players, live.game.current_seat, started)
        when = updated_at if spanning is None or base == version else spanning.created_at
        live = LiveGame(live.game, version, when, clock, as_of=when)
        self._past_states[key] = live
        while len(self._past_states) > _PAST_STATES_KEPT:
            self._past_states.popitem(last=False)
        return live

    def _past_game(self, row: GameRow, start: LiveGame, rows: list[DecisionRow], base: int,
                   version: int, spanning: DecisionRow | None) -> LiveGame:
        """The engine's part of _game_at_version (run in a worker thread): `start` (a game
        of this request's own) brought to the stored version `base` by `rows`, then to
        `version` by the first ids of `spanning`."""
        live = self.live.apply_stored(start, rows, in_place=True)
        if live.version != base:
            raise ServiceError(
                "CORRUPT_GAME", f"game {row.game_id} restores to version {live.version}"
            )
        if base == version:
            return live
        if spanning is None or spanning.from_version != base:
            raise ServiceError("CORRUPT_GAME", f"game {row.game_id}: decision log is incomplete")
        game = live.game
        try:
            for option_id in spanning.action["ids"][: version - base]:
                game.apply(int(option_id), seat=spanning.seat)
        except brass.EngineError as exc:
            raise ServiceError(
                "CORRUPT_GAME", f"game {row.game_id}: a stored decision is refused ({exc})"
            ) from exc
        return LiveGame(game, version, spanning.created_at)

    def admit_past_read(self, caller: Caller) -> None:
        """Counts a read of a game's past (GetGame at_version, GetReplay) against the
        caller's address, before any work: such reads cost more than others (an engine
        replay from a snapshot, a replay of new decisions), and seat tokens are not scarce
        (anyone may create games), so they count by address whatever the token."""
        self.quotas.past_read_quota.admit(address_identity(caller))

    def _replay_lock(self, game_id: str) -> asyncio.Lock:
        lock = self._replay_locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._replay_locks[game_id] = lock
        return lock

    async def get_replay(
        self, request: pb.GetReplayRequest, caller: Caller, record: RequestRecord
    ) -> Reply:
        record.game_id = request.game_id
        self.admit_past_read(caller)
        row, live = await self.live.get(request.game_id)
        seat = self.access.seat_of(row, caller)
        # a delayed spectator's replay ends where its view of the game does
        version = await self.delay.visible_version(row, live, seat)
        record.seat, record.version = seat, version
        complete = bool(live.game.is_over)
        # One request at a time extends a game's replay; the others then find it made.
        async with self._replay_lock(row.game_id):
            built = self._replays.pop(row.game_id, None)  # out of the cache while in use
            if built is not None:
                self._replay_bytes -= built.size
            if built is None or built.version < version:
                if built is None:
                    game = (await self.live.game_at(row, 0, row.created_at)).game.clone()
                    built = _ReplayParts(game)
                rows = await self.store.decisions_after(row.game_id, built.version,
                                                        up_to=version)
                # A failure leaves `built` out of the cache: a half-made replay is never kept.
                await asyncio.to_thread(extend_replay, row.game_id, built, rows, version)
            reply = built.reply_at(row, version, complete)
            self._replays[row.game_id] = built
            self._replay_bytes += built.size
            while self._replays and (len(self._replays) > _REPLAYS_KEPT
                                     or self._replay_bytes > _REPLAY_BYTES_KEPT):
                _, dropped = self._replays.popitem(last=False)
                self._replay_bytes -= dropped.size
        return reply
