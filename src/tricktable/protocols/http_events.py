"""The HTTP bots' events: how a game's turns and news become requests, scheme by scheme.

A game names its scheme in ``Game.http_adapter`` ("module:Class"): Spades names
:class:`SpadesEvents`, seed 004's five endpoints exactly; every other game, and Spades at a table
of another size than four, gets :class:`GenericEvents` (``start``, ``deal``, one event per
decision phase, ``trick``, ``hand``, ``end``, and the news ``chat``). docs/protocol-http.md
specifies both. The requests themselves — one deadline a call, the faults — are
:class:`~tricktable.protocols.http.HttpBot`'s, which re-exports these names.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from tricktable.cards import JOKER, RANKS, card_name, cards_in, parse_card
from tricktable.engine.actions import BID
from tricktable.engine.events import Chat, Dealt, TrickWon
from tricktable.engine.results import HandResult
from tricktable.engine.trick import AUCTION, OVER, PLAY, Game, View
from tricktable.errors import NotationError
from tricktable.seat.stream import SeatStream

if TYPE_CHECKING:
    from tricktable.protocols.http import HttpBot

#: how much of a bad answer a fault quotes
QUOTE = 160


def _quote(data: bytes | str) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    if len(text) > QUOTE:
        return repr(text[:QUOTE]) + f"... ({len(text)} characters)"
    return repr(text)


def _action_text(game: Game, action: int) -> str:
    try:
        return game.action_name(action)
    except NotationError:
        return f"action {action}"


class _Adapter:
    """How a game's turns and news become HTTP events (one per game family).

    A game names its own in ``Game.http_adapter`` ("module:Class"); :class:`GenericEvents`
    serves every game that names none.
    """

    #: the table sizes the adapter speaks for (None: any); at another size a game's bots get
    #: the generic events
    seats: tuple[int, ...] | None = None

    def __init__(self, bot: HttpBot) -> None:
        self.bot = bot
        #: the seat's events, read at each request and the hand's end
        self.stream = SeatStream(bot.game, bot.seat)

    @classmethod
    def speaks_for(cls, players: int) -> bool:
        """Whether the adapter speaks for a table of ``players`` seats."""
        return cls.seats is None or players in cls.seats

    async def act(self, view: View) -> int:
        raise NotImplementedError

    async def end_hand(self, view: View, result: HandResult) -> None:
        """The hand is over."""

    async def end_match(self, view: View) -> None:
        """The match is over."""


# ------------------------------------------------------------------------- the generic scheme


def decision_event(view: View) -> str:
    """The event of a decision: ``bid`` in the auction, ``play`` in card play, else the phase."""
    phase = view.phase
    if phase == AUCTION:
        return "bid"
    if phase == PLAY:
        return "play"
    return str(view.to_dict()["phase"])


class GenericEvents(_Adapter):
    """Every game but spades: ``start``, ``deal``, decisions, ``trick``, ``hand``, ``end``."""

    def __init__(self, bot: HttpBot) -> None:
        super().__init__(bot)
        self.started = False

    async def _catch_up(self, view: View) -> None:
        bot = self.bot
        if not self.started:
            game = view.game
            await bot.post_async(
                "start",
                {
                    "game": game.spec(),
                    "title": game.title,
                    "seat": view.seat,
                    "players": game.num_players,
                    "options": game.options_dict(),
                },
                None,
            )
            self.started = True
        hand = view.hand_number
        new_hand = hand != self.stream.hand
        fresh = self.stream.news(view)
        if new_hand:
            await bot.post_async("deal", view.to_dict(), None)
        for event in fresh:
            if isinstance(event, Chat):
                if event.seat != view.seat:  # a bot is not told its own lines
                    await bot.news_async(
                        "chat", {"hand_number": hand, "seat": event.seat, "text": event.text}
                    )
            elif isinstance(event, TrickWon):
                await bot.post_async(
                    "trick",
                    {
                        "hand_number": hand,
                        "leader": event.leader,
                        "cards": [card_name(c) for c in event.cards],
                        "winner": event.winner,
                    },
                    None,
                )

    async def act(self, view: View) -> int:
        await self._catch_up(view)
        bot = self.bot
        event = decision_event(view)
        want = '{"action": "<one of the legal actions>"}'
        answer = await bot.post_async(event, view.to_dict(), want)
        game = view.game
        if isinstance(answer, dict) and "action" not in answer:
            if view.phase == PLAY and "card" in answer:
                return _card_answer(bot, view, event, answer["card"], want)
            if view.phase == AUCTION and "bid" in answer:
                n = answer["bid"]
                if type(n) is not int or not 0 <= n < 64:
                    raise bot.fault(
                        "malformed",
                        f"POST {bot.path(event)}: answered bid {_quote(json.dumps(n))}; "
                        "expected a whole number of 0 or more",
                    )
                return bot.check_legal(view, BID + n, event, f"bid {n}")
        text = bot.field(event, answer, "action", want)
        if not isinstance(text, str):
            raise bot.fault(
                "malformed",
                f"POST {bot.path(event)}: answered action {_quote(json.dumps(text))}; "
                f"expected text like {_legal_example(view)}",
            )
        try:
            action = game.parse_action(text)
        except NotationError as exc:
            raise bot.fault("malformed", f"POST {bot.path(event)}: {exc}") from None
        return bot.check_legal(view, action, event, repr(text))

    async def end_hand(self, view: View, result: HandResult) -> None:
        await self._catch_up(view)
        await self.bot.post_async(
            "hand",
            {"hand_number": view.hand_number, "result": result.to_dict(), "scores": view.scores},
            None,
        )

    async def end_match(self, view: View) -> None:
        if not self.started:
            return
        await self.bot.post_async(
            "end",
            {"hands": view.hand_number + 1, "scores": view.scores, "over": view.phase == OVER},
            None,
        )


def _legal_example(view: View) -> str:
    legal = view.legal_actions()
    names = [repr(_action_text(view.game, a)) for a in legal[:4]]
    return ", ".join(names) + (" ..." if len(legal) > 4 else "")


def _card_answer(bot: HttpBot, view: View, event: str, value: Any, want: str) -> int:
    """The action of a ``{"card": ...}`` answer (a legal card), or a fault."""
    if not isinstance(value, str):
        raise bot.fault(
            "malformed",
            f"POST {bot.path(event)}: answered card {_quote(json.dumps(value))}; expected {want}",
        )
    try:
        card = parse_card(value)
    except NotationError:
        raise bot.fault(
            "malformed",
            f"POST {bot.path(event)}: answered card {_quote(value)}, not a card; expected {want}",
        ) from None
    return bot.check_legal(view, card, event, repr(value))


# ------------------------------------------------------------------- spades: seed 004 exactly


def spades_card(card: int) -> str:
    """A card as seed 004 writes it: rank then lower-case suit, ``10`` for ten (``10s``, ``Ac``)."""
    if card >= JOKER:
        return card_name(card)
    rank = RANKS[card % 13]
    return ("10" if rank == "T" else rank) + "cdhs"[card // 13]


def _player(seat: int) -> int:
    return seat + 1


class SpadesEvents(_Adapter):
    """Seed 004's five endpoints, mapped onto the spades game's phases.

    Per hand, for this seat: ``blind`` then ``deal`` at its turn to bid (a blind nil bidder
    gets ``deal`` once it may see its cards, at the start of play, and its answer is ignored);
    ``bid`` once all four have bid; ``play`` at each turn; ``book`` after every book.
    """

    #: seed 004's document seats four players (``player1`` .. ``player4``, two teams)
    seats = (4,)
    BLIND_WANT = '{"blind": true} or {"blind": false}'
    DEAL_WANT = '{"bid": N}, N a whole number of tricks 0-13'
    PLAY_WANT = '{"card": "Ac"}, a card in your hand written rank then suit (10s, Qh, 2c)'

    def __init__(self, bot: HttpBot) -> None:
        super().__init__(bot)
        # What the bot was sent this hand (what happened is the stream's).
        self.blind_sent = False
        self.deal_pending = False  # bid blind nil; the hand comes once it may look
        self.bids_sent = False

    # The spades module is imported lazily: the engine and the other games need none of it.
    @staticmethod
    def _codes() -> tuple[int, int, int]:
        from tricktable.games import spades

        return spades.BLIND, spades.LOOK, spades.BLIND_NIL

    def _bids(self, view: View) -> list[int | None]:
        out: list[int | None] = []
        for bid in view.info().get("bids", [None] * 4):
            if bid is None or isinstance(bid, int):
                out.append(bid)
            else:
                out.append(-1 if bid == "blind-nil" else 0)  # our reading: blind nil is -1
        return out

    def _round(self, view: View) -> dict[str, int | None]:
        return {f"player{p + 1}_bid": bid for p, bid in enumerate(self._bids(view))}

    def _game(self, view: View) -> dict[str, int | None]:
        scores = view.scores
        leader: int | None = _player((view.dealer + 1) % 4)
        if view.game.options.first_lead != "left_of_dealer":
            # The 2C holder leads: unknown (and secret) until play begins.
            tricks = view.tricks
            if tricks:
                leader = _player(tricks[0][0])
            elif view.trick:
                leader = _player(view.trick[0][0])
            elif view.phase == PLAY:
                leader = _player(view.to_act)
            else:
                leader = None
        out: dict[str, int | None] = {"dealer": _player(view.dealer), "leader": leader}
        for team in range(4):
            out[f"team{team + 1}_score"] = scores[team & 1]  # teamN = player N's side
        return out

    def _deal_body(self, view: View) -> dict[str, Any]:
        return {
            "hand": [spades_card(c) for c in reversed(cards_in(view.hand))],
            "round": self._round(view),
            "game": self._game(view),
        }

    def _book(
        self, leader: int, cards: list[tuple[int, int]], winner: int | None
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"leader": _player(leader)}
        played = dict(cards)
        for seat in range(4):
            card = played.get(seat)
            body[f"player{seat + 1}_card"] = None if card is None else spades_card(card)
        if winner is not None:
            body["winner"] = _player(winner)
        return body

    async def _catch_up(self, view: View) -> None:
        bot = self.bot
        if view.hand_number != self.stream.hand:
            self.blind_sent = self.deal_pending = self.bids_sent = False
        fresh = list(self.stream.news(view))
        seat = view.seat
        # A blind nil bidder picks its cards up as play begins.
        looked = any(isinstance(event, Dealt) and event.seat == seat for event in fresh)
        if self.deal_pending and looked:
            self.deal_pending = False
            await bot.post_async(
                "deal", self._deal_body(view), None
            )  # the seed ignores this answer
        # The view holds every bid made so far, those before a resumed match's stream too.
        bids_made = sum(bid is not None for bid in self._bids(view))
        if not self.bids_sent and bids_made == view.game.num_players:
            self.bids_sent = True
            await bot.post_async("bid", self._round(view), None)
        for event in fresh:
            if isinstance(event, TrickWon):
                leader = event.leader
                order = [((leader + i) % 4, c) for i, c in enumerate(event.cards)]
                await bot.post_async("book", self._book(leader, order, event.winner), None)

    async def _ask_blind(self, view: View) -> bool:
        bot = self.bot
        self.blind_sent = True
        body = {"round": self._round(view), "game": self._game(view)}
        answer = await bot.post_async("blind", body, self.BLIND_WANT)
        value = bot.field("blind", answer, "blind", self.BLIND_WANT)
        if not isinstance(value, bool):
            raise bot.fault(
                "malformed",
                f"POST {bot.path('blind')}: answered blind {_quote(json.dumps(value))}; "
                f"expected {self.BLIND_WANT}",
            )
        return value

    async def act(self, view: View) -> int:
        await self._catch_up(view)
        bot = self.bot
        blind_phase, look, blind_nil = self._codes()
        phase = view.phase
        if phase == blind_phase:
            if await self._ask_blind(view):
                self.deal_pending = True
                return blind_nil
            return look
        if phase == AUCTION:
            wants_blind = False
            if not self.blind_sent:
                # Seed 004 always asks first. Where our rules offer no blind nil (by default
                # only to a side 100 or more behind), "true" gets the nearest bid, nil.
                wants_blind = await self._ask_blind(view)
            if wants_blind and BID in view.legal_actions():
                await bot.post_async(
                    "deal", self._deal_body(view), None
                )  # the seed ignores this answer
                return BID
            answer = await bot.post_async("deal", self._deal_body(view), self.DEAL_WANT)
            n = bot.field("deal", answer, "bid", self.DEAL_WANT)
            if isinstance(n, float) and n.is_integer():
                n = int(n)
            if type(n) is not int:
                raise bot.fault(
                    "malformed",
                    f"POST {bot.path('deal')}: answered bid {_quote(json.dumps(n))}; "
                    f"expected {self.DEAL_WANT}",
                )
            n = min(max(n, 0), 63)  # the seed: "responses of < 0 are treated as 0"
            return bot.check_legal(view, BID + n, "deal", f"bid {answer['bid']}")
        if phase == PLAY:
            trick = view.trick
            leader = trick[0][0] if trick else view.seat
            answer = await bot.post_async("play", self._book(leader, trick, None), self.PLAY_WANT)
            value = bot.field("play", answer, "card", self.PLAY_WANT)
            return _card_answer(bot, view, "play", value, self.PLAY_WANT)
        raise bot.fault("illegal", f"spades has no HTTP event for phase {phase}")

    async def end_hand(self, view: View, result: HandResult) -> None:
        await self._catch_up(view)
