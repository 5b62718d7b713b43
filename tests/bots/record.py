"""A legal bot that writes every line it receives to the file named by ``--record``."""

from botlib import run

run()
