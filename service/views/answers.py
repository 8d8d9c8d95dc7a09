"""The answers that carry a game: GameState (as a message and as proto3 JSON text made
from the core's own JSON), event messages, a seat's legal options encoded once per process
(LegalOptions), the compound actions.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

import brass

from .. import hosted
from ..gen import game_service_pb2 as pb
from ..model import LiveGame
from ..store import DecisionRow, GameRow
from ..views.summary import game_summary, game_summary_json
from . import typed
from .convert import message_to_json_dict
from .reply import Reply
from .view_cache import ViewCache


def game_state(row: GameRow, live: LiveGame, seat: int | None,
               into: pb.GameState | None = None) -> pb.GameState:
    """`seat`'s GameState (None: a spectator's); filled into `into` (empty) when given, as a
    response's field: copying a whole state into its response cost as much as making it."""
    game = live.game
    state = pb.GameState() if into is None else into
    game_summary(row, live, into=state.summary)
    typed.put_view(state, game, seat)
    if seat is not None:
        state.viewer_seat = seat
    if game.is_over:
        state.scores.extend(int(s) for s in game.scores())
        state.winners.extend(int(w) for w in game.winners())
    return state


def event_messages(ruleset: str, version: int, events: list[dict[str, Any]]) -> list[pb.GameEvent]:
    return [typed.event_message(ruleset, version, e) for e in events]


def stored_event_messages(ruleset: str, stored: DecisionRow) -> list[pb.GameEvent]:
    """A stored decision's events for watchers: the server's own first (a turn that timed
    out), then the engine's."""
    events = event_messages(ruleset, stored.to_version, stored.events)
    kind = stored.action.get("event")
    if kind:
        events.insert(0, hosted.lobby_event(kind, stored.to_version, stored.created_at,
                                            stored.seat))
    return events


class StateParts:
    """A GameState made of its parts, to be written as protobuf bytes or as JSON.

    The view, the bulk of it, comes from the core as JSON text in proto3 JSON's key style,
    which REST sends as it is; gRPC gets the typed message (views/typed.py).
    """

    __slots__ = ("live", "row", "seat", "views")

    def __init__(self, row: GameRow, live: LiveGame, seat: int | None,
                 views: ViewCache | None = None) -> None:
        self.row, self.live, self.seat = row, live, seat
        self.views = views  # where the view is encoded once per version and seat

    def message(self, into: pb.GameState | None = None) -> pb.GameState:
        return game_state(self.row, self.live, self.seat, into)

    def to_bytes(self) -> bytes:
        """The GameState's protobuf bytes, the core's view bytes written in as they are
        (parsing them into the message to serialize them again cost more than making
        them); the same message as message() (tests/service/test_reply.py)."""
        game = self.live.game
        view = (game.view_proto(self.seat) if self.views is None else
                self.views.view_bytes(self.row.game_id, self.live.version, game, self.seat))
        # the fields in their numbers' order, as the message would be serialized
        head = pb.GameState(summary=game_summary(self.row, self.live))
        if self.seat is not None:
            head.viewer_seat = self.seat
        if game.is_over:
            head.scores.extend(int(s) for s in game.scores())
            head.winners.extend(int(w) for w in game.winners())
        return head.SerializeToString() + length_delimited(_VIEW_FIELDS[game.ruleset], view)

    def to_json(self) -> dict[str, Any]:
        return json.loads(self.to_json_text())

    def to_json_text(self) -> str:
        """The proto3 JSON text of the GameState, the view's being the core's text."""
        game = self.live.game
        over = game.is_over
        view = (typed.view_json_text(game, self.seat) if self.views is None else
                self.views.view_json_text(self.row.game_id, self.live.version, game, self.seat))
        rest = {
            "scores": [int(s) for s in game.scores()] if over else [],
            "winners": [int(w) for w in game.winners()] if over else [],
        }
        if self.seat is not None:
            rest["viewerSeat"] = self.seat
        return (
            '{"summary":' + compact_json(game_summary_json(self.row, self.live))
            + ',"' + game.ruleset + '":' + view
            + "," + compact_json(rest)[1:]
        )


class WatchUpdate(Reply):
    """A WatchGameResponse made of its parts: its events, and the state (when the update
    has one) with the view as the process encoded it once for this version and seat."""

    __slots__ = ("version",)

    def __init__(self, version: int, events: list[pb.GameEvent],
                 state: StateParts | None) -> None:
        def as_bytes() -> bytes:
            data = pb.WatchGameResponse(version=version, events=events).SerializeToString()
            if state is not None:
                data += length_delimited(_WATCH_STATE_FIELD, state.to_bytes())
            return data

        def as_json_text() -> str:
            return (
                '{"version":"' + str(version) + '","events":['
                + ",".join(compact_json(message_to_json_dict(e)) for e in events) + "]"
                + ("" if state is None else ',"state":' + state.to_json_text()) + "}"
            )

        super().__init__(pb.WatchGameResponse, make_data=as_bytes, json_text=as_json_text)
        self.version = version


_WATCH_STATE_FIELD = pb.WatchGameResponse.DESCRIPTOR.fields_by_name["state"].number

# GameState's `view` arm of each ruleset: its field number.
_VIEW_FIELDS = {name: pb.GameState.DESCRIPTOR.fields_by_name[name].number
                for name in ("birmingham", "pittsburgh")}


def varint(value: int) -> bytes:
    """A non-negative integer in protobuf's base-128 varint form."""
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def length_delimited(number: int, data: bytes) -> bytes:
    """Field `number` of wire type 2 (a message, bytes or a string) holding `data`: what a
    message with only that field set serializes to, so that messages' bytes can be joined
    into one (a message's fields may come in any order and repeat)."""
    return varint(number << 3 | 2) + varint(len(data)) + data


def filled(response: Any, state: StateParts) -> Any:
    """`response` with its `state` field filled in place by `state`."""
    state.message(into=response.state)
    return response


def compact_json(value: Any) -> str:
    """Compact JSON text (orjson: several times faster than json.dumps on these
    documents; non-ASCII text is written as UTF-8 rather than escaped, the same JSON)."""
    return orjson.dumps(value).decode()


def events_json(ruleset: str, version: int,
                 events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [typed.event_json(ruleset, version, event) for event in events]


def option_kind(option: Any) -> str:
    """The decision kind of an option (the engine names the attribute `decision`)."""
    return str(getattr(option, "decision", None) or getattr(option, "kind", ""))


def add_compound_actions(head: pb.ListLegalActionsResponse, game: brass.Game) -> None:
    """The complete compound actions from here, into a ListLegalActionsResponse."""
    compounds, truncated = compound_actions(game)
    for compound in compounds:
        head.compound_actions.add(key=compound.key, ids=list(compound.ids))
    head.compound_actions_truncated = truncated


def compound_actions(game: Any) -> tuple[list[Any], bool]:
    """The engine's complete compound actions and whether its list was cut short."""
    result = game.compound_actions()
    if isinstance(result, tuple):
        compounds, truncated = result
        return list(compounds), bool(truncated)
    return list(result), False


class LegalOptions:
    """A seat's legal options as answers carry them, each option encoded once per process."""

    def __init__(self) -> None:
        # (decision, option id) -> (encoded LegalOption field, its JSON); bounded by the
        # action space times the decision kinds.
        self._option_cache: dict[tuple[str, str, int], tuple[bytes, str]] = {}

    def options(self, decision: str, game: Any) -> tuple[bytes, list[str]]:
        """The legal options of the current decision: the bytes of ListLegalActionsResponse's
        repeated `options` field and each option's JSON text. An option's kind, name and
        meaning depend only on its ruleset, its id and the decision, so each is encoded once
        per process."""
        ids = game.legal_ids()
        cache = self._option_cache
        ruleset = game.ruleset
        try:
            encoded = [cache[(ruleset, decision, i)] for i in ids]
        except KeyError:
            for option in game.legal_actions():
                key = (ruleset, decision, option.id)
                if key not in cache:
                    arm, meaning, meaning_json = typed.meaning_parts(ruleset, option.meaning)
                    message = pb.LegalOption(
                        id=option.id, kind=option_kind(option), name=option.name,
                        **{arm: meaning},
                    )
                    json_option = compact_json({
                        "id": option.id, "kind": message.kind, "name": option.name,
                        arm: meaning_json,
                    })
                    # a response holding only this option is the option's field bytes:
                    # responses' bytes concatenate into one with all their options
                    alone = pb.ListLegalActionsResponse(options=[message])
                    cache[key] = (alone.SerializeToString(), json_option)
            encoded = [cache[(ruleset, decision, i)] for i in ids]
        return b"".join(e[0] for e in encoded), [e[1] for e in encoded]

    def parts(
        self, row: GameRow, live: LiveGame, seat: int
    ) -> tuple[pb.ListLegalActionsResponse, bytes, list[str]]:
        """ListLegalActionsResponse's fields but the options, the options' bytes and their
        JSON texts, for `seat`, which must be the seat to act."""
        game = live.game
        decision = game.decision
        head = pb.ListLegalActionsResponse(
            game_id=row.game_id, version=live.version, seat=seat, decision=decision
        )
        options_bytes, options_json = self.options(decision, game)
        return head, options_bytes, options_json

    @staticmethod
    def json_text(
        head: pb.ListLegalActionsResponse, options_json: list[str], plain: bool
    ) -> str:
        """The JSON text of a ListLegalActionsResponse; `plain` when it has nothing but its
        head fields and options (built directly, not through json_format)."""
        if plain:
            document = {
                "gameId": head.game_id, "version": str(head.version), "seat": head.seat,
                "decision": head.decision, "unavailable": [], "compoundActions": [],
                "compoundActionsTruncated": False,
            }
        else:
            document = message_to_json_dict(head)
            document.pop("options", None)
        return compact_json(document)[:-1] + ',"options":[' + ",".join(options_json) + "]}"
