"""The readable account of a match: hand by hand and trick by trick, every deal face up.

The account replays the state's own action log through a fresh state — the engine's one path —
and shows its events with the same :class:`~tricktable.ui.terminal.TableDisplay` a live table
uses, for any game: what each game says comes from its presenter (:mod:`tricktable.seat.games`).
Every seat is a watcher here, so private actions (Hearts passes, a Euchre discard) are shown in
full.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from tricktable.engine.trick import TrickState
from tricktable.ui.terminal import TableDisplay, make_console, seat_names


def render_account(
    state: TrickState,
    players: Sequence[str] | object = None,
    console: Console | None = None,
    seeded: bool = True,
) -> None:
    """Print the account of ``state``'s match so far (a replayed record, a finished match).

    ``players`` (a record's ``players``) are named beside the seats when given. ``seeded``
    False: the record names no seed, so the one its replay drew is not shown as the match's.
    """
    console = console or make_console()
    game = state.game
    n = game.num_players
    display = TableDisplay(console, game, seat_names((), n), reveal=range(n))
    title = Text(display.title(), style="bold")
    if seeded and state.seed is not None:
        title.append(f" · seed {state.seed}")
    console.print(title)
    # A record's players are optional and unchecked by replay: use them only when well formed.
    labels = None
    if isinstance(players, list | tuple) and len(players) == n:
        labels = [str(p) for p in players]
    display.show_seats(
        [f"seat {seat}" + (f", {labels[seat]}" if labels else "") for seat in range(n)],
        labels or (),  # the avatars are the players' (none without them)
    )

    replay = game.new_state(state.seed)
    display.follow_state(replay)
    # The talk at its place in the log: after ``at`` actions of its hand (-1: before a deal).
    talk: dict[tuple[int, int], list[tuple[int, str]]] = {}
    for note in state.notes:
        if note.kind == "chat":
            talk.setdefault((note.hand, note.at), []).append((note.seat, note.text))

    def said(hand: int, at: int) -> None:
        for seat, text in talk.get((hand, at), ()):
            replay.chat(seat, text)
        display.catch_up()

    said(-1, 0)
    for h, log in enumerate(state.history):
        replay.deal(log.deal, dealer=log.dealer, stock=log.stock)
        said(h, 0)
        for i, action in enumerate(log.actions):
            replay.apply(action)
            said(h, i + 1)
        if not (replay.needs_deal or replay.is_over):
            display.show_pending()  # the bidding so far: it ended no phase yet
            console.print(Text("The hand stops here, unfinished.", style="bold"))
    forfeit = next((note.seat for note in state.notes if note.kind == "forfeit"), None)
    if forfeit is not None and not replay.is_over:
        replay.forfeit(forfeit)  # an entry of the log that is not an action
        display.catch_up()

    if not display.show_match_end():
        console.print()
        hands = len(replay.results)
        console.print(
            Text(
                f"No winner yet after {hands} hand{'s' * (hands != 1)}: "
                f"{display.scores_text(replay.scores)}.",
                style="bold",
            )
        )
