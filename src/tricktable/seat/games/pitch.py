"""Setback and every Pitch preset at the table: its presenter (see :mod:`tricktable.seat.games`)."""

from __future__ import annotations

from collections.abc import Sequence

from tricktable.cards import (
    JACK,
    JOKER,
    LITTLE_JOKER,
    TEN,
    cards_in,
)
from tricktable.engine.trick import AUCTION, TrumpTables, View
from tricktable.games.pitch_scoring import game_count, sides_of
from tricktable.games.setback import Setback
from tricktable.games.setback_results import SetbackResult
from tricktable.seat.games.base import (
    POINT_LABELS,
    HandSeen,
    Presenter,
    Seating,
    _or_all,
    card_text,
    last_result,
    line,
    per_side_words,
    side_of,
    side_word,
    suit_text,
    verb,
)
from tricktable.seat.words import Words


class SetbackPresenter(Presenter):
    """Setback and every Pitch preset: the auction, trump by the first lead, the points."""

    auction_title = "Auction"

    def goal(self, seating: Seating) -> str:
        """How the match is won, in words."""
        opts = self.game.options
        target = opts.target
        rule = getattr(opts, "win", "declarers")
        if rule == "first":
            return f"first to {target} wins"
        if rule == "top":
            return f"the top score once someone reaches {target} wins"
        return f"first declaring {'team' if seating.partners else 'player'} to {target} wins"

    def win_reason(self, seating: Seating, winner: int, scores: Sequence[int]) -> str:
        """Why a side without the top score won: the match's rule (``win``) counts only the
        declarers' reaching the target (``declarers``), or lets the declarers go out first
        when both reach it in one hand (``first``)."""
        others = [score for side, score in enumerate(scores) if side != winner]
        if not others or scores[winner] > max(others):
            return ""  # the top score won: nothing to explain
        opts = self.game.options
        target = opts.target
        rule = getattr(opts, "win", "declarers")
        side = "team" if seating.partners else "player"
        if rule == "declarers":
            name = seating.side_name(winner)
            return (
                f"Only the declaring {side} can win, by reaching {target} ({name} did, bidding);"
                " points taken while defending never win the match."
            )
        if rule == "first":
            return (
                f"When the declaring {side} and another reach {target} in the same hand,"
                " the declarers win: the bidder goes out first."
            )
        return ""

    def rules_summary(self) -> str:
        """RULES.md's Setback in full; other variants by their summary."""
        if not self._plays_rules_md():
            return super().rules_summary()
        opts = self.game.options
        return (
            f"Six cards each. One round of bids from {opts.min_bid} to {opts.max_bid}, starting"
            f" left of the dealer; if all pass the dealer is stuck at {opts.min_bid}. The"
            " declarer leads first, and the suit of that card is trump. Follow suit if you can,"
            " otherwise play anything. The joker is a trump between the 10 and the jack, and may"
            " not be led while you hold other cards. Six points: High and Low (highest and"
            " lowest trump dealt), Jack of trump, Off-jack (the other jack of trump's colour),"
            " Joker, and Game (most card points: 10 = 10, A 4, K 3, Q 2, J 1). The declaring"
            " team scores its bid if it takes that many points and loses it otherwise; the"
            f" others score what they take. The first declaring team to {opts.target} wins."
        )

    def _plays_rules_md(self) -> bool:
        """Whether the game is RULES.md's Setback, which the full summary states.

        That is the Setback class itself (a game built on it, which inherits this presenter,
        may change rules the text states) with RULES.md's options, the target and the bids
        aside (the text reads them).
        """
        game = self.game
        if type(game) is not Setback:
            return False
        opts = game.options
        told = ("target", "min_bid", "max_bid")
        plain = type(opts)()
        return all(
            getattr(opts, k) == getattr(plain, k) for k in game.options_dict() if k not in told
        )

    def deal_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """Nothing: trump is named by the first lead."""
        return []

    def auction_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """The whole auction, and who declares at what."""
        game = self.game
        said = " · ".join(f"{seating.names[s]} {game.action_name(a)}" for s, a in hand.acted)
        out = [line(Words("Auction: ", style="bold"), said)]
        if not hand.playing:
            return out  # thrown in: the hand's result says so
        info = hand.facts
        declarer, bid = info.get("declarer"), info.get("bid")
        if declarer is None or bid is None:
            return out
        name = seating.names[declarer]
        if info.get("high_bidder", -1) < 0:
            text = f"All passed: {name}, the dealer, is stuck at {bid}."
        else:
            text = f"{verb(name, 'declare')} at {bid}."
        out.append(Words(text, style="bold"))
        return out

    def lead_lines(self, seating: Seating, hand: HandSeen, seat: int, card: int) -> list[Words]:
        """The first lead names trump."""
        if hand.trump < 0:
            return []
        lead = line(f"{verb(seating.names[seat], 'lead')} ", card_text(card, hand.trumps))
        return [line(lead, ": trump is ", suit_text(hand.trump))]

    def result_lines(self, seating: Seating, hand: HandSeen) -> list[Words]:
        """Each point and who earned it, then the bid made or set."""
        result = last_result(hand, SetbackResult)
        if result is None:
            return super().result_lines(seating, hand)
        if result.thrown_in:
            return [Words("All passed: the deal is thrown in; nobody scores.", style="bold")]
        out: list[Words] = []
        points = result.points
        trump = result.trump
        if points and trump is not None and trump >= 0:
            weights = getattr(self.game, "weights", {})
            rows: list[tuple[str, Words, str, str]] = []
            for key, side in points.items():
                label = POINT_LABELS.get(key, key.replace("_", " ").capitalize())
                weight = weights.get(key, 1) if isinstance(weights, dict) else 1
                if weight != 1:
                    label += f" ({weight})"
                card, how = self._point_detail(seating, hand, key, trump, side)
                who = seating.side_name(side) if isinstance(side, int) else "—"
                rows.append((label, card, who, how))
            # Aligned by hand: a Rich Table costs as much as all the rest of a hand's output.
            wide = [max(len(r[i]) for r in rows) for i in range(3)]
            out.append(Words())
            for label, card, who, how in rows:
                row = Words(" ")
                row.append(label.ljust(wide[0]), style="bold")
                row.append("  ")
                row.append_text(card)
                row.append(" " * (wide[1] - len(card) + 2) + who.ljust(wide[2]) + "  ")
                row.append(how, style="dim")
                out.append(row)
        out.extend(self._bid_lines(seating, hand, result))
        return out

    def _point_detail(
        self, seating: Seating, hand: HandSeen, key: str, trump: int, side: int | None
    ) -> tuple[Words, str]:
        """The card that made a point (or the Game count), and how it went."""
        if key == "game":
            from tricktable.games.setback import game_count

            won = hand.won
            masks = sides_of(won, seating.game.num_scores)
            counts = [game_count(m) for m in masks]
            how = "card points" if side is not None else "card points, a tie: not awarded"
            return Words(" to ".join(map(str, counts))), how
        # Every card dealt is played in this family: the cards taken are the cards dealt.
        dealt = _or_all(hand.won)
        card = _point_card(key, trump, dealt, hand.tables)
        if card < 0 or not dealt >> card & 1:
            return Words("—"), "not dealt"
        if key == "low" and getattr(self.game.options, "low_to", "captured") == "dealt":
            holder = hand.played_by(card)  # a card played was dealt to the seat playing it
            how = f"dealt to {seating.names[holder]}" if holder >= 0 else ""
        else:
            taker = next((s for s, m in enumerate(hand.won) if m >> card & 1), -1)
            how = f"taken by {seating.names[taker]}" if taker >= 0 else ""
        return card_text(card, hand.trumps), how

    def _bid_lines(self, seating: Seating, hand: HandSeen, result: SetbackResult) -> list[Words]:
        scores, before = result.scores, hand.before
        declarer, bid, taken = result.declarer, result.bid, result.taken
        if declarer is None or bid is None:
            return []
        side = self.game.team_of(declarer)
        made = taken[side] >= bid
        out = Words(f"{seating.names[declarer]} bid {bid}; {seating.side_name(side)} took ")
        out.append(f"{taken[side]}: ")
        out.append("made" if made else "set", style="bold green" if made else "bold red")
        out.append(f", {scores[side] - before[side]:+d}.")
        for other, got in enumerate(taken):
            if other != side:
                change = scores[other] - before[other]
                out.append(f" {seating.side_name(other)} took {got}: {change:+d}.")
        return [out]

    def hand_line(self, seating: Seating, hand: HandSeen) -> Words:
        """Declarer, bid, trump, made or set, points taken."""
        result = last_result(hand, SetbackResult)
        if result is None:
            return super().hand_line(seating, hand)
        declarer, bid, taken = result.declarer, result.bid, result.taken
        out = Words()
        trump = result.trump
        if result.thrown_in:
            out.append("all passed, thrown in")
        elif declarer is not None and bid is not None:
            made = taken[self.game.team_of(declarer)] >= bid
            wide = max(5, *(len(name) for name in seating.names))  # the lines align
            out.append(f"{seating.names[declarer]:<{wide}} bid {bid:>2} in ")
            if trump is not None and trump >= 0:
                out.append_text(suit_text(trump, short=True))
            else:
                out.append("?")
            out.append(": ")
            out.append("made" if made else "set ", style="green" if made else "red")
            out.append(f"  points {'–'.join(map(str, taken))}")
        return out

    def phase_title(self, seating: Seating, view: View) -> str:
        """The auction."""
        return "Auction"

    def situation_lines(self, seating: Seating, view: View) -> list[Words]:
        """The auction so far, or the trick with the trump and the contract."""
        name = seating.names[view.seat]
        if view.phase == AUCTION:
            bids = [f"{seating.names[s]} {self.game.action_name(a)}" for s, a in view.actions]
            said = " · ".join(bids) if bids else f"{verb(name, 'bid')} first"
            return [line(Words("Auction: ", style="bold"), said)]
        return super().situation_lines(seating, view)

    def play_facts(self, seating: Seating, view: View) -> list[Words]:
        """Who declared at what."""
        info = view.info()
        declarer, bid = info.get("declarer"), info.get("bid")
        if isinstance(declarer, int) and declarer >= 0:
            return [Words(f"{seating.names[declarer]} bid {bid}")]
        return []

    def lead_prompt(self, seating: Seating, view: View, name: str) -> str:
        """Before trump is named, the lead names it."""
        if view.trump < 0:
            return f"{verb(name, 'lead')}: the suit of this card is trump."
        return f"{verb(name, 'lead')}."

    def no_trump_text(self) -> Words:
        """Trump is not named yet."""
        return Words("trump named by the lead")

    # ------------------------------------------------------------------ the running tally

    def _tally(self, seating: Seating, view: View) -> list[Words]:
        """The points of the hand as far as this seat can tell: each point card's fate,
        High and Low so far, the Game count; before trump is named, the contract."""
        if view.trump < 0:
            return self._before_trump(seating, view)
        weights = getattr(self.game, "weights", {"game": 1})
        seen = _Seen(seating, view, self.game.options.hand_size)
        out: list[Words] = []
        for key, weight in weights.items():
            label = POINT_LABELS.get(key, key.replace("_", " ").capitalize())
            if weight != 1:
                label += f" ({weight})"
            if key == "game":
                masks = sides_of(view.won, seating.game.num_scores)
                counts = [game_count(m) for m in masks]
                out.append(Words(f"{label}: {_game_words(seating, view.seat, counts, label)}"))
            elif key in ("high", "low"):
                out.append(self._high_low_line(seen, key, label))
            else:
                card = _point_card(key, view.trump, 0, view.tables)
                out.append(seen.card_line(label, card, point=key))
        return out

    def _before_trump(self, seating: Seating, view: View) -> list[Words]:
        out = [Words("Trump not named yet", style="bold")]
        info = view.info()
        names = seating.names
        declarer, bid = info.get("declarer"), info.get("bid")
        if isinstance(declarer, int) and 0 <= declarer < len(names):
            out.append(Words(f"Contract: {names[declarer]} bid {bid}"))
            out.append(Words("The first lead names trump", style="dim"))
        elif view.phase == AUCTION:
            bidder, high = info.get("high_bidder"), info.get("high_bid")
            if isinstance(bidder, int) and 0 <= bidder < len(names):
                out.append(Words(f"High bid: {names[bidder]} {high}"))
            else:
                out.append(Words("No bid yet"))
        return out

    def _high_low_line(self, seen: _Seen, key: str, label: str) -> Words:
        """High or Low: the highest (lowest) trump seen, and whether one unseen could beat it."""
        view = seen.view
        tables = view.tables
        power = tables.power
        # Jokers are never High or Low (pitch_scoring.high_low).
        trumps = [c for c in cards_in(seen.known & tables.mask) if c < 52]
        by_dealt = key == "low" and getattr(self.game.options, "low_to", "captured") == "dealt"
        if not trumps:
            text = Words(f"{label}: no trump seen yet")
        else:
            high = key == "high"
            card = (max if high else min)(trumps, key=power.__getitem__)
            # Sure once no trump this seat has not seen could be dealt above (below) it.
            unseen = [c for c in cards_in(seen.unseen & tables.mask) if c < 52]
            beaten = any(power[c] > power[card] if high else power[c] < power[card] for c in unseen)
            text = seen.card_line(label if not beaten else f"{label} so far", card, by_dealt)
        return seen.discarded(text, label, key, by_dealt)


def _point_card(key: str, trump: int, dealt: int, tables: TrumpTables) -> int:
    """The card a point goes with (High and Low: the highest and lowest trump dealt), or -1."""
    if key in ("high", "low"):
        # Jokers are never High or Low; other cards joining trump (an off-jack) may be.
        trumps = [c for c in cards_in(dealt & tables.mask) if c < 52]
        if not trumps:
            return -1
        pick = max if key == "high" else min
        return pick(trumps, key=tables.power.__getitem__)
    other = 3 - trump
    return {
        "jack": trump * 13 + JACK,
        "off_jack": other * 13 + JACK,
        "joker": JOKER,
        "little_joker": LITTLE_JOKER,
        "three": trump * 13 + 1,
        "five": trump * 13 + 3,
        "off_five": other * 13 + 3,
        "ten": trump * 13 + TEN,
    }.get(key, -1)


class _Seen:
    """What one seat knows of the cards of a Pitch hand: played (and by whom, and who took
    them), its own, and the rest, unseen (not dealt, or in another hand)."""

    def __init__(self, seating: Seating, view: View, hand_size: int) -> None:
        self.seating = seating
        self.view = view
        self.trick = _or_all(1 << c for _, c in view.trick)
        self.known = view.played | view.hand
        deck = _or_all(1 << c for c in view.game.deck)
        self.over = len(view.tricks) >= hand_size
        # Once the hand is over every card dealt was played: the others were never dealt.
        self.unseen = 0 if self.over else deck & ~self.known
        #: who played each card played (it was dealt to that seat)
        self.player: dict[int, int] = {}
        n, step = len(seating.names), view.game.step
        for leader, cards, _ in view.tricks:
            for i, c in enumerate(cards):
                self.player[c] = (leader + i * step) % n
        for s, c in view.trick:
            self.player[c] = s

    def discarded(self, text: Words, label: str, point: str, by_dealt: bool = False) -> Words:
        """``text``, or, once the hand is over, where the result gives ``point`` to another
        side than the cards seen say: the card that made it was in a kitty's discard (the
        declarer's, counted as its trick), unseen by this seat, so unnamed."""
        if not self.over:
            return text
        result = self.view.results[-1] if self.view.results else None
        side = (getattr(result, "points", None) or {}).get(point)
        if not isinstance(side, int):
            return text
        who = side_word(self.seating, self.view.seat, side)
        how = "dealt to" if by_dealt else "taken by"
        if text.plain.endswith(f" {how} {who}"):
            return text
        return Words(f"{label}: in the discard, {how} {who}")

    def card_line(self, label: str, card: int, by_dealt: bool = False, point: str = "") -> Words:
        """``label: card`` and where it is: yours, in the trick, taken by a side; or, with
        ``by_dealt``, the side it was dealt to (Low in ``low_to=dealt``); a ``point`` never
        played may have been in a kitty's discard (:meth:`discarded`)."""
        view, seating = self.view, self.seating
        if card < 0 or not self.known >> card & 1:
            unseen = Words(f"{label}: {'not dealt' if self.over else 'not seen yet'}")
            return self.discarded(unseen, label, point) if point else unseen
        text = line(f"{label}: ", card_text(card, view.tables.mask), " ")
        if view.hand >> card & 1:
            text.append("yours")
        elif by_dealt:
            side = side_of(seating, self.player.get(card, view.seat))
            text.append(f"dealt to {side_word(seating, view.seat, side)}")
        elif self.trick >> card & 1:
            text.append("in the trick")
        else:
            taker = next((s for s, m in enumerate(view.won) if m >> card & 1), -1)
            text.append(f"taken by {side_word(seating, view.seat, side_of(seating, taker))}")
        return text


#: the widest line of the tally (its side panel's width)
TALLY_WIDTH = 42


def _game_words(seating: Seating, viewer: int, counts: Sequence[int], label: str) -> str:
    """The Game count by side, the viewer's first; where every side will not fit the panel
    (five seats or more, three teams), the viewer's count and the most any side has."""
    words = per_side_words(seating, viewer, counts)
    if len(label) + 2 + len(words) <= TALLY_WIDTH:
        return words
    mine = side_of(seating, viewer)
    best = max(counts)
    tie = " (tied)" if counts.count(best) > 1 else ""
    return f"{side_word(seating, viewer, mine)} {counts[mine]} · most {best}{tie}"
