"""How a match treats its bots: time limits and the penalty for a fault.

Below both the bots (a program's or a web service's transport keeps the time limits) and the
runner (the referee applies the penalty), so that neither imports the other for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from tricktable.errors import OptionError

#: what a fault costs in games without a rule of their own
ON_FAULT: Final = ("substitute", "forfeit")


@dataclass(frozen=True)
class RunnerOptions:
    """How a match treats its bots: time limits (seconds) and the penalty for a fault."""

    #: the longest a program may take over one decision
    decision_time: float = 2.0
    #: the longest a program may spend on its decisions in one match
    match_time: float = 60.0
    #: what a fault costs in games without a rule of their own: substitute or forfeit
    on_fault: str = "substitute"
    #: faults after which a seat is handed on even where the game lets it play on
    max_faults: int = 10
    #: extra time for a program's first decision, which includes starting it
    startup_time: float = 3.0

    def __post_init__(self) -> None:
        if self.on_fault not in ON_FAULT:
            raise OptionError(f"unknown on_fault {self.on_fault!r}; valid: {', '.join(ON_FAULT)}")
        for name in ("decision_time", "match_time"):
            if not getattr(self, name) > 0:
                raise OptionError(f"{name} must be a positive number of seconds")
        if self.startup_time < 0:
            raise OptionError("startup_time must not be negative")
        if self.max_faults < 1:
            raise OptionError("max_faults must be at least 1")
