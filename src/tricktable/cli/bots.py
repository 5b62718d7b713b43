"""``tricktable bots add-program``: the operator adds a program bot to a web server's database.

A program bot runs a command on the server's own machine, so only whoever runs the server
adds one — from its command line, never over HTTP (docs/protocol-web.md, "Bots"). It is
stored with no owner account; seating it at web tables is not wired yet.
"""

from __future__ import annotations

import json
import shlex

import click

from tricktable.errors import TricktableError


def run_add_program(db: str, name: str, command: list[str]) -> int:
    """Add the program bot ``name`` running ``command`` to ``db``; the exit status."""
    from tricktable.db import StoreError
    from tricktable.web.bots import bot_name
    from tricktable.web.store import WebStore

    if not command or not command[0].strip():
        click.echo("bots add-program: give the command after --: NAME -- COMMAND ARGS...", err=True)
        return 2
    try:
        checked = bot_name(name)
        store = WebStore.open(db)
    except (TricktableError, StoreError) as exc:
        click.echo(f"bots add-program: {str(exc).splitlines()[0]}", err=True)
        return 2
    try:
        store.add_bot(None, checked, "program", json.dumps(command), None)
    except StoreError as exc:
        click.echo(f"bots add-program: {str(exc).splitlines()[0]}", err=True)
        return 2
    finally:
        store.close()
    click.echo(f"program bot {checked!r} added: {shlex.join(command)}")
    return 0
