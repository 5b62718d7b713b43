"""The shared body of the test bots: a legal player that misbehaves on cue.

A bot script calls :func:`run` with what to do wrong. Arguments (before the player's name,
which tricktable appends last): ``--after N`` misbehave at the N-th question (default 3),
``--every`` misbehave at every question from then on, ``--record PATH`` append every line
received (and every legal answer sent) to PATH, ``--pids PATH`` append this process's pid
(and its children's) to PATH.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TextIO


class Bot:
    """A legal player of every game, tracking its cards from the messages."""

    def __init__(self) -> None:
        self.name = sys.argv[-1]
        args = sys.argv[1:-1]
        self.after = int(_option(args, "--after", "3"))
        self.every = "--every" in args
        self.record = _option(args, "--record", "")
        self.pids = _option(args, "--pids", "")
        self.hand: list[str] = []
        self.led: str | None = None
        self.questions = 0
        if self.pids:
            self.note_pid(os.getpid())

    def note_pid(self, pid: int) -> None:
        with open(self.pids, "a", encoding="utf-8") as f:
            f.write(f"{pid}\n")

    def send(self, text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def legal_answer(self, key: str, data: list[str]) -> str:
        if key == "card":
            if data and data[0]:
                card = data[0].split()[0]
            else:
                follow = [c for c in self.hand if self.led is not None and c[-1] == self.led]
                card = (follow or self.hand)[0]
            return f"|RESPONSE|card|{card}|END|"
        if key == "pass":
            return f"|RESPONSE|pass|{' '.join(self.hand[: int(data[0])])}|END|"
        return f"|RESPONSE|{key}|{data[0]}|END|"

    def run(self, misbehave: Callable[[Bot, str, list[str]], bool] | None = None) -> None:
        if self.record:
            with open(self.record, "a", encoding="utf-8") as log:
                self._loop(misbehave, log)
        else:
            self._loop(misbehave, None)

    def _loop(
        self, misbehave: Callable[[Bot, str, list[str]], bool] | None, log: TextIO | None
    ) -> None:
        for raw in sys.stdin:
            if log is not None:
                log.write(raw)
                log.flush()
            line = raw.rstrip("\r\n")
            if not (line.startswith("|") and line.endswith("|END|")):
                continue
            kind, key, *data = line[1:-5].split("|")
            if kind == "INFO" and key == "cards":
                self.hand = data[0].split() if data and data[0] else []
            elif kind == "INFO" and key == "start trick":
                self.led = None
            elif kind == "INFO" and key == "played":
                if self.led is None:
                    self.led = data[1][-1]
                if data[0] == self.name and data[1] in self.hand:
                    self.hand.remove(data[1])
            elif kind == "QUERY":
                self.questions += 1
                due = self.questions == self.after or (self.every and self.questions > self.after)
                if due and misbehave is not None and misbehave(self, key, data):
                    continue
                answer = self.legal_answer(key, data)
                if log is not None:
                    log.write(answer + "\n")
                    log.flush()
                self.send(answer)


def _option(args: list[str], name: str, default: str) -> str:
    if name in args:
        i = args.index(name)
        if i + 1 < len(args):
            return args[i + 1]
    return default


def run(misbehave: Callable[[Bot, str, list[str]], bool] | None = None) -> None:
    """Play legally, calling ``misbehave(bot, key, data)`` when due; True means it answered."""
    Bot().run(misbehave)
