"""Search support: what a seat knows, and full states sampled consistently with it.

- :class:`Knowledge` (:mod:`.knowledge`): unseen cards, voids, counts and known places of the
  cards, from one seat's view;
- :func:`determinize` and :class:`Determinizer` (:mod:`.determinize`): full states of the
  current hand with the hidden cards sampled uniformly among the consistent holdings;
- :mod:`.rules`: what each game adds to both (passing, stocks, lead rules).
"""

from tricktable.search.determinize import Determinizer, determinize
from tricktable.search.knowledge import Knowledge

__all__ = ["Determinizer", "Knowledge", "determinize"]
