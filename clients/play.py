"""`brass play`: bots, or a human at a terminal prompt, against a running game server.

    python -m brass_clients.play --players 3 --seats human,random,random
    python -m brass_clients.play --game GAME_ID --token SEAT_TOKEN --seats human

Every seat listed in --seats is played here ("random" picks a random legal option,
"human" asks at the prompt); seats of a joined game that are not ours are played by whoever
holds their tokens. The game is followed through WatchGame, so nothing is polled.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from .sdk import DEFAULT_TARGET, BrassError, GameClient, pb, struct_to_dict

SEAT_KINDS = ("random", "human")


def _describe_view(view: dict, seat: int) -> str:
    me = view.get("player_state", [{}])[seat] if view.get("player_state") else {}
    hand = ", ".join(f"{card}×{n}" if n > 1 else card for card, n in me.get("hand", {}).items())
    return (
        f"{view.get('era', '?')} era, round {view.get('round', '?')}; you (seat {seat}): "
        f"£{me.get('money', '?')}, {me.get('vp', '?')} VP, income level "
        f"{me.get('income_level', '?')}\n  hand: {hand or '-'}"
    )


def _ask_human(
    legal: pb.ListLegalActionsResponse,
    view: dict,
    read: Callable[[str], str],
    out: TextIO,
) -> int:
    out.write(f"\n{_describe_view(view, legal.seat)}\n  decision: {legal.decision}\n")
    for index, option in enumerate(legal.options):
        out.write(f"  [{index}] {option.name}\n")
    while True:
        answer = read(f"seat {legal.seat}, choose 0-{len(legal.options) - 1}: ").strip()
        if answer.isdigit() and int(answer) < len(legal.options):
            return legal.options[int(answer)].id
        out.write("  please type one of the numbers shown\n")


def play(
    target: str = DEFAULT_TARGET,
    *,
    players: int = 2,
    seats: Sequence[str] = ("random", "random"),
    seed: int | None = None,
    game_id: str | None = None,
    tokens: Sequence[str] | None = None,
    read: Callable[[str], str] = input,
    out: TextIO = sys.stdout,
    rng: random.Random | None = None,
) -> pb.GameState:
    """Plays the given seats until the game ends; returns the final (spectator) state.

    Without `game_id` a new game is created and `seats` names a kind for every seat; with
    it, `tokens` are the tokens of the seats played here (the server tells which seat each
    one holds) and `seats` gives their kinds in the same order.
    """
    for kind in seats:
        if kind not in SEAT_KINDS:
            raise ValueError(f"seat kind {kind!r}: use one of {', '.join(SEAT_KINDS)}")
    rng = rng or random.Random(seed)
    with GameClient(target) as client:
        if game_id is None:
            if len(seats) != players:
                raise ValueError(f"give a kind for each of the {players} seats")
            created = client.create_game(players=players, seed=seed)
            game_id = created.game_id
            seat_tokens = {s.seat: s.token for s in created.seats}
            kinds = dict(enumerate(seats))
            out.write(f"game {game_id} created on {target}\n")
        else:
            if not tokens:
                raise ValueError("joining a game needs at least one seat token")
            if len(tokens) != len(seats):
                raise ValueError("give one seat kind per token")
            seat_tokens, kinds = {}, {}
            for token, kind in zip(tokens, seats, strict=True):
                seat = client.get_game(game_id, token).viewer_seat
                seat_tokens[seat], kinds[seat] = token, kind
            out.write(f"joined game {game_id} as seat(s) {sorted(kinds)}\n")
        last = 0
        for update in client.watch_game(game_id, from_version=0):
            last = update.version
            for event in update.events:
                data = struct_to_dict(event.data)
                if data.get("type") in ("action", "era_end", "game_end"):
                    out.write(f"  v{event.version}: {_event_line(data)}\n")
            if not update.HasField("state"):
                continue
            summary = update.state.summary
            if summary.status == pb.GAME_STATUS_FINISHED:
                out.write(
                    "game over: scores "
                    + ", ".join(f"seat {i}: {s}" for i, s in enumerate(update.state.scores))
                    + f"; winners {list(update.state.winners)}\n"
                )
                return update.state
            seat = summary.current_seat
            if seat not in kinds:
                continue  # someone else's turn: wait for the next update
            token = seat_tokens[seat]
            legal = client.list_legal_actions(game_id, token)
            if kinds[seat] == "human":
                view = struct_to_dict(client.get_game(game_id, token).view)
                choice = _ask_human(legal, view, read, out)
            else:
                choice = rng.choice(legal.options).id
            try:
                client.submit_action(game_id, token, choice, expected_version=legal.version)
            except BrassError as error:
                out.write(f"  refused ({error.reason}): {error.message}\n")
        raise RuntimeError(f"the watch stream ended at version {last} before the game did")


def _event_line(event: dict) -> str:
    seat = event.get("seat")
    details = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("type", "seat"))
    who = f"seat {seat} " if seat is not None else ""
    return f"{who}{event['type']}" + (f" ({details})" if details else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="brass play", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default=DEFAULT_TARGET, help="gRPC address of the server")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seats", default=None,
                        help="comma-separated kinds (random, human); default all random")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--game", default=None, help="join this game instead of creating one")
    parser.add_argument("--token", action="append", default=[],
                        help="token of a seat played here (repeat for several seats)")
    args = parser.parse_args(argv)
    tokens = args.token if args.game else None
    seats = args.seats.split(",") if args.seats else ["random"] * (
        len(tokens) if tokens else args.players
    )
    try:
        play(args.server, players=args.players, seats=seats, seed=args.seed,
             game_id=args.game, tokens=tokens)
    except BrassError as error:
        print(f"error {error.reason}: {error.message}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
