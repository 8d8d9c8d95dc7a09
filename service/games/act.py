"""SubmitAction, UndoAction and PreviewAction: the cheap bounds first, then per game and
under its lock: idempotency (a repeated key answers the stored reply), the seat's token,
hosted play's refusals, the engine's apply on a copy, the store's append conditional on
the version, and the answer made once.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

import brass

from .. import hosted
from ..errors import ServiceError, from_engine_error
from ..gen import game_service_pb2 as pb
from ..i18n import Text
from ..model import LiveGame, clock_of, status_of
from ..observability import DECISIONS, RequestRecord
from ..requests import MAX_IDEMPOTENCY_KEY_CHARS, check_action_size, check_game_id, require
from ..store import (
    DecisionRow,
    GameRow,
    HeadUpdate,
    IdempotencyConflict,
    Snapshot,
    Store,
    StoreUnavailable,
    VersionConflict,
)
from ..views import typed
from ..views.answers import (
    LegalOptions,
    StateParts,
    add_compound_actions,
    compact_json,
    compound_actions,
    event_messages,
    events_json,
    length_delimited,
)
from ..views.reply import Reply
from ..views.view_cache import ViewCache
from ..webhooks.events import decision_events
from .access import Access, Caller
from .live import LiveGames
from .settings import ServiceSettings
from .signals import ChangeBroker, Signals

# Refusals that a copy of the game behind the store could cause wrongly.
_MAYBE_STALE = frozenset({"STALE_VERSION", "NOT_YOUR_TURN", "GAME_OVER", "ILLEGAL_ACTION",
                          "SEAT_RESIGNED", "BOT_SEAT", "TURN_TIMED_OUT",
                          "NOTHING_TO_UNDO", "UNDO_BARRIER"})


# SubmitActionResponse's fields; UndoActionResponse's have the same names and numbers
# (its bytes are made the same way).
_STATE_FIELD = pb.SubmitActionResponse.DESCRIPTOR.fields_by_name["state"].number
_NEXT_ACTIONS_FIELD = pb.SubmitActionResponse.DESCRIPTOR.fields_by_name["next_actions"].number
assert all(pb.UndoActionResponse.DESCRIPTOR.fields_by_name[field.name].number == field.number
           for field in pb.SubmitActionResponse.DESCRIPTOR.fields)


# A stored decision row that is an undo (UndoAction), and its entry in a replay record.
_UNDO_ACTION = {"ids": [], "compound": False, "undo": True}


# The requests that store a version: a decision (SubmitAction) or an undo (UndoAction).
_ActRequest = pb.SubmitActionRequest | pb.UndoActionRequest


class Play:
    """SubmitAction, UndoAction and PreviewAction: idempotency, retries on a stale copy,
    hosted play's refusals, the engine's call and the commit."""

    def __init__(self, store: Store, settings: ServiceSettings, broker: ChangeBroker,
                 live: LiveGames, access: Access, signals: Signals,
                 legal: LegalOptions, views: ViewCache) -> None:
        self.store = store
        self.settings = settings
        self.broker = broker
        self.live = live
        self.access = access
        self.signals = signals
        self.legal = legal
        self.views = views

    @staticmethod
    def _resolve_action(action: pb.Action, game: Any, seat: int) -> tuple[list[int], bool]:
        """The decision ids to apply and whether they form one atomic compound action."""
        kind = action.WhichOneof("kind")
        if kind == "option_id":
            return [action.option_id], False
        if kind == "compound":
            require(len(action.compound.ids) > 0, "compound.ids is empty", "action.compound")
            return list(action.compound.ids), True
        if kind == "compound_key":
            # The engine's own precedence for ids (game over, then whose turn) holds for keys
            # too: a key is only looked up among the acting seat's compound actions.
            if game.is_over:
                raise ServiceError("GAME_OVER", Text("the_game_is_over"))
            if game.current_seat != seat:
                raise ServiceError(
                    "NOT_YOUR_TURN",
                    Text("not_your_turn", current_seat=game.current_seat, seat=seat),
                    current_seat=game.current_seat,
                )
            compounds, _truncated = compound_actions(game)
            for compound in compounds:
                if compound.key == action.compound_key:
                    return list(compound.ids), True
            raise ServiceError(
                "ILLEGAL_ACTION",
                f"no legal compound action has key {action.compound_key!r} now",
            )
        raise ServiceError(
            "INVALID_ARGUMENT",
            "action must set option_id, compound or compound_key",
            field="action",
        )

    async def submit_action(
        self, request: pb.SubmitActionRequest, caller: Caller, record: RequestRecord
    ) -> Reply:
        check_action_size(request.action)
        return await self._act(request, caller, record, undo=False)

    async def undo_action(
        self, request: pb.UndoActionRequest, caller: Caller, record: RequestRecord
    ) -> Reply:
        """Takes back the caller's action in progress or its turn's previous one (the engine
        says how far and whether at all); stored as a new version, like a submission, with
        the same retries and idempotency key."""
        return await self._act(request, caller, record, undo=True)

    async def _act(
        self, request: _ActRequest, caller: Caller, record: RequestRecord, undo: bool
    ) -> Reply:
        """SubmitAction and UndoAction: a decision (or an undo) stored as the next version."""
        record.game_id = request.game_id
        check_game_id(request.game_id)
        key = request.idempotency_key or None
        require(
            key is None or len(key) <= MAX_IDEMPOTENCY_KEY_CHARS,
            f"idempotency_key is at most {MAX_IDEMPOTENCY_KEY_CHARS} characters",
            "idempotency_key",
        )
        async with self.live.lock_for(request.game_id):
            # The first attempt works on the copy in memory without reading the store: the
            # commit only succeeds if the stored head is still that copy's version, and a
            # refusal is only sent once the store confirms the copy was current. A conflict
            # means another replica moved the game: the request is evaluated again on the
            # stored state (and fails with STALE_VERSION if it expected the old version).
            verify = False
            for _attempt in range(5):
                result = await self._try_submit(request, caller, record, key, verify, undo)
                if result is not None:
                    return result
                verify = True
            raise ServiceError("UNAVAILABLE", "the game is too busy right now; retry")

    async def _try_submit(
        self,
        request: _ActRequest,
        caller: Caller,
        record: RequestRecord,
        key: str | None,
        verify: bool,
        undo: bool,
    ) -> Reply | None:
        row, live = await self.live.get(request.game_id, verify=verify)
        seat = self.access.require_seat(row, caller, "UndoAction" if undo else "SubmitAction")
        record.seat = seat
        # Only a request with an idempotency key can be retried as the same one (its
        # fingerprint is stored and compared only then): none is made without a key.
        fingerprint = "" if key is None else request_fingerprint(request, seat)
        try:
            return await self.apply_and_store(request, record, key, row, live, seat, fingerprint,
                                               undo=undo)
        except ServiceError as error:
            if (
                not verify
                and error.reason in _MAYBE_STALE
                and not await self.live.is_current(request.game_id, live)
            ):
                return None  # refused on a copy behind the store: evaluate it again
            # A retry of a request that was accepted earlier is refused on today's state
            # (stale version, not this seat's turn…): answer it with the stored result.
            # Looking the key up only here saves a read on every first attempt. (With the
            # store unavailable it would only fail again, as slowly.)
            if key is not None and error.reason != "UNAVAILABLE":
                prior = await self.store.find_decision_by_key(request.game_id, key)
                if prior is not None:
                    return await self._replayed(request, prior, fingerprint, row, record, undo)
            raise

    async def apply_and_store(
        self,
        request: _ActRequest,
        record: RequestRecord,
        key: str | None,
        row: GameRow,
        live: LiveGame,
        seat: int,
        fingerprint: str,
        by: str | None = None,
        undo: bool = False,
    ) -> Reply | None:
        """`by`: None for a person with the seat's token, else the server's move (a bot's,
        hosted.BY_BOT, or a stand-in's for a timed-out turn, hosted.BY_TIMEOUT). `undo`:
        the request is an UndoActionRequest (one version: the engine's undo)."""
        game, version = live.game, live.version
        record.version = version
        hosting = hosted.hosting_of(row)
        clock = clock_of(row, live)
        now = time.time()
        if by is None:
            self._check_person_may_act(row, hosting, clock, game, seat, now, version)
        if request.HasField("expected_version") and request.expected_version != version:
            raise ServiceError(
                "STALE_VERSION",
                Text("stale_version", version=version, expected=request.expected_version),
                version=version,
            )
        if undo and version >= self.settings.max_undo_version:
            raise ServiceError(
                "UNDO_LIMIT",
                f"the game has {version} versions, the most this server allows undos in "
                f"({self.settings.max_undo_version}); decisions go on",
                version=version, limit=self.settings.max_undo_version,
            )
        ids, compound = (self._resolve_action(request.action, game, seat)
                         if isinstance(request, pb.SubmitActionRequest) else ([], False))
        if undo and not game.holds_turn_start:
            game = (await self.live.with_turn_start(row, live)).game
        work = game.clone()
        try:
            if undo:
                events = work.undo(seat)
            else:
                events = (work.apply_compound(ids, seat=seat) if compound
                          else work.apply(ids[0], seat))
        except brass.EngineError as exc:
            raise from_engine_error(exc, game.ruleset, version=version) from exc
        # A live game does not keep its turn's start (~650 B of each live game): an undo
        # rebuilds it from the store (above), and undos are rare beside decisions.
        work.release_turn_start()
        now = time.time()
        clock_after = hosted.clock_after(hosting, clock, work.current_seat, now)
        action: dict[str, Any] = dict(_UNDO_ACTION) if undo else {"ids": ids, "compound": compound}
        if by is not None:
            action["by"] = by
        if by == hosted.BY_TIMEOUT and clock is not None and not clock.get("timed_out"):
            action["event"] = "turn_timed_out"  # the first stand-in decision of the turn
            if clock_after is clock:
                clock_after = {**clock, "timed_out": True}
        if clock_after is not None:
            action["clock"] = clock_after
        after = LiveGame(work, version + (1 if undo else len(ids)), now, clock_after)
        every = self.settings.snapshot_every
        take_snapshot = work.is_over or after.version // every > version // every
        decision = DecisionRow(
            game_id=row.game_id,
            from_version=version,
            to_version=after.version,
            seat=seat,
            action=action,
            idempotency_key=key,
            # read only for a retry with the same key: a decision without one keeps none
            fingerprint=fingerprint if key is not None else "",
            events=events,
            response=b"",  # rebuilt from the log for a retry (see _replayed)
            created_at=now,
            state_hash=int(work.state_hash()),
        )
        head = HeadUpdate(
            version=after.version,
            status=status_of(work),
            current_seat=work.current_seat,
            decision=work.decision,
            updated_at=now,
            seats_revision=row.seats_revision,  # the seats the caller was authenticated on
            clock=clock_after,
            next_due=hosted.next_due(hosting, clock_after, work.current_seat,
                                     not work.is_over, now, self.settings.bot_move_delay_seconds),
        )
        hooks = decision_events(row, game.current_seat, head)
        try:
            mark = await self.store.append_decision(
                decision, head, Snapshot(after.version, work.snapshot()) if take_snapshot else None,
                hooks,
            )
        except VersionConflict:
            return None  # evaluated again on the stored state by _act
        except IdempotencyConflict:
            assert key is not None
            prior = await self.store.find_decision_by_key(request.game_id, key)
            if prior is None:
                return None
            return await self._replayed(request, prior, fingerprint, row, record, undo)
        except StoreUnavailable as exc:
            raise ServiceError("UNAVAILABLE", Text("store_unavailable")) from exc
        entry = self.live.entry(row.game_id)
        if entry is not None and entry.live is live:
            # The head is this version now: the commit was conditional on the one before.
            self.live.remember(row, after, mark, checked=True)
        DECISIONS.inc()
        record.version = after.version
        self.broker.publish(row.game_id, after.version)
        self.signals.wake_timer(head.next_due)
        self.signals.wake_webhooks(hooks)
        if work.is_over:
            self.signals.game_over(row.game_id)
        return self._submit_reply(
            row, after, seat, events, request.include_legal_actions,
            request.include_compound_actions, undo=undo,
        )

    def _check_person_may_act(
        self, row: GameRow, hosting: dict[str, Any], clock: dict[str, Any] | None, game: Any,
        seat: int, now: float, version: int,
    ) -> None:
        """Refuses a person's decision where hosted play forbids it: the game ended by a
        resignation, a resigned seat, a seat a bot plays, a turn whose time is up."""
        if hosted.is_ended(row):
            raise ServiceError("GAME_OVER", Text("game_over", game_id=row.game_id), version=version)
        if seat in hosting.get("resigned", ()):
            raise ServiceError("SEAT_RESIGNED", Text("seat_resigned", seat=seat), version=version,
                               seat=seat)
        if hosted.is_bot_seat(hosting, seat):
            raise ServiceError("BOT_SEAT", Text("bot_plays_seat", seat=seat),
                               version=version, seat=seat)
        due = hosted.deadline(hosting, clock)
        if due is not None and game.current_seat == seat and now >= due:
            raise ServiceError(
                "TURN_TIMED_OUT", Text("turn_timed_out", seat=seat), version=version,
                seat=seat)

    def _submit_reply(
        self,
        row: GameRow,
        after: LiveGame,
        seat: int,
        events: list[dict[str, Any]],
        include_legal_actions: bool,
        include_compound_actions: bool = False,
        replayed: bool = False,
        undo: bool = False,
    ) -> Reply:
        """SubmitAction's answer for the game `after` the caller's action: its bytes (sent
        as they are over gRPC) and the JSON text REST renders from the same parts."""
        state = StateParts(row, after, seat, self.views)
        legal: tuple[pb.ListLegalActionsResponse, bytes, list[str]] | None = None
        game = after.game
        if include_legal_actions and not game.is_over and game.current_seat == seat:
            legal = self.legal.parts(row, after, seat)
            if include_compound_actions:
                add_compound_actions(legal[0], game)

        def as_bytes() -> bytes:  # gRPC's answer (REST's is only the JSON text)
            # joined from its fields' bytes: the state (the core's view as it wrote it),
            # the events, `replayed` and the next actions (their options encoded once)
            rest = pb.SubmitActionResponse(
                events=event_messages(game.ruleset, after.version, events),
                replayed=replayed).SerializeToString()
            data = length_delimited(_STATE_FIELD, state.to_bytes()) + rest
            if legal is not None:
                data += length_delimited(_NEXT_ACTIONS_FIELD,
                                         legal[0].SerializeToString() + legal[1])
            return data

        return Reply(
            pb.UndoActionResponse if undo else pb.SubmitActionResponse,
            make_data=as_bytes,
            json_text=lambda: (
                '{"state":' + state.to_json_text()
                + ',"events":' + compact_json(events_json(game.ruleset, after.version, events))
                + ',"replayed":' + ("true" if replayed else "false")
                + ("" if legal is None else ',"nextActions":' + self.legal.json_text(
                    legal[0], legal[2], not include_compound_actions))
                + "}"
            ),
        )

    async def _replayed(
        self,
        request: _ActRequest,
        prior: DecisionRow,
        fingerprint: str,
        row: GameRow,
        record: RequestRecord,
        undo: bool,
    ) -> Reply:
        """The answer to a retry of the accepted submission or undo `prior` (same
        idempotency key): the same request gets the original answer, rebuilt from the game
        as it was right after it; another request with the key is refused."""
        if prior.fingerprint != fingerprint:
            raise ServiceError(
                "IDEMPOTENCY_KEY_REUSED",
                "this idempotency key was already used for a different request",
                version=prior.to_version,
            )
        record.version = prior.to_version
        record.extra["replayed"] = True
        if prior.response:  # stored whole by an earlier version of the service
            response = pb.SubmitActionResponse.FromString(prior.response)
            response.replayed = True
            return Reply(pb.SubmitActionResponse, message=response)
        then = await self.live.game_at(row, prior.to_version, prior.created_at)
        return self._submit_reply(
            row, then, prior.seat, prior.events, request.include_legal_actions,
            request.include_compound_actions, replayed=True, undo=undo
        )

    async def preview_action(
        self, request: pb.PreviewActionRequest, caller: Caller, record: RequestRecord
    ) -> pb.PreviewActionResponse:
        check_action_size(request.action)
        record.game_id = request.game_id
        row, live = await self.live.get(request.game_id)
        seat = self.access.require_seat(row, caller, "PreviewAction")
        game, version = live.game, live.version
        record.seat, record.version = seat, version
        if request.HasField("expected_version") and request.expected_version != version:
            raise ServiceError(
                "STALE_VERSION",
                Text("stale_version", version=version, expected=request.expected_version),
                version=version,
            )
        ids, _compound = self._resolve_action(request.action, game, seat)
        try:
            preview = game.preview(ids, seat=seat)
        except brass.EngineError as exc:
            raise from_engine_error(exc, game.ruleset, version=version) from exc
        cost_arm, cost, _ = typed.cost_parts(game.ruleset, preview.get("cost") or {})
        return pb.PreviewActionResponse(
            events=event_messages(game.ruleset, version, preview.get("events", [])),
            version=version,
            **{cost_arm: cost,
               game.ruleset: typed.view_from_document(game.ruleset, preview.get("view") or {})},
        )


def request_fingerprint(request: _ActRequest, seat: int) -> str:
    """What makes a retry with an idempotency key the same request: the seat, the action
    (or the undo) and the expected version."""
    what = (request.action.SerializeToString(deterministic=True).hex().encode()
            if isinstance(request, pb.SubmitActionRequest) else b"undo")
    expected = str(request.expected_version if request.HasField("expected_version") else "")
    return hashlib.sha256(b"%d|%s|%s" % (seat, what, expected.encode())).hexdigest()
