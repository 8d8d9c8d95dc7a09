"""The `Game` class: a thin, typed wrapper over the C core's plain state struct."""

from __future__ import annotations

import json
import threading
from _thread import get_ident
from collections.abc import Iterable, Sequence
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from brass._core import ffi, lib
from brass.args import _INT32_MAX, _integer, _is_integer, _seed
from brass.errors import EngineError
from brass.events import STEP_TABLES, decode_events, decode_step, events_view, step_table
from brass.playouts import _policy, batch_playouts
from brass.preview import (
    Compound,
    compound_actions_of,
    compound_ids_of,
    preview_state,
    summaries_after_of,
)
from brass.registry import hooks_of
from brass.rulesets import (
    DEFAULT_RULESET,
    RULESETS,
    Ruleset,
    _action_id,
    _id_list,
    _raise,
    _ruleset_of,
    get_ruleset,
    meaning,
)
from brass.states import GAME_PTR, _snapshot_of, new_state, position_state, snapshot_state
from brass.views import (
    _observation_of,
    _position_of,
    _result_of,
    _summary_of,
    _view_json,
    _view_proto,
)

# The entry of a replay record's decision list that stands for an undo (Game.undo).
UNDO = "undo"


@dataclass(frozen=True)
class Option:
    id: int
    decision: str
    name: str
    meaning: dict[str, Any] = field(hash=False, compare=False)


# The widest action space of any ruleset: the size of each thread's legal-id buffer.
_MAX_ACTIONS = max(rs.num_actions for rs in RULESETS.values())
_scratch = threading.local()
Buffers = tuple[Any, Any, Any, memoryview, memoryview, list[Any], list[Any]]


def _new_buffers() -> Buffers:
    """An event log, reason and legal-id buffers, with the ids' and the events' views (read
    with one tolist(): cheaper than ffi.unpack, no per-call cdata) and their first n items'
    views by n, made as they are met (slicing a view at each call cost about 400
    instructions)."""
    log, ids = ffi.new("BrassEventLog *"), ffi.new("uint16_t[]", _MAX_ACTIONS)
    return (log, ffi.new("int *"), ids, memoryview(ffi.buffer(ids)).cast("B").cast("H"),
            events_view(log), [None] * (_MAX_ACTIONS + 1), [None] * (lib.BRASS_MAX_EVENTS + 1))


# The core releases the GIL while it runs, so threads never share buffers. The main
# thread's are a module global found by comparing thread ids (a threading.local's lookup
# cost about 500 instructions, twice a decision); at most one live thread has that id.
_MAIN_THREAD = threading.main_thread().ident
_MAIN_BUFFERS = _new_buffers()


def _buffers() -> Buffers:
    """This thread's buffers, reused by every call."""
    if get_ident() == _MAIN_THREAD:
        return _MAIN_BUFFERS
    try:
        return _scratch.buffers  # type: ignore[no-any-return]
    except AttributeError:
        _scratch.buffers = _new_buffers()
        return _scratch.buffers  # type: ignore[no-any-return]


# The header's bytes a Game reads from its state's bytes (an index into a bytearray, not
# a cdata struct made for each read of g.header).
_PLAYERS = ffi.offsetof("BrassHeader", "num_players")
_CURRENT = ffi.offsetof("BrassHeader", "current")
_GAME_OVER = ffi.offsetof("BrassHeader", "game_over")
_from_buffer = ffi.from_buffer
_new_object = object.__new__
# The loop's two calls, bound once (lib's attribute look-up is not free).
_legal, _step = lib.brass_legal, lib.brass_step


_EVENTS_MASK = lib.BRASS_STEP_EVENTS_MASK
_DEPTH_SHIFT = lib.BRASS_STEP_DEPTH_SHIFT
_PLAYERS_SHIFT = lib.BRASS_STEP_PLAYERS_SHIFT


def _state_bytes(state: Any, rs: Ruleset) -> bytes:
    """The ruleset's own bytes of a state (the rest of the BrassGame union is never used)."""
    return ffi.buffer(state, rs.state_size)[:]


def _state_of(data: bytearray) -> Any:
    """A BrassGame handle over a state's own bytes (`data` kept alive by the handle): a
    state takes its ruleset's size, not the union's 2,048 bytes. A bytearray's buffer is
    aligned for the state's 8-byte fields (a bytes object's is not)."""
    return ffi.from_buffer("BrassGame *", data)


def _barrier_within(barrier: bytes, path: list[int], depth: int, rs: Ruleset
                    ) -> tuple[bytes | None, list[int] | None]:
    """The state at the undo barrier `depth` decisions before the end of `path` (replayed
    from `barrier`) and the decisions since it; (None, None) when there is none."""
    state = _state_of(bytearray(barrier))
    for k, option in enumerate(path):
        lib.brass_apply(state, -1, option, ffi.NULL, ffi.NULL)
        if lib.brass_undo_depth(state) == 0 and len(path) - k - 1 == depth:
            return _state_bytes(state, rs), path[k + 1:]
    return None, None


class Game:
    """One game of Brass in the C core. Methods never leave the state half-changed."""

    __slots__ = ("_barrier", "_decisions", "_g", "_mem", "_origin", "_replays", "_rs",
                 "_turn")

    def __init__(self, _mem: bytearray | memoryview, _record: dict[str, Any],
                 _slot: Any = None) -> None:
        # The state's bytes (header fields are read there): the game's own bytearray, the
        # handle _g over it; or a view of a GameBatch's slot, which keeps the batch's array
        # alive (its handle _slot does not; from_buffer over a view crashes in a collected cycle)
        self._mem = _mem
        self._g = _state = _from_buffer(GAME_PTR, _mem) if _slot is None else _slot
        # The replay record: where the game starts (ruleset, seed or position, options;
        # never changed once made, so clones share it) and its own decisions since.
        self._origin = {k: v for k, v in _record.items() if k != "decisions"}
        self._decisions: list[int | str] = list(_record.get("decisions", ()))
        self._rs = _ruleset_of(_state)
        # Undo (docs/UNDO.md): the core counts the decisions since its undo barrier; the
        # game keeps the state at the barrier (its ruleset's bytes, immutable, so clones
        # share it) and those decisions, to replay all but the undone ones. At the barrier
        # (_turn == []) the barrier is this state: its bytes are kept (_barrier) only once a
        # decision moves away from it, so a game waiting at a turn's start holds one state.
        # _turn None: not known (restored or re-dealt away from a barrier). A game whose
        # record replays to its state (_replays: dealt or set up here, not restored,
        # re-dealt, played out in C nor a batch's) keeps, instead of the bytes, where the
        # barrier is in its record (an int: the decisions before it), and undo replays the
        # record that far (_turn_start_bytes): a few hundred µs on an undo instead of the
        # state's size held by every game in mid-turn and copied at every turn's start.
        self._barrier: bytes | int | None = None
        self._turn: list[int] | None = None
        self._replays = type(_mem) is bytearray and "restored" not in _record
        if lib.brass_undo_depth(_state) == 0:
            self._at_barrier()

    def _at_barrier(self) -> None:
        self._barrier, self._turn = None, []

    def _hold_barrier(self) -> None:
        """Keeps the barrier's bytes before decisions are applied at it (their state is the
        barrier); call before every change of the state that _note_applied follows."""
        if self._barrier is None and self._turn == []:
            self._barrier = (len(self._decisions) if self._replays
                             else _state_bytes(self._g, self._rs))

    # ---- creation ----
    @classmethod
    def new(cls, players: int, seed: int = 0, *, ruleset: str = DEFAULT_RULESET,
            options: dict[str, Any] | None = None, **option_kwargs: Any) -> Game:
        """A new game. `options` (or keywords: ``beginner=True``) are the ruleset's own,
        plus ``auto_resolve``; an unknown option or a bad value is refused."""
        return cls(*new_state(players, seed, ruleset, options, option_kwargs))

    @classmethod
    def from_position(cls, position: dict[str, Any] | str | bytes) -> Game:
        """A game from a position (docs/POSITION.md), a dict or its JSON text."""
        return cls(*position_state(position))

    @classmethod
    def restore(cls, data: bytes, ruleset: str | None = None) -> Game:
        """A game from snapshot bytes; `ruleset` (when given) must be the snapshot's."""
        return cls(*snapshot_state(data, ruleset))

    @classmethod
    def replay(cls, record: dict[str, Any]) -> Game:
        """Rebuild a game from its seed (or start position) and decision list."""
        return _replayed(cls, record)

    def clone(self) -> Game:
        """An independent copy (its own C state and replay record)."""
        copy = _new_object(Game)
        mem = self._mem
        copy._mem = data = mem.copy() if type(mem) is bytearray else bytearray(mem)
        copy._g = _from_buffer(GAME_PTR, data)
        copy._origin = self._origin  # immutable: shared
        copy._decisions = self._decisions.copy()
        copy._rs = self._rs
        copy._replays = self._replays
        # the barrier's bytes are immutable (or where it is in the record): the copy shares them
        copy._barrier = self._barrier
        turn = self._turn
        copy._turn = None if turn is None else turn.copy()
        return copy

    # copy.copy and copy.deepcopy give independent games (a shallow copy sharing the C
    # state would let a move on the copy change the original); pickling goes through the
    # snapshot, validated again when loaded, with the replay record.
    def __copy__(self) -> Game:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        copy = self.clone()
        copy._origin = deepcopy(self._origin, memo)
        return copy

    def __reduce__(self) -> tuple[Any, ...]:
        barrier = None
        if self._barrier is not None and self._turn:
            kept = _state_of(bytearray(_turn_start_bytes(self)))
            barrier = (_snapshot_of(kept, self._rs), list(self._turn))
        return _unpickle_game, (self.snapshot(), self.replay_record(), barrier)

    # ---- state ----
    @property
    def ruleset(self) -> str:
        """The ruleset's name ("birmingham", ...)."""
        return self._rs.name

    @property
    def ruleset_info(self) -> Ruleset:
        return self._rs

    @property
    def rules_edition(self) -> int:
        return self._g.header.rules_edition

    @property
    def num_actions(self) -> int:
        """The size of this ruleset's action space (OpenSpiel's num_distinct_actions)."""
        return self._rs.num_actions

    @property
    def observation_size(self) -> int:
        return self._rs.observation_size

    @property
    def num_players(self) -> int:
        return self._mem[_PLAYERS]

    @property
    def is_over(self) -> bool:
        return self._mem[_GAME_OVER] != 0

    @property
    def current_seat(self) -> int | None:
        mem = self._mem
        return None if mem[_GAME_OVER] else mem[_CURRENT]

    @property
    def decision(self) -> str:
        return self._rs.decision_names[lib.brass_decision_kind(self._g)]

    @property
    def decisions_applied(self) -> int:
        """Every decision applied, forced ones included."""
        return int(lib.brass_decisions_applied(self._g))

    @property
    def undo_depth(self) -> int:
        """Decisions applied since the core's undo barrier (0: at the start of the turn or
        right after a reveal)."""
        return int(lib.brass_undo_depth(self._g))

    @property
    def holds_turn_start(self) -> bool:
        """Whether undo() has the turn's start to replay from (False after
        release_turn_start, or for a game restored or re-dealt away from it)."""
        return self._turn == [] or (self._turn is not None and self._barrier is not None)

    def release_turn_start(self) -> None:
        """Frees the copy of the turn's start that undo() replays from (the state's size:
        648 B in Birmingham), for a holder that can rebuild the game from elsewhere when an
        undo comes (the service, from its store). Until the turn's next start undo() then
        raises CANNOT_UNDO (TURN_START_UNKNOWN); nothing else changes."""
        if self._turn:  # at the turn's start nothing is held
            self._barrier = self._turn = None

    @property
    def version(self) -> int:
        """Number of decisions submitted to this game object (its replay length)."""
        return len(self._decisions)

    def state_hash(self) -> int:
        """A hash of the whole state; its bytes include the ruleset and rules edition."""
        return int(lib.brass_hash(self._g))

    def snapshot(self) -> bytes:
        return _snapshot_of(self._g, self._rs)

    def replay_record(self) -> dict[str, Any]:
        return {**self._origin, "decisions": list(self._decisions)}

    # ---- decisions ----
    def legal_ids(self) -> list[int]:
        buffers = _MAIN_BUFFERS if get_ident() == _MAIN_THREAD else _buffers()
        n = _legal(self._g, buffers[2], _MAX_ACTIONS)
        if n < 0:
            _raise(-n, rs=self._rs)
        ids = buffers[5][n]
        if ids is None:
            ids = buffers[5][n] = buffers[3][:n]
        return ids.tolist()  # type: ignore[no-any-return]

    def legal_actions(self) -> list[Option]:
        phase = self.decision
        names = self._rs.action_names
        return [Option(i, phase, names[i], meaning(i, self._rs)) for i in self.legal_ids()]

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(self._rs.num_actions, dtype=bool)
        mask[self.legal_ids()] = True
        return mask

    def reason(self, action: int) -> str | None:
        """Why `action` is not legal now (None when it is)."""
        r = lib.brass_reason(self._g, _action_id(action, "action", self._rs))
        return None if r == 0 else self._rs.reason_name(r)

    def unavailable(self) -> list[tuple[int, str, str]]:
        """Options of this decision's kind that are not legal now, with reason and message."""
        out = []
        for a in range(self._rs.num_actions):
            r = lib.brass_reason(self._g, a)
            if r not in (0, lib.BRASS_R_WRONG_DECISION):
                out.append((a, self._rs.reason_name(r), self._rs.reason_message(r)))
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
        s = -1 if seat is None else self._check_seat(seat)
        rs = self._rs
        if type(action) is not int or not 0 <= action < rs.num_actions:
            action = _action_id(action, "action", rs)
        buffers = _MAIN_BUFFERS if get_ident() == _MAIN_THREAD else _buffers()
        g = self._g
        turn = self._turn
        if not turn and turn is not None and self._barrier is None:  # at the barrier: keep it
            self._barrier = len(self._decisions) if self._replays else _state_bytes(g, rs)
        # one crossing: the decision applied, its events counted, the undo depth after it
        step = _step(g, s, action, buffers[0], buffers[1])
        if step < 0:
            err = -step
            _raise(err, buffers[1][0], f"action {action} ({rs.action_names[action]})"
                   if err != 2 else f"seat {seat} tried to act; seat {g.header.current} is "
                   "to act", rs=rs)
        self._decisions.append(action)
        # the undo bookkeeping's common cases inline (_note_applied has them all)
        depth = step >> _DEPTH_SHIFT & 255
        if depth == 0:
            self._barrier, self._turn = None, []
        elif turn is not None and depth == len(turn) + 1 and self._barrier is not None:
            turn.append(action)
        else:
            _note_applied(self, [action])
        events = step & _EVENTS_MASK
        return _step_events(step, events, rs, buffers) if events else []

    def apply_compound(self, ids: Iterable[int], seat: int | None = None, *,
                       events: bool = True) -> list[dict[str, Any]]:
        """Apply a whole compound action atomically: all of it or nothing. With
        ``events=False`` the events are not decoded and [] is returned (a search's trial
        moves, which read the state, not the events)."""
        return _apply_ids(self, ids, seat, whole=True, events=events)

    def apply_partial(self, ids: Iterable[int], seat: int | None = None) -> None:
        """Apply the first decisions of one compound action atomically (none may end the
        action or reveal hidden information: TOO_MANY_DECISIONS at one that does), so that
        the decision after them can be asked: a client's steps of an action, kept before it
        sends them whole, get that decision's options and refusals (`unavailable()`)."""
        _apply_ids(self, ids, seat, whole=False)

    def undo_steps(self, seat: int | None = None) -> int:
        """How many decisions undo() would take back now (0 when it would be refused)."""
        s = self._check_seat(seat)
        steps = ffi.new("int *")
        return steps[0] if lib.brass_undo_steps(self._g, s, steps, ffi.NULL) == 0 else 0

    def undo(self, seat: int | None = None) -> list[dict[str, Any]]:
        """Take back the action in progress (back to its first decision) or, at an action's
        start, the turn's previous action; the core says how far (never across the start of
        the turn nor a reveal of hidden information) and whether the game's `undo` option
        allows it. Recorded in the replay record as "undo"; returns the undo event.
        EngineError CANNOT_UNDO (reason NOTHING_TO_UNDO, UNDO_DISABLED, UNDO_BARRIER),
        NOT_YOUR_TURN, GAME_OVER."""
        return _undone(self, seat)

    def compound_actions(self, limit: int = 20000) -> tuple[list[Compound], bool]:
        """Every complete compound action from here (canonical), and whether the list was cut
        (at `limit` actions, at most MAX_COMPOUND_LIMIT)."""
        return compound_actions_of(self._g, self._rs, limit)

    def compound_ids(self, limit: int = 20000) -> tuple[list[tuple[int, ...]], bool]:
        """compound_actions' ids alone (no keys): several times cheaper on long lists."""
        return compound_ids_of(self._g, self._rs, limit)

    def _result(self) -> Any:
        return _result_of(self._g, self._rs)

    def preview(self, ids: int | Sequence[int], seat: int | None = None) -> dict[str, Any]:
        """What apply (one id) or apply_compound (a list) would do, as `seat` may see it
        (None: a spectator): the events, the cost breakdown and the resulting view; this game
        is unchanged. Worked out in the core from what the seat to act knows only: cards
        drawn from the face-down deck are not shown, the view's hand is the one kept before
        the draw and ``hand_unseen`` counts the cards drawn (docs/ENGINE_API.md)."""
        s = self._check_seat(seat)
        rs = self._rs
        if isinstance(ids, int | np.integer):
            seq = [_action_id(ids, "action", rs)]
        else:
            seq = _id_list(ids, rs)
        return preview_state(self._g, rs, s, seq, seat)

    def _events(self, log: Any) -> list[dict[str, Any]]:
        if not log.count:
            return []
        rs = self._rs
        return decode_events(log, rs, self._g.header.num_players, hooks_of(rs.name).name_event)

    # ---- views ----
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` may see (spectator when None): never others' hands, deck order, seed."""
        return json.loads(self.view_json(seat))

    def view_json(self, seat: int | None = None, keys: str = "snake") -> str:
        """view() as compact JSON text, written by the core (no dict in between). With
        ``keys="camel"``: canonical proto3 JSON (lowerCamelCase field names, null members
        left out), the service's REST form; ``keys="proto"``: snake_case without null members
        (the typed message's field names). Map keys and values are the same."""
        return _view_json(self._g, self._check_seat(seat), keys)

    def view_proto(self, seat: int | None = None) -> bytes:
        """view() as the serialized typed message of brass.v1 (BirminghamView,
        PittsburghView), written by the core: the service's gRPC form."""
        return _view_proto(self._g, self._check_seat(seat))

    def position(self) -> dict[str, Any]:
        """The full position (hidden information included), in the documented JSON format."""
        return _position_of(self._g)

    def observation(self, seat: int) -> np.ndarray:
        if seat is None:
            raise EngineError("INVALID_ARGUMENT", "an observation is a seat's: seat is needed",
                              None, "seat")
        return _observation_of(self._g, self._rs, self._check_seat(seat))

    def summary(self) -> list[int]:
        """The public numbers a static evaluator reads (what a spectator sees: money, VP,
        income, hand sizes, the tiles and links on the board...), as ints in the ruleset's
        layout (docs/ENGINE_API.md, "The summary"), written by the core: the same facts as
        ``view(None)`` without writing and parsing its JSON."""
        return _summary_of(self._g, self._rs)

    def summaries_after(self, actions: Sequence[Sequence[int]], seat: int | None = None
                        ) -> list[list[int]]:
        """``summary()`` after each whole action of `actions` (id sequences, as
        `apply_compound` takes), each applied to its own copy in one core call
        (brass_summaries_after): this game is unchanged. The same as a clone,
        ``apply_compound(ids)`` and ``summary()`` per action, for a search's trial moves.
        EngineError as apply_compound's for the first action refused (named by its index)."""
        return summaries_after_of(self._g, self._rs, self._check_seat(seat), actions)

    def determinize(self, seat: int, seed: int) -> Game:
        """A copy with what `seat` cannot see re-dealt at random (for information-set search)."""
        return _determinized(self, self._check_seat(seat), _seed(seed))

    # ---- results ----
    def scores(self) -> list[int]:
        res = self._result()
        return [res.vp[p] for p in range(self.num_players)]

    def ranking(self) -> list[int]:
        res = self._result()
        return list(res.ranking[0:res.num_players])

    def winners(self) -> list[int]:
        """Seats sharing first place (the ruleset's tie rules, applied in C)."""
        res = self._result()
        return list(res.ranking[0:res.num_first])

    def playout(self, seed: int, policy: str = "random", max_decisions: int = 1 << 20) -> int:
        """Play this game to the end inside C with a random policy; returns decisions made."""
        max_decisions = _integer(max_decisions, "max_decisions", 0, _INT32_MAX)
        n = lib.brass_playout(self._g, _policy(policy), _seed(seed), max_decisions)
        if n < 0:
            _raise(-n, rs=self._rs)
        self._origin = {**self._origin, "playout": True}  # a new origin: clones share it
        self._replays = False
        if n:
            self._at_barrier()  # the core's barrier: those decisions are nobody's record
        return n

    def batch_playouts(self, n: int, seed: int, policy: str = "random") -> np.ndarray:
        """Play n copies of this game to the end inside C (one call); returns their final VP
        as an n x players int array. This game is not changed."""
        return batch_playouts(self._g, self._rs, self.num_players, n, seed, policy)

    def __repr__(self) -> str:
        return (f"<brass.Game ruleset={self.ruleset} players={self.num_players} "
                f"decision={self.decision} seat={self.current_seat}>")

def _note_applied(game: Game, ids: list[int]) -> None:
    """Keeps the barrier and the decisions since it after `ids` were applied (the
    barrier's bytes held before: _hold_barrier)."""
    depth = lib.brass_undo_depth(game._g)
    turn = game._turn
    if depth == 0:
        game._at_barrier()
    elif turn is None or game._barrier is None:
        game._barrier = game._turn = None
    elif depth == len(turn) + len(ids):
        turn.extend(ids)
    elif depth < len(ids):
        # the barrier moved inside a compound action (a reveal): find its state
        assert game._barrier is not None
        game._barrier, game._turn = _barrier_within(_turn_start_bytes(game), turn + ids,
                                                    depth, game._rs)
    else:
        game._barrier = game._turn = None


def _step_events(step: int, events: int, rs: Ruleset, buffers: Buffers
                 ) -> list[dict[str, Any]]:
    """The `events` events of a brass_step (`step`, its packed result), named."""
    table = STEP_TABLES.get(rs.id << 3 | step >> _PLAYERS_SHIFT)
    if table is None:
        table = step_table(rs, step >> _PLAYERS_SHIFT, hooks_of(rs.name).name_event, True)
    records = buffers[6][events]
    if records is None:
        records = buffers[6][events] = buffers[4][:events]
    return decode_step(records, table)


def _replayed(cls: type[Game], record: dict[str, Any]) -> Game:
    """Game.replay: the game its record starts from (a deal or a position), with the
    record's decisions applied in order (an undo is UNDO); a refusal names its index."""
    try:
        rs = get_ruleset(record.get("ruleset", DEFAULT_RULESET))
        edition = int(record.get("rules_edition", rs.rules_edition))
        if edition > rs.rules_edition:
            raise EngineError("INVALID_ARGUMENT",
                              f"replay needs {rs.name} rules edition {edition}; this "
                              f"engine has {rs.rules_edition}", None, "rules_edition")
        if "position" in record:
            game = cls.from_position(record["position"])
            if game.ruleset != rs.name:
                raise EngineError("INVALID_ARGUMENT", f"the record's position is of "
                                  f"{game.ruleset}, not {rs.name}", None, "ruleset")
        else:
            game = cls.new(int(record["players"]), int(record["seed"]), ruleset=rs.name,
                           options=dict(record.get("options") or {}))
        decisions = [UNDO if d == UNDO else int(d) for d in record.get("decisions", [])]
    except (KeyError, TypeError, ValueError) as exc:
        raise EngineError("INVALID_ARGUMENT", f"malformed replay record: {exc}") from exc
    # While replaying, turn starts are kept as bytes: an undo in the record then does not
    # replay the record again (once per undo, over and over).
    replays, game._replays = game._replays, False
    for i, d in enumerate(decisions):
        try:
            if d == UNDO:
                game.undo()
            else:
                game.apply(d)
        except EngineError as exc:
            raise EngineError(exc.code, f"decision {i}: {exc.message}", exc.reason,
                              f"decisions[{i}]") from exc
    game._replays = replays
    return game


def _turn_start_bytes(game: Game) -> bytes:
    """The state at the game's undo barrier: its bytes, or its record replayed as far as
    the barrier."""
    barrier = game._barrier
    if isinstance(barrier, int):
        record = {**game._origin, "decisions": game._decisions[:barrier]}
        barrier = _state_bytes(_replayed(Game, record)._g, game._rs)
    assert barrier is not None
    return barrier


def _undone(game: Game, seat: int | None) -> list[dict[str, Any]]:
    """Game.undo: the core undoes by replaying the turn's start with the decisions kept."""
    s = game._check_seat(seat)
    steps = ffi.new("int *")
    reason = ffi.new("int *")
    acting = game._g.header.current
    err = lib.brass_undo_steps(game._g, s, steps, reason)
    turn = game._turn
    if not err and not game.holds_turn_start:
        raise EngineError("CANNOT_UNDO", "nothing can be undone: this game does not hold the "
                          "start of the turn (restored or re-dealt away from it, or released "
                          "by release_turn_start)", "TURN_START_UNKNOWN")
    if not err:
        assert turn is not None
        ids = ffi.new("uint16_t[]", turn)
        # at the turn's start (turn == []) the start is the state itself
        barrier = _turn_start_bytes(game) if turn else _state_bytes(game._g, game._rs)
        assert barrier is not None
        err = lib.brass_undo(game._g, s, _state_of(bytearray(barrier)), ids, len(turn), steps,
                             reason)
    if err:
        _raise(err, reason[0], f"seat {seat} tried to undo; seat {acting} is to act"
               if err == lib.BRASS_E_NOT_YOUR_TURN else "undo", rs=game._rs)
    assert turn is not None
    undone = turn[len(turn) - steps[0]:]
    del turn[len(turn) - steps[0]:]
    game._decisions.append(UNDO)
    return [{"type": "undo", "seat": acting, "decisions": len(undone), "ids": undone}]


def _determinized(game: Game, seat: int, seed: int) -> Game:
    """Game.determinize of a checked seat and seed."""
    copy = game.clone()
    err = lib.brass_determinize(copy._g, seat, seed)
    if err:
        _raise(err, what="seat", rs=game._rs)
    # the turn's start was dealt otherwise: the re-dealt copy cannot replay from it
    copy._barrier = copy._turn = None
    copy._replays = False
    if copy.undo_depth == 0:
        copy._at_barrier()
    return copy


def _unpickle_game(snapshot: bytes, record: dict[str, Any],
                   barrier: tuple[bytes, list[int]] | None = None) -> Game:
    game = Game.restore(snapshot, record.get("ruleset"))
    game._origin = {k: v for k, v in record.items() if k != "decisions"}
    game._decisions = list(record.get("decisions", ()))
    if barrier is not None:  # the turn so far, so that undo still works
        kept = Game.restore(barrier[0], record.get("ruleset"))
        game._barrier = _state_bytes(kept._g, kept._rs)
        game._turn = [int(i) for i in barrier[1]]
    return game


def _apply_ids(game: Game, ids: Iterable[int], seat: int | None, whole: bool,
               events: bool = True) -> list[dict[str, Any]]:
    """apply_compound (`whole`) and apply_partial: the ids atomically, or nothing."""
    rs = game._rs
    ids = _id_list(ids, rs)
    s = game._check_seat(seat)
    arr = ffi.new("uint16_t[]", ids)
    log, reason = _buffers()[:2]
    log.count = log.dropped = 0
    at = ffi.new("int *")
    game._hold_barrier()
    err = (lib.brass_apply_sequence(game._g, s, arr, len(ids), log, reason, at) if whole
           else lib.brass_apply_partial(game._g, s, arr, len(ids), reason, at))
    if err:
        k = at[0]
        _raise(err, reason[0], f"ids[{k}]={ids[k]} ({rs.action_names[ids[k]]})", rs=rs)
    game._decisions.extend(ids)
    _note_applied(game, ids)
    return game._events(log) if events else []
