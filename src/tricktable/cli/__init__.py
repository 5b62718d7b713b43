"""The ``tricktable`` command line."""
