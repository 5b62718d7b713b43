"""Bridges to game-playing programs no one here wrote, seated at a tricktable table as bots.

Each bridge is an optional extra: :mod:`tricktable.bridges.openspiel` needs the ``openspiel``
extra (``pip install 'tricktable[openspiel]'``) and says so, in one line, when it is missing.
"""
