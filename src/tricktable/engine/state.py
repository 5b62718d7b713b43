"""A match in progress: the trick-taking core's mutable state, its log, events and search
support (see :mod:`tricktable.engine.trick` for the hooks a game fills in)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from mypy_extensions import i64, mypyc_attr

from tricktable.cards import (
    SUITS,
    card_name,
    cards_in,
    mask_of,
    suit_of,
)
from tricktable.engine import actions as act
from tricktable.engine.events import (
    SPECTATOR,
    Acted,
    CardPlayed,
    Chat,
    Dealt,
    EventLog,
    Forfeited,
    HandChanged,
    HandScored,
    HandStarted,
    MatchOver,
    Substituted,
    TrickWon,
    TrumpNamed,
)
from tricktable.engine.game import Game, _action_text, _refused_now
from tricktable.engine.log import HandLog, Note
from tricktable.engine.mixing import M31, mix31
from tricktable.engine.phases import DEAL, OVER, PLAY
from tricktable.engine.results import SEALED, HandResult, sealed_class
from tricktable.engine.tables import NO_TRUMP
from tricktable.engine.view import Facts, Shared, View, frozen
from tricktable.errors import IllegalAction, RecordError, TricktableError
from tricktable.seeds import derive_seed, fresh_seed


@mypyc_attr(allow_interpreted_subclasses=True)
class TrickState:
    """A match in progress: mutable, cheap to clone, rebuilt exactly from its action log."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        n = game.num_players
        self.game = game
        self.options = game.options
        # A match always has a seed, so that its record can deal its next hand again.
        self.seed: int = fresh_seed() if seed is None else seed
        # Each hand is dealt from its own key, derived from the seed and the hand's number:
        # the deal of hand h does not depend on the hands before it, so a match resumed from
        # its record goes on exactly as it would have (see ``_shuffle``).
        key = _match_key(self.seed)
        self.deal_key = key
        self.n = n
        #: the turn passes from seat s to (s + step) % n: 1 clockwise, n - 1 the other way
        self.step = game.step % n
        self.phase = DEAL
        self.dealer = key % n
        self.next_dealer = self.dealer
        self.to_act = -1
        self.skip = -1
        self.trick_size = n
        self.hand_size = game.hand_size
        self.stock: list[int] = []
        self.hands = [0] * n
        self.dealt = [0] * n
        self.won = [0] * n
        self.tricks_won = [0] * n
        self.trick: list[int] = []
        self.trick_leader = -1
        self.trick_mask = 0
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.tables = NO_TRUMP
        self.lead_mask = 0
        self.lead_forbid = 0
        self.best_power = -1
        self.best_seat = -1
        self.scores = [0] * game.num_scores
        self.history: list[HandLog] = []
        self.results: list[HandResult] = []
        self.winner: int | None = None
        self.actions: list[int] = []
        self.actors: list[int] = []
        # This hand's log as an immutable chain of (before, actor, action) nodes, for views:
        # a view keeps the node, not a copy of the lists. Extended only when a view is made
        # (see _log_chain), so the path of bots and search pays nothing for it. In a game
        # with private actions it starts after the last of them: every view shares it, and
        # no node of it, however far back, is another seat's secret.
        self._chain: tuple[Any, ...] | None = None
        self._chain_n = 0
        self._legal = -1
        #: the entries of the log that are not moves (chat, substitutions, a forfeit)
        self.notes: list[Note] = []
        #: the match's events, while someone listens (see :meth:`listen`); None keeps the
        #: path of bots and search free of them
        self.events: EventLog | None = None
        #: the seats that have been shown their cards this hand (events)
        self._told = 0
        #: where this hand's actions that some seat may not see are (games with private
        #: actions: only actions other than cards can be private, and only those the game's
        #: ``_private`` names are noted)
        self._private_at: list[int] = []
        #: each seat's part of the log before the chain (see _seen_before), made at most
        #: once per change of (private actions, phase), whose key ``_seen_key`` is (-1: none)
        self._befores: list[tuple[tuple[int, int], ...] | None] = []
        self._seen_key = -1
        #: the pairs every seat's part is drawn from, made once per key (see _seen_before)
        self._pairs: tuple[Any, ...] | None = None
        # The game's flags as fields: compiled, a field is read at C speed.
        self.private_actions: bool = game.private_actions
        #: what :meth:`undo` restores, one frame per :meth:`push`
        self._frames: list[TrickState | tuple[Any, ...]] = []
        # What views share until it changes (at a trick's end, a hand's, a bid...): the
        # public lists as tuples, and each seat's game-specific facts.
        self._snap: Shared | None = None
        self._infos: list[Any] | None = None
        #: the facts every seat shares where the game's are public (``_facts_public``): one
        #: read-only set of pairs, no list of them to make after each bid
        self._public_info: Facts | None = None
        #: whether ``_view_extra`` is the same for every seat (a game sets it): then the
        #: seats share one dict
        self._facts_public = False
        #: the results as an immutable chain of ``(before, result)`` nodes, for views: each
        #: hand adds a node (a copy of the list a hand cost as much as the match was long)
        self._results_node: tuple[Any, ...] | None = None
        self._results_n = 0

    # ----------------------------------------------------------------- the public interface

    @property
    def needs_deal(self) -> bool:
        """Whether the next step is a deal (the match is not over and no hand is in play)."""
        return self.phase == DEAL

    @property
    def is_over(self) -> bool:
        """Whether the match has ended."""
        return self.phase == OVER

    @property
    def trump(self) -> int:
        """The trump suit of the hand (0..3), or -1 while there is none."""
        return self.tables.suit

    def legal_mask(self) -> int:
        """The legal actions as a bit mask over action codes (0 when nobody is to act)."""
        legal = self._legal
        if legal < 0:
            if self.phase == PLAY:
                legal = self._play_mask(self.to_act, self.hands[self.to_act])
            elif self.phase in (DEAL, OVER):
                legal = 0
            else:
                legal = self._other_legal()
            self._legal = legal
        return legal

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to act, lowest code first; empty between hands."""
        if self.phase == PLAY:
            legal = self._legal
            if legal < 0:
                legal = self.legal_mask()
            return cards_in(legal)
        return self._other_list()

    def apply(self, action: object) -> None:
        """Take ``action`` for the seat to act; raises :class:`IllegalAction` if not legal.

        Anything but an action code (a string, None, a bool) is refused the same way, so a
        careless caller gets the engine's message rather than a type error.
        """
        legal = self._legal
        if legal < 0:
            legal = self.legal_mask()
        if not isinstance(action, int) or isinstance(action, bool) or action < 0:
            raise self.illegal(action)
        if legal >= 0:
            if not legal >> action & 1:
                raise self.illegal(action)
        elif not self._other_allows(action):
            raise self.illegal(action)
        self._legal = -1
        self.actions.append(action)
        self.actors.append(self.to_act)
        if self.events is not None:
            self._apply_told(action)
        elif self.phase == PLAY:
            self._play(action)
        else:
            self._infos = None  # a bid changes the game's facts, not the shared lists
            self._public_info = None
            if self.private_actions and self._private(action):
                self._note_private()
            self._apply_other(action)

    def _apply_told(self, action: int) -> None:
        """Apply ``action`` (checked and logged) and emit what it made happen."""
        events = self.events
        assert events is not None
        seat = self.to_act
        suit = self.tables.suit
        tricks = len(self.tricks)
        results = len(self.results)
        if self.phase == PLAY:
            events.emit(CardPlayed(seat, action))
            self._play(action)
        else:
            before = self.hands[:]
            self._infos = None
            self._public_info = None
            if self.private_actions and self._private(action):
                self._note_private()
            self._apply_other(action)
            text = self.game.action_name(action)
            events.emit(Acted(seat, action, text, self._audience(seat, action)))
            for s in range(self.n):
                if self.hands[s] != before[s] and self._told >> s & 1:
                    events.emit(HandChanged(s, self.hands[s]))
        self._tell_after(seat, suit, tricks, results)

    def _tell_after(self, seat: int, suit: int, tricks: int, results: int) -> None:
        """Emit the consequences of a step: trump named, cards shown, trick won, hand scored."""
        events = self.events
        assert events is not None
        if suit < 0 <= self.tables.suit and len(self.results) == results:
            events.emit(TrumpNamed(seat, self.tables.suit))
        self._show_hands()
        if len(self.tricks) > tricks:
            number = len(self.tricks) - 1
            leader, cards, winner = self.tricks[-1]
            events.emit(TrickWon(number, leader, cards, winner, self._trick_points(cards)))
        if len(self.results) > results:
            result = self.results[-1]
            scores = tuple(self.scores)
            events.emit(HandScored(len(self.history) - 1, result, scores))
        if self.phase == OVER:
            events.emit(MatchOver(self.winner, tuple(self.scores)))

    def _show_hands(self) -> None:
        events = self.events
        assert events is not None
        if self.phase in (DEAL, OVER):
            return
        for s in range(self.n):
            if not self._told >> s & 1 and self._may_look(s):
                self._told |= 1 << s
                events.emit(Dealt(s, self.hands[s]))

    def _audience(self, actor: int, action: int) -> int:
        """Who may see ``actor``'s ``action`` now: the actor, and whom the game allows."""
        audience = 1 << actor
        for viewer in range(self.n):
            if viewer != actor and self._public(viewer, actor, action):
                audience |= 1 << viewer
        if self._public(-1, actor, action):
            audience |= 1 << SPECTATOR
        return audience

    def _stale(self) -> None:
        """Forget what views share: something public other than the trick changes."""
        self._snap = None
        self._infos = None
        self._public_info = None

    def _trick_over(self) -> None:
        """Forget what views share that a finished trick changes."""
        self._snap = None

    def _shared(self) -> Shared:
        """What views share until it changes, made at most once between two changes."""
        snap = self._snap
        # A hand scored in an action other than a card (a thrown-in deal) is caught here.
        if snap is None or snap.nresults != len(self.results):
            snap = self._snap = Shared(self, self._results_chain())
        return snap

    def _results_chain(self) -> tuple[Any, ...] | None:
        """The results as a chain of ``(before, result)`` nodes, up to now."""
        results = self.results
        n = len(results)
        node = self._results_node
        k = self._results_n
        if k > n or (node is not None and node[1] is not results[k - 1]):
            node, k = None, 0  # taken back (undo) or replaced: made again
        while k < n:
            node = (node, results[k])
            k += 1
        self._results_node = node
        self._results_n = n
        return node

    def _log_chain(self) -> tuple[Any, ...] | None:
        """This hand's log as a chain of ``(before, actor, action)`` nodes, up to now, from
        the action after the last private one (:meth:`_note_private` starts it again)."""
        # As lists of objects: compiled, their items go into the nodes as they are, not
        # unboxed from the list and boxed again for the tuple.
        actions: list[Any] = self.actions
        n = len(actions)
        chain = self._chain
        i = self._chain_n
        if i != n:
            actors: list[Any] = self.actors
            while i < n:
                chain = (chain, actors[i], actions[i])
                i += 1
            self._chain = chain
            self._chain_n = n
        return chain

    def _note_private(self) -> None:
        """Note that the last action is private: the chain every view shares starts after it
        (what comes before is each seat's own, :meth:`_seen_before`)."""
        n = len(self.actions)
        self._private_at.append(n - 1)
        self._chain = None
        self._chain_n = n

    def _seen_before(self, seat: int) -> tuple[tuple[int, int], ...]:
        """The actions of this hand up to the last private one that ``seat`` may see, as
        ``(actor, action)`` pairs: the part of its log before the chain every view shares.

        Made once per seat for each change of the key ``len(_private_at) * 64 + phase`` (a
        private action taken, or a phase ended: a pass is seen by its receiver once the
        passing is over); views read ``_befores`` first. Private actions come before the
        cards (a pass, a discard), so a hand makes a few short ones for each seat.
        """
        private = self._private_at
        key = len(private) * 64 + self.phase
        if self._seen_key != key:
            self._befores = [None] * self.n
            self._pairs = None
            self._seen_key = key
        before = self._befores[seat]
        if before is None:
            actions, actors = self.actions, self.actors
            # The pairs are made once for every seat (objects, not typed pairs: compiled,
            # those would be made again as they are read); a seat that may see all of them
            # shares their tuple (immutable), the others keep what they may see.
            pairs = self._pairs
            if pairs is None:
                made: list[Any] = [(actors[i], actions[i]) for i in range(private[-1] + 1)]
                pairs = self._pairs = tuple(made)
            seen: list[Any] = []
            hidden = False
            p = 0  # private holds indices in order
            for i in range(len(pairs)):
                if private[p] == i:
                    p += 1
                    actor = actors[i]
                    if actor != seat and not self._public(seat, actor, actions[i]):
                        hidden = True
                        continue
                seen.append(pairs[i])
            before = self._befores[seat] = tuple(seen) if hidden else pairs
        return before

    def _info_of(self, seat: int) -> dict[str, Any] | Facts:
        """``seat``'s game-specific facts, made once and kept until they change.

        Where they are public (``_facts_public``) every seat's views share them, read-only
        (:func:`~tricktable.engine.view.frozen`); else each seat's are its own, a dict that only
        its own views hold (a bot that changes it changes nothing another seat is shown)."""
        if self._facts_public:
            public = self._public_info
            if public is None:
                facts = self._view_extra(0)
                public = facts if isinstance(facts, tuple) else frozen(facts)
                self._public_info = public
            return public
        infos = self._infos
        if infos is None:
            infos = self._infos = [None] * self.n
        info = infos[seat]
        if info is None:
            info = infos[seat] = self._view_extra(seat)
        return info

    def listen(self) -> EventLog:
        """Turn the match's events on (from now) and return their log."""
        if self.events is None:
            self.events = EventLog(self.n)
        return self.events

    # ------------------------------------------------------------------ search: push, undo

    def push(self, action: int) -> None:
        """Apply a card play (checked) so that :meth:`undo` can take it back: for search.

        Only the play phase pushes. A frame holds the few fields a card changes, those of the
        finished trick when it completes one, and the whole state (a :meth:`clone`) only for
        the card that ends the hand, whose scoring may change anything.
        """
        if self.phase != PLAY:
            raise TricktableError("push: only card play can be undone")
        seat = self.to_act
        frame: TrickState | tuple[Any, ...]
        if len(self.trick) + 1 == self.trick_size and self.hands[seat] == 1 << action:
            frame = self.clone()
        else:
            ended: tuple[Any, ...] | None = None
            if len(self.trick) + 1 == self.trick_size:
                # The trick completes and the hand goes on (or the game decides the match on
                # it: Tricks' target, which changes nothing more than the scores kept here).
                won = (self.won[:], self.tricks_won[:], self.scores[:], self.winner)
                ended = (self.trick, *won, len(self.results))
            frame = (
                seat,
                action,
                self.trick_leader,
                self.trick_mask,
                self.lead_mask,
                self.best_power,
                self.best_seat,
                self.tables,
                self.lead_forbid,
                self._play_extra(),
                ended,
            )
        self.apply(action)
        self._frames.append(frame)

    def undo(self) -> None:
        """Take back the last :meth:`push`."""
        if not self._frames:
            raise TricktableError("undo: nothing was pushed")
        frame = self._frames.pop()
        self._stale()
        if isinstance(frame, TrickState):
            frame._copy_into(self)
            return
        seat, card = frame[0], frame[1]
        self.actions.pop()
        self.actors.pop()
        if self._chain_n > len(self.actions):
            chain = self._chain
            assert chain is not None
            self._chain = chain[0]
            self._chain_n -= 1
        self.hands[seat] |= 1 << card
        self.trick_leader = frame[2]
        self.trick_mask = frame[3]
        self.lead_mask = frame[4]
        self.best_power = frame[5]
        self.best_seat = frame[6]
        self.tables = frame[7]
        self.lead_forbid = frame[8]
        self._restore_play_extra(frame[9])
        ended = frame[10]
        if ended is None:
            self.trick.pop()
        else:
            trick, self.won, self.tricks_won, self.scores, self.winner, results = ended
            trick.pop()
            self.trick = trick
            del self.results[results:]
            self.tricks.pop()
        self.phase = PLAY
        self.to_act = seat
        self._legal = -1

    def _play_extra(self) -> Any:
        """The game's own fields a card play may change (restored by :meth:`undo`)."""
        return None

    def _restore_play_extra(self, saved: Any) -> None:
        """Restore what :meth:`_play_extra` saved."""

    # --------------------------------------------------------- entries that are not moves

    def chat(self, seat: int, text: str) -> None:
        """Log a line of table talk by ``seat`` (-1: the table itself)."""
        self._note("chat", seat, text)
        if self.events is not None:
            self.events.emit(Chat(seat, text))

    def substitute(self, seat: int, player: str) -> None:
        """Log that ``seat`` is played by ``player`` (a label) from now on."""
        self._note("substitute", seat, player)
        if self.events is not None:
            self.events.emit(Substituted(seat, player))

    def forfeit(self, seat: int) -> None:
        """End the match now, the side of ``seat`` losing (no winner among lone players)."""
        if self.phase == OVER:
            raise TricktableError("cannot forfeit: the match is over")
        self._note("forfeit", seat, "")
        self._stale()
        game = self.game
        side = game.team_of(seat)
        self.winner = 1 - side if game.num_scores == 2 else None
        self.phase = OVER
        self.to_act = -1
        self._legal = -1
        if self.events is not None:
            self.events.emit(Forfeited(seat))
            self.events.emit(MatchOver(self.winner, tuple(self.scores)))

    def _note(self, kind: str, seat: int, text: str) -> None:
        if not -1 <= seat < self.n:
            raise TricktableError(f"no seat {seat} at this table")
        hand = len(self.history) - 1
        at = len(self.actions) if self.history else 0
        self.notes.append(Note(hand, at, kind, seat, text))

    def _trick_points(self, cards: tuple[int, ...]) -> int:
        """The points a trick's cards carry (for events): Hearts' and Filippa's penalties, the
        Pitch family's Game count; 0 where only the trick itself counts (Spades, Euchre...)."""
        return 0

    def deal(
        self,
        hands: Sequence[int] | None = None,
        dealer: int | None = None,
        stock: Sequence[int] | None = None,
    ) -> None:
        """Deal the next hand: from the match's random generator, or the masks ``hands``.

        The deal passes to the left after every hand; ``dealer`` overrides that (replay).
        ``stock`` is the undealt rest of the deck, top first, for games that use it.
        """
        if self.phase != DEAL:
            raise TricktableError("cannot deal now: a hand is in play or the match is over")
        n = self.n
        if self.history:
            self.dealer = self.next_dealer
        if dealer is not None:
            self.dealer = dealer
        self.next_dealer = (self.dealer + self.step) % n
        self.hand_size = self._deal_size()
        if hands is None:
            masks, self.stock = self._shuffle()  # new lists: nobody else holds them
        else:
            self.stock = list(stock or ())
            masks = list(hands)
        self.hands = masks
        self.dealt = list(masks)
        self.won = [0] * n
        self.tricks_won = [0] * n
        self.trick = []
        self.tricks = []
        self.tables = NO_TRUMP
        self.lead_forbid = 0
        self.skip = -1
        self.trick_size = n
        self.actions = []
        self.actors = []
        self._chain = None
        self._chain_n = 0
        self._private_at = []
        self._seen_key = -1
        log = HandLog(self.dealer, list(masks), self.actions, self.actors, list(self.stock))
        self.history.append(log)
        self._legal = -1
        self._told = 0
        self._stale()
        if self.events is None:
            self._start_hand()
            return
        self.events.emit(HandStarted(len(self.history) - 1, self.dealer))
        self._start_hand()
        self._show_hands()
        if self.tables.suit >= 0:
            self.events.emit(TrumpNamed(-1, self.tables.suit))

    def clone(self) -> TrickState:
        """An independent copy (the game and past hands' logs are shared, being final)."""
        # Built field by field: a compiled state cannot go through copy.copy.
        other = type(self)(self.game, self.seed)
        self._copy_into(other)
        return other

    def _copy_into(self, other: TrickState) -> None:
        """Make ``other`` (a state of the same game) a copy of this one."""
        extra = getattr(self, "__dict__", None)
        if extra:  # fields kept in a dict: a game in plain Python, or this class uncompiled
            other.__dict__.update(extra)
        other.notes = self.notes[:]
        other.events = None  # a copy is for looking ahead: nobody listens to it
        other._told = self._told
        for name in _SCALARS:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands[:]
        other.dealt = self.dealt[:]
        other.stock = self.stock[:]
        other.won = self.won[:]
        other.tricks_won = self.tricks_won[:]
        other.trick = self.trick[:]
        other.tricks = self.tricks[:]
        other.scores = self.scores[:]
        other.results = self.results[:]
        other.actions = self.actions[:]
        other.actors = self.actors[:]
        other._chain = self._chain  # immutable: shared
        other._chain_n = self._chain_n
        other._private_at = self._private_at[:]
        other._seen_key = -1
        other.history = self.history[:]
        if other.history:
            last = self.history[-1]
            other.history[-1] = HandLog(
                last.dealer, last.deal, other.actions, other.actors, last.stock
            )
        other._frames = self._frames[:]
        other._snap = None
        other._infos = None
        other._public_info = None
        other._results_node = self._results_node  # immutable: shared
        other._results_n = self._results_n
        self._clone_extra(other)

    def view(self, seat: int) -> View:
        """What ``seat`` may know now, and nothing more (a sealed snapshot)."""
        return View(self, seat)

    def illegal(self, action: object) -> IllegalAction:
        """The error for an illegal action, with the reason the rules give."""
        seat = self.to_act
        refused = _refused_now(self.game, seat, self.phase, action)
        if refused is not None:
            return refused
        assert isinstance(action, int)
        return IllegalAction(seat, _action_text(self.game, action), self._explain(action))

    def check_deal(self, deal: Sequence[Sequence[int]]) -> tuple[list[int], list[int]]:
        """The masks and stock of a next deal given as card lists, or a :class:`RecordError`.

        The hands come first; games that record their stock list it last, top card first.
        """
        game = self.game
        n, per = self.n, self._deal_size()
        want = n + 1 if game.records_stock else n
        if len(deal) != want:
            raise RecordError(f"deal has {len(deal)} card lists; {game.name} needs {want}")
        deck = mask_of(game.deck)
        seen = 0
        masks = []
        for seat, cards in enumerate(deal):
            if seat < n and len(cards) != per:
                raise RecordError(
                    f"seat {seat} was dealt {len(cards)} cards; {game.name} deals {per}"
                )
            mask = 0
            for card in cards:
                bit = 1 << card
                if not deck & bit:
                    raise RecordError(f"{card_name(card)} is not in the {game.name} deck")
                if seen & bit:
                    raise RecordError(f"{card_name(card)} is dealt twice")
                seen |= bit
                mask |= bit
            masks.append(mask)
        stock = list(deal[n]) if game.records_stock else []
        if game.records_stock and len(stock) != len(game.deck) - n * per:
            raise RecordError(
                f"the stock has {len(stock)} cards; it should hold the rest of the deck"
            )
        return masks[:n], stock

    # ------------------------------------------------------------------- card play (shared)

    def _play_mask(self, seat: int, hand: int) -> int:
        if not self.trick:
            allowed = hand & ~self.lead_forbid
            return allowed or hand
        follow = hand & self.lead_mask
        return follow or hand

    def _play(self, card: int) -> None:
        seat = self.to_act
        bit = 1 << card
        hands = self.hands
        hands[seat] = hands[seat] ^ bit  # not ^=: compiled, that is a generic object operation
        trick = self.trick
        if not trick:
            self.trick_mask = bit
            self.trick_leader = seat
            self._on_lead(card)
            tables = self.tables
            self.lead_mask = tables.suit_mask[card]
            self.best_power = tables.power[card]
            self.best_seat = seat
        else:
            self.trick_mask |= bit
            tables = self.tables
            power = tables.power[card]
            if power < 100 and not bit & self.lead_mask:
                power = -1
            if power > self.best_power:
                self.best_power = power
                self.best_seat = seat
        trick.append(card)
        if len(trick) < self.trick_size:
            nxt = (seat + self.step) % self.n
            if nxt == self.skip:
                nxt = (nxt + self.step) % self.n
            self.to_act = nxt
            return
        winner = self.best_seat
        self._trick_over()
        won = self.won
        won[winner] = won[winner] | self.trick_mask
        tricks_won = self.tricks_won
        tricks_won[winner] = tricks_won[winner] + 1
        self.tricks.append((self.trick_leader, tuple(trick), winner))
        self._on_trick(winner)
        self.trick = []
        # A game may decide the match on a trick (Tricks' target): the hand ends there.
        if self.hands[winner] and self.winner is None:
            self.to_act = winner
        else:
            self._end_hand()

    def _end_hand(self) -> None:
        self._stale()
        self.to_act = -1
        self._add_result(self._score_hand())
        self.phase = OVER if self.winner is not None else DEAL

    def _add_result(self, result: HandResult) -> None:
        """Record a finished hand's result, sealed: bots are given this very object (see
        :mod:`tricktable.engine.results`)."""
        twin = SEALED.get(type(result))
        if twin is None:
            twin = sealed_class(type(result))
        # The class changes to its read-only twin (a subclass with no fields of its own):
        # what a frozen dataclass would give, for a fifth of its cost a hand.
        object.__setattr__(result, "__class__", twin)
        self.results.append(result)

    def _shuffle(self) -> tuple[list[int], list[int]]:
        # A partial Fisher-Yates: only the cards used are drawn, each straight into its seat's
        # mask. Draw k of hand h is a hash of (the match's key, h, k): two 31-bit lanes, so
        # that no two hands of any two matches share a stream by chance (2^62 keys), and
        # every product stays a machine integer when compiled. Seeding a Mersenne Twister for
        # each hand cost a fifth of a hand's time.
        # The draws are native integers (i64): compiled, the loop is plain C arithmetic. The
        # deck is a list of objects: its cards move as they are, unboxed only for the mask.
        deck: list[Any] = list(self.game.deck)
        key = self.deal_key
        hand = len(self.history)
        lane: i64 = mix31((key + hand * 0x2F0A3B5) & M31)
        salt: i64 = mix31(((key >> 31) ^ hand * 0x61C8864) & M31)
        size: i64 = len(deck)
        n: i64 = self.n
        per: i64 = self.hand_size
        hands = [0] * n
        i: i64 = 0
        j: i64
        for seat in range(n):
            mask = 0
            for _ in range(per):
                # The last card of a full deal has no choice (and draws no number).
                if i < size - 1:
                    j = i + mix31(((lane + i * 0x9E3779B) & M31) ^ salt) % (size - i)
                else:
                    j = i
                card = deck[j]
                deck[j] = deck[i]
                deck[i] = card
                code: int = card
                mask |= 1 << code
                i += 1
            hands[seat] = mask
        if not self.game.records_stock:
            return hands, []
        end: i64 = min(i + self._stock_used(), size - 1)
        k: i64 = i
        while k < end:
            j = k + mix31(((lane + k * 0x9E3779B) & M31) ^ salt) % (size - k)
            deck[k], deck[j] = deck[j], deck[k]
            k += 1
        return hands, deck[i:]

    def _explain_play(self, card: int) -> str:
        seat = self.to_act
        hand = self.hands[seat]
        if not 0 <= card < 64:
            return "must play a card now"
        if not hand >> card & 1:
            return f"does not hold {card_name(card)}"
        if self.trick and hand & self.lead_mask:
            led = self.trick[0]
            suit = SUITS[suit_of(led)] if self.lead_mask != self.tables.mask else SUITS[self.trump]
            return f"must follow suit {suit}"
        if not self.trick and self.lead_forbid >> card & 1:
            return f"may not lead {card_name(card)} now"
        return f"may not play {card_name(card)} now"

    # -------------------------------------------------------------------------- the hooks

    def _start_hand(self) -> None:
        raise NotImplementedError

    def _deal_size(self) -> int:
        """Cards per seat in the hand about to be dealt (``len(self.history)`` is its index)."""
        return self.game.hand_size

    def _stock_used(self) -> int:
        """How many stock cards the game looks at (they are shuffled; the rest need not be)."""
        return len(self.game.deck) - self.n * self.hand_size

    def _other_legal(self) -> int:
        return 0

    def _other_actions(self) -> list[int]:
        """The legal actions of a ``SPECIAL`` phase."""
        return []

    def _other_allows(self, action: int) -> bool:
        """Whether ``action`` is legal in a ``SPECIAL`` phase (a non-negative int)."""
        return action in self._other_actions()

    def _other_list(self) -> list[int]:
        """The legal actions of every phase but card play (a new list)."""
        legal = self.legal_mask()
        if legal < 0:
            return self._other_actions()
        return act.listed(legal)

    def _may_look(self, seat: int) -> bool:
        """Whether ``seat`` may see its own cards now."""
        return True

    def _apply_other(self, action: int) -> None:
        raise NotImplementedError

    def _on_lead(self, card: int) -> None:
        """Called before the first card of each trick is placed."""

    def _on_trick(self, winner: int) -> None:
        """Called when a trick is complete, before the next lead."""

    def _score_hand(self) -> HandResult:
        raise NotImplementedError

    def _explain(self, action: int) -> str:
        if self.phase == PLAY:
            return self._explain_play(action)
        return "may not do that now"

    def _clone_extra(self, other: TrickState) -> None:
        """Copy the mutable lists a game adds of its own."""

    def _public(self, viewer: int, actor: int, action: int) -> bool:
        """Whether ``viewer`` may see ``actor``'s ``action`` (all public unless a game says)."""
        return True

    def _private(self, action: int) -> bool:
        """Whether ``action`` (not a card) may be hidden from a seat, ever (``_public``): only
        those are noted, so that views of a game whose bids are all public (Euchre's) share
        one log until its discard."""
        return True

    def _phase_name(self) -> str:
        """The name of a game-specific phase code."""
        return str(self.phase)

    def _view_extra(self, seat: int) -> dict[str, Any] | Facts:
        """Game-specific facts ``seat`` may know (bids, declarer...), for its view's ``info``.

        Made again after each action other than a card, not during card play: facts that
        change as tricks are won belong in :meth:`_trick_facts`. Every view of ``seat`` until
        then holds them: a dict, or ``(name, value)`` pairs whose values are read-only (a
        tuple, not a list), which cost no copy where ``_facts_public`` makes every seat's views
        share them (a dict is then made read-only by :func:`~tricktable.engine.view.frozen`).
        The game never changes them after, and puts no list of its own state in them
        (``info()`` copies lists for the bot, but a bot may reach them).
        """
        return ()

    def _trick_facts(self) -> dict[str, Any] | Facts:
        """Public game-specific facts that change as tricks are won (Hearts' penalties), made
        once per trick and shared by every seat's views; they follow ``_view_extra``'s in
        ``info``. Either ``(name, value)`` pairs whose values are read-only (a tuple, not a
        list), as the games here give them, kept as they are, or a dict, which
        :func:`~tricktable.engine.view.frozen` makes so (a game's plug-in may give either)."""
        return ()


def _match_key(seed: int) -> int:
    """A match's 62-bit deal key (its low bits also choose the first dealer)."""
    key = _KEYS.get(seed)
    if key is None:
        if len(_KEYS) >= 4096:
            _KEYS.clear()
        key = _KEYS[seed] = derive_seed(seed, "deal") >> 1
    return key


#: the deal keys of recent seeds: clones and searches build many states of one match
_KEYS: Final[dict[int, int]] = {}


#: the plain-value fields a clone copies as they are
_SCALARS: Final = (
    "phase",
    "dealer",
    "next_dealer",
    "to_act",
    "skip",
    "trick_size",
    "hand_size",
    "trick_leader",
    "trick_mask",
    "tables",
    "lead_mask",
    "lead_forbid",
    "best_power",
    "best_seat",
    "winner",
    "_legal",
)
