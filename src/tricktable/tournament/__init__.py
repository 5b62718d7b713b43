"""Tournaments: many bots, many deals, every result in a database, resumable at any moment.

:mod:`~tricktable.tournament.spec` says what a tournament is, :mod:`~.schedule` expands it into
units of play (one table's play of one deal or match), :mod:`~.play` plays units in worker
processes and :mod:`~.run` stores them, resuming where a run stopped. Standings, ratings and
the report read the database (:mod:`tricktable.analysis`).
"""
