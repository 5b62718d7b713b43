"""Who is stronger, by how much, how sure we are — and what the data says about how to bid.

- :mod:`~tricktable.analysis.intervals`: 95% intervals of a mean and of a rate (pure Python);
- :mod:`~tricktable.analysis.sprt`: the sequential probability ratio test on paired
  differences that stops a duel once the evidence is enough;
- :mod:`~tricktable.analysis.duel`: two bots on the same deals with the seats swapped
  (``tricktable duel A B``);
- :mod:`~tricktable.analysis.standings` and :mod:`~tricktable.analysis.ratings`: a stored
  tournament's standings, head to head, faults and OpenSkill ratings (``tricktable standings``);
- :mod:`~tricktable.analysis.insights`, :mod:`~tricktable.analysis.plots` and
  :mod:`~tricktable.analysis.report`: strategy from the records (bids by hand features, who
  takes each point, a bidding guide) and the HTML report (``tricktable report``).

``intervals`` and ``sprt`` import nothing above the standard library and the error hierarchy;
the others read the database, and ``insights`` replays records with the engine.
"""
