from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class PittsburghView(_message.Message):
    __slots__ = ("ruleset", "data", "draft_version", "num_players", "era", "round", "phase", "current", "actions_left", "game_over", "deck_size", "turn_order", "options", "players", "spaces", "links", "oilfields", "markets", "merchants", "quality", "discards", "undo_steps", "undo_refused")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class DiscardsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    RULESET_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    DRAFT_VERSION_FIELD_NUMBER: _ClassVar[int]
    NUM_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ERA_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_LEFT_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    TURN_ORDER_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SPACES_FIELD_NUMBER: _ClassVar[int]
    LINKS_FIELD_NUMBER: _ClassVar[int]
    OILFIELDS_FIELD_NUMBER: _ClassVar[int]
    MARKETS_FIELD_NUMBER: _ClassVar[int]
    MERCHANTS_FIELD_NUMBER: _ClassVar[int]
    QUALITY_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    UNDO_STEPS_FIELD_NUMBER: _ClassVar[int]
    UNDO_REFUSED_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    data: str
    draft_version: str
    num_players: int
    era: int
    round: int
    phase: str
    current: int
    actions_left: int
    game_over: bool
    deck_size: int
    turn_order: _containers.RepeatedScalarFieldContainer[int]
    options: _containers.ScalarMap[str, str]
    players: _containers.RepeatedCompositeFieldContainer[PittsburghPlayerView]
    spaces: _containers.RepeatedCompositeFieldContainer[PittsburghSpaceView]
    links: _containers.RepeatedCompositeFieldContainer[PittsburghLinkView]
    oilfields: _containers.RepeatedCompositeFieldContainer[PittsburghOilfieldView]
    markets: _containers.RepeatedCompositeFieldContainer[PittsburghMarketView]
    merchants: _containers.RepeatedCompositeFieldContainer[PittsburghMerchantView]
    quality: _containers.RepeatedCompositeFieldContainer[PittsburghQualityView]
    discards: _containers.ScalarMap[str, int]
    undo_steps: int
    undo_refused: PittsburghReason.Code
    def __init__(self, ruleset: _Optional[str] = ..., data: _Optional[str] = ..., draft_version: _Optional[str] = ..., num_players: _Optional[int] = ..., era: _Optional[int] = ..., round: _Optional[int] = ..., phase: _Optional[str] = ..., current: _Optional[int] = ..., actions_left: _Optional[int] = ..., game_over: _Optional[bool] = ..., deck_size: _Optional[int] = ..., turn_order: _Optional[_Iterable[int]] = ..., options: _Optional[_Mapping[str, str]] = ..., players: _Optional[_Iterable[_Union[PittsburghPlayerView, _Mapping]]] = ..., spaces: _Optional[_Iterable[_Union[PittsburghSpaceView, _Mapping]]] = ..., links: _Optional[_Iterable[_Union[PittsburghLinkView, _Mapping]]] = ..., oilfields: _Optional[_Iterable[_Union[PittsburghOilfieldView, _Mapping]]] = ..., markets: _Optional[_Iterable[_Union[PittsburghMarketView, _Mapping]]] = ..., merchants: _Optional[_Iterable[_Union[PittsburghMerchantView, _Mapping]]] = ..., quality: _Optional[_Iterable[_Union[PittsburghQualityView, _Mapping]]] = ..., discards: _Optional[_Mapping[str, int]] = ..., undo_steps: _Optional[int] = ..., undo_refused: _Optional[_Union[PittsburghReason.Code, str]] = ...) -> None: ...

class PittsburghPlayerView(_message.Message):
    __slots__ = ("money", "vp", "spent", "income_space", "income_level", "whiskey", "hand_size", "heavy_built", "hand", "mat", "supply")
    class HandEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class MatEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class SupplyEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    MONEY_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    SPENT_FIELD_NUMBER: _ClassVar[int]
    INCOME_SPACE_FIELD_NUMBER: _ClassVar[int]
    INCOME_LEVEL_FIELD_NUMBER: _ClassVar[int]
    WHISKEY_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    HEAVY_BUILT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    MAT_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_FIELD_NUMBER: _ClassVar[int]
    money: int
    vp: int
    spent: int
    income_space: int
    income_level: int
    whiskey: int
    hand_size: int
    heavy_built: int
    hand: _containers.ScalarMap[str, int]
    mat: _containers.ScalarMap[str, int]
    supply: _containers.ScalarMap[str, int]
    def __init__(self, money: _Optional[int] = ..., vp: _Optional[int] = ..., spent: _Optional[int] = ..., income_space: _Optional[int] = ..., income_level: _Optional[int] = ..., whiskey: _Optional[int] = ..., hand_size: _Optional[int] = ..., heavy_built: _Optional[int] = ..., hand: _Optional[_Mapping[str, int]] = ..., mat: _Optional[_Mapping[str, int]] = ..., supply: _Optional[_Mapping[str, int]] = ...) -> None: ...

class PittsburghSpaceView(_message.Message):
    __slots__ = ("slot", "owner", "tile", "flipped", "coal", "iron", "steel", "coke", "oil")
    SLOT_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    FLIPPED_FIELD_NUMBER: _ClassVar[int]
    COAL_FIELD_NUMBER: _ClassVar[int]
    IRON_FIELD_NUMBER: _ClassVar[int]
    STEEL_FIELD_NUMBER: _ClassVar[int]
    COKE_FIELD_NUMBER: _ClassVar[int]
    OIL_FIELD_NUMBER: _ClassVar[int]
    slot: str
    owner: int
    tile: str
    flipped: bool
    coal: int
    iron: int
    steel: int
    coke: int
    oil: int
    def __init__(self, slot: _Optional[str] = ..., owner: _Optional[int] = ..., tile: _Optional[str] = ..., flipped: _Optional[bool] = ..., coal: _Optional[int] = ..., iron: _Optional[int] = ..., steel: _Optional[int] = ..., coke: _Optional[int] = ..., oil: _Optional[int] = ...) -> None: ...

class PittsburghLinkView(_message.Message):
    __slots__ = ("route", "owner", "tile", "cargo")
    ROUTE_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    CARGO_FIELD_NUMBER: _ClassVar[int]
    route: str
    owner: int
    tile: str
    cargo: int
    def __init__(self, route: _Optional[str] = ..., owner: _Optional[int] = ..., tile: _Optional[str] = ..., cargo: _Optional[int] = ...) -> None: ...

class PittsburghOilfieldView(_message.Message):
    __slots__ = ("id", "barrels", "tile_state", "tile", "pending", "oil_city_owner", "oil_city_barrels", "oil_city_flipped")
    ID_FIELD_NUMBER: _ClassVar[int]
    BARRELS_FIELD_NUMBER: _ClassVar[int]
    TILE_STATE_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    OIL_CITY_OWNER_FIELD_NUMBER: _ClassVar[int]
    OIL_CITY_BARRELS_FIELD_NUMBER: _ClassVar[int]
    OIL_CITY_FLIPPED_FIELD_NUMBER: _ClassVar[int]
    id: str
    barrels: int
    tile_state: str
    tile: str
    pending: int
    oil_city_owner: int
    oil_city_barrels: int
    oil_city_flipped: bool
    def __init__(self, id: _Optional[str] = ..., barrels: _Optional[int] = ..., tile_state: _Optional[str] = ..., tile: _Optional[str] = ..., pending: _Optional[int] = ..., oil_city_owner: _Optional[int] = ..., oil_city_barrels: _Optional[int] = ..., oil_city_flipped: _Optional[bool] = ...) -> None: ...

class PittsburghMarketView(_message.Message):
    __slots__ = ("id", "price", "coal", "iron", "steel", "coke")
    ID_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    COAL_FIELD_NUMBER: _ClassVar[int]
    IRON_FIELD_NUMBER: _ClassVar[int]
    STEEL_FIELD_NUMBER: _ClassVar[int]
    COKE_FIELD_NUMBER: _ClassVar[int]
    id: str
    price: int
    coal: int
    iron: int
    steel: int
    coke: int
    def __init__(self, id: _Optional[str] = ..., price: _Optional[int] = ..., coal: _Optional[int] = ..., iron: _Optional[int] = ..., steel: _Optional[int] = ..., coke: _Optional[int] = ...) -> None: ...

class PittsburghMerchantView(_message.Message):
    __slots__ = ("location", "tile", "side")
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    location: str
    tile: str
    side: str
    def __init__(self, location: _Optional[str] = ..., tile: _Optional[str] = ..., side: _Optional[str] = ...) -> None: ...

class PittsburghQualityView(_message.Message):
    __slots__ = ("stars", "tile", "available")
    STARS_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_FIELD_NUMBER: _ClassVar[int]
    stars: int
    tile: str
    available: bool
    def __init__(self, stars: _Optional[int] = ..., tile: _Optional[str] = ..., available: _Optional[bool] = ...) -> None: ...

class PittsburghEvent(_message.Message):
    __slots__ = ("seat", "action", "build", "upgrade_score", "link", "replaced", "develop", "sell", "flip", "cube", "oil", "pipe_reward", "market_sale", "merchant_reward", "quality", "reveal", "route_bonus", "loan", "turn_end", "turn_order", "income", "bankrupt", "link_score", "tile_score", "tile_removed", "era_end", "game_end", "round_end", "whiskey", "undo")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    BUILD_FIELD_NUMBER: _ClassVar[int]
    UPGRADE_SCORE_FIELD_NUMBER: _ClassVar[int]
    LINK_FIELD_NUMBER: _ClassVar[int]
    REPLACED_FIELD_NUMBER: _ClassVar[int]
    DEVELOP_FIELD_NUMBER: _ClassVar[int]
    SELL_FIELD_NUMBER: _ClassVar[int]
    FLIP_FIELD_NUMBER: _ClassVar[int]
    CUBE_FIELD_NUMBER: _ClassVar[int]
    OIL_FIELD_NUMBER: _ClassVar[int]
    PIPE_REWARD_FIELD_NUMBER: _ClassVar[int]
    MARKET_SALE_FIELD_NUMBER: _ClassVar[int]
    MERCHANT_REWARD_FIELD_NUMBER: _ClassVar[int]
    QUALITY_FIELD_NUMBER: _ClassVar[int]
    REVEAL_FIELD_NUMBER: _ClassVar[int]
    ROUTE_BONUS_FIELD_NUMBER: _ClassVar[int]
    LOAN_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    TURN_END_FIELD_NUMBER: _ClassVar[int]
    TURN_ORDER_FIELD_NUMBER: _ClassVar[int]
    INCOME_FIELD_NUMBER: _ClassVar[int]
    BANKRUPT_FIELD_NUMBER: _ClassVar[int]
    LINK_SCORE_FIELD_NUMBER: _ClassVar[int]
    TILE_SCORE_FIELD_NUMBER: _ClassVar[int]
    TILE_REMOVED_FIELD_NUMBER: _ClassVar[int]
    ERA_END_FIELD_NUMBER: _ClassVar[int]
    GAME_END_FIELD_NUMBER: _ClassVar[int]
    ROUND_END_FIELD_NUMBER: _ClassVar[int]
    WHISKEY_FIELD_NUMBER: _ClassVar[int]
    UNDO_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: PittsburghActionEvent
    build: PittsburghBuildEvent
    upgrade_score: PittsburghUpgradeScoreEvent
    link: PittsburghLinkEvent
    replaced: PittsburghReplacedEvent
    develop: PittsburghDevelopEvent
    sell: PittsburghSellEvent
    flip: PittsburghFlipEvent
    cube: PittsburghCubeEvent
    oil: PittsburghOilEvent
    pipe_reward: PittsburghPipeRewardEvent
    market_sale: PittsburghMarketSaleEvent
    merchant_reward: PittsburghMerchantRewardEvent
    quality: PittsburghQualityEvent
    reveal: PittsburghRevealEvent
    route_bonus: PittsburghRouteBonusEvent
    loan: PittsburghLoanEvent
    turn_end: PittsburghTurnEndEvent
    turn_order: PittsburghTurnOrderEvent
    income: PittsburghIncomeEvent
    bankrupt: PittsburghBankruptEvent
    link_score: PittsburghLinkScoreEvent
    tile_score: PittsburghTileScoreEvent
    tile_removed: PittsburghTileRemovedEvent
    era_end: PittsburghEraEndEvent
    game_end: PittsburghGameEndEvent
    round_end: PittsburghRoundEndEvent
    whiskey: PittsburghWhiskeyEvent
    undo: PittsburghUndoEvent
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[_Union[PittsburghActionEvent, _Mapping]] = ..., build: _Optional[_Union[PittsburghBuildEvent, _Mapping]] = ..., upgrade_score: _Optional[_Union[PittsburghUpgradeScoreEvent, _Mapping]] = ..., link: _Optional[_Union[PittsburghLinkEvent, _Mapping]] = ..., replaced: _Optional[_Union[PittsburghReplacedEvent, _Mapping]] = ..., develop: _Optional[_Union[PittsburghDevelopEvent, _Mapping]] = ..., sell: _Optional[_Union[PittsburghSellEvent, _Mapping]] = ..., flip: _Optional[_Union[PittsburghFlipEvent, _Mapping]] = ..., cube: _Optional[_Union[PittsburghCubeEvent, _Mapping]] = ..., oil: _Optional[_Union[PittsburghOilEvent, _Mapping]] = ..., pipe_reward: _Optional[_Union[PittsburghPipeRewardEvent, _Mapping]] = ..., market_sale: _Optional[_Union[PittsburghMarketSaleEvent, _Mapping]] = ..., merchant_reward: _Optional[_Union[PittsburghMerchantRewardEvent, _Mapping]] = ..., quality: _Optional[_Union[PittsburghQualityEvent, _Mapping]] = ..., reveal: _Optional[_Union[PittsburghRevealEvent, _Mapping]] = ..., route_bonus: _Optional[_Union[PittsburghRouteBonusEvent, _Mapping]] = ..., loan: _Optional[_Union[PittsburghLoanEvent, _Mapping]] = ..., turn_end: _Optional[_Union[PittsburghTurnEndEvent, _Mapping]] = ..., turn_order: _Optional[_Union[PittsburghTurnOrderEvent, _Mapping]] = ..., income: _Optional[_Union[PittsburghIncomeEvent, _Mapping]] = ..., bankrupt: _Optional[_Union[PittsburghBankruptEvent, _Mapping]] = ..., link_score: _Optional[_Union[PittsburghLinkScoreEvent, _Mapping]] = ..., tile_score: _Optional[_Union[PittsburghTileScoreEvent, _Mapping]] = ..., tile_removed: _Optional[_Union[PittsburghTileRemovedEvent, _Mapping]] = ..., era_end: _Optional[_Union[PittsburghEraEndEvent, _Mapping]] = ..., game_end: _Optional[_Union[PittsburghGameEndEvent, _Mapping]] = ..., round_end: _Optional[_Union[PittsburghRoundEndEvent, _Mapping]] = ..., whiskey: _Optional[_Union[PittsburghWhiskeyEvent, _Mapping]] = ..., undo: _Optional[_Union[PittsburghUndoEvent, _Mapping]] = ..., **kwargs) -> None: ...

class PittsburghActionEvent(_message.Message):
    __slots__ = ("action", "card")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    action: str
    card: str
    def __init__(self, action: _Optional[str] = ..., card: _Optional[str] = ...) -> None: ...

class PittsburghBuildEvent(_message.Message):
    __slots__ = ("place", "tile")
    PLACE_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    place: str
    tile: str
    def __init__(self, place: _Optional[str] = ..., tile: _Optional[str] = ...) -> None: ...

class PittsburghUpgradeScoreEvent(_message.Message):
    __slots__ = ("slot", "tile", "vp")
    SLOT_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    slot: str
    tile: str
    vp: int
    def __init__(self, slot: _Optional[str] = ..., tile: _Optional[str] = ..., vp: _Optional[int] = ...) -> None: ...

class PittsburghLinkEvent(_message.Message):
    __slots__ = ("route", "link_tile")
    ROUTE_FIELD_NUMBER: _ClassVar[int]
    LINK_TILE_FIELD_NUMBER: _ClassVar[int]
    route: str
    link_tile: str
    def __init__(self, route: _Optional[str] = ..., link_tile: _Optional[str] = ...) -> None: ...

class PittsburghReplacedEvent(_message.Message):
    __slots__ = ("link", "link_tile")
    LINK_FIELD_NUMBER: _ClassVar[int]
    LINK_TILE_FIELD_NUMBER: _ClassVar[int]
    link: str
    link_tile: str
    def __init__(self, link: _Optional[str] = ..., link_tile: _Optional[str] = ...) -> None: ...

class PittsburghDevelopEvent(_message.Message):
    __slots__ = ("position", "free")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    FREE_FIELD_NUMBER: _ClassVar[int]
    position: str
    free: bool
    def __init__(self, position: _Optional[str] = ..., free: _Optional[bool] = ...) -> None: ...

class PittsburghSellEvent(_message.Message):
    __slots__ = ("slot", "merchant")
    SLOT_FIELD_NUMBER: _ClassVar[int]
    MERCHANT_FIELD_NUMBER: _ClassVar[int]
    slot: str
    merchant: str
    def __init__(self, slot: _Optional[str] = ..., merchant: _Optional[str] = ...) -> None: ...

class PittsburghFlipEvent(_message.Message):
    __slots__ = ("slot", "oilfield", "tile", "income")
    SLOT_FIELD_NUMBER: _ClassVar[int]
    OILFIELD_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    INCOME_FIELD_NUMBER: _ClassVar[int]
    slot: str
    oilfield: str
    tile: str
    income: int
    def __init__(self, slot: _Optional[str] = ..., oilfield: _Optional[str] = ..., tile: _Optional[str] = ..., income: _Optional[int] = ...) -> None: ...

class PittsburghCubeEvent(_message.Message):
    __slots__ = ("cube", "source", "price")
    CUBE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    cube: str
    source: str
    price: int
    def __init__(self, cube: _Optional[str] = ..., source: _Optional[str] = ..., price: _Optional[int] = ...) -> None: ...

class PittsburghOilEvent(_message.Message):
    __slots__ = ("cube", "source", "barrels")
    CUBE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    BARRELS_FIELD_NUMBER: _ClassVar[int]
    cube: str
    source: str
    barrels: int
    def __init__(self, cube: _Optional[str] = ..., source: _Optional[str] = ..., barrels: _Optional[int] = ...) -> None: ...

class PittsburghPipeRewardEvent(_message.Message):
    __slots__ = ("pipeline", "kind", "amount")
    PIPELINE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    pipeline: str
    kind: str
    amount: int
    def __init__(self, pipeline: _Optional[str] = ..., kind: _Optional[str] = ..., amount: _Optional[int] = ...) -> None: ...

class PittsburghMarketSaleEvent(_message.Message):
    __slots__ = ("market", "cube", "price")
    MARKET_FIELD_NUMBER: _ClassVar[int]
    CUBE_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    market: str
    cube: str
    price: int
    def __init__(self, market: _Optional[str] = ..., cube: _Optional[str] = ..., price: _Optional[int] = ...) -> None: ...

class PittsburghMerchantRewardEvent(_message.Message):
    __slots__ = ("merchant", "tile")
    MERCHANT_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    merchant: str
    tile: str
    def __init__(self, merchant: _Optional[str] = ..., tile: _Optional[str] = ...) -> None: ...

class PittsburghQualityEvent(_message.Message):
    __slots__ = ("quality", "tile", "whiskey")
    QUALITY_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    WHISKEY_FIELD_NUMBER: _ClassVar[int]
    quality: str
    tile: str
    whiskey: int
    def __init__(self, quality: _Optional[str] = ..., tile: _Optional[str] = ..., whiskey: _Optional[int] = ...) -> None: ...

class PittsburghRevealEvent(_message.Message):
    __slots__ = ("oilfield", "tile", "oil")
    OILFIELD_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    OIL_FIELD_NUMBER: _ClassVar[int]
    oilfield: str
    tile: str
    oil: int
    def __init__(self, oilfield: _Optional[str] = ..., tile: _Optional[str] = ..., oil: _Optional[int] = ...) -> None: ...

class PittsburghRouteBonusEvent(_message.Message):
    __slots__ = ("link", "kind", "amount")
    LINK_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    link: str
    kind: str
    amount: int
    def __init__(self, link: _Optional[str] = ..., kind: _Optional[str] = ..., amount: _Optional[int] = ...) -> None: ...

class PittsburghLoanEvent(_message.Message):
    __slots__ = ("income_space", "money")
    INCOME_SPACE_FIELD_NUMBER: _ClassVar[int]
    MONEY_FIELD_NUMBER: _ClassVar[int]
    income_space: int
    money: int
    def __init__(self, income_space: _Optional[int] = ..., money: _Optional[int] = ...) -> None: ...

class PittsburghPassEvent(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PittsburghTurnEndEvent(_message.Message):
    __slots__ = ("cards_drawn",)
    CARDS_DRAWN_FIELD_NUMBER: _ClassVar[int]
    cards_drawn: int
    def __init__(self, cards_drawn: _Optional[int] = ...) -> None: ...

class PittsburghTurnOrderEvent(_message.Message):
    __slots__ = ("order",)
    ORDER_FIELD_NUMBER: _ClassVar[int]
    order: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, order: _Optional[_Iterable[int]] = ...) -> None: ...

class PittsburghIncomeEvent(_message.Message):
    __slots__ = ("money",)
    MONEY_FIELD_NUMBER: _ClassVar[int]
    money: int
    def __init__(self, money: _Optional[int] = ...) -> None: ...

class PittsburghBankruptEvent(_message.Message):
    __slots__ = ("vp",)
    VP_FIELD_NUMBER: _ClassVar[int]
    vp: int
    def __init__(self, vp: _Optional[int] = ...) -> None: ...

class PittsburghLinkScoreEvent(_message.Message):
    __slots__ = ("link", "vp")
    LINK_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    link: str
    vp: int
    def __init__(self, link: _Optional[str] = ..., vp: _Optional[int] = ...) -> None: ...

class PittsburghTileScoreEvent(_message.Message):
    __slots__ = ("slot", "oilfield", "vp")
    SLOT_FIELD_NUMBER: _ClassVar[int]
    OILFIELD_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    slot: str
    oilfield: str
    vp: int
    def __init__(self, slot: _Optional[str] = ..., oilfield: _Optional[str] = ..., vp: _Optional[int] = ...) -> None: ...

class PittsburghTileRemovedEvent(_message.Message):
    __slots__ = ("slot", "tile")
    SLOT_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    slot: str
    tile: str
    def __init__(self, slot: _Optional[str] = ..., tile: _Optional[str] = ...) -> None: ...

class PittsburghEraEndEvent(_message.Message):
    __slots__ = ("era",)
    ERA_FIELD_NUMBER: _ClassVar[int]
    era: int
    def __init__(self, era: _Optional[int] = ...) -> None: ...

class PittsburghGameEndEvent(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PittsburghRoundEndEvent(_message.Message):
    __slots__ = ("round",)
    ROUND_FIELD_NUMBER: _ClassVar[int]
    round: int
    def __init__(self, round: _Optional[int] = ...) -> None: ...

class PittsburghUndoEvent(_message.Message):
    __slots__ = ("decisions", "ids")
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    IDS_FIELD_NUMBER: _ClassVar[int]
    decisions: int
    ids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, decisions: _Optional[int] = ..., ids: _Optional[_Iterable[int]] = ...) -> None: ...

class PittsburghWhiskeyEvent(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PittsburghOptionMeaning(_message.Message):
    __slots__ = ("kind", "action_type", "card", "tile", "slot", "location", "oilfield", "link", "pipeline", "oil_city_via", "market", "link_tile", "merchant", "quality", "cube")
    KIND_FIELD_NUMBER: _ClassVar[int]
    ACTION_TYPE_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    OILFIELD_FIELD_NUMBER: _ClassVar[int]
    LINK_FIELD_NUMBER: _ClassVar[int]
    PIPELINE_FIELD_NUMBER: _ClassVar[int]
    OIL_CITY_VIA_FIELD_NUMBER: _ClassVar[int]
    MARKET_FIELD_NUMBER: _ClassVar[int]
    LINK_TILE_FIELD_NUMBER: _ClassVar[int]
    MERCHANT_FIELD_NUMBER: _ClassVar[int]
    QUALITY_FIELD_NUMBER: _ClassVar[int]
    CUBE_FIELD_NUMBER: _ClassVar[int]
    kind: str
    action_type: str
    card: str
    tile: str
    slot: str
    location: str
    oilfield: str
    link: str
    pipeline: str
    oil_city_via: str
    market: str
    link_tile: str
    merchant: str
    quality: str
    cube: str
    def __init__(self, kind: _Optional[str] = ..., action_type: _Optional[str] = ..., card: _Optional[str] = ..., tile: _Optional[str] = ..., slot: _Optional[str] = ..., location: _Optional[str] = ..., oilfield: _Optional[str] = ..., link: _Optional[str] = ..., pipeline: _Optional[str] = ..., oil_city_via: _Optional[str] = ..., market: _Optional[str] = ..., link_tile: _Optional[str] = ..., merchant: _Optional[str] = ..., quality: _Optional[str] = ..., cube: _Optional[str] = ...) -> None: ...

class PittsburghPreviewCost(_message.Message):
    __slots__ = ("money", "money_after", "resource_money", "resources", "oil_added", "market_sales", "market_income", "flips", "pipe_rewards", "income_spaces", "vp")
    MONEY_FIELD_NUMBER: _ClassVar[int]
    MONEY_AFTER_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_MONEY_FIELD_NUMBER: _ClassVar[int]
    RESOURCES_FIELD_NUMBER: _ClassVar[int]
    OIL_ADDED_FIELD_NUMBER: _ClassVar[int]
    MARKET_SALES_FIELD_NUMBER: _ClassVar[int]
    MARKET_INCOME_FIELD_NUMBER: _ClassVar[int]
    FLIPS_FIELD_NUMBER: _ClassVar[int]
    PIPE_REWARDS_FIELD_NUMBER: _ClassVar[int]
    INCOME_SPACES_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    money: int
    money_after: int
    resource_money: int
    resources: _containers.RepeatedCompositeFieldContainer[PittsburghResourceSource]
    oil_added: _containers.RepeatedCompositeFieldContainer[PittsburghOilEvent]
    market_sales: _containers.RepeatedCompositeFieldContainer[PittsburghMarketSaleEvent]
    market_income: int
    flips: _containers.RepeatedCompositeFieldContainer[PittsburghEvent]
    pipe_rewards: _containers.RepeatedCompositeFieldContainer[PittsburghEvent]
    income_spaces: int
    vp: int
    def __init__(self, money: _Optional[int] = ..., money_after: _Optional[int] = ..., resource_money: _Optional[int] = ..., resources: _Optional[_Iterable[_Union[PittsburghResourceSource, _Mapping]]] = ..., oil_added: _Optional[_Iterable[_Union[PittsburghOilEvent, _Mapping]]] = ..., market_sales: _Optional[_Iterable[_Union[PittsburghMarketSaleEvent, _Mapping]]] = ..., market_income: _Optional[int] = ..., flips: _Optional[_Iterable[_Union[PittsburghEvent, _Mapping]]] = ..., pipe_rewards: _Optional[_Iterable[_Union[PittsburghEvent, _Mapping]]] = ..., income_spaces: _Optional[int] = ..., vp: _Optional[int] = ...) -> None: ...

class PittsburghResourceSource(_message.Message):
    __slots__ = ("cube", "source_kind", "source", "price")
    CUBE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_KIND_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    cube: str
    source_kind: str
    source: str
    price: int
    def __init__(self, cube: _Optional[str] = ..., source_kind: _Optional[str] = ..., source: _Optional[str] = ..., price: _Optional[int] = ...) -> None: ...

class PittsburghReason(_message.Message):
    __slots__ = ()
    class Code(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        LEGAL: _ClassVar[PittsburghReason.Code]
        WRONG_DECISION: _ClassVar[PittsburghReason.Code]
        CARD_NOT_IN_HAND: _ClassVar[PittsburghReason.Code]
        NOT_ENOUGH_MONEY: _ClassVar[PittsburghReason.Code]
        NOT_IN_NETWORK: _ClassVar[PittsburghReason.Code]
        SLOT_OCCUPIED: _ClassVar[PittsburghReason.Code]
        NO_TILES_LEFT: _ClassVar[PittsburghReason.Code]
        LINK_TAKEN: _ClassVar[PittsburghReason.Code]
        NO_LINK_TILES: _ClassVar[PittsburghReason.Code]
        LOAN_LIMIT: _ClassVar[PittsburghReason.Code]
        NOT_ENOUGH_CARDS: _ClassVar[PittsburghReason.Code]
        NOT_YOUR_TILE: _ClassVar[PittsburghReason.Code]
        NO_OPTION: _ClassVar[PittsburghReason.Code]
        CANONICAL_ORDER: _ClassVar[PittsburghReason.Code]
        MUST_CHOOSE: _ClassVar[PittsburghReason.Code]
        INCOMPLETE_ACTION: _ClassVar[PittsburghReason.Code]
        TOO_MANY_DECISIONS: _ClassVar[PittsburghReason.Code]
        NOTHING_TO_UNDO: _ClassVar[PittsburghReason.Code]
        UNDO_DISABLED: _ClassVar[PittsburghReason.Code]
        UNDO_BARRIER: _ClassVar[PittsburghReason.Code]
        NOT_ACCESSIBLE: _ClassVar[PittsburghReason.Code]
        WRONG_ERA: _ClassVar[PittsburghReason.Code]
        CARD_DOES_NOT_ALLOW: _ClassVar[PittsburghReason.Code]
        SPACE_WRONG_ICON: _ClassVar[PittsburghReason.Code]
        SINGLE_ICON_SPACE_FIRST: _ClassVar[PittsburghReason.Code]
        ONE_TILE_PER_LOCATION: _ClassVar[PittsburghReason.Code]
        NOT_AN_UPGRADE_TARGET: _ClassVar[PittsburghReason.Code]
        INCOME_TOO_LOW: _ClassVar[PittsburghReason.Code]
        NO_OIL: _ClassVar[PittsburghReason.Code]
        INDUSTRY_FIRST: _ClassVar[PittsburghReason.Code]
        NOT_CONNECTED: _ClassVar[PittsburghReason.Code]
        SOURCE_EMPTY: _ClassVar[PittsburghReason.Code]
        NOT_YOUR_TRAIN: _ClassVar[PittsburghReason.Code]
        RESERVE_CARRIES_NO_OIL: _ClassVar[PittsburghReason.Code]
        MARKET_FULL: _ClassVar[PittsburghReason.Code]
        ROUTE_CLOSED: _ClassVar[PittsburghReason.Code]
        NOT_ADJACENT: _ClassVar[PittsburghReason.Code]
        NO_MERCHANT: _ClassVar[PittsburghReason.Code]
        MERCHANT_DOES_NOT_ACCEPT: _ClassVar[PittsburghReason.Code]
        NOT_SELLABLE: _ClassVar[PittsburghReason.Code]
        ALREADY_FLIPPED: _ClassVar[PittsburghReason.Code]
        ALREADY_CHOSEN: _ClassVar[PittsburghReason.Code]
        NOT_ENOUGH_STARS: _ClassVar[PittsburghReason.Code]
        QUALITY_TAKEN: _ClassVar[PittsburghReason.Code]
        OILFIELD_TAKEN: _ClassVar[PittsburghReason.Code]
        NO_PIPELINE_TO_NETWORK: _ClassVar[PittsburghReason.Code]
        WRONG_CUBE: _ClassVar[PittsburghReason.Code]
        WRONG_LINK_KIND: _ClassVar[PittsburghReason.Code]
        CANNOT_REPLACE: _ClassVar[PittsburghReason.Code]
        NO_SPACE: _ClassVar[PittsburghReason.Code]
        NOT_NEAREST: _ClassVar[PittsburghReason.Code]
    LEGAL: PittsburghReason.Code
    WRONG_DECISION: PittsburghReason.Code
    CARD_NOT_IN_HAND: PittsburghReason.Code
    NOT_ENOUGH_MONEY: PittsburghReason.Code
    NOT_IN_NETWORK: PittsburghReason.Code
    SLOT_OCCUPIED: PittsburghReason.Code
    NO_TILES_LEFT: PittsburghReason.Code
    LINK_TAKEN: PittsburghReason.Code
    NO_LINK_TILES: PittsburghReason.Code
    LOAN_LIMIT: PittsburghReason.Code
    NOT_ENOUGH_CARDS: PittsburghReason.Code
    NOT_YOUR_TILE: PittsburghReason.Code
    NO_OPTION: PittsburghReason.Code
    CANONICAL_ORDER: PittsburghReason.Code
    MUST_CHOOSE: PittsburghReason.Code
    INCOMPLETE_ACTION: PittsburghReason.Code
    TOO_MANY_DECISIONS: PittsburghReason.Code
    NOTHING_TO_UNDO: PittsburghReason.Code
    UNDO_DISABLED: PittsburghReason.Code
    UNDO_BARRIER: PittsburghReason.Code
    NOT_ACCESSIBLE: PittsburghReason.Code
    WRONG_ERA: PittsburghReason.Code
    CARD_DOES_NOT_ALLOW: PittsburghReason.Code
    SPACE_WRONG_ICON: PittsburghReason.Code
    SINGLE_ICON_SPACE_FIRST: PittsburghReason.Code
    ONE_TILE_PER_LOCATION: PittsburghReason.Code
    NOT_AN_UPGRADE_TARGET: PittsburghReason.Code
    INCOME_TOO_LOW: PittsburghReason.Code
    NO_OIL: PittsburghReason.Code
    INDUSTRY_FIRST: PittsburghReason.Code
    NOT_CONNECTED: PittsburghReason.Code
    SOURCE_EMPTY: PittsburghReason.Code
    NOT_YOUR_TRAIN: PittsburghReason.Code
    RESERVE_CARRIES_NO_OIL: PittsburghReason.Code
    MARKET_FULL: PittsburghReason.Code
    ROUTE_CLOSED: PittsburghReason.Code
    NOT_ADJACENT: PittsburghReason.Code
    NO_MERCHANT: PittsburghReason.Code
    MERCHANT_DOES_NOT_ACCEPT: PittsburghReason.Code
    NOT_SELLABLE: PittsburghReason.Code
    ALREADY_FLIPPED: PittsburghReason.Code
    ALREADY_CHOSEN: PittsburghReason.Code
    NOT_ENOUGH_STARS: PittsburghReason.Code
    QUALITY_TAKEN: PittsburghReason.Code
    OILFIELD_TAKEN: PittsburghReason.Code
    NO_PIPELINE_TO_NETWORK: PittsburghReason.Code
    WRONG_CUBE: PittsburghReason.Code
    WRONG_LINK_KIND: PittsburghReason.Code
    CANNOT_REPLACE: PittsburghReason.Code
    NO_SPACE: PittsburghReason.Code
    NOT_NEAREST: PittsburghReason.Code
    def __init__(self) -> None: ...
