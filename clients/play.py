"""`brass play`: people at a terminal prompt and any bots, in-process or through the service.

    brass play --seats human,greedy                       # in-process, against greedy
    brass play --seats human,mcts:iterations=200,random --server 127.0.0.1:50051
    brass play --game GAME_ID --token SEAT_TOKEN --seats human --server 127.0.0.1:50051
    brass play --seats human,greedy,mcts:iterations=200 --server 127.0.0.1:50051 --server-bots

A seat is `human` (asked at the prompt) or a bot spec (docs/BOTS.md). Without --server the
game is played in this process; with it, a game is created on the server and every seat
submits with its own token, while the bots decide on a local mirror kept in step with the
server (the server's version is checked after every decision). With --game, the seats of
an existing game whose tokens are given are played here; the others are played by whoever
holds their tokens. Such a joined game is only known through its seat views, so its seats
may be `human` or `random` (a bot that looks ahead needs the whole game). With
--server-bots the bot seats are the server's own (CreateGame's bot_seats): they decide on
the server, and only the people's seats are played here, as in a joined game.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TextIO

import brass

from .bots import make_bot

HUMAN = "human"
JOINED_SEAT_KINDS = (HUMAN, "random")

Read = Callable[[str], str]


class Chooser(Protocol):
    def choose(self, game: brass.Game, rng: random.Random) -> int: ...


@dataclass
class PlayResult:
    game_id: str | None  # None when played in-process
    seed: int | None     # None for a joined game (the server never tells it)
    scores: list[int]
    winners: list[int]
    decisions: int


def describe_view(view: dict, seat: int) -> str:
    """A person's summary of their seat view (era, round, money, VP, income, hand)."""
    players = view.get("player_state") or []
    me = players[seat] if seat < len(players) else {}
    hand = ", ".join(f"{card}×{n}" if n > 1 else card for card, n in me.get("hand", {}).items())
    return (
        f"{view.get('era', '?')} era, round {view.get('round', '?')}; you (seat {seat}): "
        f"£{me.get('money', '?')}, {me.get('vp', '?')} VP, income level "
        f"{me.get('income_level', '?')}\n  hand: {hand or '-'}"
    )


def ask(seat: int, decision: str, view: dict, options: Sequence[tuple[int, str]], read: Read,
        out: TextIO) -> int:
    """Shows the seat its view and numbered options; returns the id of the one chosen."""
    out.write(f"\n{describe_view(view, seat)}\n  decision: {decision}\n")
    for index, (_, name) in enumerate(options):
        out.write(f"  [{index}] {name}\n")
    while True:
        answer = read(f"seat {seat}, choose 0-{len(options) - 1}: ").strip()
        if answer.isdigit() and int(answer) < len(options):
            return options[int(answer)][0]
        out.write("  please type one of the numbers shown\n")


class Terminal:
    """A person at the prompt, as a seat player: sees only their own seat's view."""

    def __init__(self, read: Read, out: TextIO) -> None:
        self.read, self.out = read, out

    def choose(self, game: brass.Game, rng: random.Random) -> int:
        seat = game.current_seat
        assert seat is not None
        options = [(o.id, o.name) for o in game.legal_actions()]
        return ask(seat, game.decision, game.view(seat), options, self.read, self.out)


def seat_players(kinds: Sequence[str], read: Read, out: TextIO) -> list[Chooser]:
    """One player per seat; an unknown bot or bot option is refused here, before play."""
    return [Terminal(read, out) if kind == HUMAN else make_bot(kind, allow_import=True)
            for kind in kinds]


def play(
    target: str | None = None,
    *,
    players: int = 2,
    seats: Sequence[str] = ("random", "random"),
    seed: int | None = None,
    game_id: str | None = None,
    tokens: Sequence[str] | None = None,
    read: Read = input,
    out: TextIO | None = None,
    server_bots: bool = False,
    web: str | None = None,
) -> PlayResult:
    """Plays a game to its end: in-process when `target` is None, else on that server.

    Without `game_id` a new game is created and `seats` names a kind for every seat; with
    it (a server is needed), `tokens` are the tokens of the seats played here and `seats`
    gives their kinds in the same order. `out` defaults to sys.stdout. A game created on a
    server is announced with each human seat's token and the web page's links to resume or
    watch it (`web`: the page's address, else web_address(target)).
    """
    out = out or sys.stdout  # looked up per call: tests and click swap sys.stdout
    if game_id is not None:
        if target is None:
            raise ValueError("joining a game needs its server")
        return _play_joined(target, game_id, tokens or (), seats, read, out)
    if len(seats) != players:
        raise ValueError(f"give a kind for each of the {players} seats")
    choosers = seat_players(seats, read, out)
    if server_bots:
        if target is None:
            raise ValueError("server bots need a server")
        return _play_with_server_bots(target, seats, seed, read, out, web)
    from . import eval as evaluation

    base_seed = seed if seed is not None else random.SystemRandom().getrandbits(31)
    game_seed = evaluation.game_seed(base_seed, 0)
    rngs = [evaluation.bot_rng(base_seed, 0, s) for s in range(players)]
    game = brass.Game.new(players, seed=game_seed)
    if target is None:
        while not game.is_over:
            seat = game.current_seat
            assert seat is not None
            _show(game.apply(choosers[seat].choose(game, rngs[seat]), seat), out)
        return _finish(None, game_seed, game, out)
    from .sdk import GameClient

    with GameClient(target) as client:
        created = client.create_game(players, seed=game_seed,
                                     seat_names=evaluation.entry_labels(seats))
        tokens_by_seat = {s.seat: s.token for s in created.seats}
        _announce(created.game_id, target, web, tokens_by_seat, seats, "", out)
        while not game.is_over:
            seat = game.current_seat
            assert seat is not None
            option = choosers[seat].choose(game, rngs[seat])
            response = client.submit_action(created.game_id, tokens_by_seat[seat], option,
                                            expected_version=game.version)
            _show(game.apply(option, seat), out)
            if response.state.summary.version != game.version:
                raise RuntimeError(f"server at version {response.state.summary.version}, "
                                   f"mirror at {game.version}")
        return _finish(created.game_id, game_seed, game, out)


def _show(events: list[dict], out: TextIO) -> None:
    for event in events:
        if event.get("type") in ("action", "era_end", "game_end"):
            out.write(f"  {event_line(event)}\n")


def _finish(game_id: str | None, seed: int, game: brass.Game, out: TextIO) -> PlayResult:
    scores, winners = game.scores(), game.winners()
    out.write("game over: scores " + ", ".join(f"seat {i}: {s}" for i, s in enumerate(scores))
              + f"; winners {winners}\n")
    return PlayResult(game_id, seed, scores, winners, game.version)


# `brass serve`'s REST port, where its web page is, when the page's address is not given
DEFAULT_WEB_PORT = 8080


def web_address(target: str) -> str:
    """The reference web page of the server whose gRPC address is `target` (HOST:PORT): its
    REST port's default on the same host."""
    host = target.rpartition(":")[0] or target
    return f"http://{host}:{DEFAULT_WEB_PORT}"


def _announce(game_id: str, target: str, web: str | None, tokens: dict[int, str],
              seats: Sequence[str], note: str, out: TextIO) -> None:
    """A new game's id; each human seat's token with the web page's link that takes the seat
    (to go on in a browser, or after this program stops) and the link to watch it."""
    page = (web or web_address(target)).rstrip("/")
    out.write(f"game {game_id} created on {target}{note}\n")
    for seat, kind in enumerate(seats):
        if kind == HUMAN:
            out.write(f"  seat {seat}: token {tokens[seat]}\n"
                      f"    resume in a browser: {page}/#/play/{game_id}/{seat}/{tokens[seat]}\n"
                      f"    or here: brass play --server {target} --game {game_id} "
                      f"--token {tokens[seat]}\n")
    out.write(f"  watch: {page}/#/game/{game_id}\n")


def _play_with_server_bots(target: str, seats: Sequence[str], seed: int | None, read: Read,
                           out: TextIO, web: str | None = None) -> PlayResult:
    """Creates the game with the bot seats played by the server; plays the people's here."""
    from .sdk import GameClient

    humans = [seat for seat, kind in enumerate(seats) if kind == HUMAN]
    if not humans:
        raise ValueError("--server-bots needs at least one human seat")
    bots = {seat: kind for seat, kind in enumerate(seats) if kind != HUMAN}
    with GameClient(target) as client:
        created = client.create_game(len(seats), seed=seed, bot_seats=bots)
    tokens = {s.seat: s.token for s in created.seats}
    _announce(created.game_id, target, web, tokens, seats, " (bots on the server: "
              + ", ".join(f"seat {s} {b}" for s, b in sorted(bots.items())) + ")", out)
    return _play_joined(target, created.game_id, [tokens[s] for s in humans],
                        [HUMAN] * len(humans), read, out)


def _play_joined(target: str, game_id: str, tokens: Sequence[str], seats: Sequence[str],
                 read: Read, out: TextIO) -> PlayResult:
    from .sdk import BrassError, GameClient, event_dict, pb, view_dict

    if not tokens:
        raise ValueError("joining a game needs at least one seat token")
    if len(tokens) != len(seats):
        raise ValueError("give one seat kind per token")
    for kind in seats:
        if kind not in JOINED_SEAT_KINDS:
            raise ValueError(f"seat kind {kind!r} in a joined game: use one of "
                             f"{', '.join(JOINED_SEAT_KINDS)}")
    rng = random.Random()
    with GameClient(target) as client:
        seat_tokens, kinds = {}, {}
        for token, kind in zip(tokens, seats, strict=True):
            seat = client.get_game(game_id, token).viewer_seat
            seat_tokens[seat], kinds[seat] = token, kind
        out.write(f"joined game {game_id} as seat(s) {sorted(kinds)}\n")
        last = 0
        for update in client.watch_game(game_id, from_version=0):
            last = update.version
            _show([event_dict(e) for e in update.events], out)
            if not update.HasField("state"):
                continue
            summary = update.state.summary
            if summary.status == pb.GAME_STATUS_FINISHED:
                scores, winners = list(update.state.scores), list(update.state.winners)
                out.write("game over: scores "
                          + ", ".join(f"seat {i}: {s}" for i, s in enumerate(scores))
                          + f"; winners {winners}\n")
                return PlayResult(game_id, None, scores, winners, summary.version)
            seat = summary.current_seat
            if seat not in kinds:
                continue  # someone else's turn: wait for the next update
            token = seat_tokens[seat]
            legal = client.list_legal_actions(game_id, token)
            if kinds[seat] == HUMAN:
                view = view_dict(client.get_game(game_id, token))
                choice = ask(seat, legal.decision, view,
                             [(o.id, o.name) for o in legal.options], read, out)
            else:
                choice = rng.choice(legal.options).id
            try:
                client.submit_action(game_id, token, choice, expected_version=legal.version)
            except BrassError as error:
                out.write(f"  refused ({error.reason}): {error.message}\n")
        raise RuntimeError(f"the watch stream ended at version {last} before the game did")


def event_line(event: dict) -> str:
    seat = event.get("seat")
    details = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("type", "seat"))
    who = f"seat {seat} " if seat is not None else ""
    return f"{who}{event['type']}" + (f" ({details})" if details else "")


def main(argv: list[str] | None = None) -> None:
    """`python -m brass_clients.play ...` is `brass play ...`."""
    from .cli import main as cli_main

    cli_main(args=["play", *(sys.argv[1:] if argv is None else argv)], prog_name="brass")


if __name__ == "__main__":
    main()
