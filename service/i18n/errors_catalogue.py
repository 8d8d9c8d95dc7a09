"""The service's own messages in each language, by stable message id.

`error.<REASON>` is each reason's sentence (a refusal whose detail is not catalogued is sent
as this sentence with its English detail after it); the other ids are whole messages with
their detail as named parameters. The English text of an id is the message's format exactly.
"""

from __future__ import annotations

EN, ZH = "en", "zh-Hans"

# reason -> (English sentence, Chinese sentence)
_REASON_SENTENCES: dict[str, tuple[str, str]] = {
    "UNKNOWN_GAME": ("no such game", "没有这局游戏"),
    "UNKNOWN_RULESET": ("no such ruleset", "没有这个规则集"),
    "UNAUTHENTICATED": ("a valid token is needed", "需要有效的令牌"),
    "NOT_YOUR_TURN": ("it is not your turn", "还没轮到你"),
    "OPERATOR_ONLY": ("only the server's operator may do this", "只有服务器管理员可以这样做"),
    "ILLEGAL_ACTION": ("that action is not allowed now", "现在不能执行这个行动"),
    "STALE_VERSION": ("the game has changed since that version", "自该版本以来对局已有变化"),
    "GAME_OVER": ("the game is over", "对局已结束"),
    "INVALID_ARGUMENT": ("the request is not valid", "请求无效"),
    "UNKNOWN_ACTION": ("no such action", "没有这个行动"),
    "BAD_POSITION": ("the position is not valid", "局面无效"),
    "IDEMPOTENCY_KEY_REUSED": ("that idempotency key was used for another request",
                               "这个幂等键已用于另一个请求"),
    "RATE_LIMITED": ("too many requests; retry later", "请求过多，请稍后再试"),
    "MESSAGE_TOO_LARGE": ("the request is too large", "请求过大"),
    "UNSUPPORTED_ENCODING": ("bodies are read as they are sent, without Content-Encoding",
                             "请求体须按原样发送，不能带 Content-Encoding"),
    "REQUEST_TIMEOUT": ("the request did not arrive whole in time", "请求未能及时完整送达"),
    "HEADERS_TOO_LARGE": ("the request line or a header is too long", "请求行或某个请求头过长"),
    "BAD_PAGE_TOKEN": ("the page token is not valid", "分页令牌无效"),
    "CORRUPT_GAME": ("the stored game cannot be read", "无法读取已保存的对局"),
    "INTERNAL": ("internal error", "服务器内部错误"),
    "UNAVAILABLE": ("the service is unavailable; retry", "服务暂不可用，请重试"),
    "UNKNOWN_ROUTE": ("no such route", "没有这个接口地址"),
    "METHOD_NOT_ALLOWED": ("that method is not allowed here", "此处不允许该请求方法"),
    "GAME_NOT_STARTED": ("the game has not started", "对局尚未开始"),
    "SEAT_TAKEN": ("that seat is taken", "这个座位已有人"),
    "GAME_FULL": ("the game is full", "对局已满员"),
    "SEATS_OPEN": ("some seats are still open", "还有空座位"),
    "GAME_STARTED": ("the game has started", "对局已经开始"),
    "NOT_HOST": ("only the host may do this", "只有房主可以这样做"),
    "SEAT_RESIGNED": ("that seat has resigned", "该座位已认输"),
    "BOT_SEAT": ("a bot plays that seat", "该座位由机器人操作"),
    "TURN_TIMED_OUT": ("the turn's time ran out", "本回合已超时"),
    "NOTHING_TO_UNDO": ("nothing to undo", "没有可撤销的决定"),
    "UNDO_DISABLED": ("undo is off in this game", "本局已关闭撤销"),
    "UNDO_BARRIER": ("hidden information was revealed since: the decisions before it stand",
                     "此后已揭示隐藏信息，之前的决定不能撤销"),
    "UNDO_LIMIT": ("this game's log is as long as the server keeps", "本局记录已达服务器上限"),
    "SEAT_TOKEN_REVOKED": ("the seat's token was revoked", "该座位的令牌已被撤销"),
    "WATCH_IDLE": ("the game did not change for a while; watch again",
                   "对局长时间无变化，请重新关注"),
    "BANNED": ("the host does not admit you to this game", "房主不允许你加入这局游戏"),
    "ALREADY_SEATED": ("this address already holds its share of the seats",
                       "这个地址占用的座位已达上限"),
    "NAME_TAKEN": ("that name is taken", "这个名字已被使用"),
    "UNKNOWN_ACCOUNT": ("no such account", "没有这个账户"),
    "NOT_YOUR_ACCOUNT": ("that account is not yours", "这不是你的账户"),
    "SPECTATOR_DELAY": ("spectators see the game with a delay", "观众看到的对局有延迟"),
    "GAME_NOT_OVER": ("the game is not over", "对局尚未结束"),
    "REMATCH_UNAVAILABLE": ("no rematch can be made of this game", "这局游戏无法再来一局"),
    "REMATCH_STARTED": ("the rematch has started", "再来一局已经开始"),
    "UNSUPPORTED_MEDIA_TYPE": ("a request body is sent as application/json",
                               "请求体必须以 application/json 发送"),
    "UNKNOWN_SCHEMA": ("no such schema", "没有这个模式"),
    "CORS_DISABLED": ("cross-origin calls are off on this server", "此服务器未开启跨域调用"),
}

# Whole messages with their detail as parameters (the English text is the message sent).
_MESSAGES: dict[str, tuple[str, str]] = {
    "unknown_game": ("no game has id {game_id!r}", "没有编号为 {game_id!r} 的对局"),
    "illegal_action": ("action {id} ({name}) is not legal now: {reason}",
                       "选项 {id}（{name}）现在不可用：{reason}"),
    "game_over": ("game {game_id} is over", "对局 {game_id} 已结束"),
    "not_your_turn": ("seat {current_seat} is to act, not seat {seat}",
                      "现在轮到座位 {current_seat} 行动，不是座位 {seat}"),
    "needs_token": ("{operation} needs a token (Authorization: Bearer …)",
                    "{operation} 需要令牌（Authorization: Bearer …）"),
    "bad_authorization": ("the authorization value must be 'Bearer <seat token>'",
                          "authorization 的值必须是 'Bearer <座位令牌>'"),
    "unknown_route": ("no route {path}", "没有接口地址 {path}"),
    "internal_request": ("internal error (request id {request_id})",
                         "服务器内部错误（请求编号 {request_id}）"),
    "unknown_ruleset_name": ("no ruleset {name!r}; known: {known}",
                             "没有规则集 {name!r}；已知的有：{known}"),
}

ERRORS: dict[str, dict[str, str]] = {
    **{f"error.{reason}": {EN: en, ZH: zh} for reason, (en, zh) in _REASON_SENTENCES.items()},
    **{message_id: {EN: en, ZH: zh} for message_id, (en, zh) in _MESSAGES.items()},
}
