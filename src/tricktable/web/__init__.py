"""Play online: the web server (``tricktable serve``), its lobby and live tables.

:mod:`~tricktable.web.app` (the Starlette application: HTTP routes, the websocket),
:mod:`~tricktable.web.hub` (every room, the lobby, the messages), :mod:`~tricktable.web.room`
(one table: its match, journal, clock and viewers), :mod:`~tricktable.web.writer` (the
journal's writer thread: group commit, off the event loop), :mod:`~tricktable.web.store` (the
database's rows), :mod:`~tricktable.web.records` (a match's record from its journal). The
wire is written down in ``docs/protocol-web.md``; the browser's page is ``static/``.
"""
