"""The REST routes: each operation's method and path, what it takes and answers, and who may
call it. The OpenAPI document (api/openapi.py) is built from this table, and both HTTP fronts
(api/rest_app.py's aiohttp app and api/fast_http.py) route by it.
"""

from __future__ import annotations

from typing import Any

from ..games.export import DEFAULT_EXPORT_GAMES, MAX_EXPORT_GAMES
from ..games.settings import ServiceSettings
from ..requests import MAX_COMPOUND_IDS, MAX_PAGE_TOKEN_CHARS
from .openapi import Route

# At most MAX_COMPOUND_IDS option ids joined by commas, each fitting 32 bits (9 digits do).
_OPTION_IDS = f"^[0-9]{{1,9}}(,[0-9]{{1,9}}){{0,{MAX_COMPOUND_IDS - 1}}}$"

_BOOL = {"type": "boolean"}
_TIME = {"type": "string", "format": "date-time", "maxLength": 64}
_VERSION = {"type": "integer", "format": "int64", "minimum": 0, "maximum": 2**63 - 1}



def _page_query(items: str) -> tuple[tuple[str, dict[str, Any], str], ...]:
    """A paged listing's query parameters (pageSize, pageToken)."""
    return (("pageSize", {"type": "integer", "format": "int32", "minimum": 1,
                          "maximum": ServiceSettings.max_page_size},
             f"{items} per page, 1 to 100 (default 20)."),
            ("pageToken", {"type": "string", "maxLength": MAX_PAGE_TOKEN_CHARS},
             "nextPageToken of the previous page."))


ROUTES: list[Route] = [
    Route("POST", "/v1/games", "CreateGame", "Create a game; returns one token per seat.",
          request="CreateGameRequest", response="CreateGameResponse", authorization="none"),
    Route("POST", "/v1/games:fromPosition", "CreateGameFromPosition",
          "Create a game from a position in the core's JSON format.",
          request="CreateGameFromPositionRequest", response="CreateGameResponse",
          authorization="operator"),
    Route("GET", "/v1/games", "ListGames", "List games, newest first, a page at a time.",
          response="ListGamesResponse", authorization="none",
          query=(("pageSize", {"type": "integer", "format": "int32", "minimum": 1,
                               "maximum": ServiceSettings.max_page_size},
                  "Games per page, 1 to 100 (default 20)."),
                 ("pageToken", {"type": "string", "maxLength": MAX_PAGE_TOKEN_CHARS},
                  "nextPageToken of the previous page (empty or absent: the first page)."),
                 ("status", {"$ref": "#/components/schemas/GameStatus"},
                  "Only games of this status."),
                 ("ruleset", {"$ref": "#/components/schemas/Ruleset"},
                  "Only games of this rule set."),
                 ("hasOpenSeats", _BOOL,
                  "Only games with (true) or without (false) an open seat."),
                 ("accountId", {"type": "string", "maxLength": 64},
                  "Only games with a seat bound to this account (its unlisted ones too "
                  "with its key)."))),
    Route("GET", "/v1/games/{gameId}", "GetGame",
          "The caller's view: a seat's with its token, a spectator's without.",
          response="GetGameResponse",
          query=(("atVersion", _VERSION,
                  "The game as it was at this version, 0 to the current one (default: now)."),
                 )),
    Route("GET", "/v1/games/{gameId}/actions", "ListLegalActions",
          "The current decision's options, for the seat to act.",
          response="ListLegalActionsResponse", authorization="required",
          query=(("includeCompoundActions", _BOOL, "Also list complete compound actions."),
                 ("includeUnavailable", _BOOL,
                  "Also list unavailable options with the engine's reason."),
                 ("afterIds", {"type": "string", "pattern": _OPTION_IDS},
                  "The decision after these first steps of the caller's action in progress, "
                  "ids joined by commas (12,40); nothing is applied."))),
    Route("POST", "/v1/games/{gameId}/actions", "SubmitAction",
          "Apply a decision or a whole compound action.", request="SubmitActionRequest",
          response="SubmitActionResponse", authorization="required"),
    Route("POST", "/v1/games/{gameId}:undo", "UndoAction",
          "Take back the caller's action in progress, else its previous action of this turn "
          "(the seat to act; never across the turn's start or a reveal).",
          request="UndoActionRequest", response="UndoActionResponse",
          authorization="required"),
    Route("POST", "/v1/games/{gameId}/actions:preview", "PreviewAction",
          "What SubmitAction would do; nothing is committed.", request="PreviewActionRequest",
          response="PreviewActionResponse", authorization="required"),
    Route("GET", "/v1/games/{gameId}/events", "WatchGame",
          "Server-Sent Events: updates after a version, then live ones.",
          content_type="text/event-stream",
          query=(("fromVersion", _VERSION,
                  "Send updates after this version, at most the current one (default 0)."),
                 ("Last-Event-ID", _VERSION,
                  "Set by EventSource on reconnection; wins over fromVersion."))),
    Route("GET", "/v1/games/{gameId}/replay", "GetReplay",
          "Seed and decisions: complete after the end, the public part before.",
          response="GetReplayResponse"),
    Route("GET", "/v1/rulesets/{ruleset}", "GetRuleset",
          "A ruleset's board (map coordinates, slots, routes, merchants, markets), action "
          "space, reasons and options; {ruleset} is its name, e.g. birmingham.",
          response="GetRulesetResponse", authorization="none"),
    Route("POST", "/v1/games/{gameId}:join", "JoinGame",
          "Take an open seat (a given one or the next); returns its token, once.",
          request="JoinGameRequest", response="JoinGameResponse", authorization="none"),
    Route("POST", "/v1/games/{gameId}:leave", "LeaveGame",
          "Give the caller's seat back before the start (its seat token).",
          request="LeaveGameRequest", response="LeaveGameResponse", authorization="required"),
    Route("POST", "/v1/games/{gameId}:start", "StartGame",
          "Start a game whose seats are all taken (the host token).",
          request="StartGameRequest", response="StartGameResponse", authorization="required"),
    Route("POST", "/v1/games/{gameId}:reissueSeatToken", "ReissueSeatToken",
          "Revoke a seat's token and return a new one, once (the host token).",
          request="ReissueSeatTokenRequest", response="ReissueSeatTokenResponse",
          authorization="required"),
    Route("POST", "/v1/games/{gameId}:resign", "ResignGame",
          "Resign the caller's seat (its seat token); the host's on_resign says whether a "
          "bot plays it on or the game ends.",
          request="ResignGameRequest", response="ResignGameResponse", authorization="required"),
    Route("POST", "/v1/games/{gameId}:rematch", "Rematch",
          "After the end, propose a rematch or accept the one proposed (a seat's token); "
          "returns the caller's token of the new game, which starts once every seat agreed.",
          request="RematchRequest", response="RematchResponse", authorization="required"),
    Route("POST", "/v1/games/{gameId}:revokeSeatToken", "RevokeSeatToken",
          "Revoke a seat's token without a new one (the host token): open again before the "
          "start, vacant after it.",
          request="RevokeSeatTokenRequest", response="RevokeSeatTokenResponse",
          authorization="required"),
    Route("POST", "/v1/games/{gameId}:setSeatBot", "SetSeatBot",
          "Put a server bot in an open (before the start) or vacant seat (the host token).",
          request="SetSeatBotRequest", response="SetSeatBotResponse",
          authorization="required"),
    Route("POST", "/v1/accounts", "CreateAccount",
          "Create an account (a person's or a bot's); returns its API key, once.",
          request="CreateAccountRequest", response="CreateAccountResponse",
          authorization="none"),
    Route("GET", "/v1/accounts/{accountId}", "GetAccount", "An account's public facts.",
          response="GetAccountResponse", authorization="none"),
    Route("POST", "/v1/accounts/{accountId}:rotateKey", "RotateAccountKey",
          "Replace the account's key (its key or the operator token); the new one is shown "
          "once.", request="RotateAccountKeyRequest", response="RotateAccountKeyResponse",
          authorization="account"),
    Route("POST", "/v1/accounts/{accountId}:revokeKey", "RevokeAccountKey",
          "Revoke the account's key (its key or the operator token).",
          request="RevokeAccountKeyRequest", response="RevokeAccountKeyResponse",
          authorization="account"),
    Route("POST", "/v1/challenges", "CreateChallenge",
          "Challenge another account to a two-player game (the challenger's key).",
          request="CreateChallengeRequest", response="CreateChallengeResponse",
          authorization="account"),
    Route("POST", "/v1/challenges/{challengeId}:accept", "AcceptChallenge",
          "Accept a challenge (the challenged account's key): the game starts.",
          request="AcceptChallengeRequest", response="AcceptChallengeResponse",
          authorization="account"),
    Route("POST", "/v1/challenges/{challengeId}:decline", "DeclineChallenge",
          "Decline (the challenged) or withdraw (the challenger) an open challenge.",
          request="DeclineChallengeRequest", response="DeclineChallengeResponse",
          authorization="account"),
    Route("GET", "/v1/account/events", "StreamAccountEvents",
          "Server-Sent Events of the key's account: challenges, games started, turns, "
          "games over; it starts with what is pending.", authorization="account",
          content_type="text/event-stream", stream_item="StreamAccountEventsResponse"),
    Route("POST", "/v1/webhooks", "CreateWebhook",
          "Register a webhook of an account (its key) or of a game's seat or host (its "
          "token); returns its signing secret, once (docs/WEBHOOKS.md).",
          request="CreateWebhookRequest", response="CreateWebhookResponse",
          authorization="required"),
    Route("GET", "/v1/webhooks", "ListWebhooks",
          "The webhooks of an account (its key) or of the caller's seat of a game (its "
          "token), without secrets.", response="ListWebhooksResponse",
          authorization="required",
          query=(("accountId", {"type": "string", "maxLength": 64}, "The account."),
                 ("gameId", {"type": "string", "maxLength": 64}, "The game."))),
    Route("DELETE", "/v1/webhooks/{webhookId}", "DeleteWebhook",
          "Delete a webhook (its owner's key or token) and its undelivered events.",
          response="DeleteWebhookResponse", authorization="required"),
    Route("GET", "/v1/webhooks/{webhookId}/deliveries", "ListWebhookDeliveries",
          "A webhook's pending and dead (given up) deliveries, newest first.",
          response="ListWebhookDeliveriesResponse", authorization="required",
          query=_page_query("Deliveries")),
    Route("GET", "/v1/leaderboards/{ruleset}", "GetLeaderboard",
          "The ratings of a ruleset and player count, best first, a page at a time.",
          response="GetLeaderboardResponse", authorization="none",
          query=(("players", {"type": "integer", "format": "int32", "minimum": 2,
                              "maximum": 4}, "The player count class, 2 to 4 (required)."),
                 ("kind", {"$ref": "#/components/schemas/AccountKind"},
                  "People, bots, or every account (default)."),
                 *_page_query("Entries"))),
    Route("GET", "/v1/accounts/{accountId}/ratings", "GetRatingHistory",
          "An account's rating changes, newest first, a page at a time.",
          response="GetRatingHistoryResponse", authorization="none",
          query=_page_query("Entries")),
    Route("POST", "/v1/arenas", "CreateArena",
          "Start an arena between bot accounts and server bots (the operator's only): "
          "round-robin or Swiss, every game rated.",
          request="CreateArenaRequest", response="CreateArenaResponse",
          authorization="operator"),
    Route("GET", "/v1/arenas", "ListArenas",
          "The arenas, newest first, a page at a time, each without its tables.",
          response="ListArenasResponse", authorization="none",
          query=(("status", {"$ref": "#/components/schemas/ArenaStatus"},
                  "Only arenas of this status."), *_page_query("Arenas"))),
    Route("GET", "/v1/arenas/{arenaId}", "GetArena",
          "An arena's table of results and its games.", response="GetArenaResponse",
          authorization="none"),
    Route("GET", "/v1/arenas/{arenaId}/events", "WatchArena",
          "Server-Sent Events: the arena's table as it stands, then at each change, until "
          "it finishes (then an `end` event).", authorization="none",
          content_type="text/event-stream", stream_item="WatchArenaResponse"),
    Route("POST", "/v1/batches", "RunBatch",
          "Play a batch of bot-vs-bot games; one NDJSON line (a RunBatchResponse) per "
          "finished game.",
          request="RunBatchRequest", authorization="operator",
          content_type="application/x-ndjson",
          stream_item="RunBatchResponse"),
    Route("GET", "/v1/games:export", "ExportGames",
          "Finished games as JSON Lines, newest first (the operator's only): one "
          "game-export.v1 line per game (GET /v1/schemas/game-export.v1). A failure after "
          "the first line is a last line holding an Error object.",
          authorization="operator", content_type="application/jsonl",
          query=(("ruleset", {"$ref": "#/components/schemas/Ruleset"},
                  "Only games of this rule set."),
                 ("players", {"type": "integer", "format": "int32", "minimum": 2,
                              "maximum": 4}, "Only games of this many players."),
                 ("rated", _BOOL, "Only rated (true) or unrated (false) games."),
                 ("createdAfter", _TIME, "Only games created at or after this time."),
                 ("createdBefore", _TIME, "Only games created before this time."),
                 ("limit", {"type": "integer", "format": "int32", "minimum": 1,
                            "maximum": MAX_EXPORT_GAMES},
                  f"At most this many games (default {DEFAULT_EXPORT_GAMES})."))),
    Route("GET", "/v1/schemas/{schema}", "GetSchema",
          "A versioned JSON Schema of game records (brass/schemas/): position.v1, "
          "replay-record.v1, game-export.v1.", authorization="none"),
    Route("GET", "/healthz", "Health", "Liveness and store reachability.",
          authorization="none"),
    Route("GET", "/metrics", "Metrics", "Prometheus metrics.", authorization="none",
          content_type="text/plain"),
    Route("GET", "/openapi.json", "OpenApi", "This document.", authorization="none"),
    Route("GET", "/", "WebApp", "The reference web frontend (docs/WEB.md).",
          authorization="none", content_type="text/html"),
    Route("GET", "/web/{name}", "WebAsset", "A file of the web frontend (scripts, styles).",
          authorization="none",
          content_type="text/javascript, text/css, image/svg+xml, application/json"),
]


# The operations answered with one JSON document (every route but the streams, /healthz,
# /metrics and /openapi.json): both HTTP fronts (aiohttp, and fast_http for simple
# requests) run them through RestGateway.respond.
PLAIN_OPERATIONS = (
    "CreateGame", "CreateGameFromPosition", "ListGames", "GetGame", "ListLegalActions",
    "SubmitAction", "PreviewAction", "GetReplay", "GetRuleset", "JoinGame", "LeaveGame",
    "StartGame", "ReissueSeatToken", "ResignGame", "Rematch", "RevokeSeatToken", "SetSeatBot",
    "UndoAction", "CreateAccount", "GetAccount", "RotateAccountKey", "RevokeAccountKey",
    "GetLeaderboard", "GetRatingHistory", "CreateChallenge", "AcceptChallenge",
    "DeclineChallenge", "CreateWebhook", "ListWebhooks", "DeleteWebhook",
    "ListWebhookDeliveries",
    "CreateArena", "GetArena", "ListArenas",
)


# The operations whose token is never a token of the game in their path (JoinGame's is an
# account's key, when there is one): a refusal of their arguments is not turned into
# UNAUTHENTICATED for want of a seat of that game.
NO_GAME_TOKEN = frozenset(
    route.operation_id for route in ROUTES if route.authorization == "none"
)

# The plain operations a request without a token is refused at once (before its body).
TOKEN_REQUIRED = frozenset(
    route.operation_id for route in ROUTES if route.authorization in ("required", "account")
)

# What a game id in a path may hold: no ':' (the custom methods, /v1/games/{id}:join, are
# routes of their own) and no '/'.
GAME_ID_CHARS = "[^/:]+"
