"""The tutorial (birmingham_tutorial_zh.txt): every lesson of 「边学边玩」 and every
comparison of 「局面与选择」, each on an explicit position, with the outcome worked out by
hand from the tile table and the rules quoted in the docstring."""

from __future__ import annotations

import pytest

import brass

from .positions import (
    GOODS_ALL,
    blank,
    do,
    events_of,
    full_deck,
    game,
    legal,
    level,
    link,
    merchant,
    player,
    ps,
    reason,
    refused,
    slot,
    tile,
)

# ================================================================ 边学边玩 (lessons)


def test_tutorial_lesson_coal_nearest_first() -> None:
    """教程·煤：先用最近的 — 伯明翰建造棉纺厂II：牌与£14已处理，剩下支付1煤。可使用任何玩家的
    运输线；最近的相连煤矿有煤时，不能绕去远矿或市场。"""
    pos = blank(2)
    for r in ("birmingham--walsall", "cannock--walsall", "cannock--wolverhampton",
              "birmingham--oxford"):
        link(pos, r, 1)  # all of them another player's
    tile(pos, "cannock.1", 1, "coal", 2, cubes=2)  # 2 links away
    tile(pos, "wolverhampton.1", 0, "coal", 1, cubes=2)  # P0's own, 3 links away
    tile(pos, "dudley.0", 1, "coal", 1)  # not connected at all
    player(pos, 0, hand={"birmingham": 1}, mat={"cotton": 3})
    g = game(pos)
    do(g, "type:build", "card:birmingham", "industry:cotton", "slot:birmingham.0")
    assert (g.decision, ps(g, 0)["money"], ps(g, 0)["hand"]) == ("coal", 3, {})
    assert legal(g) == {"slot:cannock.1"}
    refused(g, "slot:wolverhampton.1", "NOT_NEAREST_COAL")
    refused(g, "market", "MINE_COAL_FIRST")  # Oxford's market is only 1 link away
    refused(g, "slot:dudley.0", "NO_CONNECTED_COAL")
    do(g, "slot:cannock.1")
    assert slot(g, "cannock.1")["cubes"] == 1 and slot(g, "birmingham.0")["level"] == 2
    assert ps(g, 0)["money"] == 3


def test_tutorial_lesson_iron_needs_no_connection() -> None:
    """教程·铁：不用连接 — 研发进入支付1铁的步骤：没有运输线也能用铁厂；地图上有可用铁厂就先
    免费取铁，距离不限；不是先看市场是否便宜。"""
    pos = blank(2, iron_market=10)  # the market's cheapest iron would be £1
    tile(pos, "coalbrookdale.1", 1, "iron", 1, cubes=2)
    player(pos, 0, hand={"birmingham": 1})
    g = game(pos)
    do(g, "type:develop", "card:birmingham", "industry:cotton")
    assert g.decision == "iron" and g.position()["links"] == {}
    assert legal(g) == {"slot:coalbrookdale.1"}
    refused(g, "market", "WORKS_IRON_FIRST")
    do(g, "slot:coalbrookdale.1", "done")
    assert (ps(g, 0)["money"], slot(g, "coalbrookdale.1")["cubes"]) == (17, 1)
    assert g.position()["markets"]["iron"] == 10


def test_tutorial_lesson_beer_own_and_others() -> None:
    """教程·啤酒：本人和他人 — 伯明翰的销售进入支付1啤酒步骤，两家不相连的酒厂：自己的啤酒不
    要求连接；其他玩家的啤酒必须与使用地相连。"""
    pos = blank(2)
    tile(pos, "birmingham.0", 0, "cotton", 1)
    link(pos, "birmingham--oxford", 1)
    merchant(pos, "oxford.0", ["cotton"], beer=0)
    tile(pos, "stafford.0", 0, "brewery", 1)
    tile(pos, "burton_on_trent.1", 1, "brewery", 1)
    player(pos, 0, hand={"coventry": 1})
    g = game(pos)
    do(g, "type:sell", "card:coventry", "slot:birmingham.0", "merchant:oxford.0")
    assert g.decision == "beer"
    assert legal(g) == {"slot:stafford.0"}
    refused(g, "slot:burton_on_trent.1", "BEER_NOT_CONNECTED")
    refused(g, "merchant:oxford.0", "SOURCE_EMPTY")
    do(g, "slot:stafford.0", "done")
    assert ps(g, 0)["income_space"] == 10 + 5 + 4  # cotton I, and the emptied brewery I


def test_tutorial_lesson_sell_merchant_and_flip() -> None:
    """教程·销售：商人和翻面 — 选择牛津棉花商人卖出伯明翰棉纺厂；考文垂没有合适商人。销售不
    直接获得现金；产业翻面加收入格；使用牛津商人啤酒额外加2收入格。"""
    pos = blank(2)
    tile(pos, "birmingham.0", 0, "cotton", 1)
    tile(pos, "coventry.1", 0, "manufacturer", 1)
    link(pos, "birmingham--oxford", 1)
    link(pos, "birmingham--coventry", 1)
    merchant(pos, "oxford.0", ["cotton"], beer=1)
    merchant(pos, "gloucester.1", ["manufacturer"], beer=1)  # not connected
    player(pos, 0, hand={"dudley": 1})
    g = game(pos)
    do(g, "type:sell", "card:dudley")
    assert legal(g) == {"slot:birmingham.0"}
    refused(g, "slot:coventry.1", "NOT_CONNECTED_TO_MERCHANT")
    do(g, "slot:birmingham.0")
    assert legal(g) == {"merchant:oxford.0"}
    refused(g, "merchant:oxford.1", "NO_MERCHANT_ACCEPTS")
    do(g, "merchant:oxford.0", "merchant:oxford.0", "done")
    me = ps(g, 0)
    assert (me["money"], me["income_space"], me["income_level"]) == (17, 17, 4)
    assert slot(g, "birmingham.0")["flipped"] and not slot(g, "coventry.1")["flipped"]


def test_tutorial_lesson_loan_levels_not_spaces() -> None:
    """教程·贷款：等级不是格数 — 借£30，降低3个收入等级，放到新等级最高格；不能降到−10以下，
    不需还本。"""
    pos = blank(2)
    player(pos, 0, hand={"coventry": 1, "dudley": 1}, income_space=19, money=4)  # level 5
    g = game(pos)
    do(g, "type:loan", "card:coventry")
    me = ps(g, 0)
    assert (me["money"], me["income_space"], me["income_level"]) == (34, 14, 2)
    assert level(19 - 3) == 3  # three spaces back would have been level 3
    pos = blank(2)
    player(pos, 0, hand={"coventry": 1}, income_space=2)  # level -8
    assert reason(game(pos), "type:loan") == "LOAN_LIMIT"


def test_tutorial_lesson_develop_lowest_tile() -> None:
    """教程·研发：移除最低级 — 用1铁研发玩家板最下方可用的棉纺厂I；不能研发带禁止标志的陶瓷I；
    本课只移除1块，不建到地图。"""
    pos = blank(2)
    tile(pos, "dudley.1", 1, "iron", 1, cubes=3)
    player(pos, 0, hand={"coventry": 1})
    g = game(pos)
    do(g, "type:develop", "card:coventry")
    refused(g, "industry:pottery", "LIGHTBULB_POTTERY")
    ev = do(g, "industry:cotton", "slot:dudley.1", "done")
    assert [(e["industry"], e["level"]) for e in events_of(ev, "develop")] == [("cotton", 1)]
    assert ps(g, 0)["mat_taken"] == {"cotton": 1, "manufacturer": 0, "pottery": 0, "coal": 0,
                                     "iron": 0, "brewery": 0}
    assert set(g.position()["slots"]) == {"dudley.1"}


def test_tutorial_lesson_rail_pays_coal_after_placement() -> None:
    """教程·铁路：铺下后支付煤 — 从伯明翰产业修铁路到达德利，单铁路£5加1煤；先放线路，再按形成
    的连接支付煤：连上达德利的II级煤矿，消耗其剩余1煤；本课只修1条。"""
    pos = blank(2, era="rail")
    tile(pos, "birmingham.0", 0, "cotton", 2)
    tile(pos, "dudley.0", 1, "coal", 2, cubes=1)
    player(pos, 0, hand={"coventry": 1, "dudley": 1})
    g = game(pos)
    do(g, "type:network", "card:coventry")
    assert legal(g) == {"link:birmingham--dudley", "link:birmingham--oxford"}  # Oxford: market
    refused(g, "link:birmingham--coventry", "NO_CONNECTED_COAL")
    do(g, "link:birmingham--dudley")
    assert g.decision == "coal" and legal(g) == {"slot:dudley.0"}
    do(g, "slot:dudley.0")
    # the mine's last coal: it flips, +7 income spaces (coal II) for its owner
    assert slot(g, "dudley.0")["flipped"] and ps(g, 1)["income_space"] == 17
    assert g.decision == "second_rail" and legal(g) == {"done"}  # no beer for a 2nd rail
    do(g, "done")
    assert (ps(g, 0)["money"], g.position()["links"]) == (12, {"birmingham--dudley": 0})


def test_tutorial_lesson_scout_three_for_two() -> None:
    """教程·侦察：三换二 — 选择手中3张普通牌进行侦察，领取两种万能牌各一张；手中已有任一万能
    牌时不能侦察；万能牌用后归还供应区；回合结束再正常补牌。"""
    deck = ["coventry", "coventry", "dudley", "stafford", "stafford", "cannock"]
    pos = blank(2, deck=deck)
    player(pos, 0, hand={"birmingham": 1, "coventry": 1, "dudley": 1, "iron": 1})
    g = game(pos)
    do(g, "type:scout", "card:dudley", "card:birmingham", "card:coventry")
    assert ps(g, 0)["hand"] == {"iron": 1, "wild_location": 1, "wild_industry": 1}
    assert g.position()["wild_piles"] == {"location": 3, "industry": 3}
    refused(g, "type:scout", "HOLDING_WILD_CARD")
    do(g, "type:build", "card:wild_location", "industry:cotton", "slot:birmingham.0")
    p = g.position()
    assert p["wild_piles"] == {"location": 4, "industry": 3}
    assert p["discards"] == {"dudley": 1, "birmingham": 1, "coventry": 1}
    hand = p["player_state"][0]["hand"]
    assert p["player_state"][0]["hand_size"] == 8 and hand["wild_industry"] == 1
    assert p["deck"] == [] and p["current"] == 1


def test_tutorial_lesson_complete_build() -> None:
    """教程·完整建造：牌、空格与付款 — 在伯明翰建造最低可用铁厂II；地点牌不要求本人网络；产业
    牌要求；运河每城限本人一厂；支付£7和1煤后生产4铁，必须先补市场；逐步确认，不预付资源。"""
    pos = blank(2)
    tile(pos, "dudley.0", 0, "coal", 1, cubes=2)  # P0's network: Dudley only
    link(pos, "birmingham--dudley", 1)  # connects, but is not P0's
    player(pos, 0, hand={"birmingham": 1, "iron": 1}, mat={"iron": 1})
    g = game(pos)
    do(g, "type:build")
    assert legal(g) == {"card:birmingham"}
    assert reason(g, "card:iron") == "CANAL_ONE_TILE_PER_TOWN"  # Dudley: one tile per town
    do(g, "card:birmingham")
    assert legal(g) == {"industry:cotton", "industry:manufacturer", "industry:iron"}
    do(g, "industry:iron")
    assert legal(g) == {"slot:birmingham.2"}
    do(g, "slot:birmingham.2")
    assert (g.decision, ps(g, 0)["money"], slot(g, "dudley.0")["cubes"]) == ("coal", 10, 2)
    assert slot(g, "birmingham.2") is None
    ev = do(g, "slot:dudley.0")
    assert events_of(ev, "market_sale")[0]["cubes"] == 2
    assert slot(g, "birmingham.2") == {"owner": 0, "industry": "iron", "level": 2,
                                      "flipped": False, "cubes": 2}
    assert (ps(g, 0)["money"], ps(g, 0)["spent"]) == (12, 7)
    assert g.position()["markets"]["iron"] == 10


def _cards(n: int, skip: dict[str, int]) -> list[str]:
    """n cards of the 2-player deck not among `skip`."""
    left = dict(full_deck(2))
    for c, k in skip.items():
        left[c] -= k
    out = [c for c, k in sorted(left.items()) for _ in range(k)]
    return out[:n]


def test_tutorial_lesson_round_end_income_track_and_order() -> None:
    """教程·轮末：收入轨与顺位 — 本轮已花£4，第一行动后剩7张手牌，牌库12张。第二行动研发最后
    一块棉I，消耗本人铁厂末块铁，推进3收入格；补牌至8张；轮末按花费升序排位，同额保持原顺序；
    按新收入等级收钱：收入格不等于收入等级。"""
    p0_hand = {"birmingham": 2, "coventry": 3, "dudley": 2}
    p1_hand = {"iron": 4, "brewery": 4}
    deck = _cards(12, {**p0_hand, **p1_hand})
    pos = blank(2, round_=4, turn_order=[1, 0], current=0, actions_left=1, deck=deck)
    tile(pos, "dudley.1", 0, "iron", 1, cubes=1)
    player(pos, 0, hand=p0_hand, spent=4, money=10, mat={"cotton": 2})
    player(pos, 1, hand=p1_hand, spent=4, money=5, income_space=12)
    g = game(pos)
    do(g, "type:develop", "card:coventry", "industry:cotton")
    assert legal(g) == {"slot:dudley.1"}
    ev = do(g, "slot:dudley.1", "done")
    assert events_of(ev, "flip")[0]["income_spaces"] == 3
    assert events_of(ev, "turn_end")[0]["cards_drawn"] == 2
    p = g.position()
    assert (p["round"], p["turn_order"], p["current"]) == (5, [1, 0], 1)
    me = p["player_state"][0]
    assert (me["mat_taken"]["cotton"], me["income_space"], me["income_level"]) == (3, 13, 2)
    assert (me["hand_size"], len(p["deck"])) == (8, 10)
    assert (me["money"], p["player_state"][1]["money"]) == (10 + 2, 5 + 1)


def test_tutorial_lesson_era_scoring_and_rail_start() -> None:
    """教程·时代计分与铁路接续 — 牌库和手牌已空：先结算运河连接（相邻翻面产业的连接图标及商人
    图标；两端合计5个图标就得5分，不是产业分）和翻面产业，再移除I级进入铁路时代；保留II级。"""
    pos = blank(2, round_=10, current=1, actions_left=1)
    player(pos, 0, hand={})
    player(pos, 1, hand={"coventry": 1})
    tile(pos, "birmingham.0", 1, "cotton", 2, flipped=True)  # 2 icons, 5 VP
    tile(pos, "birmingham.1", 1, "manufacturer", 1, flipped=True)  # 2 icons, 3 VP
    tile(pos, "coventry.0", 0, "pottery", 1, flipped=True)  # 1 icon, 10 VP
    tile(pos, "coventry.1", 0, "manufacturer", 2)  # unflipped: nothing
    link(pos, "birmingham--coventry", 0)
    g = game(pos)
    ev = do(g, "type:pass", "card:coventry")
    assert [(e["link"], e["vp"]) for e in events_of(ev, "link_score")] == [
        ("birmingham--coventry", 5)]
    assert g.scores() == [5 + 10, 5 + 3]
    p = g.position()
    assert (p["era"], p["round"], p["links"]) == ("rail", 1, {})
    assert set(p["slots"]) == {"birmingham.0", "coventry.1"}


def test_tutorial_lesson_double_rail_coal_each_rail() -> None:
    """教程·双铁路：逐条验煤 — 逐条铺伯明翰—沃尔索尔、沃尔索尔—坎诺克，付两煤与酒厂啤酒；
    共£15、每条1煤、另1酒；每条放下后验煤；第二条放下后才验证对手啤酒连接。"""
    pos = blank(2, era="rail")
    tile(pos, "birmingham.0", 0, "cotton", 2)
    link(pos, "birmingham--oxford", 1)
    tile(pos, "cannock.1", 1, "coal", 2, cubes=2)
    link(pos, "cannock--farm_brewery_north", 1)
    tile(pos, "farm_brewery_north.0", 1, "brewery", 2, cubes=2)
    player(pos, 0, hand={"coventry": 1, "dudley": 1}, money=30)
    g = game(pos)
    do(g, "type:network", "card:coventry", "link:birmingham--walsall")
    assert legal(g) == {"market"}  # Cannock is not connected yet
    assert reason(g, "slot:cannock.1") == "NO_CONNECTED_COAL"
    do(g, "market")
    assert g.decision == "second_rail" and "link:cannock--walsall" in legal(g)
    refused(g, "link:birmingham--coventry", "NO_BEER")  # P1's brewery would not connect
    do(g, "link:cannock--walsall")
    assert legal(g) == {"slot:cannock.1"}
    refused(g, "market", "MINE_COAL_FIRST")
    do(g, "slot:cannock.1")
    assert g.decision == "beer" and legal(g) == {"slot:farm_brewery_north.0"}
    do(g, "slot:farm_brewery_north.0")
    me = ps(g, 0)
    assert (me["money"], me["spent"], me["links_left"]) == (30 - 5 - 1 - 10, 16, 12)
    assert slot(g, "cannock.1")["cubes"] == 1 and slot(g, "farm_brewery_north.0")["cubes"] == 1
    assert g.position()["actions_left"] == 1


def test_tutorial_lesson_sell_several_in_one_action() -> None:
    """教程·一次行动卖多家产业 — 用同一张牌依次卖给牛津匹配商人；每家分别支付啤酒；第一块用
    商人酒获得2收入格奖励；第二块用本人酒；销售不直接给现金。"""
    pos = blank(2)
    tile(pos, "birmingham.0", 0, "cotton", 1)
    tile(pos, "worcester.0", 0, "cotton", 1)
    link(pos, "birmingham--oxford", 1)
    link(pos, "birmingham--worcester", 1)
    merchant(pos, "oxford.0", ["cotton"], beer=1)
    tile(pos, "stafford.0", 0, "brewery", 1)
    player(pos, 0, hand={"coventry": 1, "dudley": 1})
    g = game(pos)
    do(g, "type:sell", "card:coventry", "slot:worcester.0", "merchant:oxford.0")
    assert legal(g) == {"slot:stafford.0", "merchant:oxford.0"}
    do(g, "merchant:oxford.0", "slot:birmingham.0", "merchant:oxford.0")
    assert legal(g) == {"slot:stafford.0"}
    do(g, "slot:stafford.0", "done")
    me = ps(g, 0)
    assert (me["income_space"], me["money"], me["hand"]) == (10 + 5 + 2 + 5 + 4, 17,
                                                             {"dudley": 1})


def test_tutorial_lesson_market_buys_and_forced_sales() -> None:
    """教程·市场购买与强制补货 — 没有地图煤时从市场买煤建铁厂（须连接商人），新铁厂必须立即补
    铁市场；再建煤矿（连到商人）看煤市场补货；先填最贵空格，移空即翻面；最后无地图铁时买市场铁
    研发（铁不需连接）。"""
    pos = blank(2, coal_market=10, iron_market=6)
    link(pos, "birmingham--oxford", 1)
    link(pos, "oxford--redditch", 1)
    player(pos, 0, hand={"birmingham": 1, "redditch": 1}, money=40)
    g = game(pos)
    do(g, "type:build", "card:birmingham", "industry:iron", "slot:birmingham.2")
    assert legal(g) == {"market"}
    ev = do(g, "market")
    assert events_of(ev, "coal")[0]["price"] == 3  # cheapest of 10 cubes
    assert events_of(ev, "market_sale")[0]["money"] == 2 + 2 + 1 + 1
    assert slot(g, "birmingham.2")["flipped"]
    assert (ps(g, 0)["money"], ps(g, 0)["income_space"]) == (40 - 5 - 3 + 6, 13)
    assert g.position()["markets"] == {"coal": 9, "iron": 10}
    ev = do(g, "type:build", "card:redditch", "industry:coal", "slot:redditch.0")
    assert events_of(ev, "market_sale")[0]["money"] == 3 + 2
    assert slot(g, "redditch.0")["flipped"]
    assert (ps(g, 0)["money"], ps(g, 0)["income_space"]) == (38, 17)
    assert g.position()["markets"] == {"coal": 11, "iron": 10}
    # a third, independent action by P0 (no turn simulated): develop with market iron
    nxt = g.position()
    nxt.update(current=0, turn_index=nxt["turn_order"].index(0), actions_left=1)
    nxt["player_state"][0].update(hand={"coventry": 1}, hand_size=1)
    g = brass.Game.from_position(nxt)
    do(g, "type:develop", "card:coventry", "industry:coal")
    assert legal(g) == {"market"}
    do(g, "market", "done")
    assert ps(g, 0)["money"] == 37 and g.position()["markets"]["iron"] == 9


def test_tutorial_lesson_overbuild_own_and_opponent() -> None:
    """教程·覆盖：本人和对手 — 同级或对手棉厂不能覆盖；本人可用更高级同类覆盖，仍付全部建造
    费用（用最低可用更高级板块）。"""
    pos = blank(2)
    tile(pos, "worcester.0", 0, "cotton", 2)
    tile(pos, "worcester.1", 1, "cotton", 1)
    tile(pos, "kidderminster.1", 0, "cotton", 1, flipped=True)
    tile(pos, "kidderminster.0", 1, "coal", 1, cubes=2)
    link(pos, "kidderminster--worcester", 1)
    player(pos, 0, hand={"wild_industry": 1}, mat={"cotton": 3}, income_space=15)
    pos["wild_piles"]["industry"] = 3
    g = game(pos)
    do(g, "type:build", "card:wild_industry", "industry:cotton")
    assert legal(g) == {"slot:kidderminster.1"}
    refused(g, "slot:worcester.0", "CANNOT_OVERBUILD")  # own, same level II
    refused(g, "slot:worcester.1", "CANNOT_OVERBUILD")  # opponent's cotton
    refused(g, "slot:kidderminster.0", "SLOT_OCCUPIED")
    do(g, "slot:kidderminster.1", "slot:kidderminster.0")
    assert slot(g, "kidderminster.1") == {"owner": 0, "industry": "cotton", "level": 2,
                                         "flipped": False, "cubes": 0}
    assert (ps(g, 0)["money"], ps(g, 0)["income_space"]) == (17 - 14, 15)


# ================================================================ 局面与选择 (comparisons)


@pytest.mark.parametrize("beer, income, brewery_flipped, merchant_beer", [
    ("merchant:oxford.0", 10 + 5 + 2, False, 0),
    ("slot:stafford.0", 10 + 5 + 4, True, 1)])
def test_tutorial_choice_merchant_beer_or_own(beer: str, income: int, brewery_flipped: bool,
                                              merchant_beer: int) -> None:
    """教程·局面与选择·商人啤酒还是自己的酒？ — 商人酒给棉厂5+牛津2收入格，保留自酿酒；自酿
    最后一桶给棉厂5+酒厂4格，保留商人酒；增加的是收入格，不等于现金收入等级。"""
    pos = blank(2)
    tile(pos, "birmingham.0", 0, "cotton", 1)
    link(pos, "birmingham--oxford", 1)
    merchant(pos, "oxford.0", ["cotton"], beer=1)
    tile(pos, "stafford.0", 0, "brewery", 1)
    player(pos, 0, hand={"coventry": 1})
    g = game(pos)
    do(g, "type:sell", "card:coventry", "slot:birmingham.0", "merchant:oxford.0", beer, "done")
    me = ps(g, 0)
    assert (me["income_space"], me["income_level"], me["money"]) == (income, level(income), 17)
    assert level(income) == {17: 4, 19: 5}[income]
    assert slot(g, "stafford.0")["flipped"] == brewery_flipped
    assert g.position()["merchants"]["oxford.0"]["beer"] == merchant_beer


@pytest.mark.parametrize("works", ["dudley.1", "coalbrookdale.1"])
def test_tutorial_choice_which_iron_works_first(works: str) -> None:
    """教程·局面与选择·先耗尽哪家铁厂？ — 用自己的末块铁会翻面并增加自己3收入格；用对手的非末块
    铁不会翻面。"""
    pos = blank(2)
    tile(pos, "dudley.1", 0, "iron", 1, cubes=1)
    tile(pos, "coalbrookdale.1", 1, "iron", 1, cubes=2)
    player(pos, 0, hand={"coventry": 1})
    g = game(pos)
    do(g, "type:develop", "card:coventry", "industry:cotton")
    assert legal(g) == {"slot:dudley.1", "slot:coalbrookdale.1"}
    do(g, f"slot:{works}", "done")
    own = works == "dudley.1"
    assert slot(g, "dudley.1")["flipped"] == own
    assert slot(g, "coalbrookdale.1") == {"owner": 1, "industry": "iron", "level": 1,
                                         "flipped": False, "cubes": 2 if own else 1}
    assert (ps(g, 0)["income_space"], ps(g, 1)["income_space"]) == (13 if own else 10, 10)


@pytest.mark.parametrize("tiles", [1, 2])
def test_tutorial_choice_develop_one_or_two(tiles: int) -> None:
    """教程·局面与选择·研发一块还是两块？ — 从同一玩家板和2铁出发：一块保留1铁；两块用完2铁、
    跳过两个最低可用棉厂，并耗尽本人铁厂增加3收入格。"""
    pos = blank(2)
    tile(pos, "dudley.1", 0, "iron", 1, cubes=2)
    player(pos, 0, hand={"coventry": 1})
    g = game(pos)
    names = ["type:develop", "card:coventry", "industry:cotton", "slot:dudley.1"]
    names += ["done"] if tiles == 1 else ["industry:cotton", "slot:dudley.1"]
    do(g, *names)
    me = ps(g, 0)
    assert me["mat_taken"]["cotton"] == tiles
    assert slot(g, "dudley.1")["cubes"] == 2 - tiles
    assert slot(g, "dudley.1")["flipped"] == (tiles == 2)
    assert (me["income_space"], me["money"]) == (10 + (3 if tiles == 2 else 0), 17)


def _last_action(players: int, era: str, hand: dict[str, int], **kw: object) -> dict:
    """The game's round's last action by P0 (every other hand and the deck empty)."""
    order = list(range(1, players)) + [0]
    pos = blank(players, era=era, round_=8, turn_order=order, current=0,
                actions_left=len(hand) if len(hand) < 2 else 2, **kw)  # type: ignore[arg-type]
    for s in range(players):
        player(pos, s, hand={})
    player(pos, 0, hand=hand)
    return pos


@pytest.mark.parametrize("sell", ["birmingham.0", "worcester.0"])
def test_tutorial_choice_level_one_income_or_level_two_kept(sell: str) -> None:
    """教程·局面与选择·I级即时收入还是II级保留？ — 本人剩1张牌、1桶本人啤酒：卖I级收入多1格
    但时代末移除；II级无论售出与否都保留，未售出不计分。"""
    pos = _last_action(2, "canal", {"coventry": 1})
    tile(pos, "birmingham.0", 0, "cotton", 1)
    tile(pos, "worcester.0", 0, "cotton", 2)
    tile(pos, "stafford.0", 0, "brewery", 1)
    link(pos, "birmingham--oxford", 1)
    link(pos, "birmingham--worcester", 1)
    merchant(pos, "oxford.0", ["cotton"], beer=0)
    player(pos, 0, money=10)
    g = game(pos)
    do(g, "type:sell", "card:coventry", f"slot:{sell}", "merchant:oxford.0", "slot:stafford.0",
       "done")
    p = g.position()
    me = p["player_state"][0]
    level_one = sell == "birmingham.0"
    space = 10 + (5 if level_one else 4) + 4  # the mill, then the emptied brewery I
    assert (p["era"], me["income_space"]) == ("rail", space)
    assert me["money"] == 10 + level(space)  # the canal's last round pays income
    assert g.scores() == [5 + 4, 4]  # P1's links: 3 + 1, or 2 + 2
    assert set(p["slots"]) == {"worcester.0"}
    assert p["slots"]["worcester.0"]["flipped"] == (not level_one)


@pytest.mark.parametrize("choice", ["rail", "iron"])
def test_tutorial_choice_rail_points_or_new_iron_works(choice: str) -> None:
    """教程·局面与选择·铁路连接分还是新铁厂？ — 最后一次行动：修到坎诺克（得当前相邻翻面图标
    分）或在伯明翰建铁厂II（铁市场恰有4空位，建造立即翻面）。"""
    pos = _last_action(2, "rail", {"birmingham": 1}, coal_market=10, iron_market=6)
    tile(pos, "birmingham.0", 0, "cotton", 2, flipped=True)  # 2 icons, 5 VP
    tile(pos, "walsall.0", 1, "manufacturer", 2, flipped=True)  # 1 icon, 5 VP
    tile(pos, "cannock.1", 1, "coal", 2, cubes=1)  # 1 icon and 2 VP once flipped
    link(pos, "birmingham--walsall", 0)
    link(pos, "birmingham--oxford", 1)
    player(pos, 0, money=20, mat={"iron": 1})
    g = game(pos)
    if choice == "rail":
        do(g, "type:network", "card:birmingham", "link:cannock--walsall")
        assert legal(g) == {"slot:cannock.1"}
        do(g, "slot:cannock.1", "done")
        # P0: Birmingham-Walsall 2+1, Walsall-Cannock 1+1, cotton II 5
        # P1: Birmingham-Oxford 2+2, manufacturer II 5, coal II 2
        assert g.scores() == [3 + 2 + 5, 4 + 5 + 2]
        assert ps(g, 0)["money"] == 20 - 5
    else:
        do(g, "type:build", "card:birmingham", "industry:iron", "slot:birmingham.2")
        assert legal(g) == {"market"}  # Cannock's coal is not connected
        do(g, "market")
        # P0: Birmingham-Walsall (2+1)+1, cotton II 5, iron II 5; P1: (2+1)+2, 5
        assert g.scores() == [4 + 5 + 5, 5 + 5]
        assert ps(g, 0)["money"] == 20 - 7 - 3 + 6
    assert g.is_over  # the final round: no income after it


@pytest.mark.parametrize("choice", ["loan", "build"])
def test_tutorial_choice_loan_or_build_and_turn_order(choice: str) -> None:
    """教程·局面与选择·贷款与下轮顺位 — 第一行动已完成（花费£0），最后一次行动：贷款或花£7
    建煤矿II；贷款收到的钱不计花费，保留较前顺位；建厂计入花费；补牌至8张后轮末排位收收入。"""
    p0_hand = {"cannock": 2, "coventry": 3, "dudley": 2}
    p1_hand = {"iron": 4, "brewery": 4}
    deck = _cards(12, {**p0_hand, **p1_hand})
    pos = blank(2, round_=4, turn_order=[1, 0], current=0, actions_left=1, deck=deck)
    player(pos, 0, hand=p0_hand, money=10, mat={"coal": 1})
    player(pos, 1, hand=p1_hand, spent=5, money=5)
    g = game(pos)
    if choice == "loan":
        do(g, "type:loan", "card:coventry")
    else:
        do(g, "type:build", "card:cannock", "industry:coal", "slot:cannock.1")
    p = g.position()
    me = p["player_state"][0]
    assert (me["hand_size"], len(p["deck"])) == (8, 10)
    if choice == "loan":
        assert p["turn_order"] == [0, 1]
        assert (me["income_space"], me["money"]) == (7, 10 + 30 - 3)
    else:
        assert p["turn_order"] == [1, 0]
        assert (me["income_space"], me["money"]) == (10, 10 - 7)
        assert p["slots"]["cannock.1"]["cubes"] == 3


@pytest.mark.parametrize("route, slot_, cost, vp, p1_vp", [
    ("cotton", "stoke_on_trent.0", 12, 5, 2 + 1),
    ("manufacturer", "stoke_on_trent.2", 8 + 1, 3, 2 + 2),
    ("pottery", "stoke_on_trent.1", 17 + 2, 10, 2 + 1)])
def test_tutorial_choice_cotton_manufacturer_or_pottery(route: str, slot_: str, cost: int,
                                                        vp: int, p1_vp: int) -> None:
    """教程·局面与选择·棉纺、制造与陶瓷 — 最后两次行动建造后卖出：棉I£12无煤铁、制造I£8加1煤、
    陶瓷I£17加1铁；各需1酒，耗尽本人酒厂另获5收入格与5分；三厂各给5收入格与产业分5、3、10。"""
    pos = _last_action(3, "canal", {"stoke_on_trent": 1, "coventry": 1})
    link(pos, "stoke_on_trent--warrington", 1)
    merchant(pos, "warrington.0", GOODS_ALL, beer=0)
    tile(pos, "stafford.0", 0, "brewery", 2, cubes=1)
    player(pos, 0, money=30)
    g = game(pos)
    do(g, "type:build", "card:stoke_on_trent", f"industry:{route}", f"slot:{slot_}")
    if route != "cotton":
        do(g, "market")
    assert ps(g, 0)["money"] == 30 - cost
    do(g, "type:sell", "card:coventry", f"slot:{slot_}", "merchant:warrington.0",
       "slot:stafford.0", "done")
    p = g.position()
    me = p["player_state"][0]
    assert me["income_space"] == 10 + 5 + 5
    assert me["money"] == 30 - cost + level(20)
    assert g.scores() == [vp + 5, p1_vp, 0]
    assert p["era"] == "rail" and set(p["slots"]) == {"stafford.0"}
