from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BirminghamView(_message.Message):
    __slots__ = ("format", "rules_edition", "ruleset", "players", "options", "era", "round", "turn_order", "turn_index", "actions_left", "current", "decision", "game_over", "pending", "markets", "wild_piles", "discards", "merchants", "links", "slots", "player_state", "deck_size", "seat", "undo_steps", "undo_refused")
    class Options(_message.Message):
        __slots__ = ("beginner", "manufacturer_iv_cost", "auto_resolve", "undo")
        BEGINNER_FIELD_NUMBER: _ClassVar[int]
        MANUFACTURER_IV_COST_FIELD_NUMBER: _ClassVar[int]
        AUTO_RESOLVE_FIELD_NUMBER: _ClassVar[int]
        UNDO_FIELD_NUMBER: _ClassVar[int]
        beginner: bool
        manufacturer_iv_cost: int
        auto_resolve: bool
        undo: bool
        def __init__(self, beginner: _Optional[bool] = ..., manufacturer_iv_cost: _Optional[int] = ..., auto_resolve: _Optional[bool] = ..., undo: _Optional[bool] = ...) -> None: ...
    class Pending(_message.Message):
        __slots__ = ("action", "card", "industry", "slot", "link", "merchant", "coal_left", "iron_left", "beer_left", "count", "last_choice", "scout_picked", "merchant_beer_used", "income_index")
        ACTION_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        INDUSTRY_FIELD_NUMBER: _ClassVar[int]
        SLOT_FIELD_NUMBER: _ClassVar[int]
        LINK_FIELD_NUMBER: _ClassVar[int]
        MERCHANT_FIELD_NUMBER: _ClassVar[int]
        COAL_LEFT_FIELD_NUMBER: _ClassVar[int]
        IRON_LEFT_FIELD_NUMBER: _ClassVar[int]
        BEER_LEFT_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        LAST_CHOICE_FIELD_NUMBER: _ClassVar[int]
        SCOUT_PICKED_FIELD_NUMBER: _ClassVar[int]
        MERCHANT_BEER_USED_FIELD_NUMBER: _ClassVar[int]
        INCOME_INDEX_FIELD_NUMBER: _ClassVar[int]
        action: str
        card: str
        industry: str
        slot: str
        link: str
        merchant: str
        coal_left: int
        iron_left: int
        beer_left: int
        count: int
        last_choice: int
        scout_picked: int
        merchant_beer_used: bool
        income_index: int
        def __init__(self, action: _Optional[str] = ..., card: _Optional[str] = ..., industry: _Optional[str] = ..., slot: _Optional[str] = ..., link: _Optional[str] = ..., merchant: _Optional[str] = ..., coal_left: _Optional[int] = ..., iron_left: _Optional[int] = ..., beer_left: _Optional[int] = ..., count: _Optional[int] = ..., last_choice: _Optional[int] = ..., scout_picked: _Optional[int] = ..., merchant_beer_used: _Optional[bool] = ..., income_index: _Optional[int] = ...) -> None: ...
    class Markets(_message.Message):
        __slots__ = ("coal", "iron")
        COAL_FIELD_NUMBER: _ClassVar[int]
        IRON_FIELD_NUMBER: _ClassVar[int]
        coal: int
        iron: int
        def __init__(self, coal: _Optional[int] = ..., iron: _Optional[int] = ...) -> None: ...
    class WildPiles(_message.Message):
        __slots__ = ("location", "industry")
        LOCATION_FIELD_NUMBER: _ClassVar[int]
        INDUSTRY_FIELD_NUMBER: _ClassVar[int]
        location: int
        industry: int
        def __init__(self, location: _Optional[int] = ..., industry: _Optional[int] = ...) -> None: ...
    class MerchantSpace(_message.Message):
        __slots__ = ("goods", "beer")
        GOODS_FIELD_NUMBER: _ClassVar[int]
        BEER_FIELD_NUMBER: _ClassVar[int]
        goods: _containers.RepeatedScalarFieldContainer[str]
        beer: int
        def __init__(self, goods: _Optional[_Iterable[str]] = ..., beer: _Optional[int] = ...) -> None: ...
    class Slot(_message.Message):
        __slots__ = ("owner", "industry", "level", "flipped", "cubes")
        OWNER_FIELD_NUMBER: _ClassVar[int]
        INDUSTRY_FIELD_NUMBER: _ClassVar[int]
        LEVEL_FIELD_NUMBER: _ClassVar[int]
        FLIPPED_FIELD_NUMBER: _ClassVar[int]
        CUBES_FIELD_NUMBER: _ClassVar[int]
        owner: int
        industry: str
        level: int
        flipped: bool
        cubes: int
        def __init__(self, owner: _Optional[int] = ..., industry: _Optional[str] = ..., level: _Optional[int] = ..., flipped: _Optional[bool] = ..., cubes: _Optional[int] = ...) -> None: ...
    class WildCards(_message.Message):
        __slots__ = ("wild_location", "wild_industry")
        WILD_LOCATION_FIELD_NUMBER: _ClassVar[int]
        WILD_INDUSTRY_FIELD_NUMBER: _ClassVar[int]
        wild_location: int
        wild_industry: int
        def __init__(self, wild_location: _Optional[int] = ..., wild_industry: _Optional[int] = ...) -> None: ...
    class Player(_message.Message):
        __slots__ = ("money", "vp", "spent", "income_space", "income_level", "links_left", "mat_taken", "hand_size", "last_discard", "hand", "hand_unseen", "wild_cards")
        class MatTakenEntry(_message.Message):
            __slots__ = ("key", "value")
            KEY_FIELD_NUMBER: _ClassVar[int]
            VALUE_FIELD_NUMBER: _ClassVar[int]
            key: str
            value: int
            def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
        class HandEntry(_message.Message):
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
        LINKS_LEFT_FIELD_NUMBER: _ClassVar[int]
        MAT_TAKEN_FIELD_NUMBER: _ClassVar[int]
        HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
        LAST_DISCARD_FIELD_NUMBER: _ClassVar[int]
        HAND_FIELD_NUMBER: _ClassVar[int]
        HAND_UNSEEN_FIELD_NUMBER: _ClassVar[int]
        WILD_CARDS_FIELD_NUMBER: _ClassVar[int]
        money: int
        vp: int
        spent: int
        income_space: int
        income_level: int
        links_left: int
        mat_taken: _containers.ScalarMap[str, int]
        hand_size: int
        last_discard: str
        hand: _containers.ScalarMap[str, int]
        hand_unseen: int
        wild_cards: BirminghamView.WildCards
        def __init__(self, money: _Optional[int] = ..., vp: _Optional[int] = ..., spent: _Optional[int] = ..., income_space: _Optional[int] = ..., income_level: _Optional[int] = ..., links_left: _Optional[int] = ..., mat_taken: _Optional[_Mapping[str, int]] = ..., hand_size: _Optional[int] = ..., last_discard: _Optional[str] = ..., hand: _Optional[_Mapping[str, int]] = ..., hand_unseen: _Optional[int] = ..., wild_cards: _Optional[_Union[BirminghamView.WildCards, _Mapping]] = ...) -> None: ...
    class DiscardsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class MerchantsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: BirminghamView.MerchantSpace
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[BirminghamView.MerchantSpace, _Mapping]] = ...) -> None: ...
    class LinksEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class SlotsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: BirminghamView.Slot
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[BirminghamView.Slot, _Mapping]] = ...) -> None: ...
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    RULES_EDITION_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    ERA_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TURN_ORDER_FIELD_NUMBER: _ClassVar[int]
    TURN_INDEX_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_LEFT_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    MARKETS_FIELD_NUMBER: _ClassVar[int]
    WILD_PILES_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    MERCHANTS_FIELD_NUMBER: _ClassVar[int]
    LINKS_FIELD_NUMBER: _ClassVar[int]
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_STATE_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    UNDO_STEPS_FIELD_NUMBER: _ClassVar[int]
    UNDO_REFUSED_FIELD_NUMBER: _ClassVar[int]
    format: str
    rules_edition: int
    ruleset: str
    players: int
    options: BirminghamView.Options
    era: str
    round: int
    turn_order: _containers.RepeatedScalarFieldContainer[int]
    turn_index: int
    actions_left: int
    current: int
    decision: str
    game_over: bool
    pending: BirminghamView.Pending
    markets: BirminghamView.Markets
    wild_piles: BirminghamView.WildPiles
    discards: _containers.ScalarMap[str, int]
    merchants: _containers.MessageMap[str, BirminghamView.MerchantSpace]
    links: _containers.ScalarMap[str, int]
    slots: _containers.MessageMap[str, BirminghamView.Slot]
    player_state: _containers.RepeatedCompositeFieldContainer[BirminghamView.Player]
    deck_size: int
    seat: int
    undo_steps: int
    undo_refused: BirminghamReason.Code
    def __init__(self, format: _Optional[str] = ..., rules_edition: _Optional[int] = ..., ruleset: _Optional[str] = ..., players: _Optional[int] = ..., options: _Optional[_Union[BirminghamView.Options, _Mapping]] = ..., era: _Optional[str] = ..., round: _Optional[int] = ..., turn_order: _Optional[_Iterable[int]] = ..., turn_index: _Optional[int] = ..., actions_left: _Optional[int] = ..., current: _Optional[int] = ..., decision: _Optional[str] = ..., game_over: _Optional[bool] = ..., pending: _Optional[_Union[BirminghamView.Pending, _Mapping]] = ..., markets: _Optional[_Union[BirminghamView.Markets, _Mapping]] = ..., wild_piles: _Optional[_Union[BirminghamView.WildPiles, _Mapping]] = ..., discards: _Optional[_Mapping[str, int]] = ..., merchants: _Optional[_Mapping[str, BirminghamView.MerchantSpace]] = ..., links: _Optional[_Mapping[str, int]] = ..., slots: _Optional[_Mapping[str, BirminghamView.Slot]] = ..., player_state: _Optional[_Iterable[_Union[BirminghamView.Player, _Mapping]]] = ..., deck_size: _Optional[int] = ..., seat: _Optional[int] = ..., undo_steps: _Optional[int] = ..., undo_refused: _Optional[_Union[BirminghamReason.Code, str]] = ...) -> None: ...

class BirminghamEvent(_message.Message):
    __slots__ = ("action", "pay", "coal", "iron", "beer", "build", "overbuild", "link", "develop", "sell", "flip", "market_sale", "merchant_bonus", "loan", "scout", "turn_end", "turn_order", "income", "shortfall_remove", "vp_loss", "link_score", "tile_score", "tile_removed", "era_end", "bonus_score", "game_end", "round_end", "undo")
    class Action(_message.Message):
        __slots__ = ("action", "card")
        ACTION_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        action: str
        card: str
        def __init__(self, action: _Optional[str] = ..., card: _Optional[str] = ...) -> None: ...
    class Pay(_message.Message):
        __slots__ = ("money",)
        MONEY_FIELD_NUMBER: _ClassVar[int]
        money: int
        def __init__(self, money: _Optional[int] = ...) -> None: ...
    class Coal(_message.Message):
        __slots__ = ("source", "price")
        SOURCE_FIELD_NUMBER: _ClassVar[int]
        PRICE_FIELD_NUMBER: _ClassVar[int]
        source: str
        price: int
        def __init__(self, source: _Optional[str] = ..., price: _Optional[int] = ...) -> None: ...
    class Iron(_message.Message):
        __slots__ = ("source", "price")
        SOURCE_FIELD_NUMBER: _ClassVar[int]
        PRICE_FIELD_NUMBER: _ClassVar[int]
        source: str
        price: int
        def __init__(self, source: _Optional[str] = ..., price: _Optional[int] = ...) -> None: ...
    class Beer(_message.Message):
        __slots__ = ("source", "merchant")
        SOURCE_FIELD_NUMBER: _ClassVar[int]
        MERCHANT_FIELD_NUMBER: _ClassVar[int]
        source: str
        merchant: str
        def __init__(self, source: _Optional[str] = ..., merchant: _Optional[str] = ...) -> None: ...
    class Build(_message.Message):
        __slots__ = ("slot", "industry", "level")
        SLOT_FIELD_NUMBER: _ClassVar[int]
        INDUSTRY_FIELD_NUMBER: _ClassVar[int]
        LEVEL_FIELD_NUMBER: _ClassVar[int]
        slot: str
        industry: str
        level: int
        def __init__(self, slot: _Optional[str] = ..., industry: _Optional[str] = ..., level: _Optional[int] = ...) -> None: ...
    class Overbuild(_message.Message):
        __slots__ = ("slot", "previous_owner", "previous_level")
        SLOT_FIELD_NUMBER: _ClassVar[int]
        PREVIOUS_OWNER_FIELD_NUMBER: _ClassVar[int]
        PREVIOUS_LEVEL_FIELD_NUMBER: _ClassVar[int]
        slot: str
        previous_owner: int
        previous_level: int
        def __init__(self, slot: _Optional[str] = ..., previous_owner: _Optional[int] = ..., previous_level: _Optional[int] = ...) -> None: ...
    class Link(_message.Message):
        __slots__ = ("link",)
        LINK_FIELD_NUMBER: _ClassVar[int]
        link: str
        def __init__(self, link: _Optional[str] = ...) -> None: ...
    class Develop(_message.Message):
        __slots__ = ("industry", "level")
        INDUSTRY_FIELD_NUMBER: _ClassVar[int]
        LEVEL_FIELD_NUMBER: _ClassVar[int]
        industry: str
        level: int
        def __init__(self, industry: _Optional[str] = ..., level: _Optional[int] = ...) -> None: ...
    class Sell(_message.Message):
        __slots__ = ("slot", "merchant")
        SLOT_FIELD_NUMBER: _ClassVar[int]
        MERCHANT_FIELD_NUMBER: _ClassVar[int]
        slot: str
        merchant: str
        def __init__(self, slot: _Optional[str] = ..., merchant: _Optional[str] = ...) -> None: ...
    class Flip(_message.Message):
        __slots__ = ("slot", "income_spaces")
        SLOT_FIELD_NUMBER: _ClassVar[int]
        INCOME_SPACES_FIELD_NUMBER: _ClassVar[int]
        slot: str
        income_spaces: int
        def __init__(self, slot: _Optional[str] = ..., income_spaces: _Optional[int] = ...) -> None: ...
    class MarketSale(_message.Message):
        __slots__ = ("slot", "cubes", "money")
        SLOT_FIELD_NUMBER: _ClassVar[int]
        CUBES_FIELD_NUMBER: _ClassVar[int]
        MONEY_FIELD_NUMBER: _ClassVar[int]
        slot: str
        cubes: int
        money: int
        def __init__(self, slot: _Optional[str] = ..., cubes: _Optional[int] = ..., money: _Optional[int] = ...) -> None: ...
    class MerchantBonus(_message.Message):
        __slots__ = ("merchant", "bonus", "amount")
        MERCHANT_FIELD_NUMBER: _ClassVar[int]
        BONUS_FIELD_NUMBER: _ClassVar[int]
        AMOUNT_FIELD_NUMBER: _ClassVar[int]
        merchant: str
        bonus: str
        amount: int
        def __init__(self, merchant: _Optional[str] = ..., bonus: _Optional[str] = ..., amount: _Optional[int] = ...) -> None: ...
    class Loan(_message.Message):
        __slots__ = ("income_space",)
        INCOME_SPACE_FIELD_NUMBER: _ClassVar[int]
        income_space: int
        def __init__(self, income_space: _Optional[int] = ...) -> None: ...
    class Scout(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class Pass(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class TurnEnd(_message.Message):
        __slots__ = ("cards_drawn",)
        CARDS_DRAWN_FIELD_NUMBER: _ClassVar[int]
        cards_drawn: int
        def __init__(self, cards_drawn: _Optional[int] = ...) -> None: ...
    class TurnOrder(_message.Message):
        __slots__ = ("order",)
        ORDER_FIELD_NUMBER: _ClassVar[int]
        order: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, order: _Optional[_Iterable[int]] = ...) -> None: ...
    class Income(_message.Message):
        __slots__ = ("money",)
        MONEY_FIELD_NUMBER: _ClassVar[int]
        money: int
        def __init__(self, money: _Optional[int] = ...) -> None: ...
    class ShortfallRemove(_message.Message):
        __slots__ = ("slot", "money")
        SLOT_FIELD_NUMBER: _ClassVar[int]
        MONEY_FIELD_NUMBER: _ClassVar[int]
        slot: str
        money: int
        def __init__(self, slot: _Optional[str] = ..., money: _Optional[int] = ...) -> None: ...
    class VpLoss(_message.Message):
        __slots__ = ("vp",)
        VP_FIELD_NUMBER: _ClassVar[int]
        vp: int
        def __init__(self, vp: _Optional[int] = ...) -> None: ...
    class LinkScore(_message.Message):
        __slots__ = ("link", "vp")
        LINK_FIELD_NUMBER: _ClassVar[int]
        VP_FIELD_NUMBER: _ClassVar[int]
        link: str
        vp: int
        def __init__(self, link: _Optional[str] = ..., vp: _Optional[int] = ...) -> None: ...
    class TileScore(_message.Message):
        __slots__ = ("slot", "vp")
        SLOT_FIELD_NUMBER: _ClassVar[int]
        VP_FIELD_NUMBER: _ClassVar[int]
        slot: str
        vp: int
        def __init__(self, slot: _Optional[str] = ..., vp: _Optional[int] = ...) -> None: ...
    class TileRemoved(_message.Message):
        __slots__ = ("slot",)
        SLOT_FIELD_NUMBER: _ClassVar[int]
        slot: str
        def __init__(self, slot: _Optional[str] = ...) -> None: ...
    class EraEnd(_message.Message):
        __slots__ = ("era",)
        ERA_FIELD_NUMBER: _ClassVar[int]
        era: str
        def __init__(self, era: _Optional[str] = ...) -> None: ...
    class BonusScore(_message.Message):
        __slots__ = ("vp",)
        VP_FIELD_NUMBER: _ClassVar[int]
        vp: int
        def __init__(self, vp: _Optional[int] = ...) -> None: ...
    class GameEnd(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class Undo(_message.Message):
        __slots__ = ("decisions", "ids")
        DECISIONS_FIELD_NUMBER: _ClassVar[int]
        IDS_FIELD_NUMBER: _ClassVar[int]
        decisions: int
        ids: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, decisions: _Optional[int] = ..., ids: _Optional[_Iterable[int]] = ...) -> None: ...
    class RoundEnd(_message.Message):
        __slots__ = ("round",)
        ROUND_FIELD_NUMBER: _ClassVar[int]
        round: int
        def __init__(self, round: _Optional[int] = ...) -> None: ...
    ACTION_FIELD_NUMBER: _ClassVar[int]
    PAY_FIELD_NUMBER: _ClassVar[int]
    COAL_FIELD_NUMBER: _ClassVar[int]
    IRON_FIELD_NUMBER: _ClassVar[int]
    BEER_FIELD_NUMBER: _ClassVar[int]
    BUILD_FIELD_NUMBER: _ClassVar[int]
    OVERBUILD_FIELD_NUMBER: _ClassVar[int]
    LINK_FIELD_NUMBER: _ClassVar[int]
    DEVELOP_FIELD_NUMBER: _ClassVar[int]
    SELL_FIELD_NUMBER: _ClassVar[int]
    FLIP_FIELD_NUMBER: _ClassVar[int]
    MARKET_SALE_FIELD_NUMBER: _ClassVar[int]
    MERCHANT_BONUS_FIELD_NUMBER: _ClassVar[int]
    LOAN_FIELD_NUMBER: _ClassVar[int]
    SCOUT_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    TURN_END_FIELD_NUMBER: _ClassVar[int]
    TURN_ORDER_FIELD_NUMBER: _ClassVar[int]
    INCOME_FIELD_NUMBER: _ClassVar[int]
    SHORTFALL_REMOVE_FIELD_NUMBER: _ClassVar[int]
    VP_LOSS_FIELD_NUMBER: _ClassVar[int]
    LINK_SCORE_FIELD_NUMBER: _ClassVar[int]
    TILE_SCORE_FIELD_NUMBER: _ClassVar[int]
    TILE_REMOVED_FIELD_NUMBER: _ClassVar[int]
    ERA_END_FIELD_NUMBER: _ClassVar[int]
    BONUS_SCORE_FIELD_NUMBER: _ClassVar[int]
    GAME_END_FIELD_NUMBER: _ClassVar[int]
    ROUND_END_FIELD_NUMBER: _ClassVar[int]
    UNDO_FIELD_NUMBER: _ClassVar[int]
    action: BirminghamEvent.Action
    pay: BirminghamEvent.Pay
    coal: BirminghamEvent.Coal
    iron: BirminghamEvent.Iron
    beer: BirminghamEvent.Beer
    build: BirminghamEvent.Build
    overbuild: BirminghamEvent.Overbuild
    link: BirminghamEvent.Link
    develop: BirminghamEvent.Develop
    sell: BirminghamEvent.Sell
    flip: BirminghamEvent.Flip
    market_sale: BirminghamEvent.MarketSale
    merchant_bonus: BirminghamEvent.MerchantBonus
    loan: BirminghamEvent.Loan
    scout: BirminghamEvent.Scout
    turn_end: BirminghamEvent.TurnEnd
    turn_order: BirminghamEvent.TurnOrder
    income: BirminghamEvent.Income
    shortfall_remove: BirminghamEvent.ShortfallRemove
    vp_loss: BirminghamEvent.VpLoss
    link_score: BirminghamEvent.LinkScore
    tile_score: BirminghamEvent.TileScore
    tile_removed: BirminghamEvent.TileRemoved
    era_end: BirminghamEvent.EraEnd
    bonus_score: BirminghamEvent.BonusScore
    game_end: BirminghamEvent.GameEnd
    round_end: BirminghamEvent.RoundEnd
    undo: BirminghamEvent.Undo
    def __init__(self, action: _Optional[_Union[BirminghamEvent.Action, _Mapping]] = ..., pay: _Optional[_Union[BirminghamEvent.Pay, _Mapping]] = ..., coal: _Optional[_Union[BirminghamEvent.Coal, _Mapping]] = ..., iron: _Optional[_Union[BirminghamEvent.Iron, _Mapping]] = ..., beer: _Optional[_Union[BirminghamEvent.Beer, _Mapping]] = ..., build: _Optional[_Union[BirminghamEvent.Build, _Mapping]] = ..., overbuild: _Optional[_Union[BirminghamEvent.Overbuild, _Mapping]] = ..., link: _Optional[_Union[BirminghamEvent.Link, _Mapping]] = ..., develop: _Optional[_Union[BirminghamEvent.Develop, _Mapping]] = ..., sell: _Optional[_Union[BirminghamEvent.Sell, _Mapping]] = ..., flip: _Optional[_Union[BirminghamEvent.Flip, _Mapping]] = ..., market_sale: _Optional[_Union[BirminghamEvent.MarketSale, _Mapping]] = ..., merchant_bonus: _Optional[_Union[BirminghamEvent.MerchantBonus, _Mapping]] = ..., loan: _Optional[_Union[BirminghamEvent.Loan, _Mapping]] = ..., scout: _Optional[_Union[BirminghamEvent.Scout, _Mapping]] = ..., turn_end: _Optional[_Union[BirminghamEvent.TurnEnd, _Mapping]] = ..., turn_order: _Optional[_Union[BirminghamEvent.TurnOrder, _Mapping]] = ..., income: _Optional[_Union[BirminghamEvent.Income, _Mapping]] = ..., shortfall_remove: _Optional[_Union[BirminghamEvent.ShortfallRemove, _Mapping]] = ..., vp_loss: _Optional[_Union[BirminghamEvent.VpLoss, _Mapping]] = ..., link_score: _Optional[_Union[BirminghamEvent.LinkScore, _Mapping]] = ..., tile_score: _Optional[_Union[BirminghamEvent.TileScore, _Mapping]] = ..., tile_removed: _Optional[_Union[BirminghamEvent.TileRemoved, _Mapping]] = ..., era_end: _Optional[_Union[BirminghamEvent.EraEnd, _Mapping]] = ..., bonus_score: _Optional[_Union[BirminghamEvent.BonusScore, _Mapping]] = ..., game_end: _Optional[_Union[BirminghamEvent.GameEnd, _Mapping]] = ..., round_end: _Optional[_Union[BirminghamEvent.RoundEnd, _Mapping]] = ..., undo: _Optional[_Union[BirminghamEvent.Undo, _Mapping]] = ..., **kwargs) -> None: ...

class BirminghamMeaning(_message.Message):
    __slots__ = ("action_type", "card", "industry", "slot", "link", "merchant", "market", "done")
    class ActionType(_message.Message):
        __slots__ = ("action_type",)
        ACTION_TYPE_FIELD_NUMBER: _ClassVar[int]
        action_type: str
        def __init__(self, action_type: _Optional[str] = ...) -> None: ...
    class Card(_message.Message):
        __slots__ = ("card",)
        CARD_FIELD_NUMBER: _ClassVar[int]
        card: str
        def __init__(self, card: _Optional[str] = ...) -> None: ...
    class Industry(_message.Message):
        __slots__ = ("industry",)
        INDUSTRY_FIELD_NUMBER: _ClassVar[int]
        industry: str
        def __init__(self, industry: _Optional[str] = ...) -> None: ...
    class Slot(_message.Message):
        __slots__ = ("slot", "location")
        SLOT_FIELD_NUMBER: _ClassVar[int]
        LOCATION_FIELD_NUMBER: _ClassVar[int]
        slot: str
        location: str
        def __init__(self, slot: _Optional[str] = ..., location: _Optional[str] = ...) -> None: ...
    class Link(_message.Message):
        __slots__ = ("link",)
        LINK_FIELD_NUMBER: _ClassVar[int]
        link: str
        def __init__(self, link: _Optional[str] = ...) -> None: ...
    class Merchant(_message.Message):
        __slots__ = ("merchant", "location")
        MERCHANT_FIELD_NUMBER: _ClassVar[int]
        LOCATION_FIELD_NUMBER: _ClassVar[int]
        merchant: str
        location: str
        def __init__(self, merchant: _Optional[str] = ..., location: _Optional[str] = ...) -> None: ...
    class Market(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class Done(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    ACTION_TYPE_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    INDUSTRY_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    LINK_FIELD_NUMBER: _ClassVar[int]
    MERCHANT_FIELD_NUMBER: _ClassVar[int]
    MARKET_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    action_type: BirminghamMeaning.ActionType
    card: BirminghamMeaning.Card
    industry: BirminghamMeaning.Industry
    slot: BirminghamMeaning.Slot
    link: BirminghamMeaning.Link
    merchant: BirminghamMeaning.Merchant
    market: BirminghamMeaning.Market
    done: BirminghamMeaning.Done
    def __init__(self, action_type: _Optional[_Union[BirminghamMeaning.ActionType, _Mapping]] = ..., card: _Optional[_Union[BirminghamMeaning.Card, _Mapping]] = ..., industry: _Optional[_Union[BirminghamMeaning.Industry, _Mapping]] = ..., slot: _Optional[_Union[BirminghamMeaning.Slot, _Mapping]] = ..., link: _Optional[_Union[BirminghamMeaning.Link, _Mapping]] = ..., merchant: _Optional[_Union[BirminghamMeaning.Merchant, _Mapping]] = ..., market: _Optional[_Union[BirminghamMeaning.Market, _Mapping]] = ..., done: _Optional[_Union[BirminghamMeaning.Done, _Mapping]] = ...) -> None: ...

class BirminghamCost(_message.Message):
    __slots__ = ("money", "coal", "iron", "beer", "market_income", "flips", "merchant_bonus", "income_spaces", "vp", "money_after")
    class Flip(_message.Message):
        __slots__ = ("seat", "slot", "income_spaces")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        SLOT_FIELD_NUMBER: _ClassVar[int]
        INCOME_SPACES_FIELD_NUMBER: _ClassVar[int]
        seat: int
        slot: str
        income_spaces: int
        def __init__(self, seat: _Optional[int] = ..., slot: _Optional[str] = ..., income_spaces: _Optional[int] = ...) -> None: ...
    class MerchantBonus(_message.Message):
        __slots__ = ("seat", "merchant", "bonus", "amount")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        MERCHANT_FIELD_NUMBER: _ClassVar[int]
        BONUS_FIELD_NUMBER: _ClassVar[int]
        AMOUNT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        merchant: str
        bonus: str
        amount: int
        def __init__(self, seat: _Optional[int] = ..., merchant: _Optional[str] = ..., bonus: _Optional[str] = ..., amount: _Optional[int] = ...) -> None: ...
    MONEY_FIELD_NUMBER: _ClassVar[int]
    COAL_FIELD_NUMBER: _ClassVar[int]
    IRON_FIELD_NUMBER: _ClassVar[int]
    BEER_FIELD_NUMBER: _ClassVar[int]
    MARKET_INCOME_FIELD_NUMBER: _ClassVar[int]
    FLIPS_FIELD_NUMBER: _ClassVar[int]
    MERCHANT_BONUS_FIELD_NUMBER: _ClassVar[int]
    INCOME_SPACES_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    MONEY_AFTER_FIELD_NUMBER: _ClassVar[int]
    money: int
    coal: _containers.RepeatedScalarFieldContainer[str]
    iron: _containers.RepeatedScalarFieldContainer[str]
    beer: _containers.RepeatedScalarFieldContainer[str]
    market_income: int
    flips: _containers.RepeatedCompositeFieldContainer[BirminghamCost.Flip]
    merchant_bonus: _containers.RepeatedCompositeFieldContainer[BirminghamCost.MerchantBonus]
    income_spaces: int
    vp: int
    money_after: int
    def __init__(self, money: _Optional[int] = ..., coal: _Optional[_Iterable[str]] = ..., iron: _Optional[_Iterable[str]] = ..., beer: _Optional[_Iterable[str]] = ..., market_income: _Optional[int] = ..., flips: _Optional[_Iterable[_Union[BirminghamCost.Flip, _Mapping]]] = ..., merchant_bonus: _Optional[_Iterable[_Union[BirminghamCost.MerchantBonus, _Mapping]]] = ..., income_spaces: _Optional[int] = ..., vp: _Optional[int] = ..., money_after: _Optional[int] = ...) -> None: ...

class BirminghamReason(_message.Message):
    __slots__ = ()
    class Code(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        LEGAL: _ClassVar[BirminghamReason.Code]
        WRONG_DECISION: _ClassVar[BirminghamReason.Code]
        CARD_NOT_IN_HAND: _ClassVar[BirminghamReason.Code]
        NOT_ENOUGH_MONEY: _ClassVar[BirminghamReason.Code]
        NOT_IN_NETWORK: _ClassVar[BirminghamReason.Code]
        SLOT_OCCUPIED: _ClassVar[BirminghamReason.Code]
        NO_TILES_LEFT: _ClassVar[BirminghamReason.Code]
        LINK_TAKEN: _ClassVar[BirminghamReason.Code]
        NO_LINK_TILES: _ClassVar[BirminghamReason.Code]
        LOAN_LIMIT: _ClassVar[BirminghamReason.Code]
        NOT_ENOUGH_CARDS: _ClassVar[BirminghamReason.Code]
        NOT_YOUR_TILE: _ClassVar[BirminghamReason.Code]
        NO_OPTION: _ClassVar[BirminghamReason.Code]
        CANONICAL_ORDER: _ClassVar[BirminghamReason.Code]
        MUST_CHOOSE: _ClassVar[BirminghamReason.Code]
        INCOMPLETE_ACTION: _ClassVar[BirminghamReason.Code]
        TOO_MANY_DECISIONS: _ClassVar[BirminghamReason.Code]
        NOTHING_TO_UNDO: _ClassVar[BirminghamReason.Code]
        UNDO_DISABLED: _ClassVar[BirminghamReason.Code]
        UNDO_BARRIER: _ClassVar[BirminghamReason.Code]
        NO_CONNECTED_COAL: _ClassVar[BirminghamReason.Code]
        CANAL_ONE_TILE_PER_TOWN: _ClassVar[BirminghamReason.Code]
        SLOT_WRONG_INDUSTRY: _ClassVar[BirminghamReason.Code]
        SINGLE_ICON_SLOT_FIRST: _ClassVar[BirminghamReason.Code]
        TILE_WRONG_ERA: _ClassVar[BirminghamReason.Code]
        CANNOT_OVERBUILD: _ClassVar[BirminghamReason.Code]
        CARD_DOES_NOT_ALLOW: _ClassVar[BirminghamReason.Code]
        FARM_NEEDS_INDUSTRY_CARD: _ClassVar[BirminghamReason.Code]
        LINK_WRONG_ERA: _ClassVar[BirminghamReason.Code]
        LINK_NOT_IN_NETWORK: _ClassVar[BirminghamReason.Code]
        NO_BEER: _ClassVar[BirminghamReason.Code]
        NOT_NEAREST_COAL: _ClassVar[BirminghamReason.Code]
        MINE_COAL_FIRST: _ClassVar[BirminghamReason.Code]
        WORKS_IRON_FIRST: _ClassVar[BirminghamReason.Code]
        NOT_CONNECTED_TO_MERCHANT: _ClassVar[BirminghamReason.Code]
        NO_MERCHANT_ACCEPTS: _ClassVar[BirminghamReason.Code]
        ALREADY_FLIPPED: _ClassVar[BirminghamReason.Code]
        NOT_SELLABLE: _ClassVar[BirminghamReason.Code]
        LIGHTBULB_POTTERY: _ClassVar[BirminghamReason.Code]
        HOLDING_WILD_CARD: _ClassVar[BirminghamReason.Code]
        SOURCE_EMPTY: _ClassVar[BirminghamReason.Code]
        BEER_NOT_CONNECTED: _ClassVar[BirminghamReason.Code]
        MERCHANT_BEER_NOT_HERE: _ClassVar[BirminghamReason.Code]
        NO_TILE_HERE: _ClassVar[BirminghamReason.Code]
        NO_BUILD_WITH_CARD: _ClassVar[BirminghamReason.Code]
        BEER_NOT_NEEDED: _ClassVar[BirminghamReason.Code]
    LEGAL: BirminghamReason.Code
    WRONG_DECISION: BirminghamReason.Code
    CARD_NOT_IN_HAND: BirminghamReason.Code
    NOT_ENOUGH_MONEY: BirminghamReason.Code
    NOT_IN_NETWORK: BirminghamReason.Code
    SLOT_OCCUPIED: BirminghamReason.Code
    NO_TILES_LEFT: BirminghamReason.Code
    LINK_TAKEN: BirminghamReason.Code
    NO_LINK_TILES: BirminghamReason.Code
    LOAN_LIMIT: BirminghamReason.Code
    NOT_ENOUGH_CARDS: BirminghamReason.Code
    NOT_YOUR_TILE: BirminghamReason.Code
    NO_OPTION: BirminghamReason.Code
    CANONICAL_ORDER: BirminghamReason.Code
    MUST_CHOOSE: BirminghamReason.Code
    INCOMPLETE_ACTION: BirminghamReason.Code
    TOO_MANY_DECISIONS: BirminghamReason.Code
    NOTHING_TO_UNDO: BirminghamReason.Code
    UNDO_DISABLED: BirminghamReason.Code
    UNDO_BARRIER: BirminghamReason.Code
    NO_CONNECTED_COAL: BirminghamReason.Code
    CANAL_ONE_TILE_PER_TOWN: BirminghamReason.Code
    SLOT_WRONG_INDUSTRY: BirminghamReason.Code
    SINGLE_ICON_SLOT_FIRST: BirminghamReason.Code
    TILE_WRONG_ERA: BirminghamReason.Code
    CANNOT_OVERBUILD: BirminghamReason.Code
    CARD_DOES_NOT_ALLOW: BirminghamReason.Code
    FARM_NEEDS_INDUSTRY_CARD: BirminghamReason.Code
    LINK_WRONG_ERA: BirminghamReason.Code
    LINK_NOT_IN_NETWORK: BirminghamReason.Code
    NO_BEER: BirminghamReason.Code
    NOT_NEAREST_COAL: BirminghamReason.Code
    MINE_COAL_FIRST: BirminghamReason.Code
    WORKS_IRON_FIRST: BirminghamReason.Code
    NOT_CONNECTED_TO_MERCHANT: BirminghamReason.Code
    NO_MERCHANT_ACCEPTS: BirminghamReason.Code
    ALREADY_FLIPPED: BirminghamReason.Code
    NOT_SELLABLE: BirminghamReason.Code
    LIGHTBULB_POTTERY: BirminghamReason.Code
    HOLDING_WILD_CARD: BirminghamReason.Code
    SOURCE_EMPTY: BirminghamReason.Code
    BEER_NOT_CONNECTED: BirminghamReason.Code
    MERCHANT_BEER_NOT_HERE: BirminghamReason.Code
    NO_TILE_HERE: BirminghamReason.Code
    NO_BUILD_WITH_CARD: BirminghamReason.Code
    BEER_NOT_NEEDED: BirminghamReason.Code
    def __init__(self) -> None: ...
