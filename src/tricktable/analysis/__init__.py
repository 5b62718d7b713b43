"""Who is stronger, by how much, and how sure we are: statistics over played deals.

- :mod:`~tricktable.analysis.intervals`: 95% intervals of a mean and of a rate (pure Python);
- :mod:`~tricktable.analysis.sprt`: the sequential probability ratio test on paired
  differences that stops a duel once the evidence is enough;
- :mod:`~tricktable.analysis.duel`: two bots on the same deals with the seats swapped
  (``tricktable duel A B``).

The statistics modules import nothing above the standard library and the error hierarchy, so
a tournament, a report or a notebook can use them without the engine.
"""
