"""``tricktable``: play, simulate and replay from the command line.

Each command's work lives in its own module, imported only when that command runs, so that
``tricktable simulate --json`` starts fast. Every error a user can cause ends as one line on
standard error and exit status 2 — never a traceback. Exit status 1 says a bot faulted
(``simulate``, ``bot-check``); 3 that the engine failed, a bug (one line, the record so far
saved by ``play``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from tricktable.errors import TricktableError
from tricktable.extras import explain, require
from tricktable.tui.model import SKINS

F = TypeVar("F", bound=Callable[..., Any])

PLAYERS_HELP = (
    "four comma-separated players: human, heuristic, random, cmd:PROGRAM, http://HOST:PORT/ "
    "or path/to/bot.py:Class (in double quotes if it holds a comma)"
)


#: a seed: a whole number of 64 bits at most, as records hold them (records.MAX_SEED)
SEED = click.IntRange(0, (1 << 64) - 1)


def game_option(func: F) -> F:
    """The ``--game`` and ``--rules`` options shared by the commands that play."""
    # No default of its own: a rules file that names no game must know whether --game was given.
    return _game_options(func, None)


def _game_options(func: F, default: str | None) -> F:
    func = click.option(
        "--rules",
        "rules_path",
        type=click.Path(dir_okay=False),
        default=None,
        help="house rules: a TOML file naming a game and its [options]",
    )(func)
    return click.option(
        "--game",
        "game_spec",
        default=default,
        show_default=default is not None,
        help='game or variant, options in parentheses: "setback(target=11,low_to=dealt)"'
        + ("" if default else " [default: setback]"),
    )(func)


def resolve_game(game_spec: str | None, rules_path: str | None) -> str:
    """The game spec to play: ``--game`` (Setback if not given), with a ``--rules`` file's
    game and options applied (a file naming no game needs ``--game``)."""
    if rules_path is None:
        return game_spec or "setback"
    from tricktable.games import rules_file_spec

    return rules_file_spec(rules_path, game_spec)


def runner_options(func: F) -> F:
    """``--decision-time``, ``--match-time`` and ``--on-fault``: how bots are refereed."""
    func = click.option(
        "--on-fault",
        type=click.Choice(["substitute", "forfeit"]),
        default="substitute",
        show_default=True,
        help="what a bot's fault costs in games without a rule of their own "
        "(tricks: a bad card; spades: forfeit): the heuristic bot takes the seat, or the "
        "side forfeits",
    )(func)
    func = click.option(
        "--match-time",
        type=click.FloatRange(min=0, min_open=True),
        default=60.0,
        show_default=True,
        help="seconds a program, URL or plug-in bot may spend on all its decisions in a match",
    )(func)
    return click.option(
        "--decision-time",
        type=click.FloatRange(min=0, min_open=True),
        default=2.0,
        show_default=True,
        help="seconds a program, URL or plug-in bot may take over one decision",
    )(func)


# Options several commands share, spelled once so that their help reads the same everywhere.
workers_option = click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="worker processes (default: every core)",
)
json_option = click.option(
    "--json", "as_json", is_flag=True, help="print one JSON object and nothing else"
)
#: the database a tournament goes to, and standings and report read, when none is named
DEFAULT_DB = "tricktable.db"
db_option = click.option(
    "--db", default=DEFAULT_DB, show_default=True, help="a SQLite file, or a postgresql:// URL"
)


def make_options(decision_time: float, match_time: float, on_fault: str) -> Any:
    """The RunnerOptions of the command-line options (imported only when a command runs)."""
    from tricktable.limits import RunnerOptions

    return RunnerOptions(decision_time=decision_time, match_time=match_time, on_fault=on_fault)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tricktable")
def cli() -> None:
    """tricktable: Setback and the trick-taking family."""


@cli.command()
@lambda func: _game_options(func, None)
@click.option(
    "--players",
    default=None,
    help=PLAYERS_HELP + " [default: human,heuristic,heuristic,heuristic; with --resume the "
    "record's]",
)
@click.option("--seed", type=SEED, default=None, help="random seed (default: a fresh one)")
@click.option(
    "--save",
    "save_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="where to save the match record (default: records/ for a human game; with --resume "
    "the record resumed)",
)
@click.option(
    "--resume",
    "resume_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="play on a saved match from where it stopped (its game, seed and players unless "
    "--players is given)",
)
@click.option(
    "--max-hands",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="stop a match that has no winner after this many hands",
)
@runner_options
def play(
    game_spec: str | None,
    rules_path: str | None,
    players: str | None,
    seed: int | None,
    save_path: str | None,
    resume_path: str | None,
    max_hands: int,
    decision_time: float,
    match_time: float,
    on_fault: str,
) -> None:
    """Play a match: you against bots, or bots alone when no seat is human."""
    from tricktable.cli.play import run_play

    # No --game nor --rules: Setback, or the game of the record resumed.
    given = game_spec is not None or rules_path is not None
    spec = resolve_game(game_spec, rules_path) if given else None
    options = make_options(decision_time, match_time, on_fault)
    sys.exit(run_play(spec, players, seed, save_path, max_hands, options, resume_path))


@cli.command()
@game_option
@click.option(
    "--players",
    default=None,
    help="you first, then a bot or character for every other seat of the game's table (2 to "
    "7 seats) [default at four: you,edna,vinnie,rosa; larger tables add the other characters]",
)
@click.option("--seed", type=SEED, default=None, help="random seed (default: a fresh one)")
@click.option(
    "--save",
    "save_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="where to save the match record (default: records/; with --resume the record resumed)",
)
@click.option("--play", "play_now", is_flag=True, help="sit down at once: no start screen")
@click.option(
    "--resume",
    "resume_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="play on a saved match (a record) from where it stopped",
)
@click.option(
    "--replay",
    "replay_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="step through a record, forwards and backwards, with its analysis",
)
@click.option("--skin", type=click.Choice(SKINS), default=SKINS[0], help="the table's look")
@click.option("--ascii", "ascii_cards", is_flag=True, help="cards as letters (QH, TS), no ♠♥♦♣")
@click.option("--no-animations", is_flag=True, help="no sliding cards, no pauses after tricks")
@click.option("--serve", is_flag=True, help="serve the app to a browser tab (textual-serve)")
@click.option("--host", default="127.0.0.1", show_default=True, help="with --serve: the address")
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8000,
    show_default=True,
    help="with --serve: the port",
)
def tui(
    game_spec: str | None,
    rules_path: str | None,
    players: str | None,
    seed: int | None,
    save_path: str | None,
    play_now: bool,
    resume_path: str | None,
    replay_path: str | None,
    skin: str,
    ascii_cards: bool,
    no_animations: bool,
    serve: bool,
    host: str,
    port: int,
) -> None:
    """The full-screen table: pick a game and players, play, chat, ask for hints, resume
    a saved match, replay a record (docs/tui.md)."""
    require("tui", "tui")
    from tricktable.tui.command import TuiOptions, make_app, run_tui

    options = TuiOptions(
        game=resolve_game(game_spec, rules_path),
        players=players,
        seed=seed,
        save=save_path,
        play=play_now,
        resume=resume_path,
        replay=replay_path,
        skin=skin,
        ascii=ascii_cards,
        animate=not no_animations,
    )
    if serve:
        from tricktable.tui.serve import serve as serve_app

        if save_path or resume_path:
            raise TricktableError("--serve gives each tab a match of its own: no --save, --resume")
        make_app(options)  # checked here: a tab whose app cannot start would hang
        # Each browser tab runs this command again, less the serving options.
        serve_app(sys.argv[2:], host=host, port=port)
        return
    sys.exit(run_tui(options))


@cli.command()
@game_option
@click.option(
    "--players",
    default="heuristic,random,heuristic,random",
    show_default=True,
    help="four comma-separated bots",
)
@click.option("--hands", type=click.IntRange(min=1), default=None, help="number of hands to play")
@click.option(
    "--matches", type=click.IntRange(min=1), default=None, help="number of matches to play"
)
@click.option("--seed", type=SEED, default=1, show_default=True)
@workers_option
@json_option
@runner_options
def simulate(
    game_spec: str | None,
    rules_path: str | None,
    players: str,
    hands: int | None,
    matches: int | None,
    seed: int,
    workers: int | None,
    as_json: bool,
    decision_time: float,
    match_time: float,
    on_fault: str,
) -> None:
    """Play many hands or matches between bots and report statistics."""
    from tricktable.cli.simulate import run_simulate

    if (hands is None) == (matches is None):
        raise click.UsageError("give exactly one of --hands N or --matches M")
    spec = resolve_game(game_spec, rules_path)
    limits = (decision_time, match_time, on_fault)
    sys.exit(run_simulate(spec, players, hands, matches, seed, workers, as_json, limits))


@cli.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@game_option
@click.option(
    "--deals",
    type=click.IntRange(min=1),
    default=None,
    help="the most deals to play (each at two tables, or one a side where partners sit "
    "opposite at six or each plays alone at an odd table) [default: 20000]",
)
@click.option(
    "--sprt/--no-sprt", default=True, show_default=True, help="stop by the SPRT or play every deal"
)
@click.option("--d0", type=float, default=None, help="H0's mean difference, points a deal [0]")
@click.option("--d1", type=float, default=None, help="H1's mean difference, points a deal [0.1]")
@click.option("--alpha", type=float, default=None, help="chance of accepting H1 under H0 [0.05]")
@click.option("--beta", type=float, default=None, help="chance of accepting H0 under H1 [0.05]")
@click.option("--seed", type=SEED, default=1, show_default=True)
@workers_option
@json_option
@runner_options
def duel(
    a: str,
    b: str,
    game_spec: str | None,
    rules_path: str | None,
    deals: int | None,
    sprt: bool,
    seed: int,
    workers: int | None,
    as_json: bool,
    decision_time: float,
    match_time: float,
    on_fault: str,
    **test: float | None,
) -> None:
    """Pit bot A against bot B on paired deals (seats swapped) until an SPRT decides.

    Prints A's score minus B's per deal with its 95% interval and the verdict (docs/duel.md).
    Exit status 0, 1 when a bot faulted, 2 for bad input, 3 when the engine failed.
    """
    from tricktable.cli.duel import run_duel_command

    given = {name: value for name, value in test.items() if value is not None}
    if given and not sprt:
        raise click.UsageError("--d0, --d1, --alpha and --beta set the SPRT: not with --no-sprt")
    code = run_duel_command(
        resolve_game(game_spec, rules_path),
        a,
        b,
        deals=deals,
        sprt=given if sprt else None,
        seed=seed,
        workers=workers,
        as_json=as_json,
        limits=make_options(decision_time, match_time, on_fault),
    )
    sys.exit(code)


@cli.command()
@click.argument("entrants", nargs=-1, metavar="[ENTRANT]...")
@click.option(
    "--config",
    type=click.Path(dir_okay=False),
    default=None,
    help="a TOML file of the tournament (name, game, [entrants], format, deals...)",
)
@click.option("--name", default=None, help="the tournament's name: run it again to resume")
@lambda func: _game_options(func, None)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["duplicate", "round-robin"]),
    default=None,
    help="duplicate: every deal at every seating [default]; round-robin: own deals",
)
@click.option(
    "--deals",
    type=click.IntRange(min=1),
    default=None,
    help="deals each table plays [default: 100]",
)
@click.option(
    "--matches",
    type=click.IntRange(min=1),
    default=None,
    help="whole matches each table plays, instead of deals",
)
@click.option(
    "--max-hands",
    type=click.IntRange(min=1),
    default=None,
    help="the most hands of a whole match: some never end [default: 300]",
)
@click.option(
    "--partnerships",
    type=click.Choice(["auto", "self", "mixed"]),
    default=None,
    help="self: A and A against B and B (an entrant in every seat of its side); mixed: "
    "entrants split into the sides every way [default auto: mixed from as many entrants "
    "as seats]",
)
@click.option(
    "--seed", type=SEED, default=None, help="the tournament's seed [default: a fresh one, stored]"
)
@db_option
@workers_option
@click.option("--cluster", default=None, help="play on a Dask cluster: 'local' or tls://HOST:8786")
@click.option(
    "--live",
    is_flag=True,
    help="journal each game while it is played, for the web server's tournament page to show "
    "(not with --cluster)",
)
@json_option
@runner_options
def tournament(
    entrants: tuple[str, ...],
    config: str | None,
    name: str | None,
    game_spec: str | None,
    rules_path: str | None,
    fmt: str | None,
    deals: int | None,
    matches: int | None,
    max_hands: int | None,
    partnerships: str | None,
    seed: int | None,
    db: str,
    workers: int | None,
    cluster: str | None,
    live: bool,
    as_json: bool,
    decision_time: float,
    match_time: float,
    on_fault: str,
) -> None:
    """Play a tournament between ENTRANTs (player specs, or NAME=SPEC) into a database.

    Kill it at any moment and run the same command again: it resumes, replaying nothing
    stored and counting nothing twice. Then: tricktable standings.
    """
    if cluster is None:
        require("db", "tournament")
    else:
        require("cluster", "tournament --cluster")
    from tricktable.cli.tournament import run_tournament_command
    from tricktable.limits import RunnerOptions

    if rules_path is not None:
        game_spec = resolve_game(game_spec, rules_path)
    limits = make_options(decision_time, match_time, on_fault)
    code = run_tournament_command(
        entrants,
        config=config,
        name=name,
        game_spec=game_spec,
        fmt=fmt,
        deals=deals,
        matches=matches,
        max_hands=max_hands,
        seed=seed,
        partnerships=partnerships,
        limits=None if limits == RunnerOptions() else limits,
        db=db,
        workers=workers,
        cluster=cluster,
        as_json=as_json,
        live=live,
    )
    sys.exit(code)


@cli.command()
@db_option
@click.option("--name", default=None, help="the tournament [default: the newest]")
@json_option
def standings(db: str, name: str | None, as_json: bool) -> None:
    """Standings, ratings and head-to-head results of a stored tournament (docs/standings.md)."""
    require("db", "standings")
    from tricktable.cli.standings import run_standings

    sys.exit(run_standings(db, name, as_json))


@cli.command()
@db_option
@click.option("--name", default=None, help="the tournament [default: the newest]")
@click.option(
    "--out", default="report", show_default=True, help="the folder to write index.html into"
)
@click.option(
    "--insights-from",
    "only",
    default=None,
    metavar="NAMES",
    help="comma-separated entrants whose bids the strategy insights count [default: all]",
)
def report(db: str, name: str | None, out: str, only: str | None) -> None:
    """Write a tournament's report, one self-contained HTML page: standings, head to head,
    ratings over time and strategy insights with a bidding guide (docs/report.md)."""
    require("report", "report")
    from tricktable.cli.report import run_report

    sys.exit(run_report(db, name, out, only))


@cli.command()
@click.argument("path")
@click.option("--json", "as_json", is_flag=True, help="print the result object as JSON")
@click.option(
    "--game",
    "game_spec",
    default=None,
    help="replay under this game or these options instead of the record's own "
    '(e.g. "setback(may_trump=true)")',
)
def replay(path: str, as_json: bool, game_spec: str | None) -> None:
    """Check and replay a match record (PATH, or - for standard input)."""
    from tricktable.cli.replay import run_replay

    sys.exit(run_replay(path, as_json, game_spec))


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="the address to listen on")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="0: any free"
)
@click.option(
    "--db", default=DEFAULT_DB, show_default=True, help="a SQLite file, or a postgresql:// URL"
)
@click.option(
    "--pace",
    type=click.FloatRange(min=0),
    default=0.4,
    show_default=True,
    help="seconds a move is shown before the next, at every table (bots' tables too)",
)
@click.option(
    "--new-people",
    type=click.IntRange(min=1),
    default=60,
    show_default=True,
    help="guests and accounts one address may make a minute",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="a host name the server answers to (the Host header), besides localhost, 127.0.0.1, "
    "[::1] and --host; again for more; *.example.org for a domain's names, * for any",
)
@click.option(
    "--forwarded-allow-ips",
    "forwarded",
    multiple=True,
    metavar="IPS",
    help="the reverse proxies (addresses or networks, comma-separated; * for any) whose "
    "X-Forwarded-For and X-Forwarded-Proto are believed [default: none]",
)
@click.option("--ssl-certfile", default=None, metavar="FILE", help="serve HTTPS: the certificate")
@click.option("--ssl-keyfile", default=None, metavar="FILE", help="serve HTTPS: its private key")
@click.option(
    "--max-sockets",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="open websockets in all",
)
@click.option(
    "--max-sockets-per-address",
    type=click.IntRange(min=1),
    default=50,
    show_default=True,
    help="open websockets from one address (an IPv6 /64)",
)
@click.option(
    "--max-sockets-per-account",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="open websockets of one person (guest or account)",
)
@click.option(
    "--limit-concurrency",
    type=click.IntRange(min=1),
    default=None,
    help="connections and requests served at once, past which uvicorn answers 503 "
    "[default: --max-sockets + 100]",
)
@click.option(
    "--request-timeout",
    type=click.FloatRange(min=0.1),
    default=10.0,
    show_default=True,
    help="seconds a client has to send a whole request before it is disconnected",
)
@click.option(
    "--bot-tables",
    type=click.IntRange(min=0),
    default=20,
    show_default=True,
    help="tables of bots alone played at once, in all",
)
@click.option(
    "--bot-tables-per-person",
    type=click.IntRange(min=0),
    default=2,
    show_default=True,
    help="tables of bots alone one person may have played at once",
)
@click.option(
    "--hand-cap",
    "hand_cap_bots",
    type=click.IntRange(min=1),
    default=200,
    show_default=True,
    help="hands after which a match of bots alone ends, the leader winning",
)
@click.option(
    "--hand-cap-people",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="hands after which a match where a person sits ends, the leader winning",
)
@click.option(
    "--idle-stop",
    type=click.FloatRange(min=1),
    default=600.0,
    show_default=True,
    help="seconds a table with nobody attached is played on before it stops (a hello wakes it)",
)
@click.option(
    "--allow-local-bots",
    is_flag=True,
    help="let accounts' web-service bots be called at loopback and private addresses "
    "(bots running beside the server); without it only public addresses, checked at "
    "every connection",
)
@click.option(
    "--redis",
    "redis_url",
    metavar="URL",
    default=None,
    help="share the tables with other server processes through this Redis "
    "(redis://[:PASSWORD@]HOST:PORT/DB, rediss:// for TLS) and a PostgreSQL --db: "
    "docs/deploy.md; without it one process serves alone",
)
def serve(
    host: str,
    port: int,
    db: str,
    pace: float,
    new_people: int,
    allowed_hosts: tuple[str, ...],
    forwarded: tuple[str, ...],
    ssl_certfile: str | None,
    ssl_keyfile: str | None,
    max_sockets: int,
    max_sockets_per_address: int,
    max_sockets_per_account: int,
    limit_concurrency: int | None,
    request_timeout: float,
    bot_tables: int,
    bot_tables_per_person: int,
    hand_cap_bots: int,
    hand_cap_people: int,
    idle_stop: float,
    allow_local_bots: bool,
    redis_url: str | None,
) -> None:
    """Serve the lobby and live tables in the browser (docs/protocol-web.md; on the internet,
    behind a reverse proxy: docs/deploy.md). Bodies over 32 KiB are refused (413), request
    heads over 16 KiB (400), websocket messages over 64 KiB (closed, 1009); an idle kept-alive
    connection is closed after 5 s; failed logins: 5 a minute for one name from one address,
    30 a minute from one address (429); 20 messages a second on a websocket (a flood closes it,
    4429); chat a line every 2 s a person; 20 tables waiting or playing a person. Every limit:
    docs/protocol-web.md, section 7."""
    require("web", "serve")
    from tricktable.cli.serve import ServeOptions, allowed_host, forwarded_ips, run_serve

    options = ServeOptions(
        host=host,
        port=port,
        db=db,
        pace=pace,
        new_people=new_people,
        allowed_hosts=tuple(allowed_host(h) for h in allowed_hosts),
        forwarded_allow_ips=forwarded_ips(forwarded),
        ssl_certfile=ssl_certfile,
        ssl_keyfile=ssl_keyfile,
        max_sockets=max_sockets,
        max_sockets_per_address=max_sockets_per_address,
        max_sockets_per_account=max_sockets_per_account,
        limit_concurrency=limit_concurrency,
        request_timeout=request_timeout,
        bot_tables=bot_tables,
        bot_tables_per_person=bot_tables_per_person,
        hand_cap_bots=hand_cap_bots,
        hand_cap_people=hand_cap_people,
        idle_stop=idle_stop,
        allow_local_bots=allow_local_bots,
        redis=redis_url,
    )
    if redis_url is not None:
        require("scale", "serve --redis")
    sys.exit(run_serve(options))


@cli.group("bots")
def bots_group() -> None:
    """The web server's bots its operator keeps (docs/protocol-web.md, "Bots")."""


@bots_group.command("add-program")
@click.argument("name")
@click.argument("command", nargs=-1, required=True)
@db_option
def bots_add_program(name: str, command: tuple[str, ...], db: str) -> None:
    """Add a program bot NAME that runs COMMAND on this machine: NAME -- COMMAND ARGS..."""
    require("web", "bots add-program")
    from tricktable.cli.bots import run_add_program

    sys.exit(run_add_program(db, name, list(command)))


@cli.command()
@click.argument("path", metavar="RECORD")
def verify(path: str) -> None:
    """Check that every deal of a record came from its (committed) seed."""
    from tricktable.cli.verify import run_verify

    sys.exit(run_verify(path))


@cli.command()
@click.argument("path", metavar="RECORD")
@click.option(
    "--sampling/--no-sampling",
    default=True,
    show_default=True,
    help="also ask the best search bot, from each seat's own view (--no-sampling: the fast "
    "double-dummy pass alone)",
)
@click.option(
    "--seat",
    "seats",
    type=click.IntRange(min=0),
    multiple=True,
    help="analyse this seat (0 is the first); give it again for more [default: every seat]",
)
@click.option("--hands", default=None, help="the hands to analyse, from 1: 3, 1,4 or 2-5")
@click.option("--seed", type=SEED, default=0, show_default=True, help="the sampling's seed")
@click.option(
    "--budget",
    type=click.FloatRange(min=0, min_open=True),
    default=0.5,
    show_default=True,
    help="seconds of sampled search per decision",
)
@click.option(
    "--threshold",
    type=click.FloatRange(min=0, min_open=True),
    default=0.5,
    show_default=True,
    help="points a decision must lose to be shown as a mistake",
)
@click.option(
    "--solve-time",
    type=click.FloatRange(min=0, min_open=True),
    default=5.0,
    show_default=True,
    help="seconds one double-dummy solve may take (the first tricks of 13-card hands take far "
    "more: left unsolved)",
)
@json_option
def analyze(
    path: str,
    sampling: bool,
    seats: tuple[int, ...],
    hands: str | None,
    seed: int,
    budget: float,
    threshold: float,
    solve_time: float,
    as_json: bool,
) -> None:
    """Analyse a finished match RECORD: each decision's points lost, double-dummy and by a
    search bot from the seat's view, per hand and per seat (docs/analyze.md)."""
    from tricktable.cli.analyze import run_analyze

    code = run_analyze(path, seats, hands, sampling, as_json, seed, budget, threshold, solve_time)
    sys.exit(code)


@cli.command("bot-check")
@click.argument("target", metavar="CMD_OR_URL")
@game_option
@click.option(
    "--matches",
    type=click.IntRange(min=1),
    default=None,
    help="matches to play  [default: one a seat of the table: 4 at four seats]",
)
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option(
    "--against",
    "opponents",
    default="heuristic",
    show_default=True,
    help="the reference bot in the other seats: heuristic or random",
)
@click.option(
    "--seat0", "seat_zero", is_flag=True, help="keep the bot in seat 0 (default: each seat in turn)"
)
@click.option(
    "--decision-time",
    type=click.FloatRange(min=0, min_open=True),
    default=2.0,
    show_default=True,
    help="seconds allowed for each decision",
)
@click.option(
    "--match-time",
    type=click.FloatRange(min=0, min_open=True),
    default=60.0,
    show_default=True,
    help="seconds a program or endpoint may spend answering over a match",
)
@click.option("--max-hands", type=click.IntRange(min=1), default=30, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="print the report as one JSON object")
def bot_check(
    target: str,
    game_spec: str | None,
    rules_path: str | None,
    matches: int | None,
    seed: int,
    opponents: str,
    seat_zero: bool,
    decision_time: float,
    match_time: float,
    max_hands: int,
    as_json: bool,
) -> None:
    """Check a bot (cmd:PROGRAM, an http(s):// URL or path/to/bot.py:Class) in quick matches.

    Exit status 0 when the bot made no fault, 1 when it made any, 2 for bad usage.
    """
    from tricktable.cli.botcheck import run_bot_check

    sys.exit(
        run_bot_check(
            target,
            resolve_game(game_spec, rules_path),
            matches,
            seed,
            opponents=opponents,
            all_seats=not seat_zero,
            decision_time=decision_time,
            match_time=match_time,
            max_hands=max_hands,
            as_json=as_json,
        )
    )


@cli.command()
def games() -> None:
    """List every game and variant, one line each."""
    from tricktable.cli.catalog import list_games

    sys.exit(list_games())


@cli.command()
@click.argument("name")
def rules(name: str) -> None:
    """Print the rules of a game or variant and every option with its default."""
    from tricktable.cli.catalog import show_rules

    sys.exit(show_rules(name))


@cli.group()
def train() -> None:
    """Train a bot's strategy (docs/cfr.md)."""


# The whole command lives with its options in cli/train.py (the scheme's --phase, --payoff,
# --against, ...: docs/cfr.md); it imports nothing heavy.
from tricktable.cli.train import cfr_command  # noqa: E402

train.add_command(cfr_command)


def main() -> None:
    """Entry point: run the command line, turning every error into one line.

    The last line of defence: whatever a command lets through is one line of at most
    :data:`~tricktable.cli.ERROR_LINE` characters, control characters escaped — bad input
    exit status 2, anything unexpected (a bug: it should have been a named error) 3.
    SIGTERM (what ``timeout``, ``kill`` and service managers send) is Ctrl-C: every command
    then saves what it has, ends its workers and exits 130, as it does for Ctrl-C. The
    handler SIGTERM had is given back on the way out: called in another program's process (a
    test, a notebook), ``main`` leaves its signals as it found them.
    """
    import signal

    from tricktable.interrupts import SignalWatch

    before = _terminate_as_interrupt()
    try:
        # Watched for the whole command: a loop that runs long in this process (a match's
        # hands, a duel's or a tournament's batches) raises a Ctrl-C Python lost
        # (tricktable.interrupts), not only a pool's loop.
        with SignalWatch():
            _run()
    finally:
        if before is not None:
            signal.signal(signal.SIGTERM, before)


def entry() -> None:
    """The ``tricktable`` program (and ``python -m tricktable``): :func:`main`, then, where a
    plug-in was loaded, the end of every process left below this one.

    Only the program's own process does this: :func:`main` called in another (a test, a
    notebook) must not end that process's other children.
    """
    try:
        main()
    finally:
        from tricktable.processes import end_descendants, is_subreaper

        if is_subreaper():  # a plug-in was loaded: nothing it started outlives the command
            end_descendants()


def _run() -> None:
    """Run the command line, turning every error into one line (see :func:`main`)."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:
        exc.show()  # ``tricktable`` alone: its help, as click prints it, not "error: Usage"
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        _say(exc.format_message())
        sys.exit(2)
    except TricktableError as exc:
        _say(exc)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
    except UnicodeEncodeError as exc:
        if exc.reason != "surrogates not allowed":
            _say(f"internal error: UnicodeEncodeError: {exc}")
            sys.exit(3)
        # Bytes of argv that are not UTF-8 reach Python as surrogates: fine in a path, but a
        # name, a spec or a text cannot be stored, sent or printed with them.
        bad = exc.object[exc.start : exc.end]
        _say(f"an argument is not UTF-8 text ({bad!a}); write it in UTF-8")
        sys.exit(2)
    except RecursionError:
        _say("internal error: RecursionError: an input nested too deeply reached unguarded code")
        sys.exit(3)
    except MemoryError:
        _say("internal error: MemoryError: an input too large reached unguarded code")
        sys.exit(3)
    except ModuleNotFoundError as exc:
        # An extra's library that a path no require() guards imported: its extra, not a bug.
        missing = explain(exc, _command())
        _say(missing if missing is not None else f"internal error: ModuleNotFoundError: {exc}")
        sys.exit(2 if missing is not None else 3)
    except Exception as exc:
        _say(f"internal error: {type(exc).__name__}: {exc}")
        sys.exit(3)


def _terminate_as_interrupt() -> Any:
    """Make SIGTERM raise KeyboardInterrupt in the main thread, unless it was set to be
    ignored; the handler it had (None if it was left as it was)."""
    import signal

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.getsignal(signal.SIGTERM)
    if before is signal.SIG_IGN:
        return None
    signal.signal(signal.SIGTERM, interrupt)
    return before if before is not None else signal.SIG_DFL


def _command() -> str:
    """The command being run, as typed (``tricktable serve``), for an error line."""
    name = sys.argv[1] if len(sys.argv) > 1 else ""
    return f"tricktable {name}" if name in cli.commands else "tricktable"


def _say(message: object) -> None:
    """Print ``error: MESSAGE`` as one capped line on standard error."""
    from tricktable.cli import one_line

    click.echo(one_line(f"error: {message}"), err=True)


if __name__ == "__main__":
    main()
