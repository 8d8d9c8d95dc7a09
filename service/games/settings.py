"""ServiceSettings: every limit and period of the service, with why each default is what
it is. app/config.py reads them from the environment.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..bots.batches import BatchLimits
from ..limits import (
    BOT_MOVE_TIMEOUT_SECONDS,
    BOT_SEAT_MAX_MCTS_ITERATIONS,
    BOT_SEAT_MAX_SEARCH_COST,
)
from ..store.sqlite import DEFAULT_COMMIT_WAIT_MS


@dataclass
class ServiceSettings:
    snapshot_every: int = 32
    cache_size: int = 2048
    default_page_size: int = 20
    max_page_size: int = 100
    max_watchers: int = 1000
    max_watchers_per_game: int = 100
    watch_rate_per_second: float = 2.0
    watch_burst: int = 20
    # Watch streams (gRPC and SSE) one client may hold at once.
    max_watchers_per_client: int = 20
    # Watch streams from one address (every token, every connection), at most; besides,
    # never more than half of the slots (max_watchers) other addresses leave.
    max_watchers_per_address: int = 100
    # WatchGame streams one gRPC connection may carry at once.
    max_watchers_per_connection: int = 20
    # A watch stream with nothing to send for this long (its game unmoved) is ended with
    # WATCH_IDLE, freeing its slot; clients that still want it watch again. 0: never.
    watch_idle_seconds: float = 3600.0
    # Proxies (comma-separated addresses or CIDR networks) whose forwarding header names
    # the client; and which header they write: x-forwarded-for or forwarded (RFC 7239).
    trusted_proxies: str = ""
    forwarded_header: str = "x-forwarded-for"
    # Games one client may create (CreateGame), in the `limits` library's notation; empty:
    # no limit. The operator token is not limited.
    create_game_rate: str = "5/second;60/minute;1000/day"
    # Accounts (service/accounts/): created per client address, read (GetAccount) per
    # address, and key changes (RotateAccountKey, RevokeAccountKey) per account, in the
    # same notation; empty: no limit. The operator token is not limited.
    create_account_rate: str = "3/minute;10/hour;30/day"
    account_read_rate: str = "30/second;900/minute"
    account_key_rate: str = "5/minute;20/day"
    # Challenges one account may send (a rate) and have open at once; account event
    # streams in all and per account (StreamAccountEvents, gRPC and SSE).
    challenge_rate: str = "10/minute;200/day"
    max_open_challenges: int = 20
    max_account_streams: int = 1000
    max_account_streams_per_account: int = 2
    # Games one account may have waiting or in progress at once (CreateGame and JoinGame
    # with its key, accepted challenges); 0: no bound.
    max_account_games: int = 50
    # Ratings (service/ratings/): an account's rating in a ruleset and player count is
    # provisional for its first games there (the model's sigma is still wide); reads of
    # the leaderboard and rating histories per address.
    rating_provisional_games: int = 10
    ratings_read_rate: str = "30/second;900/minute"
    # Arenas (service/arena/): entrants, rounds and games one arena may have (every game
    # is a server game: bots' turns and clocks), arenas running at once, WatchArena
    # streams in all; the turn clock of arena games that have none of their own (a bot
    # that does not answer within it forfeits); how often a running arena looks at its
    # games besides their changes, and its lease (another process takes the arena over
    # when its runner's process died this long ago); a JSON file of arenas the server
    # runs (BRASS_ARENA_CONFIG; docs/ARENA.md).
    max_arena_entrants: int = 16
    max_arena_rounds: int = 50
    max_arena_games: int = 500
    max_running_arenas: int = 4
    max_arena_watchers: int = 200
    arena_turn_ms: int = 30_000
    arena_poll_seconds: float = 1.0
    arena_lease_seconds: float = 15.0
    arena_config: str = ""
    # Reads of a game's past one client (its address) may make: GetGame with at_version
    # and GetReplay, together (the web replay viewer asks one a step, 2.5 a second when
    # it plays, one where a dragged slider rests); empty: no limit.
    past_read_rate: str = "30/second;900/minute"
    # JoinGame from one client (its address), in the same notation; empty: no limit.
    join_game_rate: str = "2/second;30/minute;500/day"
    # Seats one address may hold at once in games waiting for players (0: no limit), and
    # in any one such game (0: no limit) unless it created the game: one client cannot
    # take every open seat of the lobby, nor fill a stranger's game. The operator token is
    # not limited.
    max_waiting_seats_per_address: int = 8
    max_seats_per_address_per_game: int = 1
    # The bearer token of the operator: needed for RunBatch and CreateGameFromPosition
    # (refused for everyone when empty), and free of the creation quota.
    operator_token: str = field(default="", repr=False)
    # The key of server bots' random seeds (BRASS_BOT_SECRET); empty: one drawn at start-up
    # (`--workers` hands the supervisor's to every worker).
    bot_secret: str = field(default="", repr=False)
    # Games in progress with no decision for this many days are deleted (0: never), by a
    # sweep every expiry_sweep_seconds in each process. Finished games are kept.
    abandoned_game_days: float = 7.0
    expiry_sweep_seconds: float = 3600.0
    # Watchers re-check the store this often even without a notification, so a lost
    # notification (or another process on the same SQLite file) only delays an update.
    watch_poll_seconds: float = 2.0
    # With several processes on one SQLite file: how often each checks whether another one
    # wrote (a read of shared memory), to wake its watchers.
    other_writers_poll_seconds: float = 0.05
    # SQLite: how long the writer waits under load for more writes to share a commit.
    sqlite_commit_wait_ms: float = DEFAULT_COMMIT_WAIT_MS
    # SQLite: commit writes on the event loop, synced by a helper thread (store/sqlite_loop.py;
    # one worker: a third more decisions/s and 5% less CPU each than handing every write to
    # the writer thread); false: the writer thread alone, whose commit is synced before any
    # other process can read it.
    sqlite_loop_writes: bool = True
    watch_batch: int = 256
    # RunBatch: games per request, batches at once, worker processes (0: CPUs - 1, at
    # least 1), the search budget accepted from clients, the workers' nice increment.
    batch_max_games: int = 1000
    max_batches: int = 4
    batch_workers: int = 0
    batch_max_mcts_iterations: int = 2000
    batch_worker_nice: int = 10
    # Server bot seats: worker processes for their decisions (a pool of their own; 0: one
    # per CPU this process may use; one more is kept for the clock's stand-ins), the
    # search budget a seat's bot may have and the whole search's cost (iterations x
    # rollout length, bot_seats.search_cost), how long a decision may take before a random
    # legal one is played instead, and a pause before each bot decision (0: none; people
    # watching may prefer one).
    bot_workers: int = 0
    bot_max_mcts_iterations: int = BOT_SEAT_MAX_MCTS_ITERATIONS
    bot_max_search_cost: int = BOT_SEAT_MAX_SEARCH_COST
    # Per creator (the client's address; the operator is not limited), in the `limits`
    # library's notation (empty: no limit): bot seats placed (CreateGame's bot_seats and
    # SetSeatBot), games given a bot seat, and games whose every seat is a bot. Bot work
    # is shared round-robin between creators whatever these allow.
    bot_seat_rate: str = "60/hour;300/day"
    bot_game_rate: str = "20/hour;100/day"
    all_bot_game_rate: str = "2/hour;10/day"
    bot_move_timeout_seconds: float = BOT_MOVE_TIMEOUT_SECONDS
    bot_move_delay_seconds: float = 0.0
    # The server's own moves (bot turns, timeouts): how often each process looks for games
    # due (one indexed read), how many games it holds at once (most wait for a bot
    # worker's turn), and for how long a process that took one holds it before another may
    # (should it die meanwhile; renewed every third of it while a bot works).
    timer_poll_seconds: float = 0.2
    max_server_moves: int = 1000
    server_move_lease_seconds: float = 10.0
    # UndoAction is refused (UNDO_LIMIT) once a game has this many versions. Without it a
    # seat could take back and make again the same decision forever, growing the game's log
    # and the work of every GetReplay of it without bound. Random 4-player games end in
    # about 390 (Birmingham) and 530 (Pittsburgh) versions: no game played in earnest comes
    # near.
    max_undo_version: int = 5000
    # Webhooks (docs/WEBHOOKS.md): per account and per game seat (or host) at most so
    # many; where they may be sent (private, loopback, link-local… addresses only if
    # allowed: all, or the networks listed, e.g. 127.0.0.0/8 for a receiver on this host);
    # the sender's look at the outbox, its attempts' timeout, how long a process holds a
    # claimed delivery (a dead process's are sent again after it: more than the timeout),
    # attempts before a delivery is dead, the backoff's first and longest wait, and
    # deliveries under way at once per process.
    max_account_webhooks: int = 5
    max_seat_webhooks: int = 2
    webhook_allow_private: bool = False
    webhook_allowed_networks: str = ""
    webhook_poll_seconds: float = 1.0
    webhook_timeout_seconds: float = 10.0
    webhook_lease_seconds: float = 60.0
    webhook_max_attempts: int = 10
    webhook_retry_base_seconds: float = 5.0
    webhook_retry_max_seconds: float = 3600.0
    webhook_concurrency: int = 32

    def batch_limits(self) -> BatchLimits:
        return BatchLimits(
            max_games=self.batch_max_games,
            max_batches=self.max_batches,
            workers=self.batch_workers,
            max_mcts_iterations=self.batch_max_mcts_iterations,
            worker_nice=self.batch_worker_nice,
        )
