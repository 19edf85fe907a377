"""Cheaper pickling for the analysis's many small frozen dataclasses (pure).

A diff of 100,000 hunks gives hundreds of thousands of :class:`~wynot.analysis.
symbols.Symbols`, :class:`~wynot.analysis.lexical.TokenChange`,
:class:`~wynot.analysis.calls.Call` and :class:`~wynot.analysis.calls.Signature`
values; the forked readers pickle them to the main process, and the stored
analysis pickles them again. A slotted dataclass pickles its state as a list
and restores it through ``dataclasses.fields`` and ``object.__setattr__``, field
by field, for every object. :func:`reduce` gives pickle the field values as a
tuple and :func:`restore` sets them through the slots' own descriptors, with
no ``__init__`` and no ``__post_init__`` (the values were built by them once).

A class opts in with ``def __reduce__(self): return reduce(self)``; it must be
a dataclass with ``slots=True`` whose fields are all slots.

:func:`build` makes such a value the way its ``__post_init__`` would leave it
(its sets shared when empty, their names interned where asked), for the
analysis's readers, which make one of each per change.
"""

from __future__ import annotations

import dataclasses
import operator
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_SETTERS: dict[type, tuple[Callable[[Any, Any], None], ...]] = {}
_GETTERS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def _learn(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    """Read ``cls``'s fields once: a getter of all their values, and their setters."""
    names = [f.name for f in dataclasses.fields(cls)]
    _SETTERS[cls] = tuple(getattr(cls, name).__set__ for name in names)
    getter = operator.attrgetter(*names)
    _GETTERS[cls] = getter if len(names) > 1 else lambda value: (getter(value),)
    return _GETTERS[cls]


def reduce(value: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """What ``__reduce__`` returns: :func:`restore` and the class with its field values."""
    cls = type(value)
    return restore, (cls, (_GETTERS.get(cls) or _learn(cls))(value))


def restore(cls: type[T], values: tuple[Any, ...]) -> T:
    """An instance of ``cls`` with ``values`` in its fields (in declaration order),
    built without calling ``__init__``."""
    if cls not in _SETTERS:
        _learn(cls)
    value: T = object.__new__(cls)
    for setter, item in zip(_SETTERS[cls], values, strict=True):
        setter(value, item)
    return value


EMPTY: frozenset[Any] = frozenset()  # the one empty set the analysis's values share


def build(cls: type[T], values: Sequence[Any], sets: Sequence[bool | None]) -> T:
    """An instance of ``cls`` with ``values`` in its fields (in declaration order),
    without ``__init__``. ``sets``, by field: None for a value kept as it is, else
    a collection made a frozenset (:data:`EMPTY` when empty), its strings
    interned where True."""
    if cls not in _SETTERS:
        _learn(cls)
    value: T = object.__new__(cls)
    for setter, item, kind in zip(_SETTERS[cls], values, sets, strict=True):
        if kind is None:
            setter(value, item)
        elif not item:
            setter(value, EMPTY)
        elif kind:
            setter(value, frozenset(map(sys.intern, item)))
        else:
            setter(value, frozenset(item))
    return value
