"""The worksheet's rules: which fields exist, how each one merges, and how to hand out copies.

A field annotated ``Annotated[T, reducer]`` merges an update with ``reducer(old, new)``; any other
field is replaced. As on LangGraph, the reducer is the *last* ``Annotated`` metadata item if that
item is callable, it must take two positional parameters (checked when the builder is made), and
a reducer field starts a run at its type's empty value (``list()`` is ``[]``) when the type can be
called with no arguments.

Isolation: a node gets its own copy of the state. Immutable values (str, int, ..., and frozen
dataclasses such as the course's messages) are shared instead of copied: nothing can edit them,
and a message whose tool-call arguments nest 10,000 levels deep costs nothing to hand out. A field
remembers whether it holds only immutable values ("flat"), so copying a long message list is one
C-level ``list.copy()`` instead of a Python walk over every item at every step.
"""

from __future__ import annotations

import collections.abc as abc
import operator
from collections.abc import Callable, Mapping
from copy import deepcopy
from dataclasses import dataclass
from inspect import Parameter, signature
from typing import Annotated, Any, get_args, get_origin, get_type_hints

from ..errors import GraphValidationError

Reducer = Callable[[Any, Any], Any]

#: Values that cannot change after they are made: sharing one is as good as copying it.
_SHARED: set[type] = {str, int, float, bool, complex, bytes, type(None), frozenset, range}

#: Reducers known to build a new value without touching their inputs (so they may read the stored
#: value itself, not a copy) and whose result for two flat lists is flat. LangGraph's tutorials use it.
APPENDING = frozenset({operator.add})

#: LangGraph turns these abstract types into the concrete one before calling it for the empty value.
_CONCRETE = {abc.Sequence: list, abc.MutableSequence: list, abc.Set: set, abc.MutableSet: set,
             abc.Mapping: dict, abc.MutableMapping: dict}


@dataclass(frozen=True)
class Schema:
    """The fields of a state type, their reducers, and the empty value each reducer field starts at."""

    name: str
    fields: tuple[str, ...]
    reducers: Mapping[str, Reducer]
    defaults: Mapping[str, Any]


def read_schema(state_type: type) -> Schema:
    """Read a TypedDict once: fields, reducers (arity checked) and the reducer fields' empty values."""
    if not _is_typeddict(state_type):
        raise TypeError(f"StateGraph needs a TypedDict (class State(TypedDict): ...), got {state_type!r}; "
                        "LangGraph also takes a dataclass, a pydantic model or one annotated value as the "
                        "state, this engine takes a TypedDict only")
    try:
        hints = get_type_hints(state_type, include_extras=True)
    except Exception as exc:
        raise TypeError(f"StateGraph needs a TypedDict whose annotations can be resolved; "
                        f"{state_type!r} failed with {exc!r}") from exc
    if not hints:
        raise TypeError(f"StateGraph needs a TypedDict with at least one field, got {state_type!r}")
    reducers: dict[str, Reducer] = {}
    defaults: dict[str, Any] = {}
    for name, hint in hints.items():
        reducer = _reducer_of(name, hint)
        if reducer is not None:
            reducers[name] = reducer
            empty = _empty_value(hint)
            if empty is not _MISSING:
                defaults[name] = empty
    return Schema(getattr(state_type, "__name__", "state"), tuple(hints), reducers, defaults)


def _is_typeddict(state_type: Any) -> bool:
    # typing's and typing_extensions' TypedDicts both make dict subclasses that know their totality
    return isinstance(state_type, type) and issubclass(state_type, dict) and hasattr(state_type, "__total__")


def _reducer_of(name: str, hint: Any) -> Reducer | None:
    if get_origin(hint) is not Annotated:
        return None
    last = get_args(hint)[-1]  # LangGraph reads only the last metadata item
    if not callable(last):
        return None
    try:
        params = signature(last).parameters.values()
    except (TypeError, ValueError):
        return last  # a builtin without a signature: trust it, as LangGraph cannot check it either
    positional = [p for p in params if p.kind in (Parameter.POSITIONAL_ONLY, Parameter.POSITIONAL_OR_KEYWORD)]
    if len(positional) != 2:
        raise GraphValidationError(
            f"Invalid reducer for field {name!r}: {getattr(last, '__name__', last)!r} takes "
            f"{len(positional)} positional parameter(s), but a reducer is called as reducer(current, "
            "update) and must take exactly two (LangGraph refuses it too)")
    return last


_MISSING = object()


def _empty_value(hint: Any) -> Any:
    base = get_args(hint)[0]
    base = get_origin(base) or base
    base = _CONCRETE.get(base, base)
    try:
        return base()
    except Exception:  # not callable without arguments: the field starts absent, as on LangGraph
        return _MISSING


def _is_shared(kind: type) -> bool:
    if kind in _SHARED:
        return True
    params = getattr(kind, "__dataclass_params__", None)
    if params is not None and params.frozen:
        _SHARED.add(kind)
        return True
    return False


def is_flat(value: Any) -> bool:
    """True when a one-level copy detaches ``value`` completely (it holds immutable values only)."""
    kind = type(value)
    if _is_shared(kind):
        return True
    if kind is list or kind is tuple:
        return all(_is_shared(type(item)) for item in value)
    if kind is dict:
        return all(_is_shared(type(item)) for item in value.values())
    return False


def private_copy(value: Any, flat: bool) -> Any:
    """A copy of ``value`` that shares nothing mutable with it; ``flat`` is ``is_flat(value)``."""
    if flat:
        kind = type(value)
        return value.copy() if kind is list or kind is dict else value
    try:
        return _deep(value)
    except RecursionError:
        raise ValueError(f"a state value ({type(value).__name__}) is nested too deeply to copy for a node; "
                         "keep deep data inside an immutable value (a frozen dataclass) or flatten it"
                         ) from None


def _deep(value: Any) -> Any:
    kind = type(value)
    if _is_shared(kind):
        return value
    if kind is list:
        return [_deep(item) for item in value]
    if kind is dict:
        return {key: _deep(item) for key, item in value.items()}
    if kind is tuple:
        return tuple(_deep(item) for item in value)
    return deepcopy(value)


def take(value: Any) -> tuple[Any, bool]:
    """Adopt a value from outside (an update, the input): (private copy, flat?)."""
    flat = is_flat(value)
    return private_copy(value, flat), flat


def copy_state(state: Mapping[str, Any], flat: Mapping[str, bool]) -> dict[str, Any]:
    """A copy of the whole state, field by field."""
    return {key: private_copy(value, flat[key]) for key, value in state.items()}


class StateView(Mapping):
    """What a router sees: a read-only mapping of the state, copying each value as it is read.

    A router only decides, so it cannot assign; and whatever it reads is its own copy, so it
    cannot edit the state through a nested list either.
    """

    __slots__ = ("_state", "_flat")

    def __init__(self, state: Mapping[str, Any], flat: Mapping[str, bool]) -> None:
        self._state, self._flat = state, flat

    def __getitem__(self, key: str) -> Any:
        return private_copy(self._state[key], self._flat[key])

    def __contains__(self, key: object) -> bool:
        return key in self._state

    def __iter__(self):
        return iter(self._state)

    def __len__(self) -> int:
        return len(self._state)

    def __repr__(self) -> str:
        return f"StateView({dict(self)!r})"
