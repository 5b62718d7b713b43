"""How bots outside this process join a table: programs on stdin/stdout, web services, plug-ins.

Each transport adapts to the one :class:`tricktable.bots.base.Bot` interface; none changes the
engine. ``tricktable.bots.make_bot`` picks the transport from the player spec.
"""
