"""The analysis's values pickled as field tuples (wynot/analysis/compact.py)."""

from __future__ import annotations

import pickle
import sys
from dataclasses import dataclass, fields
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from wynot.analysis import compact, symbols
from wynot.analysis.calls import Call, Signature
from wynot.analysis.lexical import NO_TOKEN_CHANGE, TokenChange, token_change
from wynot.analysis.symbols import Symbols

names = st.frozensets(st.sampled_from(["parse", "f0", "f0_v2", "config", "x1"]), max_size=4)


def roundtrip(value: object) -> object:
    return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def same_fields(a: object, b: object) -> bool:
    return type(a) is type(b) and all(
        getattr(a, f.name) == getattr(b, f.name) for f in fields(a))  # type: ignore[arg-type]


@given(names, names, names, names, st.booleans())
def test_symbols_come_back_equal_with_every_field(defined: frozenset[str],
                                                  used: frozenset[str], old: frozenset[str],
                                                  inert: frozenset[str], stub: bool) -> None:
    call = Call("parse", 2, frozenset({"strict"}), open_keywords=True)
    signature = Signature(("a", "b"), 1, False, frozenset({"strict"}), frozenset(), True, "P")
    value = Symbols(defined=defined, undefined=frozenset(), used=used, old=old,
                    calls_new=frozenset({call}), reshaped=frozenset({("parse", signature,
                                                                      signature)}),
                    locals_bound=frozenset({("f", "x")}), inert=inert, stub=stub)
    back = roundtrip(value)
    assert back == value and hash(back) == hash(value)
    assert same_fields(back, value)


def test_token_changes_and_the_empty_one_come_back() -> None:
    change = token_change(["pkg", "d1", "f0"], ["pkg", "d1", "f0_v2"], new_defined=["f0_v2"])
    assert change.respelled == {("f0", "f0_v2")}
    assert roundtrip(change) == change
    assert roundtrip(NO_TOKEN_CHANGE) == NO_TOKEN_CHANGE == TokenChange()
    # empty sets stay shared once pickled together (the memo keeps one copy)
    first, second = roundtrip([TokenChange(left=frozenset({"a"})), TokenChange()])
    assert first.arrived is first.defined is second.left


@dataclass(frozen=True, slots=True)
class _Counted:
    """A value whose ``__post_init__`` counts how often it runs."""

    name: str
    runs: list[int]

    def __post_init__(self) -> None:
        self.runs.append(1)

    def __reduce__(self) -> tuple[object, ...]:
        return compact.reduce(self)


@dataclass(frozen=True, slots=True)
class _Single:
    only: tuple[int, ...]

    def __reduce__(self) -> tuple[object, ...]:
        return compact.reduce(self)


def test_restore_sets_the_fields_without_running_init_again() -> None:
    value = _Counted("a", [])
    assert value.runs == [1]
    back = roundtrip(value)
    assert isinstance(back, _Counted) and back.name == "a" and back.runs == [1]


def test_a_single_field_is_given_back_as_a_one_element_tuple() -> None:
    function, (cls, values) = compact.reduce(_Single((1, 2)))
    assert function is compact.restore and cls is _Single and values == ((1, 2),)
    assert roundtrip(_Single((3,))) == _Single((3,))


# Symbols and TokenChange made by the readers through compact.build: the values
# their own __init__ and __post_init__ make, with the same sharing.
sets = st.sets(st.sampled_from(["parse", "f0", "f0_v2", "config", "x1", "a b"]), max_size=4)


@given(st.lists(sets, min_size=21, max_size=21), st.booleans(), st.booleans())
def test_symbols_built_without_init_are_the_constructed_ones(
        values: list[set[str]], code: bool, stub: bool) -> None:
    names = [f.name for f in fields(Symbols)]
    fresh = [{"".join(list(word)) for word in words} for words in values]  # not interned yet
    given_values: list[Any] = list(fresh)
    given_values.insert(names.index("code"), code)
    given_values.insert(names.index("stub"), stub)
    built = symbols._symbols(*given_values)
    arguments: dict[str, Any] = {name: v if isinstance(v, bool) else frozenset(v)
                                 for name, v in zip(names, given_values, strict=True)}
    made = Symbols(**arguments)
    assert same_fields(built, made) and built == made and hash(built) == hash(made)
    for name in names:
        value = getattr(built, name)
        if isinstance(value, frozenset):
            assert type(value) is frozenset
            assert (value is compact.EMPTY) == (not value)  # one empty set for all
    for word in built.used | built.old | built.inert:
        assert word is sys.intern(word)


@given(st.lists(st.sampled_from(["pkg", "d1", "f0", "f0_v2", "x"]), max_size=8),
       st.lists(st.sampled_from(["pkg", "d1", "f0", "f0_v2", "y"]), max_size=8), sets, sets)
def test_token_changes_built_without_init_are_the_constructed_ones(
        old: list[str], new: list[str], old_defined: set[str], new_defined: set[str]) -> None:
    built = token_change(old, new, old_defined=old_defined, new_defined=new_defined)
    made = TokenChange(built.left, built.arrived, frozenset(set(built.respelled)),
                       frozenset(set(built.qualifiers)), frozenset(new_defined - old_defined),
                       frozenset(old_defined - new_defined))
    assert same_fields(built, made) and built == made
    assert all((getattr(built, f.name) is compact.EMPTY) == (not getattr(built, f.name))
               for f in fields(TokenChange))
