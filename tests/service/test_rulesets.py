"""GetRuleset / GET /v1/rulesets/{ruleset} (issue 12, item 4): the board and ruleset data a
frontend draws from, equal over gRPC and REST, matching the engine the server plays with,
for any caller, built once."""

from __future__ import annotations

import asyncio
import random

import pytest
from google.protobuf import json_format

import brass
from brass.board import BOARD_FILES, build_description, describe_ruleset
from brass_clients.sdk import pb
from brass_service import rulesets

from .helpers import ServerProcess, expect_error, expect_rest_error


def _get(client: object, ruleset: int = pb.RULESET_UNSPECIFIED,
         token: str | None = None) -> pb.GetRulesetResponse:
    return client._call("GetRuleset", pb.GetRulesetRequest(ruleset=ruleset), token)  # type: ignore[attr-defined]


def test_get_ruleset_is_the_same_over_grpc_and_rest(server: ServerProcess) -> None:
    rest = server.rest()
    with server.client() as client:
        answer = _get(client, pb.RULESET_BIRMINGHAM)
        assert _get(client) == answer  # unset means Birmingham, as in CreateGame
        # no token needed; a seat's token changes nothing
        token = client.create_game(players=2, seed=4).seats[0].token
        assert _get(client, pb.RULESET_BIRMINGHAM, token) == answer
    for path in ("/v1/rulesets/birmingham", "/v1/rulesets/RULESET_BIRMINGHAM"):
        document = rest.get(path)
        assert json_format.ParseDict(document, pb.GetRulesetResponse()) == answer
    described = answer.ruleset
    assert (described.ruleset, described.name, described.title) == (
        pb.RULESET_BIRMINGHAM, "birmingham", "Brass: Birmingham")
    assert (described.min_players, described.max_players, described.provisional) == (2, 4, False)
    # the message carries the engine's description whole
    assert described == rulesets.to_message(pb.RULESET_BIRMINGHAM,
                                             describe_ruleset("birmingham"))
    options = {o.key: o for o in described.options}
    assert options["beginner"].WhichOneof("default") == "default_bool"
    assert options["beginner"].default_bool is False and not options["beginner"].HasField("min")
    assert (options["manufacturer_iv_cost"].default_int,
            list(options["manufacturer_iv_cost"].allowed_ints)) == (8, [8, 14])
    assert not options["manufacturer_iv_cost"].HasField("min")  # only for a plain range
    oxford = next(m for m in described.board.merchants if m.location == "oxford")
    assert [s.name for s in oxford.spaces] == ["merchant:oxford.0", "merchant:oxford.1"]
    assert oxford.beer_bonus.kind == "income_spaces" and oxford.beer_bonus.amount == 2
    assert [m.resource for m in described.board.markets] == ["coal", "iron"]
    coal = described.board.markets[0]
    assert (coal.capacity, coal.price_when_empty, coal.buy_needs_merchant_connection) == (
        14, 8, True)


def test_board_covers_every_option_the_served_engine_offers(server: ServerProcess) -> None:
    """Every id the server's games offer is in the action space, with its name, and every
    slot, link and merchant space it names is drawn on the board."""
    with server.client() as client:
        described = _get(client).ruleset
        names = {a.id: a.name for a in described.actions}
        drawn = ({s.action_id for loc in described.board.locations for s in loc.slots}
                 | {r.action_id for r in described.board.routes}
                 | {s.action_id for m in described.board.merchants for s in m.spaces})
        rs = brass.get_ruleset("birmingham")
        assert drawn == {i for i, n in enumerate(rs.action_names)
                         if n.split(":")[0] in ("slot", "link", "merchant")}
        reasons = {r.code: r.message for r in described.reasons}
        rng = random.Random(12)
        created = client.create_game(players=4, seed=12)
        tokens = [s.token for s in created.seats]
        seen = set()
        for _ in range(80):
            seat = client.get_game(created.game_id).summary.current_seat
            legal = client.list_legal_actions(created.game_id, tokens[seat],
                                              include_unavailable=True)
            for option in legal.options:
                assert names[option.id] == option.name
                if option.name.split(":")[0] in ("slot", "link", "merchant"):
                    assert option.id in drawn
                seen.add(option.name.split(":")[0])
            for unavailable in legal.unavailable:
                assert reasons[unavailable.reason] == unavailable.message
            choice = rng.choice(legal.options).id
            client.submit_action(created.game_id, tokens[seat], choice,
                                 expected_version=legal.version)
        assert {"type", "card", "slot"} <= seen


def test_every_ruleset_of_the_engine_is_described(server: ServerProcess) -> None:
    """Each engine ruleset with a Ruleset value (Pittsburgh too, once both exist) is served
    with the engine's provisional flag, placeholders and sizes; a board iff it has a layout."""
    served = 0
    with server.client() as client:
        for rs in brass.rulesets():
            value = pb.Ruleset.Value(f"RULESET_{rs.name.upper()}") if (
                f"RULESET_{rs.name.upper()}" in pb.Ruleset.keys()) else None
            if value is None:
                continue
            described = _get(client, value).ruleset
            assert (described.name, described.provisional, list(described.placeholders)) == (
                rs.name, rs.provisional, list(rs.placeholders))
            assert [a.name for a in described.actions] == list(rs.action_names)
            assert [o.key for o in described.options] == [o.name for o in rs.options]
            for spec, info in zip(rs.options, described.options, strict=True):
                assert (info.type, getattr(info, info.WhichOneof("default"))) == (
                    spec.kind, spec.default), spec.name
                if spec.kind == "bool":  # listed only when the engine plays one value
                    both = set(spec.choices) in ({False, True}, set())
                    assert list(info.allowed_bools) == ([] if both else list(spec.choices))
                elif spec.kind == "int":
                    assert list(info.allowed_ints) == list(spec.choices or spec.allowed)
                else:
                    assert list(info.allowed_enums) == list(spec.choices)
            assert described.HasField("board") == (rs.name in BOARD_FILES)
            served += 1
    assert served == len(brass.rulesets())  # every ruleset of the engine has its value


def test_pittsburgh_is_described_and_played(server: ServerProcess) -> None:
    with server.client() as client:
        described = _get(client, pb.RULESET_PITTSBURGH).ruleset
        assert described.provisional and list(described.placeholders)
        assert described.HasField("board")
        created = client._call("CreateGame",
                               pb.CreateGameRequest(ruleset=pb.RULESET_PITTSBURGH, players=2),
                               server.operator_token)
        assert created.state.summary.ruleset == pb.RULESET_PITTSBURGH
    assert server.rest().get("/v1/rulesets/pittsburgh")["ruleset"]["provisional"] is True


def test_unknown_rulesets_are_not_found(server: ServerProcess) -> None:
    rest = server.rest()
    for path in ("/v1/rulesets/monopoly", "/v1/rulesets/RULESET_UNSPECIFIED"):
        error = expect_rest_error("UNKNOWN_RULESET", 404, rest.get, path)
        assert "birmingham" in error.message
    with server.client() as client:
        error = expect_error("UNKNOWN_RULESET", _get, client, 99)
        assert error.metadata["field"] == "ruleset"


def test_openapi_shows_the_route(server: ServerProcess) -> None:
    document = server.rest().get("/openapi.json")
    operation = document["paths"]["/v1/rulesets/{ruleset}"]["get"]
    assert operation["operationId"] == "GetRuleset"
    assert "Location" in document["components"]["schemas"]
    assert "x" in document["components"]["schemas"]["Location"]["properties"]


def test_option_kinds_become_their_typed_fields() -> None:
    ranged = rulesets._option({"key": "n", "type": "int", "default": 2, "allowed": [],
                               "min": 1, "max": 5, "description": "a number"})
    assert (ranged.default_int, ranged.min, ranged.max, list(ranged.allowed_ints)) == (
        2, 1, 5, [])
    enum = rulesets._option({"key": "sale", "type": "enum", "default": "optional",
                             "allowed": ["mandatory", "optional"], "min": None, "max": None,
                             "description": "when to sell"})
    assert enum.WhichOneof("default") == "default_enum" and enum.default_enum == "optional"
    assert list(enum.allowed_enums) == ["mandatory", "optional"] and not enum.HasField("min")


def test_a_description_without_board_data_leaves_the_board_unset() -> None:
    bare = build_description(brass.get_ruleset("birmingham"), None, None)
    message = rulesets.to_message(pb.RULESET_BIRMINGHAM, bare)
    assert not message.HasField("board") and len(message.actions) == len(bare["actions"])


def test_the_answer_is_built_once(monkeypatch: pytest.MonkeyPatch) -> None:
    built = []

    def counting(name: str) -> dict[str, object]:
        built.append(name)
        return describe_ruleset(name)

    rulesets._reply.cache_clear()
    monkeypatch.setattr(rulesets, "describe_ruleset", counting)
    try:
        first = asyncio.run(rulesets.get_ruleset(pb.GetRulesetRequest()))
        again = asyncio.run(rulesets.get_ruleset(pb.GetRulesetRequest(
            ruleset=pb.RULESET_BIRMINGHAM)))
    finally:
        rulesets._reply.cache_clear()
    assert built == ["birmingham"] and again is first
    assert again.to_json_text() == first.to_json_text()


def test_the_pittsburgh_board_is_the_same_over_grpc_and_rest(server: ServerProcess) -> None:
    """The board validates against the engine the server plays: every slot, rail and pipeline
    route, merchant space, market and oilfield id of its games is drawn, inside the view box;
    REST's JSON is the gRPC message; each id names the decision kinds that offer it."""
    with server.client() as client:
        answer = _get(client, pb.RULESET_PITTSBURGH)
        for path in ("/v1/rulesets/pittsburgh", "/v1/rulesets/RULESET_PITTSBURGH"):
            document = server.rest().get(path)
            assert json_format.ParseDict(document, pb.GetRulesetResponse(),
                                         ignore_unknown_fields=False) == answer
        described = answer.ruleset
        assert described == rulesets.to_message(pb.RULESET_PITTSBURGH,
                                                 describe_ruleset("pittsburgh"))
        board = described.board
        drawn = ({s.action_id for loc in board.locations for s in loc.slots}
                 | {r.action_id for r in board.routes}
                 | {s.action_id for m in board.merchants for s in m.spaces}
                 | {m.action_id for m in board.markets} | {f.action_id for f in board.oilfields})
        rs = brass.get_ruleset("pittsburgh")
        assert drawn == {i for i, n in enumerate(rs.action_names)
                         if n.split(":")[0] in ("slot", "link", "pipeline", "merchant", "market",
                                                "oilfield") and ":unused" not in n}
        points = ([(p.x, p.y) for p in board.locations] + [(f.x, f.y) for f in board.oilfields]
                  + [(s.x, s.y) for loc in board.locations for s in loc.slots])
        assert all(0 < x < board.view_width and 0 < y < board.view_height for x, y in points)
        assert {r.kind for r in board.routes} == {"rail", "pipeline"}
        decisions = {a.id: set(a.decisions) for a in described.actions}
        created = client._call("CreateGame", pb.CreateGameRequest(
            ruleset=pb.RULESET_PITTSBURGH, players=3, seed=8), server.operator_token)
        tokens = [s.token for s in created.seats]
        rng = random.Random(8)
        for _ in range(60):
            seat = client.get_game(created.game_id).summary.current_seat
            legal = client.list_legal_actions(created.game_id, tokens[seat])
            for option in legal.options:
                assert option.kind in decisions[option.id], option.name
                if option.name.split(":")[0] in ("slot", "link", "pipeline", "market"):
                    assert option.id in drawn, option.name
            client.submit_action(created.game_id, tokens[seat], rng.choice(legal.options).id,
                                 expected_version=legal.version)


def test_player_mat_agrees_with_the_engine() -> None:
    """The mat a frontend draws (Board.player_mat) is the one the engine plays: a level's
    money cost is what a build of it previews, and its tiles are what the mat holds."""
    mat = {i["industry"]: i for i in describe_ruleset("birmingham")["board"]["player_mat"]}
    assert list(mat) == ["cotton", "manufacturer", "pottery", "coal", "iron", "brewery"]
    for info in mat.values():
        assert sum(t["count"] for t in info["levels"]) == info["tiles_per_player"]
    game = brass.Game.new(players=2, seed=5)
    builds, _ = game.compound_actions()
    coal_builds = [a for a in builds if "industry:coal" in a.key]
    assert coal_builds  # a coal mine I costs money only: the preview's money is the mat's
    preview = game.preview(coal_builds[0].ids)
    coal_one = mat["coal"]["levels"][0]
    assert preview["cost"]["money"] == coal_one["money"] == 5
    built = next(e for e in preview["events"] if e["type"] == "build")
    slot = preview["view"]["slots"][built["slot"]]
    assert (slot["level"], slot["cubes"]) == (1, coal_one["cubes"])
    brewery = mat["brewery"]["levels"]
    assert [(t["cubes"], t["rail_era_cubes"]) for t in brewery] == [(1, 0), (1, 2), (1, 2), (0, 2)]
