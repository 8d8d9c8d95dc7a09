"""Display labels of a ruleset's names, per language: what GetRuleset's `labels` carry so
that every frontend shows the same words. Each table maps an engine name to its
(English, Simplified Chinese) label; a ruleset's own table overrides the shared one."""

from __future__ import annotations

Pair = tuple[str, str]

DECISION_KINDS: dict[str, Pair] = {
    "action": ("Choose an action", "选择行动"),
    "card": ("Discard a card", "弃一张牌"),
    "scout_card": ("Discard for scouting", "侦察弃牌"),
    "build_industry": ("Choose an industry", "选择产业"),
    "build_slot": ("Choose a space", "选择建造位置"),
    "build_tile": ("Choose a tile", "选择板块"),
    "build_place": ("Choose a place", "选择建造地点"),
    "coal": ("Choose coal", "选择煤"),
    "iron": ("Choose iron", "选择铁"),
    "steel": ("Choose steel", "选择钢"),
    "coke": ("Choose coke", "选择焦炭"),
    "oil": ("Choose oil", "选择石油"),
    "beer": ("Choose beer", "选择啤酒"),
    "link": ("Choose a route", "选择路线"),
    "link_tile": ("Choose a link tile", "选择连接板块"),
    "link_route": ("Choose a route", "选择路线"),
    "second_rail": ("Second rail link", "第二条铁路"),
    "second_link": ("Second link", "第二条连接"),
    "develop": ("Develop", "开发"),
    "develop_cube": ("Pay for developing", "开发的支付"),
    "free_develop": ("Free develop", "免费开发"),
    "market_sale": ("Sell to the market", "卖给市场"),
    "sell_tile": ("Choose a tile to sell", "选择要出售的板块"),
    "sell_merchant": ("Choose a merchant", "选择商人"),
    "quality": ("Choose a quality reward", "选择品质奖励"),
    "bonus_sell": ("Bonus sale", "额外出售"),
    "shortfall": ("Pay a shortfall", "弥补欠款"),
    "game_over": ("Game over", "游戏结束"),
}

OPTION_KINDS: dict[str, Pair] = {
    "action_type": ("Action", "行动"),
    "card": ("Card", "卡牌"),
    "industry": ("Industry", "产业"),
    "slot": ("Space", "位置"),
    "link": ("Route", "路线"),
    "merchant": ("Merchant", "商人"),
    "market": ("Market", "市场"),
    "done": ("Done", "完成"),
    "tile": ("Tile", "板块"),
    "cube": ("Cube", "方块"),
    "link_tile": ("Link tile", "连接板块"),
    "pipeline": ("Pipeline", "管线"),
    "oilfield": ("Oilfield", "油田"),
    "oil_city_via": ("Oil City via", "石油城经由"),
    "quality": ("Quality reward", "品质奖励"),
    "bonus_sell": ("Bonus sale", "额外出售"),
    "vanderbilt": ("Vanderbilt", "范德比尔特"),
}

ACTION_TYPES: dict[str, Pair] = {
    "build": ("Build", "建造"),
    "network": ("Network", "网络"),
    "develop": ("Develop", "开发"),
    "sell": ("Sell", "出售"),
    "loan": ("Loan", "贷款"),
    "scout": ("Scout", "侦察"),
    "pass": ("Pass", "跳过"),
}

INDUSTRIES: dict[str, dict[str, Pair]] = {
    "birmingham": {
        "cotton": ("Cotton Mill", "棉纺厂"),
        "manufacturer": ("Manufacturer", "制造厂"),
        "pottery": ("Pottery", "陶瓷厂"),
        "coal": ("Coal Mine", "煤矿"),
        "iron": ("Iron Works", "铁厂"),
        "brewery": ("Brewery", "酿酒厂"),
    },
    "pittsburgh": {
        "coal": ("Coal Mine", "煤炭产业"),
        "coke": ("Coke Works", "焦炭产业"),
        "iron_steel": ("Iron & Steel Works", "钢铁产业"),
        "kerosene": ("Kerosene Refinery", "煤油精炼厂"),
        "manufacturing": ("Manufacturing", "制造业"),
        "locomotive": ("Locomotive Works", "机车厂"),
        "automobile": ("Automobile Plant", "汽车制造厂"),
        "polyphase": ("Polyphase Electric", "多相交流发电机"),
        "skyscraper": ("Skyscraper", "摩天大楼"),
        "oil_city": ("Oil City", "石油城"),
    },
}

EVENTS: dict[str, Pair] = {
    "action": ("Action", "行动"),
    "pay": ("Payment", "支付"),
    "coal": ("Coal used", "消耗煤"),
    "iron": ("Iron used", "消耗铁"),
    "beer": ("Beer used", "消耗啤酒"),
    "build": ("Build", "建造"),
    "overbuild": ("Overbuild", "覆盖建造"),
    "upgrade_score": ("Upgrade scored", "升级计分"),
    "link": ("Link built", "建造连接"),
    "replaced": ("Link replaced", "连接被替换"),
    "develop": ("Develop", "开发"),
    "sell": ("Sell", "出售"),
    "flip": ("Tile flipped", "板块翻面"),
    "cube": ("Cube taken", "取用方块"),
    "oil": ("Oil used", "消耗石油"),
    "pipe_reward": ("Pipeline reward", "管线奖励"),
    "market_sale": ("Sold to the market", "卖给市场"),
    "merchant_bonus": ("Merchant bonus", "商人奖励"),
    "merchant_reward": ("Merchant reward", "商人奖励"),
    "quality": ("Quality reward", "品质奖励"),
    "reveal": ("Revealed", "揭示"),
    "route_bonus": ("Route bonus", "路线奖励"),
    "loan": ("Loan", "贷款"),
    "scout": ("Scout", "侦察"),
    "pass": ("Pass", "跳过"),
    "turn_end": ("Turn ends", "回合结束"),
    "turn_order": ("Turn order", "行动顺序"),
    "income": ("Income", "收入"),
    "bankrupt": ("Bankrupt", "破产"),
    "shortfall_remove": ("Tile removed for a shortfall", "因欠款移除板块"),
    "vp_loss": ("VP lost", "失去分数"),
    "link_score": ("Links scored", "连接计分"),
    "tile_score": ("Tiles scored", "板块计分"),
    "tile_removed": ("Tile removed", "板块移除"),
    "era_end": ("Era ends", "时代结束"),
    "bonus_score": ("Bonus scored", "奖励计分"),
    "game_end": ("Game ends", "游戏结束"),
    "round_end": ("Round ends", "轮次结束"),
    "whiskey": ("Whiskey", "威士忌"),
}

# Cards that are neither a location nor an industry of the ruleset.
CARDS: dict[str, Pair] = {
    "cotton_manufacturer": ("Cotton Mill / Manufacturer", "棉纺厂/制造厂"),
    "wild_location": ("Wild Location", "万能地点"),
    "wild_industry": ("Wild Industry", "万能产业"),
}
UNUSED_CARD: Pair = ("Unused (placeholder data)", "未使用（占位数据）")

# The game options' descriptions in Chinese (English is the engine's own); a Pittsburgh
# ruling switch is described by its ruling (RULING_ZH).
OPTIONS_ZH: dict[str, str] = {
    "beginner": "新手变体：只玩运河时代",
    "manufacturer_iv_cost": "IV 级制造厂板块的费用（8 或 14）",
    "undo": "行动的座位可以撤销本回合的决定（比赛时设为 false）",
    "data": "数据集：草稿数据文件，或用于测试的小型合成地图",
}
# what a ruleset words differently
OPTIONS_ZH_OF: dict[str, dict[str, str]] = {
    "pittsburgh": {"undo": "行动的座位可以撤销本回合的决定，直到有信息被揭示（比赛时设为 false）"},
}
RULING_ZH = "规则裁定 {ruling}"

# English location labels are the board's own names; these are their Chinese names.
LOCATIONS_ZH: dict[str, dict[str, str]] = {
    "birmingham": {
        "belper": "贝尔珀", "derby": "德比", "leek": "利克", "stoke_on_trent": "特伦特河畔斯托克",
        "stone": "斯通", "uttoxeter": "阿托克西特", "stafford": "斯塔福德",
        "burton_on_trent": "特伦特河畔伯顿", "cannock": "坎诺克", "tamworth": "塔姆沃思",
        "walsall": "沃尔索尔", "coalbrookdale": "科尔布鲁克代尔", "wolverhampton": "伍尔弗汉普顿",
        "dudley": "达德利", "kidderminster": "基德明斯特", "worcester": "伍斯特",
        "birmingham": "伯明翰", "nuneaton": "纳尼顿", "coventry": "考文垂", "redditch": "雷迪奇",
        "farm_brewery_north": "农场酿酒厂（北，坎诺克左侧）",
        "farm_brewery_south": "农场酿酒厂（南，基德明斯特—伍斯特线左侧）",
        "warrington": "沃灵顿", "nottingham": "诺丁汉", "shrewsbury": "什鲁斯伯里",
        "oxford": "牛津", "gloucester": "格洛斯特",
    },
    "pittsburgh": {
        "saginaw": "萨吉诺", "detroit": "底特律", "chicago_whiting": "芝加哥与怀廷",
        "toledo": "托莱多", "cleveland": "克利夫兰", "erie": "伊利", "buffalo": "布法罗",
        "rochester": "罗切斯特", "wilkes_barre_scranton": "威尔克斯-巴里与斯克兰顿",
        "columbus": "哥伦布", "indianapolis": "印第安纳波利斯", "pittsburgh": "匹兹堡",
        "harrisburg": "哈里斯堡", "bethlehem": "伯利恒", "clarksburg": "克拉克斯堡",
        "baltimore": "巴尔的摩", "philadelphia": "费城", "canada": "加拿大",
        "eads_bridge": "伊兹桥", "the_south": "南方", "cincinnati": "辛辛那提",
        "the_east": "东部（占位数据）",
    },
}

# Oilfields (Pittsburgh's board data: oilfields) are named with the locations, so that a
# pipeline's route ("pittsburgh--venango") reads as two places.
LOCATIONS_ZH["pittsburgh"] |= {
    "trenton": "特伦顿", "lima_findlay": "利马与芬德利", "venango": "维南戈",
    "bradford_olean": "布拉德福德与奥利安", "macksburg_burning_springs": "麦克斯堡与伯宁斯普林斯",
}

# Tiles a ruleset's board data names (Pittsburgh's events name tiles by id). English
# industry tiles are the board's own names; these are their Chinese names.
# Pittsburgh's Chinese names of industries, tiles and link tiles are those of the Chinese
# teaching text of its draft rules v2026.01 (/work/shared/rules/pittsburgh_tutorial_zh.txt):
# the tracks 煤油、煤炭、制造、焦炭、钢铁 (二), 煤油精炼厂 and 汽车制造厂 (九), 煤炭产业 and
# 制造业 (十, 十一), the crown jewels (皇冠明珠产业) 石油城、多相交流发电机、机车厂、摩天大楼,
# 轻型列车 and 重型列车 of the kinds 资源型、威士忌型、双倍连接型、替换型, and 收入管线、
# 金钱管线、胜利点管线、预备管线 (十). No rule text names the goods of Manufacturing III-V
# (威士忌酒箱, 自行车, 打字机) nor any place but 匹兹堡 (pittsburgh_reference_zh.txt keeps
# the English names): those Chinese names, and the locations' and oilfields' above (维南戈…),
# are this project's transliterations.
TILES_ZH: dict[str, dict[str, str]] = {
    "pittsburgh": {
        "kero_2": "煤油精炼厂 II", "kero_3": "煤油精炼厂 III", "kero_4": "煤油精炼厂 IV",
        "oil_city": "石油城（皇冠明珠 V）",
        "coal_1": "煤炭产业 I", "coal_2": "煤炭产业 II", "coal_3": "煤炭产业 III",
        "polyphase": "多相交流发电机（皇冠明珠 IV）",
        "mfg_1": "制造业 I", "mfg_2": "制造业 II", "mfg_3": "制造业 III（威士忌酒箱）",
        "mfg_4": "制造业 IV（自行车）", "mfg_5": "制造业 V（打字机）",
        "loco_works": "机车厂（皇冠明珠 VII）",
        "coke_1": "焦炭产业 I", "coke_2": "焦炭产业 II",
        "auto_6": "汽车制造厂 VI",
        "steel_1": "钢铁产业 I", "steel_2": "钢铁产业 II", "steel_4": "钢铁产业 IV",
        "sky_20": "摩天大楼 III（$20，钢铁产业 II 的分支）",
        "sky_40": "摩天大楼 III（$40，钢铁产业 IV 的分支）",
    },
}

# Link tiles (board data: link_tiles), in both languages.
LINK_TILES: dict[str, Pair] = {
    "light_train": ("Light Train", "轻型列车"),
    "ht_resource_coke": ("Heavy Train (coke)", "重型列车（资源型：焦炭）"),
    "ht_resource_steel": ("Heavy Train (steel)", "重型列车（资源型：钢材）"),
    "ht_resource_oil": ("Heavy Train (oil)", "重型列车（资源型：原油）"),
    "ht_whiskey": ("Heavy Train (whiskey)", "重型列车（威士忌型）"),
    "ht_double_link": ("Heavy Train (double link)", "重型列车（双倍连接型）"),
    "ht_replacement": ("Heavy Train (replacement)", "重型列车（替换型）"),
    "pipe_vp3": ("Pipeline (3 VP)", "胜利点管线（3 分）"),
    "pipe_vp5": ("Pipeline (5 VP)", "胜利点管线（5 分）"),
    "pipe_money10": ("Pipeline ($10)", "金钱管线（$10）"),
    "pipe_income2": ("Pipeline (2 income spaces)", "收入管线（收入 2 格）"),
    "pipe_reserve": ("Pipeline (reserve)", "预备管线"),
}

# Tiles of the data file the board data does not list (Pittsburgh's merchant and oilfield
# tiles), in words from what they take and give; a placeholder's is marked as such.
DATA_TILES: dict[str, Pair] = {
    "merchant": ("Merchant tile: {goods} ({reward})", "商人板块：{goods}（{reward}）"),
    "oilfield": ("Oilfield tile: {reward}, {n} barrels", "油田板块：{reward}，{n} 桶"),
    "placeholder": (" (placeholder data)", "（占位数据）"),
}
REWARDS: dict[str, Pair] = {
    "vp": ("{n} VP", "{n} 分"),
    "money": ("${n}", "${n}"),
    "income_spaces": ("{n} income spaces", "收入 {n} 格"),
    "whiskey": ("{n} whiskey", "{n} 份威士忌"),
    "free_develop": ("a free develop", "一次免费开发"),
}
