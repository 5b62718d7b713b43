"""Counterfactual regret minimisation for Setback, after seed 003: the abstract game's keys
(:mod:`~tricktable.cfr.keys`), the trainer (:mod:`~tricktable.cfr.train`) and the strategy's
SQLite store (:mod:`~tricktable.cfr.store`); the ``cfr`` bot plays from it."""
