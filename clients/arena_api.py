"""The arena calls of the SDK (issue 24): start an arena between bot accounts and server
bots (the operator's), read its table, follow it live.

    from brass_clients.arena_api import create_arena, watch_arena

    with GameClient("127.0.0.1:50051", operator_token=token) as client:
        arena = create_arena(client, "Friday bots", accounts=[bot_id],
                             server_bots=["greedy", "random"])
        for table in watch_arena(client, arena.arena_id):   # ends once it finished
            print(table.round, [(s.name, s.points) for s in table.standings])
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import grpc

from .sdk import BrassError, GameClient, pb


def create_arena(client: GameClient, name: str, *, accounts: Sequence[str] = (),
                 server_bots: Sequence[str] = (), format: int = 0, players: int = 0,
                 rounds: int = 0, ruleset: int = 0, options: pb.GameOptions | None = None,
                 seed: int | None = None) -> pb.Arena:
    """Starts an arena (the client's operator token) between bot accounts (their ids) and
    server bots (specs: "random", "mcts:iterations=200"); the server runs it to the end.
    Not retried: a lost answer would leave a second arena running."""
    request = pb.CreateArenaRequest(
        name=name, format=format, players=players,  # type: ignore[arg-type]
        rounds=rounds, ruleset=ruleset, options=options, seed=seed,  # type: ignore[arg-type]
        entrants=[*(pb.ArenaEntrant(account_id=account) for account in accounts),
                  *(pb.ArenaEntrant(server_bot=spec) for spec in server_bots)])
    return client._call("CreateArena", request, client.operator_token,  # type: ignore[no-any-return]
                        retry=False).arena


def get_arena(client: GameClient, arena_id: str) -> pb.Arena:
    """An arena's table of results and its games."""
    return client._call("GetArena", pb.GetArenaRequest(arena_id=arena_id)).arena  # type: ignore[no-any-return]


def list_arenas(client: GameClient, *, status: int = 0, page_size: int = 0,
                page_token: str = "") -> pb.ListArenasResponse:
    """A page of the arenas, newest first (each without its tables)."""
    return client._call("ListArenas", pb.ListArenasRequest(  # type: ignore[no-any-return]
        status=status, page_size=page_size, page_token=page_token))  # type: ignore[arg-type]


def watch_arena(client: GameClient, arena_id: str) -> Iterator[pb.Arena]:
    """The arena as it stands, then at each change; ends once it finished."""
    call = client._stub.WatchArena(pb.WatchArenaRequest(arena_id=arena_id))
    try:
        yield from (update.arena for update in call)
    except grpc.RpcError as error:
        raise BrassError.from_rpc_error(error) from None
    finally:
        call.cancel()
