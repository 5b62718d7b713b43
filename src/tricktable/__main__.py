"""``python -m tricktable``: the command line."""

from tricktable.cli.main import entry

# Guarded: a worker process started by "spawn" or "forkserver" (macOS, and Linux from Python
# 3.14) imports the main module again, and must not run the command a second time.
if __name__ == "__main__":
    entry()
