"""``tricktable``: play, simulate and replay from the command line.

Each command's work lives in its own module, imported only when that command runs, so that
``tricktable simulate --json`` starts fast. Every error a user can cause ends as one line on
standard error and exit status 2 — never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from tricktable.errors import TricktableError

F = TypeVar("F", bound=Callable[..., Any])

PLAYERS_HELP = "four comma-separated players: human, heuristic, random"


def game_option(func: F) -> F:
    """The ``--game`` and ``--rules`` options shared by the commands that play."""
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
        default="setback",
        show_default=True,
        help='game or variant, options in parentheses: "setback(target=11,low_to=dealt)"',
    )(func)


def resolve_game(game_spec: str, rules_path: str | None) -> str:
    """The game spec to play: ``--game``, with a ``--rules`` file's options applied."""
    if rules_path is None:
        return game_spec
    from tricktable.games import rules_file_spec

    return rules_file_spec(rules_path, game_spec)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tricktable")
def cli() -> None:
    """tricktable: Setback and the trick-taking family."""


@cli.command()
@game_option
@click.option(
    "--players", default="human,heuristic,heuristic,heuristic", show_default=True, help=PLAYERS_HELP
)
@click.option("--seed", type=int, default=None, help="random seed (default: a fresh one)")
@click.option(
    "--save",
    "save_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="where to save the match record (default: records/ for a human game)",
)
@click.option(
    "--max-hands",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="stop a match that has no winner after this many hands",
)
def play(
    game_spec: str,
    rules_path: str | None,
    players: str,
    seed: int | None,
    save_path: str | None,
    max_hands: int,
) -> None:
    """Play a match: you against bots, or bots alone when no seat is human."""
    from tricktable.cli.play import run_play

    spec = resolve_game(game_spec, rules_path)
    sys.exit(run_play(spec, players, seed, save_path, max_hands))


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
@click.option("--seed", type=int, default=1, show_default=True)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="worker processes (default: every core)",
)
@click.option("--json", "as_json", is_flag=True, help="print one JSON object and nothing else")
def simulate(
    game_spec: str,
    rules_path: str | None,
    players: str,
    hands: int | None,
    matches: int | None,
    seed: int,
    workers: int | None,
    as_json: bool,
) -> None:
    """Play many hands or matches between bots and report statistics."""
    from tricktable.cli.simulate import run_simulate

    if (hands is None) == (matches is None):
        raise click.UsageError("give exactly one of --hands N or --matches M")
    spec = resolve_game(game_spec, rules_path)
    sys.exit(run_simulate(spec, players, hands, matches, seed, workers, as_json))


@cli.command()
@click.argument("path")
@click.option("--json", "as_json", is_flag=True, help="print the result object as JSON")
def replay(path: str, as_json: bool) -> None:
    """Check and replay a match record (PATH, or - for standard input)."""
    from tricktable.cli.replay import run_replay

    sys.exit(run_replay(path, as_json))


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


def main() -> None:
    """Entry point: run the command line, turning every user error into one line."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        click.echo(f"error: {exc.format_message()}", err=True)
        sys.exit(2)
    except TricktableError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)


if __name__ == "__main__":
    main()
