"""The start screen of ``tricktable tui`` (:mod:`tricktable.tui.setup`), driven headless.

A tiny app pushes the screen and keeps what it is dismissed with; each test drives it with
key presses and clicks as a person would, and checks the choice against the real spec
parser, bots and records.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Select, Static

from tricktable.characters import LEVELS
from tricktable.records import save_record
from tricktable.runner import MatchSpec, run_match
from tricktable.tui.model import Chosen, MatchSetup, Settings
from tricktable.tui.setup import SetupScreen, four_seat_games, player_spec, split_player
from tui_helpers import until

SMALL = (100, 30)
LARGE = (150, 48)
Test = Callable[[SetupScreen, Pilot[None]], Coroutine[Any, Any, None]]


class Host(App[None]):
    """Pushes one start screen and records what it hands back."""

    def __init__(self, setup: SetupScreen) -> None:
        super().__init__()
        self.setup_screen = setup
        self.chosen: list[Chosen | None] = []

    def on_mount(self) -> None:
        self.push_screen(self.setup_screen, self.chosen.append)


def drive(
    test: Test,
    records: Path,
    initial: MatchSetup | None = None,
    size: tuple[int, int] = LARGE,
) -> list[Chosen | None]:
    """Run ``test`` against a fresh start screen; what the screen was dismissed with."""
    screen = SetupScreen(initial or MatchSetup(), Settings(), records=records)
    host = Host(screen)

    async def main() -> None:
        async with host.run_test(size=size) as pilot:
            await pilot.pause()
            await test(screen, pilot)
            await pilot.pause()

    asyncio.run(main())
    return host.chosen


def error(screen: SetupScreen) -> str:
    return str(screen.query_one("#setup-error", Static).render())


async def click(pilot: Pilot[None], selector: str) -> None:
    """Click a button once its last click's flash is over: a Textual button ignores clicks
    while it flashes (0.2 s), and a test is quicker than a person."""
    button = pilot.app.screen.query_one(selector)
    await until(pilot, lambda: not button.has_class("-active"), seconds=5)
    await pilot.click(selector)


async def choose_game(screen: SetupScreen, pilot: Pilot[None], name: str) -> None:
    names = [n for n, _ in four_seat_games()]
    screen.query_one("#games", OptionList).highlighted = names.index(name)
    await pilot.pause()
    await pilot.pause()


def test_defaults_start_setback_with_the_three_characters(tmp_path: Path) -> None:
    async def test(screen: SetupScreen, pilot: Pilot[None]) -> None:
        assert screen.focused is not None and screen.focused.id == "start"
        assert "partner" in str(screen.query_one("#seat-2").render())
        for ident in (
            "games",
            "seed",
            "rules-file",
            "opt-target",
            "player-3",
            "level-3",
            "animate",
            "saved",
            "replay-path",
            "setup-error",
            "start",
            "quit",
        ):
            region = screen.query_one(f"#{ident}").region  # all of it fits at 100x30
            assert region.width > 0 and region.bottom <= SMALL[1] and region.right <= SMALL[0]
        await pilot.press("enter")

    chosen = drive(test, tmp_path, size=SMALL)
    assert len(chosen) == 1 and chosen[0] is not None
    assert chosen[0].action == "play" and chosen[0].path is None
    setup = chosen[0].setup
    assert setup.spec() == "setback"
    assert setup.players == ("edna", "vinnie", "rosa")
    assert setup.seed is None and setup.rules is None
    assert chosen[0].settings == Settings()


def test_hearts_with_a_target_a_switch_and_a_choice_changed(tmp_path: Path) -> None:
    async def test(screen: SetupScreen, pilot: Pilot[None]) -> None:
        await choose_game(screen, pilot, "hearts")
        assert "Hearts" in str(screen.query_one("#game-about", Static).render())
        screen.query_one("#opt-target", Input).value = "50"
        await pilot.click("#opt-queen_breaks")  # the mouse flips a switch
        screen.query_one("#opt-moon", Select).value = "none"
        await pilot.click("#start")

    chosen = drive(test, tmp_path)
    assert chosen and chosen[0] is not None
    setup = chosen[0].setup
    assert setup.game == "hearts"
    assert setup.spec() == "hearts(target=50,queen_breaks=true,moon=none)"


def test_players_levels_and_screen_settings(tmp_path: Path) -> None:
    async def test(screen: SetupScreen, pilot: Pilot[None]) -> None:
        screen.query_one("#player-1", Select).value = "ada"
        screen.query_one("#level-1", Select).value = "expert"
        screen.query_one("#player-2", Select).value = "heuristic"
        screen.query_one("#player-3", Select).value = "kit"
        screen.query_one("#level-3", Select).value = "club"
        screen.query_one("#skin", Select).value = "paper"
        await pilot.pause()  # the blurbs' new heights move the rows below them
        await pilot.click("#ascii")
        await pilot.pause()
        assert screen.query_one("#level-2", Select).disabled  # a plain bot has no level
        assert "rules of thumb" in str(screen.query_one("#blurb-2", Static).render())
        await pilot.click("#start")

    chosen = drive(test, tmp_path)
    assert chosen and chosen[0] is not None
    expert = LEVELS["expert"]
    assert chosen[0].setup.players == (f'ada(base="{expert}")', "heuristic", "kit(base=heuristic)")
    assert chosen[0].settings.skin == "paper" and chosen[0].settings.ascii


def test_each_game_says_who_partners_and_offers_the_bots_that_play_it(tmp_path: Path) -> None:
    async def test(screen: SetupScreen, pilot: Pilot[None]) -> None:
        screen.query_one("#player-2", Select).value = "cfr"
        await choose_game(screen, pilot, "cutthroat-pitch")
        assert "opponent" in str(screen.query_one("#seat-2").render())
        await choose_game(screen, pilot, "hearts")
        # the cfr bot plays Setback only: the seat falls back to the heuristic
        assert screen.query_one("#player-2", Select).value == "heuristic"
        assert screen.query_one("#opt-target", Input).value == "100"
        await choose_game(screen, pilot, "oh-hell")  # no target: its options are shown all the same
        assert screen.query_one("#opt-max_cards", Input).value == "13"
        await pilot.click("#quit")

    assert drive(test, tmp_path) == [None]


def test_bad_entries_are_one_line_each_and_do_not_start(tmp_path: Path) -> None:
    async def test(screen: SetupScreen, pilot: Pilot[None]) -> None:
        async def refused(part: str) -> None:
            await click(pilot, "#start")
            # A click reaches the button's handler some messages later: wait for its answer.
            await until(pilot, lambda: part in error(screen), seconds=10)
            assert "\n" not in error(screen)
            assert screen.is_current

        seed = screen.query_one("#seed", Input)
        seed.value = "abc"
        await refused("seed must be a whole number")
        seed.value = "17"
        rules = screen.query_one("#rules-file", Input)
        rules.value = str(tmp_path / "missing.toml")
        await refused("cannot read rules file")
        (tmp_path / "bad.toml").write_text('[options]\nmoon = "sideways"\n', encoding="utf-8")
        rules.value = str(tmp_path / "bad.toml")
        await refused("moon")  # setback has no moon: the file's option is refused
        rules.value = ""
        target = screen.query_one("#opt-target", Input)
        target.value = "lots"
        await refused("bad value 'lots' for option 'target'")
        target.value = "15"
        await choose_game(screen, pilot, "smear")
        screen.query_one("#player-1", Select).value = "cfr"
        await refused("West: the cfr bot's strategy was trained on Setback's rules")
        screen.query_one("#player-1", Select).value = "moe"
        await click(pilot, "#start")

    chosen = drive(test, tmp_path, size=SMALL)
    assert len(chosen) == 1 and chosen[0] is not None
    assert chosen[0].setup.spec() == "smear" and chosen[0].setup.seed == 17
    assert chosen[0].setup.players == ("moe", "vinnie", "rosa")


def saved_match(folder: Path) -> Path:
    """An unfinished match a person played, saved in ``folder``."""
    record = run_match(MatchSpec("setback", ("random",) * 4, 3, max_hands=1)).record
    record["players"][0] = "alice"
    path = folder / "match-3.json"
    save_record(record, path)
    return path


def test_an_unfinished_match_is_listed_and_resumed(tmp_path: Path) -> None:
    path = saved_match(tmp_path)
    (tmp_path / "notes.json").write_text("not a record", encoding="utf-8")

    async def test(screen: SetupScreen, pilot: Pilot[None]) -> None:
        saved = screen.query_one("#saved", OptionList)
        assert saved.option_count == 1
        assert "match-3.json" in str(saved.get_option_at_index(0).prompt)
        saved.focus()
        await pilot.press("enter")  # the Resume button does the same

    chosen = drive(test, tmp_path, size=SMALL)
    assert chosen == [Chosen("resume", MatchSetup(), Settings(), path)]


def test_a_record_is_replayed_and_a_bad_one_refused(tmp_path: Path) -> None:
    path = saved_match(tmp_path)
    (tmp_path / "notes.json").write_text("not a record", encoding="utf-8")

    async def test(screen: SetupScreen, pilot: Pilot[None]) -> None:
        assert not screen.query_one("#resume").disabled
        where = screen.query_one("#replay-path", Input)
        await click(pilot, "#replay")
        await until(pilot, lambda: "write the path of a record" in error(screen), seconds=10)
        where.value = str(tmp_path / "notes.json")
        await click(pilot, "#replay")
        await until(pilot, lambda: "malformed JSON" in error(screen), seconds=10)
        assert screen.is_current
        where.value = str(path)
        await click(pilot, "#replay")
        await until(pilot, lambda: not screen.is_current, seconds=10)

    chosen = drive(test, tmp_path)
    assert len(chosen) == 1 and chosen[0] is not None
    assert chosen[0].action == "replay" and chosen[0].path == path


def test_the_keyboard_alone_picks_a_variant_a_seed_and_starts(tmp_path: Path) -> None:
    async def test(screen: SetupScreen, pilot: Pilot[None]) -> None:
        async def tab_to(ident: str, key: str = "tab") -> None:
            for _ in range(12):
                if screen.focused is not None and screen.focused.id == ident:
                    return
                await pilot.press(key)
            raise AssertionError(f"{key} never reached #{ident}")

        await tab_to("games")  # from Start, past the buttons
        await pilot.press("down")  # setback -> auction-pitch, its first variant
        await pilot.pause()
        await tab_to("seed")
        await pilot.press("4", "2", "tab")
        assert screen.focused is not None and screen.focused.id == "opt-target"
        await pilot.press("ctrl+a", "ctrl+k", "9")  # Input's own keys: select all, cut
        await tab_to("start", "shift+tab")
        await pilot.press("enter")

    chosen = drive(test, tmp_path, size=SMALL)
    assert chosen and chosen[0] is not None
    assert chosen[0].setup.spec() == "auction-pitch(target=9)"
    assert chosen[0].setup.seed == 42


def test_the_setup_given_is_shown_and_handed_back_unchanged(tmp_path: Path) -> None:
    initial = MatchSetup(
        "hearts(target=50)",
        ("ada(base=heuristic)", "pimc(worlds=5)", "random"),
        7,
        None,
        {"moon": "none"},
    )

    async def test(screen: SetupScreen, pilot: Pilot[None]) -> None:
        assert screen.query_one("#opt-target", Input).value == "50"
        assert screen.query_one("#level-1", Select).value == "club"
        await pilot.press("ctrl+s")

    chosen = drive(test, tmp_path, initial)
    assert chosen and chosen[0] is not None
    assert chosen[0].setup.spec() == "hearts(target=50,moon=none)"
    assert chosen[0].setup.players == initial.players and chosen[0].setup.seed == 7


def test_player_specs_read_back() -> None:
    for name, level in (("edna", ""), ("edna", "club"), ("kit", "expert"), ("pimc", "")):
        assert split_player(player_spec(name, level)) == (name, level)
    assert player_spec("heuristic", "expert") == "heuristic"
    assert split_player("edna(base=random)") == ("edna(base=random)", "")


def test_keys_typed_in_one_burst_after_tab_reach_the_field_tabbed_to(tmp_path: Path) -> None:
    """A terminal hands the app what was typed quickly in one read: "Tab 2 5 Tab 3" as five
    key events at once, with no pause for the app between them (as a pilot's ``press``
    makes). The keys after each Tab go to the field it moved to, not the one it left."""

    async def test(screen: SetupScreen, pilot: Pilot[None]) -> None:
        screen.query_one("#seed", Input).focus()
        await pilot.pause()
        app = screen.app
        for key in ("tab", "2", "5", "tab", "3", "tab", "5"):
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await pilot.pause(0.3)
        assert screen.query_one("#seed", Input).value == ""
        assert screen.query_one("#opt-target", Input).value == "25"
        assert screen.query_one("#opt-min_bid", Input).value == "3"
        assert screen.query_one("#opt-max_bid", Input).value == "5"
        await pilot.press("ctrl+s")

    chosen = drive(test, tmp_path, size=SMALL)
    assert chosen and chosen[0] is not None
    assert chosen[0].setup.spec() == "setback(target=25,min_bid=3,max_bid=5)"


def test_the_players_and_partners_options_seat_a_table_of_six(tmp_path: Path) -> None:
    async def test(screen: SetupScreen, pilot: Pilot[None]) -> None:
        assert not screen.query_one("#seat-row-4").display  # four seats: three beside you
        assert [v for _, v in screen.query_one("#opt-partners", Select)._options] == [True, False]
        screen.query_one("#opt-players", Select).value = 6
        await pilot.pause()
        partners = screen.query_one("#opt-partners", Select)
        assert [v for _, v in partners._options] == [True, "3x2", False]  # two of 3, 3 of 2
        partners.value = "3x2"
        await pilot.pause()
        labels = [str(screen.query_one(f"#seat-{s}").render()) for s in range(1, 6)]
        assert labels == [
            "West · opponent",
            "Northwest · opponent",
            "North · partner",
            "Northeast · opponent",
            "East · opponent",
        ]
        assert not screen.query_one("#seat-row-6").display
        assert "3 sides" in str(screen.query_one("#seat-count").render())
        partners.value = False
        await pilot.pause()
        assert "each for themselves" in str(screen.query_one("#seat-count").render())
        assert str(screen.query_one("#seat-3").render()) == "North"  # all are opponents
        partners.value = True
        await pilot.pause()
        assert "partner" in str(screen.query_one("#seat-2").render())
        await pilot.click("#start")

    chosen = drive(test, tmp_path, size=SMALL)
    assert chosen and chosen[0] is not None
    setup = chosen[0].setup
    assert setup.spec() == "setback(players=6)"  # two sides of three: partners=true
    assert setup.players == ("edna", "vinnie", "rosa", "ada", "moe")  # the characters go on


def test_an_odd_table_offers_no_partnership(tmp_path: Path) -> None:
    async def test(screen: SetupScreen, pilot: Pilot[None]) -> None:
        screen.query_one("#opt-players", Select).value = 5
        await pilot.pause()
        partners = screen.query_one("#opt-partners", Select)
        assert [v for _, v in partners._options] == [False] and partners.value is False
        labels = [str(screen.query_one(f"#seat-{s}").render()) for s in range(1, 5)]
        assert labels == ["West", "Northwest", "Northeast", "East"]
        await pilot.click("#start")

    chosen = drive(test, tmp_path, size=SMALL)
    assert chosen and chosen[0] is not None
    assert chosen[0].setup.spec() == "setback(partners=false,players=5)"
    assert len(chosen[0].setup.players) == 4


def test_a_game_started_at_six_shows_six(tmp_path: Path) -> None:
    async def test(screen: SetupScreen, pilot: Pilot[None]) -> None:
        assert screen.query_one("#opt-players", Select).value == 6
        assert screen.query_one("#opt-partners", Select).value == "3x2"
        assert screen.query_one("#seat-row-5").display
        assert "North · partner" in str(screen.query_one("#seat-3").render())
        await pilot.click("#start")

    initial = MatchSetup("setback(players=6,partners=3x2)")
    chosen = drive(test, tmp_path, initial, size=SMALL)
    assert chosen and chosen[0] is not None
    assert chosen[0].setup.spec() == "setback(partners=3x2,players=6)"


def test_a_size_the_options_cannot_seat_says_why_at_once(tmp_path: Path) -> None:
    async def test(screen: SetupScreen, pilot: Pilot[None]) -> None:
        await choose_game(screen, pilot, "pedro")  # nine cards each: six hands need 54
        screen.query_one("#opt-players", Select).value = 6
        await pilot.pause()
        said = str(screen.query_one("#seat-count").render())
        assert said.startswith("not seated: ") and "54 cards" in said
        await pilot.click("#start")
        await pilot.pause()
        assert "54 cards" in error(screen)

    assert drive(test, tmp_path) == []
