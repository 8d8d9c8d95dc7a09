"""Hosted play: the seats' state (seats.py) and the clock (clock.py), plain functions of a
game's stored row; callers use them as `hosted.<name>`."""

from .clock import (
    MAX_CLOCK_MS,
    MAX_INCREMENT_MS,
    MIN_CLOCK_MS,
    clock_after,
    clock_message,
    clock_settings,
    clock_start,
    deadline,
    next_due,
    started_at,
)
from .seats import (
    BOT_DIGEST,
    BY_BOT,
    BY_TIMEOUT,
    DEFAULT_STAND_IN,
    MAX_LOBBY_EVENTS,
    MAX_SPECTATOR_DELAY_TURNS,
    accounts_of,
    add_event,
    bind_account,
    bots_of,
    changed,
    end_reason,
    host_policy,
    hosting_of,
    is_bot_seat,
    is_ended,
    lobby_event,
    lobby_events_after,
    new_hosting,
    refuse_hosted_options,
    rematch_state,
    seat_infos,
    spectator_delay,
)

__all__ = [
    "BOT_DIGEST", "BY_BOT", "BY_TIMEOUT", "DEFAULT_STAND_IN", "MAX_CLOCK_MS",
    "MAX_INCREMENT_MS", "MAX_LOBBY_EVENTS", "MAX_SPECTATOR_DELAY_TURNS", "MIN_CLOCK_MS",
    "accounts_of", "add_event",
    "bind_account", "bots_of", "changed",
    "clock_after", "clock_message", "clock_settings", "clock_start", "deadline", "end_reason",
    "host_policy", "hosting_of", "is_bot_seat", "is_ended", "lobby_event",
    "lobby_events_after", "new_hosting", "next_due", "refuse_hosted_options", "rematch_state",
    "seat_infos",
    "spectator_delay", "started_at",
]
