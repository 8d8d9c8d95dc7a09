"""The game options in players' words: each option's title and, for Pittsburgh's ruling
switches, what its default means (RulesetLabels.option_titles and .options).

A ruling switch's engine description names only its ruling ("PITTSBURGH_RULINGS.md P60");
its words here say what the default does, in English and Simplified Chinese, and the page
shows the ruling's number after them.
"""

from __future__ import annotations

# key -> (English, Chinese)
OPTION_TITLES: dict[str, tuple[str, str]] = {
    "beginner": ("Beginner game", "新手局"),
    "manufacturer_iv_cost": ("Manufacturer IV's cost", "IV 级制造厂的费用"),
    "undo": ("Undo within a turn", "回合内撤销"),
    "data": ("Board data", "版图数据"),
    "links_count_unflipped": ("Unflipped tiles score for trains", "未翻面板块为列车计分"),
    "location_link_icons_count": (
        "Printed link icons score for trains", "地点印刷的连接图标为列车计分"),
    "mat_shortcut_semantics": ("Mat shortcuts", "产业板捷径"),
    "auto_vi_unlocks_loco_works": (
        "Automobile VI opens the Locomotive Works", "汽车 VI 开放机车厂"),
    "link_unlock": ("Links locked on the mat", "产业板上锁定的连接"),
    "upgrade_ignores_space_icon": ("Upgrades ignore the space's icons", "升级不检查空格图标"),
    "upgrade_card_industry": ("Card for an upgrade", "升级可用的卡牌"),
    "birmingham_overbuild": ("Birmingham's overbuilding", "伯明翰式覆盖建造"),
    "income_cost_unit": ("Income costs on tiles", "板块上的收入费用"),
    "oil_sources": ("Where oil comes from", "石油来源"),
    "oil_city_priority": ("Oil City before oilfields", "石油城优先于油田"),
    "pipeline_joins_network": ("A pipeline joins your network", "管线加入你的网络"),
    "oil_city_requires": ("What an Oil City needs", "建造石油城的条件"),
    "oil_city_card": ("Card for an Oil City", "建造石油城的卡牌"),
    "oil_added_after_oil_city": ("Oil added after an Oil City", "石油城建成后新增的石油"),
    "replacement_targets": ("Trains a Replacement may replace", "替换可替换的列车"),
    "replacement_on_empty_route": ("Replacement on an empty route", "在空线路上使用替换"),
    "market_sale_on_build": ("Market sale when building", "建造时向市场出售"),
    "cincinnati_role": ("Cincinnati", "辛辛那提"),
    "east_location": ("The East", "东部"),
    "market_header_squares_are_slots": ("Market header squares are spaces", "市场表头方格算作空位"),
    "market_slot_order": ("Market spaces' order", "市场空位顺序"),
    "resource_train_overrides_industry_priority": (
        "Own resource train before industries", "自己的资源列车优先于产业"),
    "industry_source_choice": ("Which industry supplies a cube", "由哪个产业提供方块"),
    "link_resource_delivery": ("Where a link's cubes are delivered", "连接所需方块的送达地点"),
    "develop_delivery": ("Where a develop's cubes are delivered", "开发所需方块的送达地点"),
    "develop_cube_choice_before_priority": ("Develop: the cube chosen first", "开发：先选方块种类"),
    "merchant_back_accepts": ("Face-down merchants buy", "背面商人也收购"),
    "sell_one_merchant_per_tile": ("One merchant per sold tile", "每块出售板块对应一个商人"),
    "skyscraper_bonus_sell": ("Skyscraper's bonus sell", "摩天大楼的额外出售"),
    "bankruptcy_payment": ("Bankruptcy", "破产"),
    "reserve_adds_route_oil": ("Reserve pipeline adds oil", "预备管线增加石油"),
    "reserve_swap_readds_route_oil": (
        "Replacing a Reserve adds oil again", "替换预备管线再次增加石油"),
    "polyphase_negative_income": (
        "Polyphase Alternator and negative income", "多相交流发电机与负收入"),
    "loco_counts": ("Locomotive Works counts", "机车厂计数"),
    "mfg_ii_vp_rule": ("Manufacturing II's VP", "制造 II 的分数"),
    "skyscraper_values": ("Skyscraper values", "摩天大楼分值"),
    "mfg_v_vp": ("Manufacturing V's VP", "制造 V 的分数"),
    "two_player_setup": ("Two-player setup (provisional)", "两人局设置（暂定）"),
    "character_powers": ("Character powers", "角色能力"),
    "developable": ("Tiles that may be developed", "可开发的板块"),
    "route_bonus_every_placement": ("Route bonus on every placement", "每次放置都获得线路奖励"),
}

# A ruling switch: what its default means. key -> (English, Chinese)
RULING_DEFAULTS: dict[str, tuple[str, str]] = {
    "links_count_unflipped": (
        "By default a train scores only the icons of flipped tiles.",
        "默认只有已翻面板块的图标为列车计分。"),
    "location_link_icons_count": (
        "By default the icons printed on merchant and link-only places score too.",
        "默认商人地点和仅连接地点上印刷的图标也计分。"),
    "mat_shortcut_semantics": (
        "By default emptying Manufacturing III opens IV, and emptying IV opens III.",
        "默认清空制造 III 会开放 IV，清空 IV 也会开放 III。"),
    "auto_vi_unlocks_loco_works": (
        "By default emptying Automobile VI opens the Locomotive Works, as Manufacturing V does.",
        "默认清空汽车 VI 会开放机车厂，与制造 V 相同。"),
    "link_unlock": (
        "By default a link printed between two positions moves to your supply once the position "
        "below it is empty.",
        "默认印在两个位置之间的连接，在其下方位置清空后进入你的供应区。"),
    "upgrade_ignores_space_icon": (
        "By default an upgrade takes its old tile's space whatever icons it shows.",
        "默认升级占用旧板块的空格，不检查空格图标。"),
    "upgrade_card_industry": (
        "By default an upgrade may use the city's card, or an industry card of the old or the new "
        "tile.",
        "默认升级可使用该城市的卡牌，或旧板块、新板块产业的产业卡。"),
    "birmingham_overbuild": (
        "By default tiles are never built over, except by upgrades.",
        "默认除升级外不能覆盖建造。"),
    "income_cost_unit": (
        "By default an income cost printed on a tile is counted in levels.",
        "默认板块上印刷的收入费用按等级计算。"),
    "oil_sources": (
        "By default oil comes from an oilfield or an Oil City through a pipeline, or from your own "
        "oil train.",
        "默认石油经管线来自油田或石油城，或来自你自己的石油列车。"),
    "oil_city_priority": (
        "By default you may take oil from an oilfield even when an Oil City could supply it.",
        "默认即使石油城可以供应，你也可以从油田取油。"),
    "pipeline_joins_network": (
        "By default building a pipeline puts its city in your network.",
        "默认建造管线会把其城市加入你的网络。"),
    "oil_city_requires": (
        "By default an Oil City needs a pipeline from its oilfield to a place of your network.",
        "默认石油城需要一条从其油田通往你网络中地点的管线。"),
    "oil_city_card": (
        "By default any card that allows kerosene builds an Oil City.",
        "默认任何允许建造煤油的卡牌都可以建造石油城。"),
    "oil_added_after_oil_city": (
        "By default oil added later goes onto the oilfield.",
        "默认之后新增的石油放到油田上。"),
    "replacement_targets": (
        "By default a Replacement replaces another player's light train.",
        "默认替换只能替换其他玩家的轻型列车。"),
    "replacement_on_empty_route": (
        "By default a Replacement may also be placed on an empty route.",
        "默认替换也可以放在空线路上。"),
    "market_sale_on_build": (
        "By default a new tile sells as many cubes to markets as it can, the builder choosing the "
        "markets.",
        "默认新建板块尽可能多地向市场出售方块，由建造者选择市场。"),
    "cincinnati_role": (
        "By default Cincinnati is a place for links only.",
        "默认辛辛那提只是连接用的地点。"),
    "east_location": (
        "By default the East is a merchant with provisional data.",
        "默认东部是使用暂定数据的商人。"),
    "market_header_squares_are_slots": (
        "By default a market's header squares are labels, not spaces.",
        "默认市场表头方格只是标注，不是空位。"),
    "market_slot_order": (
        "Cubes sold to a market fill it from the top; a purchase takes the lowest cube.",
        "出售到市场的方块从上往下填，购买时取最低的方块。"),
    "resource_train_overrides_industry_priority": (
        "By default you may use your own resource train even when an industry could supply.",
        "默认即使产业可以供应，你也可以使用自己的资源列车。"),
    "industry_source_choice": (
        "By default any connected industry may supply a cube, not only the nearest.",
        "默认任何相连的产业都可以提供方块，不限于最近的。"),
    "link_resource_delivery": (
        "By default a link's cubes are delivered to either end of it once it is placed.",
        "默认连接放置后，所需方块可送到其任一端。"),
    "develop_delivery": (
        "By default you name a place of your network where a develop's cube is delivered.",
        "默认由你指定网络中的一个地点作为开发方块的送达地点。"),
    "develop_cube_choice_before_priority": (
        "By default you choose iron or steel for each tile first, then where it comes from.",
        "默认先为每块板块选择铁或钢，再决定来源。"),
    "merchant_back_accepts": (
        "By default a face-down merchant still buys the goods its back shows.",
        "默认背面朝上的商人仍收购其背面显示的商品。"),
    "sell_one_merchant_per_tile": (
        "By default each sold tile goes to exactly one merchant.",
        "默认每块出售的板块恰好对应一个商人。"),
    "skyscraper_bonus_sell": (
        "By default a skyscraper's bonus is a whole Sell action.",
        "默认摩天大楼的奖励是一次完整的出售行动。"),
    "bankruptcy_payment": (
        "By default a bankrupt player pays nothing more.",
        "默认破产的玩家不再支付。"),
    "reserve_adds_route_oil": (
        "By default building the Reserve pipeline adds one barrel to its oilfield.",
        "默认建造预备管线会为其油田增加 1 桶石油。"),
    "reserve_swap_readds_route_oil": (
        "By default replacing a Reserve pipeline does not add the route's oil again.",
        "默认替换预备管线不会再次增加线路上的石油。"),
    "polyphase_negative_income": (
        "By default the Polyphase Alternator counts a negative income as zero.",
        "默认多相交流发电机把负收入算作零。"),
    "loco_counts": (
        "By default the Locomotive Works counts every heavy train built in the game.",
        "默认机车厂计算整局游戏建造的所有重型列车。"),
    "mfg_ii_vp_rule": (
        "By default Manufacturing II scores its owner's income level (never below 0).",
        "默认制造 II 的分数等于其所有者的收入等级（最低为 0）。"),
    "skyscraper_values": (
        "By default the skyscrapers score as the mat prints them (level III: 10 VP).",
        "默认摩天大楼按产业板印刷的分值计分（III 级 10 分）。"),
    "mfg_v_vp": (
        "By default Manufacturing V scores 12 VP.",
        "默认制造 V 计 12 分。"),
    "two_player_setup": (
        "Two players play on the 3–4 player board, reduced; the official 2-player board is not "
        "known yet.",
        "两人局使用缩减的 3–4 人版图；官方两人版图尚未确定。"),
    "character_powers": (
        "Characters have no powers (their texts are not known yet).",
        "角色没有能力（其文字尚未确定）。"),
    "developable": (
        "Every tile may be developed.",
        "所有板块都可以开发。"),
    "route_bonus_every_placement": (
        "By default a route's bonus is earned again by every train placed on it.",
        "默认每次在线路上放置列车都会再次获得其奖励。"),
}

# An enum option's values in words. (key, value) -> (English, Chinese)
OPTION_VALUES: dict[tuple[str, str], tuple[str, str]] = {
    ("mat_shortcut_semantics", "clear_either_side_unlocks_other"): (
        "Either side emptied opens the other", "清空任一侧即开放另一侧"),
    ("mat_shortcut_semantics", "one_way_left_to_right"): (
        "One way, left to right", "单向：从左到右"),
    ("mat_shortcut_semantics", "ignore"): ("No shortcuts", "没有捷径"),
    ("link_unlock", "position_below_empty"): (
        "When the position below is empty", "下方位置清空时"),
    ("link_unlock", "first_tile_below_taken"): (
        "When the first tile below is taken", "下方第一块板块被拿走时"),
    ("upgrade_card_industry", "old_or_new"): (
        "The old or the new industry's card", "旧产业或新产业的卡牌"),
    ("upgrade_card_industry", "old"): ("The old industry's card", "旧产业的卡牌"),
    ("upgrade_card_industry", "new"): ("The new industry's card", "新产业的卡牌"),
    ("upgrade_card_industry", "location_only"): ("The city's card only", "只能用该城市的卡牌"),
    ("income_cost_unit", "levels"): ("Levels", "等级"),
    ("income_cost_unit", "spaces"): ("Spaces", "格数"),
    ("oil_sources", "oilfield_or_oil_city_via_pipeline_or_own_oil_train"): (
        "Oilfield or Oil City by pipeline, or your own oil train",
        "经管线来自油田或石油城，或你自己的石油列车"),
    ("oil_sources", "oilfield_via_pipeline_only"): (
        "Oilfield by pipeline only", "只能经管线来自油田"),
    ("oil_city_requires", "pipeline_to_network_location"): (
        "A pipeline to a place of your network", "一条通往你网络中地点的管线"),
    ("oil_city_requires", "own_pipeline"): ("Your own pipeline", "你自己的管线"),
    ("oil_city_requires", "any_pipeline"): ("Any pipeline", "任何管线"),
    ("oil_city_card", "any_kerosene_industry_card"): (
        "Any card that allows kerosene", "任何允许煤油的卡牌"),
    ("oil_city_card", "special_oil_city_card_only"): ("The Oil City card only", "只能用石油城卡牌"),
    ("oil_added_after_oil_city", "oilfield"): ("Onto the oilfield", "放到油田上"),
    ("oil_added_after_oil_city", "onto_oil_city"): ("Onto the Oil City", "放到石油城上"),
    ("replacement_targets", "opponent_light_train"): (
        "Another player's light train", "其他玩家的轻型列车"),
    ("replacement_targets", "any_light_train"): ("Any light train", "任何轻型列车"),
    ("market_sale_on_build", "mandatory_max_builder_chooses_markets"): (
        "As much as possible, the builder choosing the markets",
        "尽可能多地出售，由建造者选择市场"),
    ("market_sale_on_build", "optional"): ("Optional", "可选"),
    ("cincinnati_role", "link_only_location"): ("A place for links only", "只供连接的地点"),
    ("cincinnati_role", "not_a_location"): ("Not a place", "不是地点"),
    ("east_location", "placeholder_merchant"): (
        "A merchant (provisional data)", "商人（暂定数据）"),
    ("east_location", "closed"): ("Closed", "关闭"),
    ("market_slot_order", "fill_top_down_buy_bottom_up"): (
        "Fill from the top, buy from the bottom", "从上往下填，从下往上买"),
    ("industry_source_choice", "any_connected"): ("Any connected industry", "任何相连的产业"),
    ("industry_source_choice", "nearest"): ("The nearest industry", "最近的产业"),
    ("link_resource_delivery", "either_endpoint_after_placement"): (
        "Either end, once placed", "放置后送到任一端"),
    ("link_resource_delivery", "before_placement"): ("Before placing it", "放置之前"),
    ("develop_delivery", "any_network_location"): ("A place of your network", "你网络中的一个地点"),
    ("develop_delivery", "no_connection_needed"): ("No connection needed", "无需连通"),
    ("skyscraper_bonus_sell", "full_sell_action"): ("A whole Sell action", "一次完整的出售行动"),
    ("skyscraper_bonus_sell", "single_tile"): ("One tile", "一块板块"),
    ("bankruptcy_payment", "none"): ("Pays nothing more", "不再支付"),
    ("bankruptcy_payment", "all_money"): ("Pays all their money", "支付全部金钱"),
    ("polyphase_negative_income", "zero"): ("Counts as zero", "算作零"),
    ("polyphase_negative_income", "pay"): ("Is paid", "需要支付"),
    ("loco_counts", "heavy_trains_built_all_game"): (
        "Heavy trains built in the whole game", "整局建造的重型列车"),
    ("loco_counts", "heavy_trains_on_board"): ("Heavy trains on the board", "版图上的重型列车"),
    ("mfg_ii_vp_rule", "owner_income_level_min0"): (
        "Its owner's income level (at least 0)", "所有者的收入等级（至少 0）"),
    ("mfg_ii_vp_rule", "fixed:0"): ("0 VP", "0 分"),
    ("mfg_ii_vp_rule", "fixed:5"): ("5 VP", "5 分"),
    ("skyscraper_values", "mat_iii_10vp"): (
        "As the mat prints them (III: 10 VP)", "按产业板印刷（III：10 分）"),
    ("skyscraper_values", "panel_v_20vp"): (
        "As the panel prints them (V: 20 VP)", "按面板印刷（V：20 分）"),
    ("two_player_setup", "3_4p_board_reduced"): (
        "The 3–4 player board, reduced", "缩减的 3–4 人版图"),
    ("character_powers", "none"): ("None", "无"),
    ("developable", "all_tiles"): ("Every tile", "所有板块"),
    ("data", "pittsburgh"): ("Pittsburgh (draft data)", "匹兹堡（草稿数据）"),
    ("data", "tiny"): ("A tiny test map", "小型测试地图"),
}
