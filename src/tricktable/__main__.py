"""``python -m tricktable``: the command line."""

from tricktable.cli.main import main

main()
