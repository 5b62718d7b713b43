"""``tricktable verify``: check that a record's deals came from its committed seed."""

from __future__ import annotations

import hashlib
from typing import Any

import click

from tricktable.cli import fail
from tricktable.errors import RecordError, TricktableError
from tricktable.records import check_dealer, load_record, read_seed, replay


def check_fair(record: dict[str, Any]) -> list[str]:
    """What the check found, line by line; raises :class:`RecordError` where it fails.

    The record's ``fair.commitment`` must be the SHA-256 of ``tricktable-seed/1:SEED:NONCE``
    (when the record has one), and every hand's deal and dealer the ones the engine deals
    from the record's ``seed`` — the seed, not the record, decides every card.
    """
    state = replay(record)  # the record itself is valid: every action legal
    seed = read_seed(record)
    if seed is None:
        raise RecordError("the record has no seed: its deals cannot be checked")
    lines = []
    fair = record.get("fair")
    if fair is not None:
        if not isinstance(fair, dict):
            raise RecordError("bad 'fair': expected an object with commitment and nonce")
        commitment, nonce = fair.get("commitment"), fair.get("nonce")
        if not isinstance(commitment, str) or not isinstance(nonce, str):
            raise RecordError("bad 'fair': expected the commitment and the nonce as text")
        digest = hashlib.sha256(f"tricktable-seed/1:{seed}:{nonce}".encode()).hexdigest()
        if digest != commitment.lower():
            raise RecordError(
                f"the seed does not match the commitment: sha256 gives {digest[:16]}…, "
                f"the record committed to {commitment[:16]}…"
            )
        lines.append(f"commitment {commitment[:16]}… matches seed {seed}")
    fresh = state.game.new_state(seed)
    for h, log in enumerate(state.history):
        check_dealer(fresh, log.dealer, h)  # the first: the seed's; the rest: replay's rule
        fresh.deal()
        dealt = fresh.history[-1]
        if list(dealt.deal) != list(log.deal) or list(dealt.stock) != list(log.stock):
            raise RecordError(f"hand {h}: the deal is not the one seed {seed} deals")
        for action in log.actions:
            if fresh.is_over or fresh.needs_deal:
                break
            fresh.apply(action)
        if len(fresh.history[-1].actions) != len(log.actions):
            raise RecordError(f"hand {h}: its actions do not replay from the seed's deal")
    lines.append(f"{len(state.history)} deals, every one from seed {seed}")
    return lines


def run_verify(path: str) -> int:
    """Verify the record at ``path``; 0 if every deal came from its committed seed, else 2."""
    try:
        record = load_record(path)
        lines = check_fair(record)
    except TricktableError as exc:
        return fail(exc)
    for line in lines:
        click.echo(line)
    click.echo("verified")
    return 0
