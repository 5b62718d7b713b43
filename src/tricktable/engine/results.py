"""What a finished hand came to: the typed result a game's ``_score_hand()`` returns.

Each game declares a subclass of :class:`HandResult` beside it (``games/<game>_results.py``)
with typed fields — seats, counts, suits and cards as ints — that the statistics, the table
and the bots read. ``to_dict()`` is the result as records, ``tricktable replay --json``, the
stdio and HTTP protocols and the events carry it: the JSON shape written before the results
were typed, key for key and in the same order, so that no record or transcript changes.

Results are dataclasses with slots, made once per hand and then only read, their sequences
tuples and their maps read-only. The state keeps them and bots get the same objects
(``view.results``, ``end_hand``, the ``hand_scored`` event), so a state seals each one it
records (``TrickState._add_result``): the result moves to a read-only twin of its class
(:func:`sealed_class`: the same fields and name, equal results equal, pickled as the class
itself) whose ``__setattr__`` refuses, and nothing a bot does to it changes the match or what
another seat is told. Not ``frozen``: a frozen dataclass's ``__init__`` sets each field
through ``object.__setattr__``, which made a random hand of compiled Setback about 4% slower;
the twin costs a dict lookup and a class change. They are plain Python on purpose: the
compiled game modules only build one per hand.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, fields
from types import MappingProxyType
from typing import Any, Final


@dataclass(slots=True, kw_only=True)
class HandResult:
    """The result of one finished hand; this base holds what every game's result has.

    ``scores`` are the match scores after the hand, by side (a partnership, or a seat in games
    without partners), in the order of ``state.scores``.
    """

    scores: tuple[int, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (and copied) as its own class and fields: made again, it is sealed again.
        cls = _MADE_AS.get(type(self), type(self))
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        for name, value in values.items():
            if isinstance(value, MappingProxyType):
                values[name] = dict(value)  # a read-only map does not pickle
        return (_remake, (cls, values))

    def to_dict(self) -> dict[str, Any]:
        """The result as records and protocols carry it (JSON-ready; a new dict each call)."""
        return {"scores": list(self.scores)}

    def shared_win(self) -> tuple[int, ...]:
        """The sides sharing the match's win if this hand ended it shared (Oh Hell), else ``()``."""
        return ()


#: each result class's read-only twin (and each twin's own), made when first asked for
SEALED: Final[dict[type, type]] = {}
#: the class each twin stands for
_MADE_AS: Final[dict[type, type]] = {}


def sealed_class(cls: type) -> type:
    """The read-only twin of the result class ``cls``: its subclass with the same fields and
    name whose instances refuse every change (a sealed result is moved to it)."""
    twin = SEALED.get(cls)
    if twin is not None:
        return twin

    def __new__(kind: type, *args: Any, **kwargs: Any) -> Any:
        return seal(cls(*args, **kwargs))  # a twin made directly (dataclasses.replace)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        pass  # made by __new__

    def __setattr__(self: Any, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}: results are read-only")

    def __delattr__(self: Any, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}: results are read-only")

    names = [f.name for f in fields(cls)]

    def __eq__(self: Any, other: object) -> bool:
        # Equal to a result of its class, sealed or not (a dataclass's own __eq__ asks for
        # the very same class).
        if type(other) is not type(self) and type(other) is not cls:
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in names)

    namespace = {
        "__slots__": (),
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        "__doc__": cls.__doc__,
        "__new__": __new__,
        "__init__": __init__,
        "__setattr__": __setattr__,
        "__delattr__": __delattr__,
        "__eq__": __eq__,
        "__hash__": None,
    }
    made = type(cls.__name__, (cls,), namespace)
    SEALED[cls] = SEALED[made] = made
    _MADE_AS[made] = cls
    return made


def seal(result: HandResult) -> HandResult:
    """``result``, sealed: read-only from now on (see the module)."""
    object.__setattr__(result, "__class__", sealed_class(type(result)))
    return result


def _remake(cls: type, values: dict[str, Any]) -> Any:
    """A sealed result of ``cls`` with the fields ``values`` (unpickling, copying): its maps
    read-only again."""
    for name, value in values.items():
        if isinstance(value, dict):
            values[name] = MappingProxyType(value)
    return seal(cls(**values))
