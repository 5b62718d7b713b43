"""tricktable: Setback and the trick-taking family, with bots in any language."""

__version__ = "0.1.0"
