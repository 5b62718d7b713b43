"""tricktable: Setback and the trick-taking family — exact rules, a fast engine, bots in any language."""

__version__ = "0.1.0"
