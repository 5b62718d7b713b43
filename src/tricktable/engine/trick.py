"""The trick-taking core, written once: deal, follow suit, trump, trick winner, turn order, log.

A game is a :class:`Game` subclass (immutable: options, tables, a factory) paired with a
:class:`TrickState` subclass (mutable) that fills in a few hooks:

- ``_start_hand()`` — set up the hand's first phase (auction, passing or play) and ``to_act``;
- ``_other_legal()`` / ``_apply_other(action)`` — the legal-action mask and effect of every
  phase but card play (auction, bidding, trump choice); a phase whose actions do not fit a mask
  (card passing) returns ``SPECIAL`` and lists them in ``_other_actions()`` (and may test one
  directly in ``_other_allows(action)``, when looking it up in the list is slow);
- ``_deal_size()`` — cards per seat for the next hand (Oh Hell varies it); the rest of the deck
  is the hand's ``stock``, top card first (Euchre's up-card, Oh Hell's trump card);
- ``_play_mask(seat, hand)`` — which cards may be played, when the default (follow suit,
  ``lead_forbid``) is not enough;
- ``_on_lead(card)`` — e.g. Setback's first lead names trump;
- ``_score_hand()`` — score a finished hand, return its result (the game's
  :class:`~tricktable.engine.results.HandResult`), set ``winner`` when the match is over;
- ``_explain(action)`` — why an action is illegal, for the error message;
- ``_may_look(seat)`` — whether a seat may see its own cards yet (Spades' blind nil).

``skip`` names a seat that sits a hand out (Euchre alone); ``next_dealer`` may be set by a game
that redeals with the same dealer.

Legal actions of every phase are one int bit mask over action codes (see ``actions``), cached
until the next ``apply``; that keeps ``legal_actions()`` and ``apply()`` cheap on the hot path
that every bot and every search uses.

The core lives in one module a concept: :mod:`~tricktable.engine.phases` (the shared phases),
:mod:`~tricktable.engine.tables` (trump tables), :mod:`~tricktable.engine.log` (hand logs and
notes), :mod:`~tricktable.engine.game` (:class:`Game`), :mod:`~tricktable.engine.state`
(:class:`TrickState`) and :mod:`~tricktable.engine.view` (:class:`View`, :class:`Shared`).
This module names them all in one place, for games and bots.
"""

from __future__ import annotations

from tricktable.engine.game import Game
from tricktable.engine.log import NOTE_KINDS, HandLog, Note, deal_lists
from tricktable.engine.phases import AUCTION, DEAL, OVER, PHASE_NAMES, PLAY, SPECIAL
from tricktable.engine.state import TrickState
from tricktable.engine.tables import NO_TRUMP, TrumpTables, strength, trick_winner, trump_tables
from tricktable.engine.view import Facts, Shared, View

__all__ = [
    "AUCTION",
    "DEAL",
    "NOTE_KINDS",
    "NO_TRUMP",
    "OVER",
    "PHASE_NAMES",
    "PLAY",
    "SPECIAL",
    "Facts",
    "Game",
    "HandLog",
    "Note",
    "Shared",
    "TrickState",
    "TrumpTables",
    "View",
    "deal_lists",
    "strength",
    "trick_winner",
    "trump_tables",
]
