"""The worksheet's rules: which fields exist, how each one merges, and how to hand out copies.

A field annotated ``Annotated[T, reducer]`` merges an update with ``reducer(old, new)``; any other
field is replaced. The rules are read once, from the TypedDict, when the builder is made.

Copies are the expensive part of keeping nodes isolated, so they are made one field at a time and
only as deep as needed: a list, tuple or dict holding only atoms (str, int, float, ...) is detached
by a one-level copy, which runs in C; anything else goes through ``copy.deepcopy``. Whether a stored
value is "flat" is remembered per field, so a long run never re-scans a long list to find out.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from copy import deepcopy
from typing import Any, get_args, get_origin, get_type_hints

try:  # Python 3.11+ has it in typing; 3.10 users have typing_extensions via pydantic
    from typing import Annotated
except ImportError:  # pragma: no cover
    from typing import Annotated

Reducer = Callable[[Any, Any], Any]

#: Values that cannot change after they are made: sharing one is as good as copying it.
ATOMS = frozenset({str, int, float, bool, complex, bytes, type(None)})

#: Reducers known to build a new value without touching their inputs, and whose result for two lists
#: is a list holding exactly their items. ``operator.add`` is the one LangGraph's tutorials use.
APPENDING = frozenset({operator.add})


def read_schema(state_type: type) -> tuple[tuple[str, ...], dict[str, Reducer]]:
    """Return (field names, {field: reducer}) from a TypedDict, raising TypeError naming the fix."""
    try:
        hints = get_type_hints(state_type, include_extras=True)
    except Exception as exc:
        raise TypeError(f"StateGraph needs a TypedDict whose annotations can be resolved; "
                        f"{state_type!r} failed with {exc!r}") from exc
    if not hints:
        raise TypeError(f"StateGraph needs a TypedDict with at least one field, got {state_type!r}")
    reducers: dict[str, Reducer] = {}
    for name, hint in hints.items():
        if get_origin(hint) is Annotated:
            found = [m for m in get_args(hint)[1:] if callable(m)]
            if found:
                reducers[name] = found[-1]
    return tuple(hints), reducers


def is_flat(value: Any) -> bool:
    """True when a one-level copy detaches ``value`` completely (it holds atoms only)."""
    kind = type(value)
    if kind in ATOMS:
        return True
    if kind is list or kind is tuple:
        return all(type(item) in ATOMS for item in value)
    if kind is dict:
        return all(type(item) in ATOMS for item in value.values())
    return False


def detach(value: Any, flat: bool) -> Any:
    """A copy of ``value`` that shares nothing mutable with it; ``flat`` is ``is_flat(value)``."""
    if flat:
        kind = type(value)
        if kind is list or kind is dict:
            return value.copy()
        return value  # an atom, or a tuple of atoms
    return deepcopy(value)


def take(value: Any) -> tuple[Any, bool]:
    """Adopt a value from outside (a node's update, the input): (detached copy, flat?)."""
    flat = is_flat(value)
    return detach(value, flat), flat


def detach_state(state: Mapping[str, Any], flat: Mapping[str, bool]) -> dict[str, Any]:
    """A copy of the whole state, field by field."""
    return {key: detach(value, flat[key]) for key, value in state.items()}


class StateView(Mapping):
    """What a router sees: a read-only mapping of the state, copying each value as it is read.

    A router only decides, so it cannot assign; and whatever it reads is its own copy, so it
    cannot edit the state through a nested list either. Reading only the fields it needs keeps a
    router's cost independent of how long the other fields have grown.
    """

    __slots__ = ("_state", "_flat")

    def __init__(self, state: Mapping[str, Any], flat: Mapping[str, bool]) -> None:
        self._state, self._flat = state, flat

    def __getitem__(self, key: str) -> Any:
        return detach(self._state[key], self._flat[key])

    def __contains__(self, key: object) -> bool:
        return key in self._state

    def __iter__(self):
        return iter(self._state)

    def __len__(self) -> int:
        return len(self._state)

    def __repr__(self) -> str:
        return f"StateView({dict(self)!r})"
