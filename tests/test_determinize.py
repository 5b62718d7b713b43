"""Tests of ``determinize``: sampled states agree with the view, and reach every holding.

- The place sampler against brute force on small cases.
- Every game and variant, every decision of seeded random matches, every seat: each sampled
  state shows that seat exactly its view (its hand, every public fact, its legal actions) and
  contradicts nothing it knows.
- Endgames: every holding of the hidden cards is tried by brute force and replayed by the
  engine (the judge of what is consistent); the sampler must count exactly those, draw only
  those, and draw each of them about equally often.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations, product
from math import factorial

import pytest

from helpers import VARIANTS, positions
from table_shapes import other_shapes
from tricktable.cards import cards_in, mask_of
from tricktable.engine.trick import PLAY, TrickState, View
from tricktable.errors import TricktableError
from tricktable.games import load_game, names
from tricktable.games.setback import JOKERS
from tricktable.search import Determinizer, Knowledge, determinize
from tricktable.search.rules import rules_for, unsupported
from tricktable.search.sampling import Place, PlaceSampler

# ------------------------------------------------------------------------ the sampler


def brute_force(pool: int, places: list[Place]) -> list[tuple[int, ...]]:
    """Every deal of ``pool`` to ``places``, by trying them all."""
    out = []

    def fill(i: int, left: int, got: list[int]) -> None:
        if i == len(places):
            out.append(tuple(got))
            return
        for combo in combinations(cards_in(left), places[i].size):
            mask = mask_of(combo)
            if not mask & places[i].refuses:
                fill(i + 1, left & ~mask, [*got, mask])

    fill(0, pool, [])
    return out


def uniform(drawn: Counter[tuple[int, ...]], support: set[tuple[int, ...]]) -> bool:
    """Whether draws look uniform over ``support``: a chi-square within six deviations."""
    if set(drawn) != support:
        return False
    runs = sum(drawn.values())
    expected = runs / len(support)
    chi2 = sum((n - expected) ** 2 / expected for n in drawn.values())
    df = len(support) - 1
    return chi2 < df + 6 * (2 * df) ** 0.5 + 1


def test_sampler_counts_and_draws_uniformly() -> None:
    rng = random.Random(7)
    for _ in range(20):
        cards = rng.sample(range(20), 6)
        pool = mask_of(cards)
        sizes = [2, 1, 2, 1]
        places = [Place(n, mask_of(rng.sample(cards, rng.randrange(4)))) for n in sizes]
        deals = brute_force(pool, places)
        if not deals:
            with pytest.raises(TricktableError):
                PlaceSampler(pool, places)
            continue
        sampler = PlaceSampler(pool, places)
        assert sampler.count() == len(deals)
        drawn = Counter(tuple(sampler.sample(rng)) for _ in range(20 * len(deals)))
        assert uniform(drawn, set(deals))


def test_sampler_refuses_impossible_places() -> None:
    with pytest.raises(TricktableError, match="cannot deal 3"):
        PlaceSampler(0b111, [Place(2)])
    with pytest.raises(TricktableError, match="no place may hold"):
        PlaceSampler(0b11, [Place(1, 0b1), Place(1, 0b1)])
    assert PlaceSampler(0, []).sample(random.Random(1)) == []


# --------------------------------------------------------- every game: the view agrees


def check_sample(world: TrickState, view: View, k: Knowledge) -> None:
    """``world`` shows ``view.seat`` exactly ``view`` and contradicts nothing it knows."""
    seat = view.seat
    mine = world.view(seat)
    assert mine.to_dict() == view.to_dict()
    assert mine.legal_actions() == view.legal_actions()
    assert (mine.hand, mine.dealt, mine.played, mine.won) == (
        view.hand,
        view.dealt,
        view.played,
        view.won,
    )
    assert (mine.tricks, mine.trick, mine.actions) == (view.tricks, view.trick, view.actions)
    assert (mine.scores, mine.tricks_won, mine.info()) == (
        view.scores,
        view.tricks_won,
        view.info(),
    )
    held = 0
    for s, hand in enumerate(world.hands):
        assert hand.bit_count() == k.counts[s]
        assert not hand & k.cannot[s]
        if s != seat or view.hand:
            assert not k.known[s] & ~hand
        held |= hand
    assert not held & k.dead


@pytest.mark.parametrize("spec", names() + VARIANTS)
def test_every_sample_agrees_with_the_view(spec: str) -> None:
    if unsupported(load_game(spec)):
        pytest.skip(f"{spec}: the search has no hooks for its stock and hidden actions yet")
    rng = random.Random(11)
    samples = 0
    for seed in range(2):
        for state in positions(spec, seed, 2):
            for seat in range(state.n):
                view = state.view(seat)
                det = Determinizer(view)
                for _ in range(2 if seat == state.to_act else 1):
                    check_sample(det.sample(rng), view, det.knowledge)
                    samples += 1
                # Every holding drawn was consistent (hooks that say they know less: some not).
                assert not det.rejected or not rules_for(det.view.game).exact
    assert samples >= 100


@pytest.mark.parametrize("spec", other_shapes())
def test_samples_agree_with_the_view_at_every_table(spec: str) -> None:
    """At every size and partnership shape a game allows (one hand, every seat's view)."""
    if unsupported(load_game(spec)):
        pytest.skip(f"{spec}: the search has no hooks for its stock and hidden actions yet")
    rng = random.Random(5)
    samples = 0
    for state in positions(spec, 3, 1):
        for seat in range(state.n):
            view = state.view(seat)
            det = Determinizer(view)
            check_sample(det.sample(rng), view, det.knowledge)
            samples += 1
            assert not det.rejected or not rules_for(det.view.game).exact
    assert samples >= 10


def test_a_declarer_holding_only_jokers_is_drawn_again() -> None:
    # Two jokers, two cards each: a declarer holding only jokers throws the deal in, so one
    # that began the play holds something else, a fact no refusal mask can say.
    game = load_game("setback(jokers=2,hand_size=2)")
    state = game.new_state(1)
    state.deal()
    while state.phase != PLAY:
        state.apply(state.legal_actions()[-1 if state.to_act == state.dealer else 0])
    declarer = state.to_act
    seat = next(s for s in range(4) if s != declarer and not state.hands[s] & JOKERS)
    view = state.view(seat)
    det = Determinizer(view)
    hands, piles = det.holding(random.Random(1))
    # Give the declarer both jokers, swapping them for its cards wherever they are.
    places = [*hands, *piles]
    for joker, card in zip(cards_in(JOKERS), cards_in(hands[declarer]), strict=True):
        where = next(i for i, mask in enumerate(places) if mask >> joker & 1)
        places[where] ^= 1 << joker | 1 << card
        places[declarer] ^= 1 << joker | 1 << card
    hands, piles = places[:4], places[4:]
    with pytest.raises(TricktableError, match="another course"):
        det.world(hands, piles, random.Random(1))
    rng = random.Random(2)
    for _ in range(3000):  # about one draw in 1326 gives the declarer both jokers
        world = det.sample(rng)
        assert world.phase == PLAY and world.hands[declarer] & ~JOKERS
    assert det.rejected


def test_determinize_is_one_call() -> None:
    state = load_game("hearts").new_state(4)
    state.deal()
    view = state.view(2)
    world = determinize(view, random.Random(3))
    assert world.view(2).to_dict() == view.to_dict()
    assert world is not state and world.hands != state.hands


def test_no_hand_in_play_cannot_be_determinized() -> None:
    state = load_game("setback").new_state(1)
    with pytest.raises(TricktableError, match="no hand is in play"):
        determinize(state.view(0), random.Random(1))


def test_hidden_passes_are_uniform() -> None:
    # Passing across, seat 0 knows nothing of the passes between seats 1 and 3: each card
    # that seat 3 holds once the cards have moved came from seat 1 with chance 3/13.
    state = load_game("hearts(passing=across)").new_state(2)
    state.deal()
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    det = Determinizer(state.view(0))
    hands, piles = det.holding(random.Random(0))
    rng = random.Random(5)
    counts: Counter[int] = Counter()
    runs = 1300
    for _ in range(runs):
        log = det.world(hands, piles, rng).history[-1]
        counts.update(cards_in(log.actions[log.actors.index(1)] ^ (1 << 64)))
    assert set(counts) == set(cards_in(hands[3]))
    assert all(abs(n / runs - 3 / 13) < 0.05 for n in counts.values())


# ---------------------------------------------------------------- endgames, exhaustively


def raw_count(det: Determinizer) -> int:
    """Deals of the cards not seen at all to the places, ignoring what is known."""
    k = det.knowledge
    sizes = [k.counts[s] for s in det.seats if s != det.view.seat]
    sizes += [p.size for p in det.rules.piles(det.view, k)]
    out = factorial(sum(sizes))
    for n in sizes:
        out //= factorial(n)
    return out


def every_holding(det: Determinizer) -> Iterator[tuple[list[int], list[int]]]:
    """Every way to deal the cards the seat has not seen to the other hands and the piles."""
    view, k = det.view, det.knowledge
    others = [s for s in det.seats if s != view.seat]
    pool = k.unseen
    for s in others:
        pool |= k.known[s]
    sizes = [k.counts[s] for s in others] + [p.size for p in det.rules.piles(view, k)]

    def fill(i: int, left: int) -> Iterator[list[int]]:
        if i == len(sizes):
            yield []
            return
        for combo in combinations(cards_in(left), sizes[i]):
            mask = mask_of(combo)
            for rest in fill(i + 1, left & ~mask):
                yield [mask, *rest]

    for masks in fill(0, pool):
        hands = [0] * 4
        hands[view.seat] = view.hand
        for s, mask in zip(others, masks, strict=False):
            hands[s] = mask
        yield hands, masks[len(others) :]


def consistent(det: Determinizer, hands: list[int], piles: list[int]) -> bool:
    """Whether the engine accepts the holding: it replays, and shows the seat its view."""
    try:
        world = det.world(hands, piles, random.Random(0))
    except TricktableError:
        return False
    return world.view(det.view.seat).to_dict() == det.view.to_dict()


def endgames(spec: str, limit: int) -> Iterator[Determinizer]:
    """Late positions whose hidden cards can be dealt in few ways, constraints biting first."""
    found: list[Determinizer] = []
    loose: list[Determinizer] = []
    for seed, seat in product(range(8), range(4)):
        for position in positions(spec, seed, 2):
            det = Determinizer(position.view(seat))
            raw = raw_count(det)
            if 6 <= raw <= 300:
                (found if det.sampler.count() < raw else loose).append(det)
                break
        if len(found) >= limit:
            break
    yield from (found + loose)[:limit]


@pytest.mark.parametrize(
    "spec",
    [
        "hearts",
        "hearts(passing=across)",
        "filippa",
        "spades(first_lead=2c)",
        "tricks",
        "euchre",
        "setback(hand_size=13)",
        "oh-hell(max_cards=12)",  # twelve cards each: a trump card and three more in the stock
    ],
)
def test_endgames_reach_every_consistent_holding(spec: str) -> None:
    tested = 0
    for det in endgames(spec, 3):
        truth = set()
        for hands, piles in every_holding(det):
            if consistent(det, hands, piles):
                truth.add((*hands, *piles))
        assert det.sampler.count() == len(truth), det.knowledge
        rng = random.Random(1)
        runs = 40 * len(truth)
        drawn: Counter[tuple[int, ...]] = Counter()
        for _ in range(runs):
            hands, piles = det.holding(rng)
            drawn[(*hands, *piles)] += 1
        assert uniform(drawn, truth)
        tested += 1
    assert tested >= 2
