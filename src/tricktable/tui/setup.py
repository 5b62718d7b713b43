"""The start screen of ``tricktable tui``: pick a game, house rules, players and the screen.

:class:`SetupScreen` shows every game and variant of two to seven seats, the chosen game's
options (read from its Options dataclass: a switch, a number or a choice each; ``players`` and
``partners`` set the table's size and its partnerships where the game has them), a rules file,
a player for each seat beside you (as many as the options seat) with a level for the
characters, the seed, the screen's settings, and
the saved matches that can be resumed. It hands back a :class:`~tricktable.tui.model.Chosen`
only once everything has been checked as the match itself would check it (the game spec, the
players' specs, each bot started on the game), so a bad entry is one line on the screen,
never a table that cannot start.
"""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path
from typing import Any, ClassVar, Literal, get_args, get_origin

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.suggester import SuggestFromList
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from tricktable.bots import make_bot
from tricktable.characters import LEVELS
from tricktable.characters.roster import CHARACTERS
from tricktable.engine.options import describe_value, format_value, parse_spec
from tricktable.engine.trick import Game
from tricktable.errors import RecordError, TricktableError
from tricktable.games import GAMES, PRESETS, load_game
from tricktable.records import load_record, replay
from tricktable.runner import HUMAN, MatchSpecError, check_players
from tricktable.tui.model import (
    DEFAULT_BOTS,
    SKINS,
    Chosen,
    MatchSetup,
    SavedMatch,
    Settings,
    default_bots,
    unfinished_records,
)
from tricktable.tui.widgets import FittedScreen
from tricktable.ui.terminal import PLACES, seat_names

#: the seats beside you, by number, at a table of four: seat 1 sits on your left, as at the
#: table screen (other sizes: :func:`~tricktable.ui.terminal.seat_names`)
SEATS = {1: "West", 2: "North", 3: "East"}
#: the most seats beside you (a table of seven)
MOST_SEATS = max(PLACES) - 1
#: a character's levels: its own play, or the level's bot playing its cards (``base``)
CHARACTER_LEVELS = (("own style", ""), *((level, level) for level in LEVELS))
TITLE = "tricktable · set up a match: you sit South · Tab moves, Enter picks, Ctrl+S starts"
#: the plain bots a newcomer may seat, each with a line saying what it is
BOTS = {
    "heuristic": "the game's rules of thumb (the club level)",
    "beginner": "the heuristic with a beginner's mistakes",
    "expert": "the strongest search of the game (pimc in Setback, else ismcts), 0.5 s a move",
    "ismcts": "information-set Monte Carlo search of the card play",
    "pimc": "samples the hidden hands and solves each one",
    "cfr": "Setback from a trained CFR strategy",
    "random": "any legal card, at random",
}


def table_games() -> list[tuple[str, str]]:
    """(name, description) of every game and variant the table screen seats (two to seven
    seats, by default or by its ``players`` option), each game before its variants."""
    found: list[tuple[str, str]] = []
    for name, cls in GAMES.items():
        # The table size is a game's field (its options may set it), not its class's.
        game = load_game(name)  # read from a game: compiled, a class's fields are descriptors
        sizes = (game.num_players, *getattr(game, "seat_counts", ()))
        if not any(n in PLACES for n in sizes):
            continue
        found.append((name, f"{cls.title or name}: {cls.summary}"))
        for preset in sorted(PRESETS.values(), key=lambda p: p.name):
            if preset.game == name:
                found.append((preset.name, f"a variant of {name}: {preset.summary}"))
    return found


#: the name it had when the table seated four only
four_seat_games = table_games


def bot_choices(game: Game) -> list[tuple[str, str]]:
    """(label, spec) of the players that can sit at ``game``: characters, then plain bots."""
    from tricktable.bots.pimc import plays

    choices = [(f"{c.display} (character)", c.name) for c in CHARACTERS.values()]
    for name in BOTS:
        if (name == "pimc" and not plays(game)) or (name == "cfr" and game.name != "setback"):
            continue
        choices.append((name, name))
    return choices


def table_sizes(game: Game) -> list[int]:
    """The table sizes to choose from where ``game``'s options seat it (a ``players`` option
    and several sizes the table screen can draw); none where the game has one size."""
    if "players" not in {f.name for f in dataclasses.fields(game.options)}:
        return []
    sizes = [n for n in getattr(game, "seat_counts", ()) if n in PLACES]
    return sizes if len(sizes) > 1 else []


def partner_shapes(players: int) -> list[tuple[str, object]]:
    """(label, value) of the ``partners`` option's shapes at ``players`` seats, as Setback
    spells them: two sides (``true``, shown ``2x3`` at six), SIDESxSIZE for more sides of two
    or more, or none (``false``). The labels are short: the box is narrow at 100 columns."""
    shapes: list[tuple[str, object]] = []
    if players >= 4 and players % 2 == 0:
        shapes.append((f"2x{players // 2}", True))
    for sides in range(3, players // 2 + 1):
        if players % sides == 0:
            shapes.append((f"{sides}x{players // sides}", f"{sides}x{players // sides}"))
    shapes.append(("none", False))
    return shapes


def _partners_value(value: object) -> object:
    """A ``partners`` value as :func:`partner_shapes` spells it (``"2x3"`` is ``True``)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "on"):
        return True
    if text in ("false", "no", "off"):
        return False
    return True if text.startswith("2x") else text


def player_spec(name: str, level: str) -> str:
    """The player spec of ``name`` at ``level`` ("" keeps a character's own play)."""
    base = LEVELS.get(level)
    if base is None or name not in CHARACTERS:
        return name
    return f"{name}(base={format_value(base)})"


def split_player(spec: str) -> tuple[str, str]:
    """(name, level) of a player spec :func:`player_spec` writes; any other spec whole."""
    try:
        name, values = parse_spec(spec)
    except TricktableError:
        return spec, ""
    if name in CHARACTERS and set(values) <= {"base"}:
        base = values.get("base", "")
        level = next((lv for lv, b in LEVELS.items() if b == base), None)
        if level is not None or not base:
            return name, level or ""
    return (name, "") if not values else (spec, "")


def _choices(kind: Any) -> tuple[str, ...] | None:
    return tuple(map(str, get_args(kind))) if get_origin(kind) is Literal else None


def _select(
    choices: Any, value: object, ident: str, classes: str = "", tip: str = ""
) -> Select[Any]:
    """A one-line select that always holds one of ``choices``."""
    return Select(
        choices,
        value=value,
        allow_blank=False,
        id=ident,
        classes=classes,
        tooltip=tip or None,
        compact=True,
    )


class Tick(Checkbox):
    """A checkbox whose mark is drawn only when it is ticked: Textual's draws an X either
    way, told apart by colour alone, which ``NO_COLOR`` and some terminals lose."""

    @property
    def _button(self) -> Content:
        self.BUTTON_INNER = "X" if self.value else " "
        return super()._button


class SetupScreen(FittedScreen["Chosen | None"]):
    """The start screen: set up a match, resume a saved one or replay a record (see module)."""

    DEFAULT_CSS = """
    SetupScreen { layout: vertical; }
    SetupScreen #setup-title { height: 1; background: $boost; padding: 0 1; text-style: bold; }
    SetupScreen #columns { height: 1fr; }
    SetupScreen .column { width: 1fr; padding: 0 1; }
    SetupScreen #game-column { width: 24; }
    SetupScreen #side-column { width: 5fr; min-width: 38; }
    SetupScreen #rules-column { width: 4fr; border-left: vkey $primary-darken-2;
        border-right: vkey $primary-darken-2; }
    SetupScreen .heading { height: 1; color: $accent; text-style: bold; margin-top: 1; }
    SetupScreen .heading.first { margin-top: 0; }
    SetupScreen #games { height: 1fr; }
    SetupScreen #game-about { height: auto; max-height: 5; color: $text-muted; }
    SetupScreen .row { height: 1; }
    SetupScreen .row > Label { width: 18; padding-right: 1; }
    SetupScreen .row Input, SetupScreen .row Select { width: 1fr; }
    SetupScreen .row Checkbox { width: 5; }  /* the box and its empty label's padding */
    SetupScreen #options { height: 1fr; }
    SetupScreen #option-doc { height: 2; color: $text-muted; }
    SetupScreen .seat > Label { width: 16; padding-right: 1; }
    SetupScreen .seat .player { width: 1fr; }
    SetupScreen .seat .level { width: 12; }
    SetupScreen .blurb { height: auto; max-height: 2; color: $text-muted; padding-left: 16; }
    SetupScreen.-wide-seats .seat > Label { width: 21; }
    SetupScreen.-wide-seats .blurb { padding-left: 21; }
    SetupScreen #screen-row Checkbox { width: auto; margin-right: 2; }
    SetupScreen #saved { height: 1fr; min-height: 3; }
    SetupScreen #setup-error { height: auto; max-height: 3; color: $error; padding: 0 1; }
    SetupScreen #buttons { height: 1; align-horizontal: center; }
    SetupScreen #buttons Button { margin: 0 2; }
    """
    AUTO_FOCUS = "#start"
    BINDINGS: ClassVar[list[BindingType]] = [
        # not escape: one pressed to leave a field would end the program
        Binding("ctrl+s", "start", "Start", priority=True),
        # Tab moves the focus at once, as the app reads the key. Screen's own Tab binding
        # runs only once the key has gone through the focused field and back up, and keys
        # typed meanwhile (a quick "Tab 2 5") went to the field being left.
        Binding("tab", "app.focus_next", show=False, priority=True),
        Binding("shift+tab", "app.focus_previous", show=False, priority=True),
    ]

    def __init__(self, initial: MatchSetup, settings: Settings, records: Path | None = None):
        super().__init__()
        self.initial = initial
        self.settings = settings
        self.records = records if records is not None else settings.records
        self.games = table_games()
        self.saved: list[SavedMatch] = unfinished_records(self.records)
        name, values = self._initial_game()
        self.game_name = name
        self.game: Game = load_game(name)
        #: the options to show on the first game, as the setup gave them (then the defaults)
        self._pending: dict[str, object] = {**values, **initial.options}
        #: why the options as they stand do not load (shown under the players), or ""
        self.table_error = ""

    def _initial_game(self) -> tuple[str, dict[str, str]]:
        try:
            name, values = parse_spec(self.initial.game)
        except TricktableError:
            return "setback", {}
        return (name, values) if name in dict(self.games) else ("setback", {})

    # ------------------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield self.size_message()
        yield Static(TITLE, id="setup-title")
        with Horizontal(id="columns"):
            with Vertical(id="game-column", classes="column"):
                yield Label("Game", classes="heading first")
                options = [Option(n if n in GAMES else f"  {n}", id=n) for n, _ in self.games]
                yield OptionList(*options, id="games", compact=True)
                yield Static(id="game-about")
            with Vertical(id="rules-column", classes="column"):
                yield Label("House rules", classes="heading first", id="rules-heading")
                rules = self.initial.rules or ""
                yield self._row(
                    "rules file", Input(rules, "a TOML file", id="rules-file", compact=True)
                )
                seed = "" if self.initial.seed is None else str(self.initial.seed)
                yield self._row("seed", Input(seed, "blank: fresh", id="seed", compact=True))
                yield VerticalScroll(id="options", can_focus=False)
                yield Static("tab to an option to read what it does", id="option-doc")
            with Vertical(id="side-column", classes="column"):
                yield Label("Players", classes="heading first")
                yield from self._seats()
                yield Label("Screen", classes="heading")
                skins = [(s, s) for s in SKINS]
                yield self._row("skin", _select(skins, self.settings.skin, "skin"))
                with Horizontal(id="screen-row", classes="row"):
                    yield Tick("ASCII cards", self.settings.ascii, id="ascii", compact=True)
                    yield Tick("animations", self.settings.animate, id="animate", compact=True)
                yield Label(f"Unfinished matches in {self.records}", classes="heading")
                # A record's labels are text, not markup (a "[@click=...]" would be a link).
                lines = [Option(Content(s.line()), id=str(i)) for i, s in enumerate(self.saved)]
                yield OptionList(
                    *lines or [Option("none", disabled=True)], id="saved", compact=True
                )
                # the saved records' paths complete what is typed (the right arrow takes one)
                paths = sorted(self.records.glob("*.json")) if self.records.is_dir() else []
                known = SuggestFromList([str(p) for p in paths], case_sensitive=True)
                path = Input(
                    placeholder="path of a record", id="replay-path", suggester=known, compact=True
                )
                yield self._row("replay record", path)
        # Plain text: an error quotes what a record or a person gave, never read as markup.
        yield Static(id="setup-error", markup=False)
        with Horizontal(id="buttons"):
            yield Button("Start", id="start", variant="primary", compact=True)
            yield Button("Resume", id="resume", disabled=not self.saved, compact=True)
            yield Button("Replay", id="replay", compact=True)
            yield Button("Quit", id="quit", variant="error", compact=True)

    @staticmethod
    def _row(label: str, widget: Widget) -> Horizontal:
        return Horizontal(Label(label), widget, classes="row")

    def _seats(self) -> ComposeResult:
        choices = bot_choices(self.game)
        given = self.initial.players
        # the seats a larger table adds: the characters the defaults go on with
        more = default_bots(MOST_SEATS)[len(given) :] if given == DEFAULT_BOTS else ()
        for seat in range(1, MOST_SEATS + 1):
            players = (*given, *more)
            spec = players[seat - 1] if seat <= len(players) else ""
            name, level = split_player(spec or "heuristic")
            mine = choices if name in dict((v, k) for k, v in choices) else [*choices, (name, name)]
            with Horizontal(classes="row seat", id=f"seat-row-{seat}"):
                yield Label(id=f"seat-{seat}")
                yield _select(mine, name, f"player-{seat}", "player")
                yield _select(CHARACTER_LEVELS, level, f"level-{seat}", "level")
            yield Static(id=f"blurb-{seat}", classes="blurb")
        yield Static(id="seat-count", classes="blurb")

    async def on_mount(self) -> None:
        # Highlighted once mounted: a list highlights its first option as it mounts.
        names = [n for n, _ in self.games]
        self.query_one("#games", OptionList).highlighted = names.index(self.game_name)
        await self._show_game()

    # ------------------------------------------------------------------------- the game

    async def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        # Only the highlight still current: the list's own first highlight, as it mounts,
        # or one passed over by a quick arrow key, would bring up a game nobody chose.
        current = event.option_list.highlighted == event.option_index
        if event.option_list.id == "games" and current and event.option.id != self.game_name:
            self.game_name = event.option.id or "setback"
            self.game = load_game(self.game_name)
            await self._show_game()

    async def _show_game(self) -> None:
        """Show the chosen game: its description, its options, who partners whom."""
        about = dict(self.games)[self.game_name]
        self.query_one("#game-about", Static).update(about)
        self.query_one("#rules-heading", Label).update(f"House rules of {self.game_name}")
        box = self.query_one("#options", VerticalScroll)
        await box.remove_children()
        await box.mount_all(self._option_row(f) for f in dataclasses.fields(self.game.options))
        self._pending = {}
        self._show_players()

    def _option_row(self, field: dataclasses.Field[Any]) -> Horizontal:
        cls = type(self.game.options)
        kind = typing.get_type_hints(cls)[field.name]
        value: Any = self._pending.get(field.name, getattr(self.game.options, field.name))
        tip = f"{field.metadata.get('doc', '')}; valid: {describe_value(cls, field)}"
        ident = f"opt-{field.name}"
        widget: Widget
        sizes = table_sizes(self.game)
        if field.name == "players" and sizes:
            # the table's size, from the sizes the game allows: the seats beside you follow
            try:
                seats = int(str(value))
            except ValueError:
                seats = getattr(self.game.options, field.name)
            shown = seats if seats in sizes else getattr(self.game.options, field.name)
            widget = _select([(str(n), n) for n in sizes], shown, ident, tip=tip)
        elif field.name == "partners" and kind is not bool and sizes:
            widget = self._partners_select(self._pending.get("players"), value, ident, tip)
        elif kind is bool:
            on = value if isinstance(value, bool) else str(value).lower() in ("true", "yes", "on")
            widget = Tick("", on, id=ident, tooltip=tip, compact=True)
        elif (choices := _choices(kind)) is not None:
            shown = str(value) if str(value) in choices else getattr(self.game.options, field.name)
            widget = _select([(c, c) for c in choices], shown, ident, tip=tip)
        else:
            widget = Input(str(value), id=ident, tooltip=tip, compact=True)
        return self._row(field.name.replace("_", " "), widget)

    def _partners_select(self, players: object, value: object, ident: str, tip: str) -> Widget:
        """The partnerships a table of ``players`` seats (the game's own if None) can sit in."""
        try:
            seats = int(str(players)) if players is not None else self.game.num_players
        except ValueError:
            seats = self.game.num_players
        shapes = partner_shapes(seats)
        current = _partners_value(value)
        values = [v for _, v in shapes]
        return _select(shapes, current if current in values else values[0], ident, tip=tip)

    def _refit_partners(self) -> None:
        """The partnerships offered for the size chosen (the shape kept where it still fits)."""
        players = self.query("#opt-players")
        partners = self.query("#opt-partners")
        if not players or not partners:
            return
        size, select = players.first(), partners.first()
        if not isinstance(size, Select) or not isinstance(select, Select):
            return
        if not isinstance(size.value, int):
            return
        shapes = partner_shapes(size.value)
        current = select.value
        values = [v for _, v in shapes]
        select.set_options(shapes)
        select.value = current if current in values else values[0]

    def options(self) -> dict[str, object]:
        """The options changed from the chosen game's own, as the widgets hold them."""
        changed: dict[str, object] = {}
        for field in dataclasses.fields(self.game.options):
            default = getattr(self.game.options, field.name)
            widget = self.query_one(f"#opt-{field.name}")
            value: object = default
            if isinstance(widget, Checkbox | Select):
                value = widget.value
            elif isinstance(widget, Input) and widget.value.strip() != str(default):
                value = widget.value.strip()  # read and checked by the game's own parser
            if value != default:
                changed[field.name] = value
        return changed

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        ident = event.widget.id or ""
        if ident.startswith("opt-"):
            tip = event.widget.tooltip
            self.query_one("#option-doc", Static).update(f"{ident[4:]}: {tip}")

    # ------------------------------------------------------------------------- players

    def table_game(self) -> Game:
        """The game as the options now set it (its size, its partnerships); the game
        without them while they do not load (the error shows when the match starts)."""
        try:
            game = load_game(self.game_name, extra=self.options())
        except (TricktableError, ValueError, TypeError) as exc:
            self.table_error = str(exc)
            return self.game
        self.table_error = ""
        return game

    def seats(self) -> int:
        """How many seats beside yours the chosen game and options have (at most six)."""
        return max(1, min(self.table_game().num_players - 1, MOST_SEATS))

    def _show_players(self) -> None:
        game = self.table_game()
        n = game.num_players
        names = seat_names([0], n)
        sides = game.num_scores
        partners = 0 < sides < n
        choices = bot_choices(self.game)
        # A row and a blurb of two lines a seat: at a table of more than four, the blurbs
        # only where the window is tall enough for them all and what comes below.
        blurbs = n <= 4 or self.app.size.height >= 28 + 3 * (n - 1) - 6
        for seat in range(1, MOST_SEATS + 1):
            shown = seat < n
            self.query_one(f"#seat-row-{seat}").display = shown
            self.query_one(f"#blurb-{seat}").display = shown and blurbs
            if not shown:
                continue
            if partners or n == 4:
                ours = game.team_of(seat) == game.team_of(0)
                who = " · partner" if partners and ours else " · opponent"
            else:
                who = ""  # each for themselves: every seat is an opponent
            self.query_one(f"#seat-{seat}", Label).update(f"{names[seat]}{who}")
            select: Select[str] = self.query_one(f"#player-{seat}", Select)
            current = select.value
            known = [v for _, v in choices]
            # a plain bot this game does not take gives way to the heuristic; a spec of
            # another kind (a program, a bot with options) stays as it was given
            custom = current not in known and current not in BOTS
            mine = [*choices, (str(current), str(current))] if custom else choices
            select.set_options(mine)
            select.value = current if current in [v for _, v in mine] else "heuristic"
            self._show_player(seat)
        # "Northwest · opponent" needs a wider label than the winds of four
        self.set_class(n > 4 and partners, "-wide-seats")
        count = self.query_one("#seat-count", Static)
        count.display = n != 4
        if self.table_error:  # the options do not seat: say why now, not only at the start
            count.display = True
            count.update(" ".join(f"not seated: {self.table_error}".split()))
        elif partners:
            count.update(f"{n} players, {sides} sides: partners sit evenly round the table")
        else:
            count.update(f"{n} players, each for themselves")

    def _show_player(self, seat: int) -> None:
        name = str(self.query_one(f"#player-{seat}", Select).value)
        character = CHARACTERS.get(name)
        level = self.query_one(f"#level-{seat}", Select)
        level.disabled = character is None
        blurb = f"{character.display}: {character.title}" if character else BOTS.get(name, "")
        self.query_one(f"#blurb-{seat}", Static).update(blurb)

    def on_select_changed(self, event: Select.Changed) -> None:
        ident = event.select.id or ""
        if ident.startswith("player-"):
            self._show_player(int(ident.removeprefix("player-")))
        elif ident.startswith("opt-"):
            if ident == "opt-players":
                self._refit_partners()
            self._show_players()  # an option may seat more or fewer, or change the sides

    def on_input_changed(self, event: Input.Changed) -> None:
        if (event.input.id or "") in ("opt-players", "opt-partners"):
            self._show_players()

    def players(self) -> tuple[str, ...]:
        """The specs of the players beside you, as chosen (one for each other seat)."""
        specs = []
        for seat in range(1, self.seats() + 1):
            name = str(self.query_one(f"#player-{seat}", Select).value)
            specs.append(player_spec(name, str(self.query_one(f"#level-{seat}", Select).value)))
        return tuple(specs)

    # ------------------------------------------------------------------------- choosing

    def setup(self) -> MatchSetup:
        """The match as the screen holds it (the seed read; nothing else checked yet)."""
        text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(text) if text else None
        except ValueError:
            raise MatchSpecError(
                f"the seed must be a whole number or blank, not {text!r}"
            ) from None
        rules = self.query_one("#rules-file", Input).value.strip() or None
        return MatchSetup(self.game_name, self.players(), seed, rules, self.options())

    def chosen_settings(self) -> Settings:
        skin = str(self.query_one("#skin", Select).value)
        return dataclasses.replace(
            self.settings,
            skin=skin,
            ascii=self.query_one("#ascii", Checkbox).value,
            animate=self.query_one("#animate", Checkbox).value,
        )

    def _checked(self) -> MatchSetup:
        """The match set up, checked as the table would check it (one clear error if not)."""
        setup = self.setup()
        game = load_game(setup.spec())
        check_players((HUMAN, *setup.players))
        for seat, spec in enumerate(setup.players, start=1):
            if ":" in spec:
                continue  # a program or a web service: started by the match, not twice
            bot = make_bot(spec)  # started once here: a bot the game refuses fails now
            try:
                bot.start_match(game, seat, 0)
            except TricktableError as exc:
                where = seat_names([0], game.num_players)[seat]
                raise MatchSpecError(f"{where}: {exc}") from None
            finally:
                bot.close()
        return setup

    def on_button_pressed(self, event: Button.Pressed) -> None:
        action = {"quit": "quit_setup"}.get(event.button.id or "", event.button.id)
        getattr(self, f"action_{action}")()

    def _fail(self, message: str) -> None:
        self.query_one("#setup-error", Static).update(" ".join(message.split()))

    def action_start(self) -> None:
        try:
            chosen = Chosen("play", self._checked(), self.chosen_settings())
        except TricktableError as exc:
            self._fail(str(exc))
            return
        self.dismiss(chosen)

    def _setup_or_initial(self) -> MatchSetup:
        try:
            return self.setup()
        except TricktableError:
            return self.initial

    def action_resume(self) -> None:
        index = self.query_one("#saved", OptionList).highlighted
        if not self.saved:
            self._fail(f"no unfinished match in {self.records} to resume")
            return
        path = self.saved[index or 0].path
        self.dismiss(Chosen("resume", self._setup_or_initial(), self.chosen_settings(), path))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "saved":
            self.action_resume()  # Enter or a click on a saved match plays it on

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "replay-path":
            self.action_replay()

    def action_replay(self) -> None:
        text = self.query_one("#replay-path", Input).value.strip()
        try:
            if not text:
                raise RecordError("write the path of a record to replay")
            replay(load_record(text))
        except TricktableError as exc:
            self._fail(f"cannot replay {text}: {exc}" if text else str(exc))
            return
        chosen = Chosen("replay", self._setup_or_initial(), self.chosen_settings(), Path(text))
        self.dismiss(chosen)

    def action_quit_setup(self) -> None:
        self.dismiss(None)
