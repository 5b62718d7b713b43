"""Per-game statistics of a simulation: one hook per game family, keyed by base game name.

A hook (:class:`GameStats`) reduces each finished hand's typed result (its game's
:class:`~tricktable.engine.results.HandResult`) to a small hashable *key* holding the few facts
its statistics need; the simulation counts the keys (one dict update per hand), and
the counts of chunks add up, so a report does not depend on how the run was split among
workers. At the end the hook turns the counts into the report's ``game_stats`` section, whose
``family`` names the hook that made it.

- ``setback`` (and every Pitch preset): declarers' contracts made and set, stuck dealers,
  hands thrown in. It reads the counts the simulation keeps for Setback anyway
  (``Tally.kinds``), so Setback's per-hand cost does not grow.
- ``hearts``: penalty points per seat, clean hands, moon shots, who took the queen of spades.
- ``filippa``: penalties, clean hands, pool points won, pools carried, the queen of spades.
- ``spades``: contracts made, set and exact per side, bid accuracy per seat, nils and blind
  nils made and failed, bags and bag penalties.
- ``tricks``: tricks per seat, bad cards, hands thrown in.
- ``oh-hell``: exact bids per seat and overall, over and under, by hand size, and how the
  bids of a hand add up against its tricks.
- ``euchre``: makers' hands made, marches and euchres per side, lone hands, the round in which
  trump was made, hands thrown in.
- any other game (``generic``): the change of each side's score per hand — mean, lowest,
  highest, and how often it rose or fell.

A hand whose result is not of the class a hook reads is counted in ``unread_hands`` rather
than stopping the run.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, TypeVar

from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game
from tricktable.games.euchre_results import EuchreResult
from tricktable.games.hearts_results import FilippaResult, HeartsResult
from tricktable.games.oh_hell_results import OhHellResult
from tricktable.games.spades_results import SpadesResult
from tricktable.games.tricks_results import TricksResult

#: how many decimals the rates keep
DIGITS = 6
#: the key of a hand whose result a hook could not read
UNREAD: tuple[str] = ("unread",)

Counts = dict[Any, int]
R = TypeVar("R", bound=HandResult)


def ratio(part: float, whole: float) -> float | None:
    """``part / whole`` rounded, or None when ``whole`` is 0."""
    return round(part / whole, DIGITS) if whole else None


def ratios(parts: Sequence[float], whole: float) -> list[float | None]:
    """Each part over ``whole``."""
    return [ratio(p, whole) for p in parts]


def _counted(total: list[int], rates: bool, whole: int, name: str = "count") -> dict[str, Any]:
    return {name: total, ("rate" if rates else "per_hand"): ratios(total, whole)}


def read_as(result: HandResult, cls: type[R]) -> R:
    """``result`` as the result class a hook reads; TypeError (an unread hand) if it is not."""
    if not isinstance(result, cls):
        raise TypeError(f"a {cls.__name__} was expected, not a {type(result).__name__}")
    return result


class GameStats:
    """The statistics hook of one game family: a key per hand, a report from the counts.

    This base class is the generic hook: each side's score change per hand.
    """

    family = "generic"

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """The facts of one hand the report needs (``before``: the scores before the hand).

        Raises TypeError (or ValueError) for a result it cannot read: the hand is counted apart.
        """
        return tuple(s - b for s, b in zip(result.scores, before, strict=True))

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """The ``game_stats`` section from the counted keys."""
        sides = game.num_scores
        total, low, high = [0] * sides, [0] * sides, [0] * sides
        rose, fell = [0] * sides, [0] * sides
        first = True
        for deltas, n in sorted(counts.items(), key=repr):
            if len(deltas) != sides:
                continue
            for t, d in enumerate(deltas):
                total[t] += d * n
                low[t] = d if first else min(low[t], d)
                high[t] = d if first else max(high[t], d)
                rose[t] += n if d > 0 else 0
                fell[t] += n if d < 0 else 0
            first = False
        return {
            "family": self.family,
            "score_change": {
                "per_hand": ratios(total, hands),
                "lowest": low,
                "highest": high,
                "rose_rate": ratios(rose, hands),
                "fell_rate": ratios(fell, hands),
            },
        }


class SetbackStats(GameStats):
    """Setback and Pitch: contracts made and set, stuck dealers, throw-ins.

    Its counts are the simulation's Setback kinds, (declarer, bid, stuck, taken, points).
    """

    family = "setback"
    uses_setback_kinds = True

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Declared hands, made and set, at the stuck minimum, and thrown in."""
        declared = made = stuck = stuck_made = thrown = bid_sum = 0
        for (declarer, bid, was_stuck, taken, _), n in counts.items():
            if declarer is None or bid is None:
                thrown += n
                continue
            side = game.team_of(declarer)
            ok = side < len(taken) and taken[side] >= bid
            declared += n
            bid_sum += bid * n
            made += n if ok else 0
            if was_stuck:
                stuck += n
                stuck_made += n if ok else 0
        return {
            "family": self.family,
            "declared": declared,
            "made": made,
            "set": declared - made,
            "make_rate": ratio(made, declared),
            "mean_bid": ratio(bid_sum, declared),
            "stuck": stuck,
            "stuck_make_rate": ratio(stuck_made, stuck),
            "thrown_in": thrown,
        }


class HeartsStats(GameStats):
    """Hearts: penalty points, clean hands, moon shots, the queen of spades."""

    family = "hearts"

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """(penalties by seat, the moon shooter, the queen's taker)."""
        hand = read_as(result, HeartsResult)
        return (hand.penalties, hand.moon, hand.queen_of_spades)

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Penalties, clean hands, moons and queens per seat."""
        n_seats = game.num_players
        penalties, clean, moon, queen = ([0] * n_seats for _ in range(4))
        for (pen, shooter, taker), n in counts.items():
            for s in range(n_seats):
                penalties[s] += pen[s] * n
                clean[s] += n if pen[s] == 0 else 0
            if isinstance(shooter, int):
                moon[shooter] += n
            if isinstance(taker, int):
                queen[taker] += n
        return {
            "family": self.family,
            "penalties": {"total": penalties, "per_hand": ratios(penalties, hands)},
            "clean_hands": _counted(clean, True, hands),
            "moon": {"shots": moon, "total": sum(moon), "rate": ratio(sum(moon), hands)},
            "queen_of_spades": {"taken": queen, "rate": ratios(queen, hands)},
        }


class FilippaStats(GameStats):
    """Filippa: penalties, clean hands, pool points, pools carried, the queen of spades."""

    family = "filippa"

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """(penalties by seat, pool shares by seat, carried?, the queen's taker)."""
        hand = read_as(result, FilippaResult)
        return (hand.penalties, hand.shares, bool(hand.carried), hand.queen_of_spades)

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Penalties, clean hands, pool points and queens per seat; pools carried."""
        n_seats = game.num_players
        penalties, clean, shares, queen = ([0] * n_seats for _ in range(4))
        carried = 0
        for (pen, share, was_carried, taker), n in counts.items():
            for s in range(n_seats):
                penalties[s] += pen[s] * n
                clean[s] += n if pen[s] == 0 else 0
                shares[s] += share[s] * n
            carried += n if was_carried else 0
            if isinstance(taker, int):
                queen[taker] += n
        return {
            "family": self.family,
            "penalties": {"total": penalties, "per_hand": ratios(penalties, hands)},
            "clean_hands": _counted(clean, True, hands),
            "pool_points": {"total": shares, "per_hand": ratios(shares, hands)},
            "pools_carried": {"count": carried, "rate": ratio(carried, hands)},
            "queen_of_spades": {"taken": queen, "rate": ratios(queen, hands)},
        }


class SpadesStats(GameStats):
    """Spades: contracts, bid accuracy, nils, bags."""

    family = "spades"

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """(bids by seat, blind by seat, tricks by seat, made by side, bag penalty paid by side).

        A bid of 0 is a nil (blind when ``blind`` says so).
        """
        hand = read_as(result, SpadesResult)
        return (
            hand.bids,
            hand.blind,
            hand.tricks,
            hand.made,
            tuple(bool(p) for p in hand.bag_penalties),
        )

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Per side: contracts and bags; per seat: bid accuracy and nils."""
        contracts, made, exact, over, under = ([0, 0] for _ in range(5))
        bags, bag_penalties = [0, 0], [0, 0]
        bids_n, bids_exact, bid_sum, trick_sum = ([0] * 4 for _ in range(4))
        nil_bid, nil_made, blind_bid, blind_made = ([0] * 4 for _ in range(4))
        for (bids, blind, tricks, side_made, paid), n in counts.items():
            for s in range(4):
                bid = bids[s]
                if bid > 0:
                    bids_n[s] += n
                    bids_exact[s] += n if tricks[s] == bid else 0
                    bid_sum[s] += bid * n
                    trick_sum[s] += tricks[s] * n
                elif blind[s]:
                    blind_bid[s] += n
                    blind_made[s] += n if tricks[s] == 0 else 0
                else:
                    nil_bid[s] += n
                    nil_made[s] += n if tricks[s] == 0 else 0
            for t in range(2):
                seats = (t, t + 2)
                contract = sum(bids[s] for s in seats)
                took = sum(tricks[s] for s in seats if bids[s] > 0)
                new_bags = sum(tricks[s] for s in seats if not bids[s])
                if contract:
                    contracts[t] += n
                    if side_made[t]:
                        made[t] += n
                        exact[t] += n if took == contract else 0
                        over[t] += (took - contract) * n
                        new_bags += took - contract
                    else:
                        under[t] += (contract - took) * n
                bags[t] += new_bags * n
                bag_penalties[t] += n if paid[t] else 0
        return {
            "family": self.family,
            "contracts": {
                "hands": contracts,
                "made": made,
                "set": [c - m for c, m in zip(contracts, made, strict=True)],
                "make_rate": [ratio(m, c) for m, c in zip(made, contracts, strict=True)],
                "exact": exact,
                "exact_rate": [ratio(e, c) for e, c in zip(exact, contracts, strict=True)],
                "overtricks_per_hand": [ratio(o, c) for o, c in zip(over, contracts, strict=True)],
                "undertricks_per_hand": [
                    ratio(u, c) for u, c in zip(under, contracts, strict=True)
                ],
            },
            "bid_accuracy": {
                "bids": bids_n,
                "exact": bids_exact,
                "exact_rate": [ratio(e, b) for e, b in zip(bids_exact, bids_n, strict=True)],
                "mean_bid": [ratio(s, b) for s, b in zip(bid_sum, bids_n, strict=True)],
                "mean_tricks": [ratio(s, b) for s, b in zip(trick_sum, bids_n, strict=True)],
            },
            "nils": _made_failed(nil_bid, nil_made),
            "blind_nils": _made_failed(blind_bid, blind_made),
            "bags": {
                "total": bags,
                "per_hand": ratios(bags, hands),
                "penalties": bag_penalties,
            },
        }


def _made_failed(bid: list[int], made: list[int]) -> dict[str, Any]:
    return {
        "bid": bid,
        "made": made,
        "failed": [b - m for b, m in zip(bid, made, strict=True)],
        "make_rate": [ratio(m, b) for m, b in zip(made, bid, strict=True)],
    }


class TricksStats(GameStats):
    """Tricks: tricks per seat, bad cards."""

    family = "tricks"

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """(tricks by seat, the seat that sent a bad card or None)."""
        hand = read_as(result, TricksResult)
        return (hand.tricks, hand.bad_card)

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Tricks per seat over the hands played out; bad cards per seat."""
        n_seats = game.num_players
        tricks, bad = [0] * n_seats, [0] * n_seats
        thrown = 0
        for (taken, bad_seat), n in counts.items():
            if isinstance(bad_seat, int):
                bad[bad_seat] += n
                thrown += n
                continue
            for s in range(n_seats):
                tricks[s] += taken[s] * n
        played = hands - thrown
        return {
            "family": self.family,
            "tricks": {"total": tricks, "per_hand": ratios(tricks, played)},
            "bad_cards": bad,
            "thrown_in": thrown,
        }


class OhHellStats(GameStats):
    """Oh Hell: how often each seat bids exactly right."""

    family = "oh-hell"

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """(hand size, bids by seat, tricks by seat)."""
        hand = read_as(result, OhHellResult)
        return (hand.hand_size, hand.bids, hand.tricks)

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Exact, over and under per seat; exact rate by hand size; the bids' totals."""
        n_seats = game.num_players
        exact, over, under, bid_sum = ([0] * n_seats for _ in range(4))
        sizes: dict[int, list[int]] = {}
        overbid = underbid = even = 0
        for (size, bids, tricks), n in counts.items():
            row = sizes.setdefault(size, [0, 0])
            row[0] += n * n_seats
            for s in range(n_seats):
                hit = bids[s] == tricks[s]
                exact[s] += n if hit else 0
                row[1] += n if hit else 0
                over[s] += n if tricks[s] > bids[s] else 0
                under[s] += n if tricks[s] < bids[s] else 0
                bid_sum[s] += bids[s] * n
            total = sum(bids)
            overbid += n if total > size else 0
            underbid += n if total < size else 0
            even += n if total == size else 0
        return {
            "family": self.family,
            "exact": {"count": exact, "rate": ratios(exact, hands)},
            "exact_rate": ratio(sum(exact), hands * n_seats),
            "took_more": {"count": over, "rate": ratios(over, hands)},
            "took_fewer": {"count": under, "rate": ratios(under, hands)},
            "mean_bid": ratios(bid_sum, hands),
            "by_hand_size": {
                str(size): {"bids": row[0], "exact_rate": ratio(row[1], row[0])}
                for size, row in sorted(sizes.items())
            },
            "bid_totals": {"over_tricks": overbid, "under_tricks": underbid, "equal": even},
        }


class EuchreStats(GameStats):
    """Euchre: makers' success, marches, euchres, lone hands."""

    family = "euchre"

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """(maker, alone, round, euchred, the makers' tricks), or ("thrown_in",)."""
        hand = read_as(result, EuchreResult)
        maker = hand.maker
        if hand.thrown_in or maker is None:
            return ("thrown_in",)
        return (maker, hand.alone, hand.bidding_round, hand.euchred, hand.tricks[maker & 1])

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Per makers' side: hands, made, marches, euchres; lone hands; rounds."""
        made, marches, euchres, total = ([0, 0] for _ in range(4))
        alone, alone_made, alone_marches = [0, 0], [0, 0], [0, 0]
        rounds = {"1": 0, "2": 0}
        thrown = 0
        for key, n in counts.items():
            if key == ("thrown_in",):
                thrown += n
                continue
            maker, lone, round_, euchred, took = key
            side = maker & 1
            total[side] += n
            rounds[str(round_)] = rounds.get(str(round_), 0) + n
            if euchred:
                euchres[side] += n
            else:
                made[side] += n
                marches[side] += n if took == 5 else 0
            if lone:
                alone[side] += n
                alone_made[side] += 0 if euchred else n
                alone_marches[side] += n if took == 5 else 0
        return {
            "family": self.family,
            "makers": {
                "hands": total,
                "made": made,
                "make_rate": [ratio(m, t) for m, t in zip(made, total, strict=True)],
                "marches": marches,
                "euchred": euchres,
            },
            "alone": {
                "hands": alone,
                "made": alone_made,
                "marches": alone_marches,
                "march_rate": [ratio(m, a) for m, a in zip(alone_marches, alone, strict=True)],
            },
            "trump_made_in_round": rounds,
            "thrown_in": thrown,
        }


#: base game name -> its statistics hook; games not listed get the generic :class:`GameStats`
STATS: dict[str, GameStats] = {
    "setback": SetbackStats(),
    "hearts": HeartsStats(),
    "filippa": FilippaStats(),
    "spades": SpadesStats(),
    "tricks": TricksStats(),
    "oh-hell": OhHellStats(),
    "euchre": EuchreStats(),
}
GENERIC = GameStats()


def stats_for(name: str) -> GameStats:
    """The statistics hook of the base game ``name`` (the generic one if it has none)."""
    return STATS.get(name, GENERIC)


def game_report(game: Game, counts: Counts, hands: int) -> dict[str, Any]:
    """The ``game_stats`` section of a report: the game's hook over the hands it could read."""
    unread = counts.get(UNREAD, 0)
    readable = {k: n for k, n in counts.items() if k != UNREAD}
    report = stats_for(game.name).report(game, readable, hands - unread)
    if unread:
        report["unread_hands"] = unread
    return report
