"""English and Simplified Chinese over the API (issue 23 item 4): Accept-Language (gRPC
metadata accept-language) chooses the words of refusals and reasons; the reason codes stay
the same; answers say their language; GetRuleset carries labels in both languages."""

from __future__ import annotations

import http.client
import json
from typing import Any

import grpc

from brass_clients.sdk import BrassError, pb
from brass_service.i18n.reasons_catalogue import REASONS_ZH

from .helpers import ServerProcess

CHINESE = "zh-CN,zh;q=0.9,en;q=0.5"


def _rest(server: ServerProcess, method: str, path: str, body: Any = None,
          token: str | None = None, language: str | None = None,
          ) -> tuple[int, dict[str, Any], str | None]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if language:
        headers["Accept-Language"] = language
    connection = http.client.HTTPConnection("127.0.0.1", server.http_port, timeout=30)
    try:
        connection.request(method, path, None if body is None else json.dumps(body), headers)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read()), answer.headers.get("Content-Language")
    finally:
        connection.close()


def test_an_unknown_game_is_refused_in_the_language_asked(server: ServerProcess) -> None:
    with server.client() as client:
        stub = client._stub  # type: ignore[attr-defined]
        for metadata, message, language in [
            ((), "no game has id 'no-such-game'", "en"),
            ((("accept-language", "zh-CN"),), "没有编号为 'no-such-game' 的对局", "zh-Hans"),
            ((("accept-language", "fr, zh;q=0.5"),), "没有编号为 'no-such-game' 的对局", "zh-Hans"),
            ((("accept-language", "de"),), "no game has id 'no-such-game'", "en"),
        ]:
            try:
                stub.GetGame(pb.GetGameRequest(game_id="no-such-game"), timeout=30,
                             metadata=metadata)
                raise AssertionError("an unknown game was found")
            except grpc.RpcError as exc:
                error = BrassError.from_rpc_error(exc)
                assert (error.reason, error.message) == ("UNKNOWN_GAME", message)
                assert ("content-language", language) in tuple(exc.trailing_metadata())
        _, call = stub.GetRuleset.with_call(pb.GetRulesetRequest(), timeout=30,
                                            metadata=(("accept-language", "zh-Hans"),))
        assert ("content-language", "zh-Hans") in tuple(call.trailing_metadata())
    status, body, language = _rest(server, "GET", "/v1/games/no-such-game", language=CHINESE)
    assert (status, language, body["error"]["reason"]) == (404, "zh-Hans", "UNKNOWN_GAME")
    assert body["error"]["message"] == "没有编号为 'no-such-game' 的对局"
    status, body, language = _rest(server, "GET", "/v1/games/no-such-game")
    assert (status, language) == (404, "en")
    assert body["error"]["message"] == "no game has id 'no-such-game'"
    # a route that is none (the aiohttp front's own refusal) speaks the language too
    status, body, language = _rest(server, "GET", "/v1/nowhere", language="zh")
    assert (status, language) == (404, "zh-Hans")
    assert body["error"]["message"] == "没有接口地址 /v1/nowhere"


def test_engine_reasons_and_illegal_actions_in_chinese(server: ServerProcess) -> None:
    status, created, _ = _rest(server, "POST", "/v1/games", {"players": 2},
                               token=server.operator_token)
    assert status == 200, created
    game = created["gameId"]
    seat = created["state"]["summary"]["currentSeat"]
    token = created["seats"][seat]["token"]
    path = f"/v1/games/{game}/actions?includeUnavailable=true"
    _, english, _ = _rest(server, "GET", path, token=token)
    _, chinese, language = _rest(server, "GET", path, token=token, language=CHINESE)
    assert language == "zh-Hans" and chinese["unavailable"]
    assert [u["reason"] for u in chinese["unavailable"]] == [
        u["reason"] for u in english["unavailable"]]
    for item in chinese["unavailable"]:
        assert item["message"] == REASONS_ZH["birmingham"][item["reason"]]
    refused = chinese["unavailable"][0]
    status, body, language = _rest(server, "POST", f"/v1/games/{game}/actions",
                                   {"action": {"optionId": refused["id"]}}, token=token,
                                   language="zh-Hans")
    error = body["error"]
    assert (status, language, error["reason"]) == (400, "zh-Hans", "ILLEGAL_ACTION")
    assert error["details"][0]["metadata"]["engine_reason"] == refused["reason"]
    assert error["message"].endswith("现在不可用：" + refused["message"])
    # a refusal of the service's own, with its detail as parameters
    status, body, _ = _rest(server, "POST", f"/v1/games/{game}/actions",
                            {"action": {"optionId": 0}, "expectedVersion": "7"}, token=token,
                            language="zh-Hans")
    assert (status, body["error"]["reason"]) == (409, "STALE_VERSION")
    assert body["error"]["message"] == "对局现在是版本 0，不是 7"
    with server.client() as client:
        stub = client._stub  # type: ignore[attr-defined]
        try:
            stub.SubmitAction(pb.SubmitActionRequest(
                game_id=game, action=pb.Action(option_id=refused["id"])), timeout=30,
                metadata=(("authorization", f"Bearer {token}"), ("accept-language", "zh")))
            raise AssertionError("an unavailable option was played")
        except grpc.RpcError as exc:
            error_info = BrassError.from_rpc_error(exc)
            assert error_info.reason == "ILLEGAL_ACTION"
            assert error_info.message == error["message"]


def test_get_ruleset_carries_labels_in_both_languages(server: ServerProcess) -> None:
    _, english, language = _rest(server, "GET", "/v1/rulesets/birmingham")
    _, asked, _ = _rest(server, "GET", "/v1/rulesets/birmingham", language=CHINESE)
    assert asked == english and language == "en"  # the same tables whatever is asked
    labels = english["ruleset"]["labels"]
    assert set(labels) == {"en", "zh-Hans"}
    zh, en = labels["zh-Hans"], labels["en"]
    assert zh["industries"]["cotton"] == "棉纺厂" and en["industries"]["cotton"] == "Cotton Mill"
    assert zh["actionTypes"]["scout"] == "侦察" and zh["locations"]["birmingham"] == "伯明翰"
    assert en["reasons"] == {r["code"]: r["message"] for r in english["ruleset"]["reasons"]}
    assert zh["reasons"]["NOT_ENOUGH_MONEY"] == "钱不够"
    for table in en:
        assert set(en[table]) == set(zh[table]), table
    assert set(en["decisionKinds"]) == set(english["ruleset"]["decisionKinds"])
    with server.client() as client:
        stub = client._stub  # type: ignore[attr-defined]
        pgh = stub.GetRuleset(pb.GetRulesetRequest(ruleset=pb.RULESET_PITTSBURGH), timeout=30)
        assert pgh.ruleset.labels["zh-Hans"].locations["pittsburgh"] == "匹兹堡"
        assert pgh.ruleset.labels["en"].industries["iron_steel"] == "Iron & Steel Works"
        assert pgh.ruleset.labels["zh-Hans"].events["bankrupt"] == "破产"
        assert pgh.ruleset.labels["zh-Hans"].options["oil_city_card"] == (
            "默认任何允许建造煤油的卡牌都可以建造石油城。（规则裁定 P39）")
        assert pgh.ruleset.labels["zh-Hans"].option_titles["oil_city_card"] == "建造石油城的卡牌"
        assert pgh.ruleset.labels["zh-Hans"].cards["iron_steel"] == "钢铁产业"
