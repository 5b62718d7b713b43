"""``tricktable tui``: the full-screen terminal table (Textual).

:class:`~tricktable.tui.app.TricktableApp` is the app (start screen, table, replay);
:class:`~tricktable.tui.table.TableScreen` the table; :func:`~tricktable.tui.command.run_tui`
the command. The package itself imports nothing, so that the command line can read
:mod:`tricktable.tui.model` (the skins, the set-up) without loading Textual.
"""
