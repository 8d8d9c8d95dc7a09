"""The `Game` class: a thin, typed wrapper over the C core's plain state struct."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from brass._core import ffi, lib

NUM_DISTINCT_ACTIONS: int = lib.BRASS_NUM_ACTIONS
OBSERVATION_SIZE: int = lib.BRASS_OBS_SIZE
RULES_EDITION: int = lib.BRASS_RULES_EDITION
POSITION_FORMAT = "brass-position/1"

INDUSTRIES = ("cotton", "manufacturer", "pottery", "coal", "iron", "brewery")
ACTION_TYPES = ("build", "network", "develop", "sell", "loan", "scout", "pass")
ERAS = ("canal", "rail")
BONUS_KINDS = ("money", "vp", "income_spaces", "develop")
_NONE = lib.BRASS_NONE


def _is_integer(value: Any) -> bool:
    """A Python or numpy integer, not a bool (True is not seat 1)."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def action_name(action: int) -> str:
    """Stable short name of an action id, e.g. ``card:birmingham`` or ``slot:dudley.0``;
    ``unknown`` outside the action space."""
    if not _is_integer(action):
        raise EngineError("INVALID_ARGUMENT", "action must be an integer", None, "action")
    if not 0 <= action < lib.BRASS_NUM_ACTIONS:
        return "unknown"
    return ffi.string(lib.brass_action_name(int(action))).decode()


_NAMES = [action_name(i) for i in range(NUM_DISTINCT_ACTIONS)]
_IDS = {name: i for i, name in enumerate(_NAMES)}
CARD_NAMES = tuple(_NAMES[lib.A_CARD + i][5:] for i in range(lib.BRASS_NUM_CARD_TYPES))
SLOT_NAMES = tuple(_NAMES[lib.A_SLOT + i][5:] for i in range(lib.BRASS_NUM_SLOTS))
LINK_NAMES = tuple(_NAMES[lib.A_LINK + i][5:] for i in range(lib.BRASS_NUM_LINKS))
SPACE_NAMES = tuple(_NAMES[lib.A_MERCHANT + i][9:] for i in range(lib.BRASS_NUM_MERCHANT_SPACES))
PHASE_NAMES = tuple(ffi.string(lib.brass_phase_name(i)).decode() for i in range(lib.NUM_PHASES))
_REASONS = {getattr(lib, n): n[2:] for n in dir(lib) if n.startswith("R_")}
_ERRORS = {
    lib.BRASS_E_ILLEGAL: "ILLEGAL_ACTION",
    lib.BRASS_E_NOT_YOUR_TURN: "NOT_YOUR_TURN",
    lib.BRASS_E_GAME_OVER: "GAME_OVER",
    lib.BRASS_E_UNKNOWN_ACTION: "UNKNOWN_ACTION",
    lib.BRASS_E_BAD_SNAPSHOT: "BAD_SNAPSHOT",
    lib.BRASS_E_BAD_POSITION: "BAD_POSITION",
    lib.BRASS_E_BAD_ARGUMENT: "INVALID_ARGUMENT",
    lib.BRASS_E_BUFFER: "INTERNAL",
}
_EVENT_FIELDS: dict[int, tuple[str, tuple[str, ...]]] = {
    lib.EV_ACTION: ("action", ("action", "card")),
    lib.EV_PAY: ("pay", ("money",)),
    lib.EV_COAL: ("coal", ("source", "price")),
    lib.EV_IRON: ("iron", ("source", "price")),
    lib.EV_BEER: ("beer", ("source", "merchant")),
    lib.EV_BUILD: ("build", ("slot", "industry", "level")),
    lib.EV_OVERBUILD: ("overbuild", ("slot", "previous_owner", "previous_level")),
    lib.EV_LINK: ("link", ("link",)),
    lib.EV_DEVELOP: ("develop", ("industry", "level")),
    lib.EV_SELL: ("sell", ("slot", "merchant")),
    lib.EV_FLIP: ("flip", ("slot", "income_spaces")),
    lib.EV_MARKET_SALE: ("market_sale", ("slot", "cubes", "money")),
    lib.EV_MERCHANT_BONUS: ("merchant_bonus", ("merchant", "bonus", "amount")),
    lib.EV_LOAN: ("loan", ("income_space",)),
    lib.EV_SCOUT: ("scout", ()),
    lib.EV_PASS: ("pass", ()),
    lib.EV_TURN_END: ("turn_end", ("cards_drawn",)),
    lib.EV_TURN_ORDER: ("turn_order", ("order", "players")),
    lib.EV_INCOME: ("income", ("money",)),
    lib.EV_SHORTFALL_REMOVE: ("shortfall_remove", ("slot", "money")),
    lib.EV_VP_LOSS: ("vp_loss", ("vp",)),
    lib.EV_LINK_SCORE: ("link_score", ("link", "vp")),
    lib.EV_TILE_SCORE: ("tile_score", ("slot", "vp")),
    lib.EV_TILE_REMOVED: ("tile_removed", ("slot",)),
    lib.EV_ERA_END: ("era_end", ("era",)),
    lib.EV_BONUS_SCORE: ("bonus_score", ("vp",)),
    lib.EV_GAME_END: ("game_end", ()),
    lib.EV_ROUND_END: ("round_end", ("round",)),
}


class EngineError(Exception):
    """A refused call. ``code`` is machine-readable; ``reason`` says why an action is illegal."""

    def __init__(self, code: str, message: str, reason: str | None = None,
                 field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.field = field

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "reason": self.reason, "message": self.message,
                "field": self.field}

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled with all its fields (the default would rebuild it from the message alone
        # and fail), so it crosses process pools intact.
        return type(self), (self.code, self.message, self.reason, self.field)


def _reason_message(reason: int) -> str:
    return ffi.string(lib.brass_reason_message(reason)).decode()


# The JSON writers fill at most BRASS_JSON_CAP bytes; no need to zero them first.
_new_uncleared = ffi.new_allocator(should_clear_after_alloc=False)


def _json_buffer() -> Any:
    return _new_uncleared("char[]", lib.BRASS_JSON_CAP)


MAX_STRUCT_TEXT = 1 << 24  # bytes of JSON text the core converts (8x that for the output)


def json_to_struct_bytes(text: str | bytes) -> bytes | None:
    """The wire bytes of the google.protobuf.Struct holding the JSON object `text` (a view
    from Game.view_json, say), written by the core; None when the core leaves the text to
    a general converter (not an object, not UTF-8, a number over 39 characters, nesting
    deeper than 32, or longer than MAX_STRUCT_TEXT: the core's lengths are C ints)."""
    try:
        data = text.encode() if isinstance(text, str) else bytes(text)
    except UnicodeEncodeError:  # a lone surrogate: not UTF-8
        return None
    if len(data) > MAX_STRUCT_TEXT:
        return None
    cap = 8 * len(data) + 64  # BRASS_STRUCT_CAP
    out = _new_uncleared("uint8_t[]", cap)
    n = lib.brass_json_to_struct(data, len(data), out, cap)
    if n < 0:
        return None
    return ffi.buffer(out, n)[:]


def _raise(err: int, reason: int = 0, what: str = "", field: str | None = None) -> None:
    code = _ERRORS.get(err, "INTERNAL")
    if err == lib.BRASS_E_ILLEGAL:
        msg = f"{what} is not legal now: {_reason_message(reason)}"
        raise EngineError(code, msg, _REASONS.get(reason), field)
    messages = {
        "NOT_YOUR_TURN": f"it is not this seat's turn ({what})",
        "GAME_OVER": "the game is over",
        "UNKNOWN_ACTION": f"{what} is outside the action space 0..{NUM_DISTINCT_ACTIONS - 1}",
        "BAD_SNAPSHOT": "snapshot bytes are corrupt, truncated or from another format",
        "BAD_POSITION": f"invalid position: {field or what}",
        "INVALID_ARGUMENT": f"invalid argument: {what}",
    }
    raise EngineError(code, messages.get(code, f"internal error {err}"), None, field)


_SEED_MASK = 2**64 - 1
_INT32_MAX = 2**31 - 1
MAX_BATCH = 1 << 20          # games in one GameBatch or batch_playouts call
MAX_COMPOUND_LIMIT = 200_000  # compound actions listed by one call


def _integer(value: Any, what: str, lo: int, hi: int) -> int:
    """`value` as an int in lo..hi, else INVALID_ARGUMENT naming `what`: a number that
    crosses into C is exact and in range there (no bools, floats or strings)."""
    if not _is_integer(value):
        raise EngineError("INVALID_ARGUMENT", f"{what} must be an integer", None, what)
    number = int(value)
    if not lo <= number <= hi:
        raise EngineError("INVALID_ARGUMENT", f"{what} must be in {lo}..{hi}", None, what)
    return number


def _seed(value: Any, what: str = "seed") -> int:
    """A seed for the core: any integer, taken modulo 2^64."""
    if not _is_integer(value):
        raise EngineError("INVALID_ARGUMENT", f"{what} must be an integer", None, what)
    return int(value) & _SEED_MASK


def _action_id(value: Any, what: str) -> int:
    """An action id: an integer (else INVALID_ARGUMENT) inside the action space (else
    UNKNOWN_ACTION)."""
    if not _is_integer(value):
        raise EngineError("INVALID_ARGUMENT", f"{what} must be an integer action id", None,
                          what)
    action = int(value)
    if not 0 <= action < NUM_DISTINCT_ACTIONS:
        _raise(lib.BRASS_E_UNKNOWN_ACTION, what=f"{what}={action}" if "[" in what
               else f"action {action}")
    return action


def meaning(action: int) -> dict[str, Any]:
    """Structured meaning of an action id, for frontends."""
    name = _NAMES[_action_id(action, "action")]
    kind, _, value = name.partition(":")
    if kind == "type":
        return {"kind": "action_type", "action_type": value}
    if kind in ("card", "industry", "link"):
        return {"kind": kind, kind: value}
    if kind == "slot":
        return {"kind": "slot", "slot": value, "location": value.split(".")[0]}
    if kind == "merchant":
        return {"kind": "merchant", "merchant": value, "location": value.split(".")[0]}
    return {"kind": name}


@dataclass(frozen=True)
class Option:
    id: int
    decision: str
    name: str
    meaning: dict[str, Any] = field(hash=False, compare=False)


@dataclass(frozen=True)
class Compound:
    key: str
    ids: tuple[int, ...]


def _card(c: int) -> str | None:
    return None if c == lib.BRASS_NO_CARD else CARD_NAMES[c]


def _opt(v: int, names: Sequence[str]) -> str | None:
    return None if v == _NONE else names[v]


def _position_of(g: Any) -> dict[str, Any]:
    out = _json_buffer()
    n = lib.brass_position_json(g, out, lib.BRASS_JSON_CAP)
    if n < 0:
        _raise(-n)
    return json.loads(ffi.unpack(out, n))


class Game:
    """One game of Brass in the C core. Methods never leave the state half-changed."""

    __slots__ = ("_g", "_record", "_owner")

    def __init__(self, _state: Any, _record: dict[str, Any], _owner: Any = None) -> None:
        self._g = _state
        self._record = _record
        # A game viewing a GameBatch slot keeps the batch's C array alive (a pointer into
        # it does not).
        self._owner = _owner

    # ---- creation ----
    @classmethod
    def new(cls, players: int, seed: int = 0, *, beginner: bool = False,
            manufacturer_iv_cost: int = 8, auto_resolve: bool = True) -> Game:
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise EngineError("INVALID_ARGUMENT", "players must be 2, 3 or 4", None, "players")
        if manufacturer_iv_cost not in (8, 14):
            raise EngineError("INVALID_ARGUMENT", "manufacturer_iv_cost must be 8 or 14", None,
                              "options.manufacturer_iv_cost")
        if not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise EngineError("INVALID_ARGUMENT", "seed must be an integer in [0, 2^64)", None,
                              "seed")
        opt = ffi.new("BrassOptions *", [players, int(beginner), manufacturer_iv_cost,
                                         int(auto_resolve)])
        g = ffi.new("BrassGame *")
        err = lib.brass_new(g, opt, seed)
        if err:
            _raise(err, what="options")
        record = {"rules_edition": RULES_EDITION, "ruleset": "birmingham", "players": players,
                  "seed": seed, "options": {"beginner": beginner,
                                            "manufacturer_iv_cost": manufacturer_iv_cost,
                                            "auto_resolve": auto_resolve},
                  "decisions": []}
        return cls(g, record)

    @classmethod
    def from_position(cls, position: dict[str, Any] | str | bytes) -> Game:
        from brass.position import MAX_POSITION_CHARS, state_from_position  # keeps import light

        if isinstance(position, str | bytes):
            if len(position) > MAX_POSITION_CHARS:
                raise EngineError("BAD_POSITION", f"position is over {MAX_POSITION_CHARS} "
                                  "characters", None, "$")
            try:
                position = json.loads(position)
            except (ValueError, UnicodeDecodeError, RecursionError) as exc:
                raise EngineError("BAD_POSITION", f"position is not valid JSON: {exc}", None,
                                  "$") from exc
        g = state_from_position(position)
        # the record keeps the engine's own rewrite of the position, never the caller's object
        record = {"rules_edition": RULES_EDITION, "ruleset": "birmingham",
                  "players": g.num_players, "position": _position_of(g), "decisions": []}
        return cls(g, record)

    @classmethod
    def restore(cls, data: bytes) -> Game:
        if not isinstance(data, bytes | bytearray | memoryview):
            raise EngineError("BAD_SNAPSHOT", "snapshot must be bytes")
        data = bytes(data)
        g = ffi.new("BrassGame *")
        err = lib.brass_restore(g, data, len(data))
        if err:
            _raise(err)
        return cls(g, {"rules_edition": g.rules_edition, "ruleset": "birmingham",
                       "players": g.num_players, "restored": True, "decisions": []})

    @classmethod
    def replay(cls, record: dict[str, Any]) -> Game:
        """Rebuild a game from its seed (or start position) and decision list."""
        try:
            edition = int(record.get("rules_edition", RULES_EDITION))
            if edition > RULES_EDITION:
                raise EngineError("INVALID_ARGUMENT",
                                  f"replay needs rules edition {edition}; this engine has "
                                  f"{RULES_EDITION}", None, "rules_edition")
            if "position" in record:
                game = cls.from_position(record["position"])
            else:
                opts = record.get("options", {})
                game = cls.new(int(record["players"]), int(record["seed"]),
                               beginner=bool(opts.get("beginner", False)),
                               manufacturer_iv_cost=int(opts.get("manufacturer_iv_cost", 8)),
                               auto_resolve=bool(opts.get("auto_resolve", True)))
            decisions = [int(d) for d in record.get("decisions", [])]
        except (KeyError, TypeError, ValueError) as exc:
            raise EngineError("INVALID_ARGUMENT", f"malformed replay record: {exc}") from exc
        for i, d in enumerate(decisions):
            try:
                game.apply(d)
            except EngineError as exc:
                raise EngineError(exc.code, f"decision {i}: {exc.message}", exc.reason,
                                  f"decisions[{i}]") from exc
        return game

    def clone(self) -> Game:
        """An independent copy (its own C state and replay record)."""
        g = ffi.new("BrassGame *")
        ffi.memmove(g, self._g, ffi.sizeof("BrassGame"))
        rec = dict(self._record)
        rec["decisions"] = list(self._record["decisions"])
        return Game(g, rec)

    # copy.copy and copy.deepcopy give independent games (a shallow copy sharing the C
    # state would let a move on the copy change the original); pickling goes through the
    # snapshot, validated again when loaded, with the replay record.
    def __copy__(self) -> Game:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        copy = self.clone()
        copy._record = deepcopy(self._record, memo)
        return copy

    def __reduce__(self) -> tuple[Any, ...]:
        return _unpickle_game, (self.snapshot(), self.replay_record())

    # ---- state ----
    @property
    def num_players(self) -> int:
        return self._g.num_players

    @property
    def is_over(self) -> bool:
        return bool(self._g.game_over)

    @property
    def current_seat(self) -> int | None:
        return None if self._g.game_over else self._g.current

    @property
    def decision(self) -> str:
        return PHASE_NAMES[self._g.phase]

    @property
    def decisions_applied(self) -> int:
        """Every decision applied, forced ones included."""
        return self._g.decisions

    @property
    def version(self) -> int:
        """Number of decisions submitted to this game object (its replay length)."""
        return len(self._record["decisions"])

    def state_hash(self) -> int:
        return int(lib.brass_hash(self._g))

    def snapshot(self) -> bytes:
        n = lib.brass_snapshot_size()
        buf = ffi.new("uint8_t[]", n)
        err = lib.brass_snapshot(self._g, buf, n)
        if err:
            _raise(err)
        return bytes(ffi.buffer(buf, n))

    def replay_record(self) -> dict[str, Any]:
        rec = dict(self._record)
        rec["decisions"] = list(self._record["decisions"])
        return rec

    # ---- decisions ----
    def legal_ids(self) -> list[int]:
        buf = ffi.new("uint16_t[]", NUM_DISTINCT_ACTIONS)
        n = lib.brass_legal(self._g, buf, NUM_DISTINCT_ACTIONS)
        if n < 0:
            _raise(-n)
        return list(buf[0:n])

    def legal_actions(self) -> list[Option]:
        phase = self.decision
        return [Option(i, phase, _NAMES[i], meaning(i)) for i in self.legal_ids()]

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(NUM_DISTINCT_ACTIONS, dtype=bool)
        mask[self.legal_ids()] = True
        return mask

    def reason(self, action: int) -> str | None:
        """Why `action` is not legal now (None when it is)."""
        r = lib.brass_reason(self._g, _action_id(action, "action"))
        return None if r == 0 else _REASONS[r]

    def unavailable(self) -> list[tuple[int, str, str]]:
        """Options of this decision's kind that are not legal now, with reason and message."""
        out = []
        for a in range(NUM_DISTINCT_ACTIONS):
            r = lib.brass_reason(self._g, a)
            if r not in (0, lib.R_WRONG_DECISION):
                out.append((a, _REASONS[r], _reason_message(r)))
        return out

    def _check_seat(self, seat: int | None) -> int:
        if seat is None:
            return -1
        if not _is_integer(seat) or not 0 <= seat < self.num_players:
            raise EngineError("INVALID_ARGUMENT", f"seat must be 0..{self.num_players - 1}",
                              None, "seat")
        return int(seat)

    def apply(self, action: int, seat: int | None = None) -> list[dict[str, Any]]:
        """Apply one decision id; returns the events it caused."""
        s = self._check_seat(seat)
        action = _action_id(action, "action")
        log = ffi.new("BrassEventLog *")
        reason = ffi.new("int *")
        err = lib.brass_apply(self._g, s, action, log, reason)
        if err:
            _raise(err, reason[0], f"action {action} ({_NAMES[action]})" if err != 2
                   else f"seat {seat} tried to act; seat {self._g.current} is to act")
        self._record["decisions"].append(action)
        return self._events(log)

    def apply_compound(self, ids: Iterable[int], seat: int | None = None) -> list[dict[str, Any]]:
        """Apply a whole compound action atomically: all of it or nothing."""
        ids = _id_list(ids)
        s = self._check_seat(seat)
        arr = ffi.new("uint16_t[]", ids)
        log = ffi.new("BrassEventLog *")
        reason = ffi.new("int *")
        at = ffi.new("int *")
        err = lib.brass_apply_sequence(self._g, s, arr, len(ids), log, reason, at)
        if err:
            k = at[0]
            _raise(err, reason[0], f"ids[{k}]={ids[k]} ({_NAMES[ids[k]]})")
        self._record["decisions"].extend(ids)
        return self._events(log)

    def compound_actions(self, limit: int = 20000) -> tuple[list[Compound], bool]:
        """Every complete compound action from here (canonical), and whether the list was cut
        (at `limit` actions, at most MAX_COMPOUND_LIMIT)."""
        limit = _integer(limit, "limit", 0, MAX_COMPOUND_LIMIT)
        ids = ffi.new("uint16_t[]", limit * 16)
        offs = ffi.new("uint32_t[]", limit + 1)
        trunc = ffi.new("int *")
        n = lib.brass_compound_actions(self._g, ids, limit * 16, offs, limit, trunc)
        if n < 0:
            _raise(-n)
        out = []
        for k in range(n):
            seq = tuple(ids[offs[k]:offs[k + 1]])
            out.append(Compound(" ".join(_NAMES[i] for i in seq), seq))
        return out, bool(trunc[0])

    def preview(self, ids: int | Sequence[int], seat: int | None = None) -> dict[str, Any]:
        """What apply (one id) or apply_compound (a list) would do, as `seat` may see it
        (None: a spectator): the events, the cost breakdown and the resulting view; this game
        is unchanged. Worked out in the core from what the seat to act knows only: cards
        drawn from the face-down deck are not shown, the view's hand is the one kept before
        the draw and ``hand_unseen`` counts the cards drawn (docs/ENGINE_API.md)."""
        s = self._check_seat(seat)
        if isinstance(ids, int | np.integer):
            seq = [_action_id(ids, "action")]
        else:
            seq = _id_list(ids)
        after = ffi.new("BrassGame *")
        log = ffi.new("BrassEventLog *")
        reason = ffi.new("int *")
        at = ffi.new("int *")
        err = lib.brass_preview(self._g, s, ffi.new("uint16_t[]", seq), len(seq), after, log,
                                reason, at)
        if err:
            if len(seq) == 1:
                _raise(err, reason[0], f"action {seq[0]} ({_NAMES[seq[0]]})" if err != 2
                       else f"seat {seat} tried to act; seat {self._g.current} is to act")
            k = at[0]
            _raise(err, reason[0], f"ids[{k}]={seq[k]} ({_NAMES[seq[k]]})")
        events = self._events(log)
        actor = self._g.current
        cost: dict[str, Any] = {"money": 0, "coal": [], "iron": [], "beer": [],
                                "market_income": 0, "flips": [], "merchant_bonus": []}
        for e in events:
            if e["seat"] != actor:
                continue
            t = e["type"]
            if t == "pay":
                cost["money"] += e["money"]
            elif t in ("coal", "iron", "beer"):
                cost[t].append(e["source"])
            elif t == "market_sale":
                cost["market_income"] += e["money"]
            elif t == "merchant_bonus":
                cost["merchant_bonus"].append(e)
        cost["flips"] = [e for e in events if e["type"] == "flip"]
        before, now = self._g.players[actor], after.players[actor]
        cost["income_spaces"] = now.income_space - before.income_space
        cost["vp"] = now.vp - before.vp
        cost["money_after"] = now.money
        return {"events": events, "cost": cost, "view": json.loads(_view_json(after, s))}

    def _events(self, log: Any) -> list[dict[str, Any]]:
        out = []
        for k in range(min(log.count, lib.BRASS_MAX_EVENTS)):
            e = log.events[k]
            name, fields = _EVENT_FIELDS.get(e.type, ("unknown", ()))
            d: dict[str, Any] = {"type": name, "seat": None if e.seat < 0 else e.seat}
            for f, v in zip(fields, (e.a, e.b, e.c), strict=False):
                d[f] = v
            _name_event(d)
            out.append(d)
        return out

    # ---- views ----
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` may see (spectator when None): never others' hands, deck order, seed."""
        return json.loads(self.view_json(seat))

    def view_json(self, seat: int | None = None) -> str:
        """view() as compact JSON text, written by the core (no dict in between)."""
        return _view_json(self._g, self._check_seat(seat))

    def position(self) -> dict[str, Any]:
        """The full position (hidden information included), in the documented JSON format."""
        return _position_of(self._g)

    def observation(self, seat: int) -> np.ndarray:
        if seat is None:
            raise EngineError("INVALID_ARGUMENT", "an observation is a seat's: seat is needed",
                              None, "seat")
        s = self._check_seat(seat)
        out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        n = lib.brass_observation(self._g, s, ffi.cast("float *", out.ctypes.data),
                                  OBSERVATION_SIZE)
        if n < 0:
            _raise(-n)
        return out

    def determinize(self, seat: int, seed: int) -> Game:
        """A copy with what `seat` cannot see re-dealt at random (for information-set search)."""
        s = self._check_seat(seat)
        seed = _seed(seed)
        copy = self.clone()
        err = lib.brass_determinize(copy._g, s, seed)
        if err:
            _raise(err, what="seat")
        return copy

    # ---- results ----
    def scores(self) -> list[int]:
        return [self._g.players[p].vp for p in range(self.num_players)]

    def ranking(self) -> list[int]:
        out = ffi.new("uint8_t[4]")
        n = lib.brass_score_order(self._g, out)
        return list(out[0:n])

    def winners(self) -> list[int]:
        """Seats sharing first place (ruling 20: VP, then income level, then money)."""
        rank = self.ranking()

        def key(p: int) -> tuple[int, int, int]:
            pl = self._g.players[p]
            return (pl.vp, lib.brass_income_level(pl.income_space), pl.money)

        return [p for p in rank if key(p) == key(rank[0])]

    def playout(self, seed: int, policy: str = "random", max_decisions: int = 1 << 20) -> int:
        """Play this game to the end inside C with a random policy; returns decisions made."""
        max_decisions = _integer(max_decisions, "max_decisions", 0, _INT32_MAX)
        n = lib.brass_playout(self._g, _policy(policy), _seed(seed), max_decisions)
        if n < 0:
            _raise(-n)
        self._record["playout"] = True
        return n

    def batch_playouts(self, n: int, seed: int, policy: str = "random") -> np.ndarray:
        """Play n copies of this game to the end inside C (one call); returns their final VP
        as an n x players int array. This game is not changed."""
        n = _integer(n, "n", 1, MAX_BATCH)
        seed = _seed(seed)
        games = ffi.new("BrassGame[]", n)
        size = ffi.sizeof("BrassGame")
        for i in range(n):
            ffi.memmove(ffi.addressof(games, i), self._g, size)
        err = lib.brass_playout_batch(games, n, _policy(policy), seed, 1 << 20)
        if err < 0:
            _raise(-err)
        out = np.zeros((n, self.num_players), dtype=np.int32)
        for i in range(n):
            for p in range(self.num_players):
                out[i, p] = games[i].players[p].vp
        return out

    def __repr__(self) -> str:
        return (f"<brass.Game players={self.num_players} era={ERAS[self._g.era]} "
                f"round={self._g.round} decision={self.decision} seat={self.current_seat}>")


class GameBatch:
    """n games in one C array, stepped together by one call (`step`) so that Python overhead
    is paid once per batch. `games[i]` is a `Game` viewing slot i of the array."""

    def __init__(self, n: int, players: int, seeds: Sequence[int], **options: Any) -> None:
        n = _integer(n, "n", 1, MAX_BATCH)
        if len(seeds) != n:
            raise EngineError("INVALID_ARGUMENT", "need one seed per game", None, "seeds")
        self.n = n
        self.players = players
        self._options = options
        self._array = ffi.new("BrassGame[]", n)
        self.games: list[Game] = [None] * n  # type: ignore[list-item]
        for i, seed in enumerate(seeds):
            self.reset_game(i, seed)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (and copied) as its games' snapshots and records: a copy has its own array.
        return _unpickle_batch, (self.players, dict(self._options),
                                 [g.snapshot() for g in self.games],
                                 [g.replay_record() for g in self.games])

    def reset_game(self, i: int, seed: int) -> Game:
        """Deal a new game into slot i (0 <= i < n; checked before anything is written)."""
        i = _integer(i, "i", 0, self.n - 1)
        fresh = Game.new(self.players, seed, **self._options)
        slot = ffi.addressof(self._array, i)
        ffi.memmove(slot, fresh._g, ffi.sizeof("BrassGame"))
        self.games[i] = Game(slot, fresh._record, self._array)
        return self.games[i]

    def step(self, actions: np.ndarray, observations: np.ndarray, masks: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
        """Apply actions[i] (-1: none) in game i; fill observations (n x OBSERVATION_SIZE
        float32) and masks (n x NUM_DISTINCT_ACTIONS bool) for the seats to act; return the
        per-game error codes (0 = applied) and done flags."""
        given = np.asarray(actions)
        if given.shape != (self.n,):
            raise EngineError("INVALID_ARGUMENT", f"actions must have shape ({self.n},)", None,
                              "actions")
        # Checked before the cast to int32, which would wrap 2^32 + k to action k.
        if given.dtype.kind not in "iu" or (
                given.size and (given.min() < -1 or given.max() > _INT32_MAX)):
            raise EngineError("INVALID_ARGUMENT", "actions must be integers, -1 for none",
                              None, "actions")
        acts = np.ascontiguousarray(given, dtype=np.int32)
        if (observations.shape != (self.n, OBSERVATION_SIZE) or observations.dtype != np.float32
                or not observations.flags.c_contiguous):
            raise EngineError("INVALID_ARGUMENT", "observations: C-contiguous float32 (n, obs)")
        if (masks.shape != (self.n, NUM_DISTINCT_ACTIONS) or masks.dtype != np.bool_
                or not masks.flags.c_contiguous):
            raise EngineError("INVALID_ARGUMENT", "masks: C-contiguous bool (n, actions)")
        errors = np.zeros(self.n, dtype=np.int32)
        done = np.zeros(self.n, dtype=np.bool_)
        lib.brass_step_batch(self._array, self.n, ffi.from_buffer("int32_t[]", acts),
                             ffi.from_buffer("int32_t[]", errors),
                             ffi.from_buffer("float[]", observations),
                             ffi.from_buffer("uint8_t[]", masks),
                             ffi.from_buffer("uint8_t[]", done))
        for i in np.flatnonzero((errors == 0) & (acts >= 0)):
            self.games[i]._record["decisions"].append(int(acts[i]))
        return errors, done


def _unpickle_game(snapshot: bytes, record: dict[str, Any]) -> Game:
    game = Game.restore(snapshot)
    game._record = record
    return game


def _unpickle_batch(players: int, options: dict[str, Any], snapshots: list[bytes],
                    records: list[dict[str, Any]]) -> GameBatch:
    batch = GameBatch.__new__(GameBatch)
    batch.n, batch.players, batch._options = len(snapshots), players, options
    batch._array = ffi.new("BrassGame[]", batch.n)
    batch.games = []
    for i, (data, record) in enumerate(zip(snapshots, records, strict=True)):
        slot = ffi.addressof(batch._array, i)
        err = lib.brass_restore(slot, data, len(data))
        if err:
            _raise(err)
        batch.games.append(Game(slot, dict(record, decisions=list(record["decisions"])),
                                batch._array))
    return batch


def _id_list(ids: Iterable[int]) -> list[int]:
    """The ids of a compound action, each an integer inside the action space."""
    if isinstance(ids, str | bytes) or not isinstance(ids, Iterable):
        raise EngineError("INVALID_ARGUMENT", "ids must be a sequence of action ids", None,
                          "ids")
    out = [_action_id(i, f"ids[{k}]") for k, i in enumerate(ids)]
    if not out:
        raise EngineError("INVALID_ARGUMENT", "a compound action needs at least one id",
                          None, "ids")
    return out


def _view_json(state: Any, seat: int) -> str:
    """The core's JSON text of what `seat` (-1: a spectator) sees of a state."""
    out = _json_buffer()
    n = lib.brass_view_json(state, seat, out, lib.BRASS_JSON_CAP)
    if n < 0:
        _raise(-n, what="seat")
    return ffi.unpack(out, n).decode()


def _name_event(d: dict[str, Any]) -> None:
    """Replace raw numbers in an event by names a frontend can use."""
    t = d["type"]
    if "slot" in d:
        d["slot"] = SLOT_NAMES[d["slot"]]
    if t in ("coal", "iron", "beer"):
        d["source"] = "market" if d["source"] < 0 else SLOT_NAMES[d["source"]]
        if t == "beer":
            if d["source"] == "market":
                d["source"] = "merchant"
                d["merchant"] = SPACE_NAMES[d["merchant"]]
            else:
                d.pop("merchant", None)
    if t == "action":
        d["action"] = ACTION_TYPES[d["action"]]
        d["card"] = CARD_NAMES[d["card"]]
    if "industry" in d:
        d["industry"] = INDUSTRIES[d["industry"]]
    if "link" in d:
        d["link"] = LINK_NAMES[d["link"]]
    if "merchant" in d and isinstance(d["merchant"], int):
        d["merchant"] = SPACE_NAMES[d["merchant"]]
    if t == "merchant_bonus":
        d["bonus"] = BONUS_KINDS[d["bonus"]]
    if t == "era_end":
        d["era"] = ERAS[d["era"]]
    if t == "turn_order":
        packed, n = d.pop("order"), d.pop("players")
        d["order"] = [(packed >> (4 * i)) & 15 for i in range(n)]


# The playout policies of the core, by name (Game.playout, batch_playouts, random_playouts).
PLAYOUT_POLICIES = ("random", "sane")


def _policy(policy: str) -> int:
    if policy == "random":
        return lib.POLICY_RANDOM
    if policy == "sane":
        return lib.POLICY_SANE
    raise EngineError("INVALID_ARGUMENT", "policy must be 'random' or 'sane'", None, "policy")


def random_playouts(players: int, games: int, seed: int = 1, policy: str = "random") -> dict:
    """Run random full games in C; returns the benchmark figures."""
    players = _integer(players, "players", 2, 4)
    games = _integer(games, "games", 0, _INT32_MAX)
    res = ffi.new("BrassBenchResult *")
    err = lib.brass_bench(players, games, _seed(seed), _policy(policy), res)
    if err:
        _raise(err, what="benchmark arguments")
    return {
        "players": players,
        "games": res.games,
        "policy": policy,
        "seconds": res.seconds,
        "games_per_second": res.games / res.seconds if res.seconds else 0.0,
        "decisions_per_second": res.decisions / res.seconds if res.seconds else 0.0,
        "mean_decisions_per_game": res.decisions / res.games if res.games else 0.0,
        "legal_generation_us": 1e6 * res.legal_seconds / res.legal_calls if res.legal_calls else 0,
        "clone_us": 1e6 * res.clone_seconds / res.clones if res.clones else 0.0,
        "state_bytes": int(lib.brass_state_size()),
    }


def id_of(name: str) -> int:
    """Action id of a stable name (``card:birmingham``); raises EngineError if unknown."""
    try:
        return _IDS[name]
    except KeyError:
        raise EngineError("UNKNOWN_ACTION", f"no action named {name!r}") from None
