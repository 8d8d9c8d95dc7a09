"""The `brass` command: benchmarks, the game service, bot games and bot evaluations."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import brass

err_console = Console(stderr=True)


def _console() -> Console:
    """stdout console, made wide when output goes to a file or pipe (tables stay readable)."""
    return Console() if sys.stdout.isatty() else Console(width=150)


@click.group()
@click.version_option(package_name="brass-engine", message="%(version)s")
def main() -> None:
    """Brass engine tools (Brass: Birmingham and Brass: Pittsburgh)."""


# ------------------------------------------------------------------------------ bench
@main.group()
def bench() -> None:
    """Benchmarks."""


_RULESET_NAMES = [rs.name for rs in brass.rulesets()]


@bench.command("core")
@click.option("--ruleset", type=click.Choice(_RULESET_NAMES), default=brass.DEFAULT_RULESET,
              show_default=True, help="Which game's rules to play.")
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True)
@click.option("--games", type=click.IntRange(1), default=1000, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--policy", type=click.Choice(["random", "sane"]), default="random",
              show_default=True, help="Playout policy inside C.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench_core(ruleset: str, players: int, games: int, seed: int, policy: str,
               as_json: bool) -> None:
    """Full random games inside the C core: throughput, clone and legal-generation cost."""
    figures = brass.random_playouts(players, games, seed, policy, ruleset=ruleset)
    if as_json:
        click.echo(json.dumps(figures, sort_keys=True))
        return
    table = Table(title=f"C core, {ruleset}: {games} {policy} games, {players} players")
    table.add_column("figure")
    table.add_column("value", justify="right")
    rows = [
        ("games/s", f"{figures['games_per_second']:,.1f}"),
        ("games per CPU second", f"{figures['games_per_cpu_second']:,.1f}"),
        ("CPU per game (µs)", f"{figures['cpu_us_per_game']:,.1f}"),
        ("decisions/s", f"{figures['decisions_per_second']:,.0f}"),
        ("mean decisions per game", f"{figures['mean_decisions_per_game']:.1f}"),
        ("clone (µs)", f"{figures['clone_us']:.3f}"),
        ("legal generation (µs)", f"{figures['legal_generation_us']:.3f}"),
        ("state bytes", str(figures["state_bytes"])),
        ("seconds", f"{figures['seconds']:.3f}"),
    ]
    for name, value in rows:
        table.add_row(name, value)
    _console().print(table)


COMPARED_FIGURES = ("games_per_second", "games_per_cpu_second", "cpu_us_per_game",
                    "mean_decisions_per_game", "legal_generation_us", "clone_us")


def compare_rulesets(players: int, games: int, rounds: int, seed: int,
                     policy: str) -> dict[str, Any]:
    """`rounds` runs of `games` full games per ruleset in this process, the rulesets
    alternating (A B, then B A, ...) so that a change in the machine's load hits both alike;
    the medians of every figure, and Pittsburgh's CPU throughput against Birmingham's."""
    import statistics

    names = [rs.name for rs in brass.rulesets()]
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    for k in range(rounds):
        for name in names if k % 2 == 0 else names[::-1]:
            runs[name].append(brass.random_playouts(players, games, seed + k, policy,
                                                    ruleset=name))
    medians = {name: {key: statistics.median(run[key] for run in done)
                      for key in COMPARED_FIGURES}
               | {"state_bytes": done[0]["state_bytes"],
                  "rules_edition": brass.get_ruleset(name).rules_edition}
               for name, done in runs.items()}
    base = medians[brass.DEFAULT_RULESET]["games_per_cpu_second"]
    return {"players": players, "games_per_run": games, "rounds": rounds, "policy": policy,
            "seed": seed, "medians": medians,
            "cpu_throughput_vs_birmingham": {
                name: m["games_per_cpu_second"] / base if base else 0.0
                for name, m in medians.items()},
            "runs": runs}


@bench.command("rulesets")
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True)
@click.option("--games", type=click.IntRange(1), default=500, show_default=True,
              help="Games per run.")
@click.option("--rounds", type=click.IntRange(1), default=5, show_default=True,
              help="Runs per ruleset, alternating.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--policy", type=click.Choice(["random", "sane"]), default="random",
              show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (every run too).")
def bench_rulesets(players: int, games: int, rounds: int, seed: int, policy: str,
                   as_json: bool) -> None:
    """Every ruleset's core benchmark in one process, alternating runs; medians."""
    report = compare_rulesets(players, games, rounds, seed, policy)
    if as_json:
        click.echo(json.dumps(report, sort_keys=True))
        return
    names = list(report["medians"])
    table = Table(title=f"C core, {players} players: medians of {rounds} alternating runs of "
                        f"{games} {policy} games")
    table.add_column("figure")
    for name in names:
        table.add_column(name, justify="right")
    for key in (*COMPARED_FIGURES, "state_bytes"):
        table.add_row(key, *(f"{report['medians'][n][key]:,.3f}" for n in names))
    table.add_row("CPU throughput vs birmingham",
                  *(f"{report['cpu_throughput_vs_birmingham'][n]:.3f}" for n in names))
    _console().print(table)


@bench.command("vector")
@click.option("--envs", type=click.IntRange(1), default=64, show_default=True)
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--steps", type=click.IntRange(1), default=20000, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True)
def bench_vector(envs: int, players: int, steps: int, seed: int, as_json: bool) -> None:
    """Steps/s of VectorEnv against a plain one-game loop (random legal actions)."""
    from brass_clients.vector import benchmark

    figures = benchmark(envs=envs, players=players, steps=steps, seed=seed)
    if as_json:
        click.echo(json.dumps(figures, sort_keys=True))
        return
    for key, value in figures.items():
        _console().print(f"{key}: {value}")


# ------------------------------------------------------------------------------ serve
@main.command()
@click.option("--port", "grpc_port", type=int, envvar="BRASS_GRPC_PORT", default=50051,
              show_default=True, help="gRPC port (env BRASS_GRPC_PORT).")
@click.option("--http-port", type=int, envvar="BRASS_HTTP_PORT", default=8080,
              show_default=True, help="REST/SSE port (env BRASS_HTTP_PORT).")
@click.option("--database-url", envvar="BRASS_DATABASE_URL", default=None,
              help="sqlite:///path or postgresql://... (env BRASS_DATABASE_URL).")
@click.option("--log-level", envvar="BRASS_LOG_LEVEL", default="info", show_default=True,
              type=click.Choice(["debug", "info", "warning", "error"], case_sensitive=False))
@click.option("--workers", type=click.IntRange(min=1), envvar="BRASS_WORKERS", default=1,
              show_default=True,
              help="Server processes sharing the ports and the store, about one core each "
                   "(env BRASS_WORKERS).")
@click.option("--cors-origins", default=None, metavar="ORIGINS",
              help="Browser origins allowed to call the REST API, comma separated, or '*' "
                   "(env BRASS_CORS_ORIGINS; default: none, CORS off).")
@click.option("--trusted-proxies", envvar="BRASS_TRUSTED_PROXIES", default=None,
              help="Comma-separated addresses or CIDR networks of proxies whose forwarding "
                   "header (BRASS_FORWARDED_HEADER: x-forwarded-for or forwarded) names the "
                   "client (env BRASS_TRUSTED_PROXIES; default none).")
@click.option("--operator-token", envvar="BRASS_OPERATOR_TOKEN", default=None,
              help="Bearer token that RunBatch and CreateGameFromPosition need and that is "
                   "free of the creation quota (env BRASS_OPERATOR_TOKEN, which keeps it out "
                   "of the process list; default none: those calls are refused).")
def serve(grpc_port: int, http_port: int, database_url: str | None, log_level: str,
          workers: int, cors_origins: str | None, trusted_proxies: str | None,
          operator_token: str | None) -> None:
    """Run the game service (gRPC + REST gateway)."""
    if cors_origins is not None:
        os.environ["BRASS_CORS_ORIGINS"] = cors_origins  # read by every worker
    try:
        from brass_service.app.main import serve as run_server
    except ImportError as exc:
        raise click.ClickException(f"the game service is not available: {exc}") from exc
    run_server(grpc_port=grpc_port, http_port=http_port, database_url=database_url,
               log_level=log_level.lower(), workers=workers, trusted_proxies=trusted_proxies,
               operator_token=operator_token)


# ------------------------------------------------------------------------------ play
def _split_bots(text: str) -> list[str]:
    return [part for part in (p.strip() for p in text.split(",")) if part]


def _option_value(text: str) -> Any:
    """An --option value as JSON when it is JSON (true, 12), else the text (tiny)."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _game_options(given: tuple[str, ...]) -> dict[str, Any]:
    """--option KEY=VALUE pairs as the engine's options (it checks names and values)."""
    options: dict[str, Any] = {}
    for item in given:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--option")
        if key.strip() in options:
            raise click.BadParameter(f"option {key.strip()!r} is given twice",
                                     param_hint="--option")
        options[key.strip()] = _option_value(value.strip())
    return options


_ruleset_option = click.option(
    "--ruleset", type=click.Choice(_RULESET_NAMES), default=brass.DEFAULT_RULESET,
    show_default=True, help="Which game's rules to play.")
_options_option = click.option(
    "--option", "game_options", multiple=True, metavar="KEY=VALUE",
    help="A game option of the ruleset, e.g. data=tiny for Pittsburgh (repeatable; "
         "brass.get_ruleset(name).options lists them).")


@main.command()
@click.option("--seats", default=None,
              help="Comma-separated seats: 'human' (asked at the prompt) or a bot spec, e.g. "
              "'human,mcts:iterations=200,greedy'.")
@click.option("--bots", default=None, help="Bots only, repeated to fill --players "
              "(default 'greedy,random' when --seats is not given).")
@click.option("--players", type=click.IntRange(2, 4), default=None,
              help="Seats (default: number of seats or bots given).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--server", default=None, metavar="HOST:PORT",
              help="Play through the gRPC game service instead of in-process.")
@click.option("--game", "game_id", default=None,
              help="Join this game on --server (with --token for each seat played here).")
@click.option("--token", "tokens", multiple=True, help="A seat token of --game (repeatable).")
@click.option("--server-bots", is_flag=True,
              help="With --server and a human seat: the bot seats are played by the server's "
              "bots (CreateGame bot_seats), not here.")
@click.option("--web", default=None, metavar="URL",
              help="The server's web page, for the links printed with a new game's seat "
              "tokens (default: http://HOST:8080, HOST of --server).")
@click.option("--verbose", "-v", is_flag=True, help="Print every decision.")
@_ruleset_option
@_options_option
@click.option("--json", "as_json", is_flag=True)
def play(seats: str | None, bots: str | None, players: int | None, seed: int,
         server: str | None, game_id: str | None, tokens: tuple[str, ...], server_bots: bool,
         web: str | None, verbose: bool, ruleset: str, game_options: tuple[str, ...],
         as_json: bool) -> None:
    """Play one game: people at the prompt and bots, in-process or through the service."""
    from brass_clients import eval as evaluation
    from brass_clients import play as playing

    if seats and bots:
        raise click.UsageError("give --seats or --bots, not both")
    if game_id or (seats and playing.HUMAN in _split_bots(seats)):
        if game_id and not server:
            raise click.UsageError("--game needs --server")
        kinds = _split_bots(seats or "human")
        try:
            result = playing.play(server, players=players or len(kinds), seats=kinds,
                                  seed=seed, game_id=game_id, tokens=tokens,
                                  server_bots=server_bots, web=web)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--seats") from exc
        if as_json:
            click.echo(json.dumps({"game_id": result.game_id, "scores": result.scores,
                                   "winners": result.winners, "decisions": result.decisions,
                                   "via": "server" if server else "engine"}, sort_keys=True))
        return
    specs = _split_bots(seats or bots or "greedy,random")
    try:
        entries = evaluation.lineup(specs, players or len(specs))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--seats") from exc
    options = _checked_options(ruleset, len(entries), game_options)
    if server:
        result = evaluation.play_game_on_server(server, entries, seed, 0, ruleset, options)
    elif verbose:
        result = _play_verbose(entries, seed, ruleset, options)
    else:
        result = evaluation.play_game(entries, seed, 0, ruleset, options)
    assert result is not None  # (no deadline)
    labels = evaluation.entry_labels(entries)
    rows = [{"seat": seat, "bot": labels[entry], "vp": result.scores[seat],
             "winner": seat in result.winners}
            for seat, entry in enumerate(result.seat_entries)]
    if as_json:
        click.echo(json.dumps({"seed": result.seed, "decisions": result.decisions,
                               "seats": rows, "via": "server" if server else "engine"},
                              sort_keys=True))
        return
    table = Table(title=f"game seed {result.seed}: {result.decisions} decisions")
    for column in ("seat", "bot", "VP", ""):
        table.add_column(column)
    for row in rows:
        table.add_row(str(row["seat"]), row["bot"], str(row["vp"]),
                      "winner" if row["winner"] else "")
    _console().print(table)


def _checked_options(ruleset: str, players: int, given: tuple[str, ...]) -> dict[str, Any]:
    """The --option pairs, refused up front (a usage error) when the engine refuses them."""
    options = _game_options(given)
    try:
        brass.Game.new(players, seed=0, ruleset=ruleset, options=options)
    except brass.EngineError as exc:
        raise click.BadParameter(str(exc), param_hint="--option") from exc
    return options


def _play_verbose(entries: list[str], base_seed: int, ruleset: str,
                  options: dict[str, Any]) -> Any:
    from brass_clients import eval as evaluation
    from brass_clients.bots import make_bot

    players = len(entries)
    seating = evaluation.seat_entries(0, players)
    bots = [make_bot(entries[e], allow_import=True) for e in seating]
    rngs = [evaluation.bot_rng(base_seed, 0, s) for s in range(players)]
    game = brass.Game.new(players, seed=evaluation.game_seed(base_seed, 0), ruleset=ruleset,
                          options=options)
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        decision = game.decision
        option = bots[seat].choose(game, rngs[seat])
        events = game.apply(option, seat)
        shown = ", ".join(e["type"] for e in events if e["type"] not in ("action",))
        _console().print(f"[dim]{game.version:4d}[/] seat {seat} {decision:>12}: "
                      f"{brass.action_name(option, ruleset)}"
                      + (f"  [dim]({shown})[/]" if shown else ""))
    return evaluation.GameResult(0, evaluation.game_seed(base_seed, 0), seating, game.scores(),
                                 game.winners(), game.ranking(), game.version, 0.0)


# ------------------------------------------------------------------------------ eval
@main.command("eval")
@click.option("--bots", required=True,
              help="Comma-separated bot specs (the line-up): a registered name or a class by "
                   "import path, module:Class, each with optional :key=value options.")
@click.option("--players", type=click.IntRange(2, 4), default=None,
              help="Seats (default: number of bots).")
@click.option("--games", type=click.IntRange(1), default=200, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--workers", type=click.IntRange(1), default=None,
              help="Worker processes (default: all cores).")
@click.option("--ray-address", default=None, help="Run on Ray ('local' starts one here).")
@click.option("--server", default=None, metavar="HOST:PORT",
              help="Play every game through the gRPC game service.")
@_ruleset_option
@_options_option
@click.option("--max-seconds", type=click.FloatRange(0, min_open=True), default=None,
              help="Stop after this much wall time and report the games finished by then.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
def eval_command(bots: str, players: int | None, games: int, seed: int, workers: int | None,
                 ray_address: str | None, server: str | None, ruleset: str,
                 game_options: tuple[str, ...], max_seconds: float | None, as_json: bool,
                 progress: bool | None) -> None:
    """Play many games between bots (seats rotated) and report win rates and ratings."""
    from brass_clients import eval as evaluation

    specs = _split_bots(bots)
    players = players or len(specs)
    try:
        evaluation.lineup(specs, players)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--bots") from exc
    options = _checked_options(ruleset, players, game_options)
    show_progress = sys.stderr.isatty() if progress is None else progress
    workers = workers or os.cpu_count() or 1
    rules: dict[str, Any] = {"ruleset": ruleset, "options": options,
                             "max_seconds": max_seconds}
    if show_progress:
        with Progress(TextColumn("[bold]eval"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=err_console) as bar:
            task = bar.add_task("games", total=games)
            report = evaluation.evaluate(specs, players, games, seed, workers=workers,
                                         server=server, ray_address=ray_address,
                                         on_done=lambda n: bar.advance(task, n), **rules)
    else:
        report = evaluation.evaluate(specs, players, games, seed, workers=workers,
                                     server=server, ray_address=ray_address, **rules)
    if as_json:
        click.echo(json.dumps(report, sort_keys=True))
        return
    _print_report(report)


# ------------------------------------------------------------------------------ selfplay
@main.command()
@click.option("--bot", required=True,
              help="The bot playing every seat: a spec (e.g. mcts:iterations=100) or "
                   "module:Class.")
@click.option("--games", type=click.IntRange(1), required=True)
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--out", required=True, type=click.Path(file_okay=False),
              help="Folder for manifest.json and the shards (made if missing).")
@click.option("--shard-games", type=click.IntRange(1), default=100, show_default=True,
              help="Games per .npz shard.")
@click.option("--workers", type=click.IntRange(1), default=1, show_default=True,
              help="Worker processes (the shards are the same for any number).")
@_ruleset_option
@_options_option
def selfplay(bot: str, games: int, players: int, seed: int, out: str, shard_games: int,
             workers: int, ruleset: str, game_options: tuple[str, ...]) -> None:
    """Write self-play games of one bot as a dataset of NumPy shards (docs/DATASET.md)."""
    from brass_clients import dataset

    options = _checked_options(ruleset, players, game_options)
    try:
        manifest = dataset.write_dataset(out, bot, games, players, seed,
                                         shard_games=shard_games, workers=workers,
                                         ruleset=ruleset, options=options)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--bot") from exc
    decisions = sum(shard["decisions"] for shard in manifest["shards"])
    _console().print(f"{games} games, {decisions} decisions in {len(manifest['shards'])} "
                     f"shards: {out}")


def _print_report(report: dict[str, Any]) -> None:
    timing = report["timing"]
    played = (f"{report['games']} games" if not report["stopped"] else
              f"stopped after {timing['seconds']:.0f} s: {report['games']} of "
              f"{report['games_planned']} games")
    table = Table(title=(f"{report['ruleset']} (rules edition {report['rules_edition']}): "
                         f"{played}, {report['players']} players, seed "
                         f"{report['seed']} ({timing['games_per_second']:.2f} games/s, "
                         f"{timing['workers']} workers)"))
    for column in ("bot", "games", "wins", "win rate", "95% CI", "VP mean", "VP sd",
                   "length", "rating μ", "σ", "ms/decision", "max ms"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for label, row in report["per_bot"].items():
        low, high = row["win_rate_95"]
        times = timing["per_bot"][label]
        table.add_row(label, str(row["games"]), f"{row['wins']:g}", f"{row['win_rate']:.3f}",
                      f"[{low:.3f}, {high:.3f}]", f"{row['vp_mean']:.1f}",
                      f"{row['vp_stdev']:.1f}", f"{row['mean_game_length']:.0f}",
                      f"{row['rating']['mu']:.2f}", f"{row['rating']['sigma']:.2f}",
                      f"{times['ms_per_decision']:.2f}", f"{times['max_ms_per_decision']:.1f}")
    _console().print(table)




if __name__ == "__main__":
    main()
