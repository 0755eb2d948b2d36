"""The graph state's fields and reducers, and how its values are copied (immutable values are shared)."""

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

_SHARED: set[type] = {str, int, float, bool, complex, bytes, type(None), frozenset, range}

APPENDING = frozenset({operator.add})  # leaves its inputs alone: the merge may extend a list in place
_CONCRETE = {abc.Sequence: list, abc.MutableSequence: list, abc.Set: set, abc.MutableSet: set,
             abc.Mapping: dict, abc.MutableMapping: dict}
_MISSING = object()


@dataclass(frozen=True)
class Schema:
    """A state type's fields (in declaration order), reducers, and the reducer fields' empty values."""

    name: str
    fields: tuple[str, ...]
    reducers: Mapping[str, Reducer]
    defaults: Mapping[str, Any]


def read_schema(state_type: type) -> Schema:
    if not (isinstance(state_type, type) and issubclass(state_type, dict) and hasattr(state_type, "__total__")):
        raise TypeError(f"StateGraph needs a TypedDict (class State(TypedDict): ...), got {state_type!r}; LangGraph "
                        "also takes a dataclass, a pydantic model or one annotated value, this engine a TypedDict only")
    try:
        hints = get_type_hints(state_type, include_extras=True)
    except Exception as exc:
        raise TypeError(f"StateGraph needs a TypedDict whose annotations can be resolved; "
                        f"{state_type!r} failed with {exc!r}") from exc
    reducers = {name: r for name, hint in hints.items() if (r := _reducer_of(name, hint)) is not None}
    defaults = {name: empty for name in reducers if (empty := _empty_value(hints[name])) is not _MISSING}
    return Schema(state_type.__name__, tuple(hints), reducers, defaults)


def _reducer_of(name: str, hint: Any) -> Reducer | None:
    if get_origin(hint) is not Annotated or not callable(last := get_args(hint)[-1]):
        return None
    shown = getattr(last, "__name__", last)
    try:
        params = signature(last).parameters.values()
    except (TypeError, ValueError):  # e.g. the builtin max: LangGraph refuses it too
        raise GraphValidationError(f"Invalid reducer for field {name!r}: {shown!r} has no signature to check; "
                                   "wrap it: Annotated[int, lambda old, new: max(old, new)]") from None
    positional = [p for p in params if p.kind in (Parameter.POSITIONAL_ONLY, Parameter.POSITIONAL_OR_KEYWORD)]
    if len(positional) != 2:
        raise GraphValidationError(
            f"Invalid reducer for field {name!r}: {shown!r} takes {len(positional)} positional parameter(s), "
            "but a reducer is called as reducer(current, update) and must take exactly two")
    return last


def _empty_value(hint: Any) -> Any:
    base = get_args(hint)[0]
    base = get_origin(base) or base
    try:
        return _CONCRETE.get(base, base)()
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


def _is_flat(value: Any) -> bool:
    kind = type(value)
    if kind is list or kind is tuple:
        return all(_is_shared(type(item)) for item in value)
    if kind is dict:
        return all(_is_shared(type(item)) for item in value.values())
    return _is_shared(kind)


def _copy(value: Any, flat: bool) -> Any:
    if flat:
        return value.copy() if type(value) in (list, dict) else value
    try:
        return _deep(value)
    except RecursionError:  # a clear error, never a RecursionError from deep inside
        raise ValueError(f"a state value ({type(value).__name__}) is nested too deeply to copy for a node; "
                         "keep deep data inside an immutable value (a frozen dataclass) or flatten it") from None


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


def fresh(value: Any) -> Any:
    """A copy of ``value`` that shares nothing mutable with it: the engine's one way to copy."""
    return _copy(value, _is_flat(value))


def copy_update(update: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return None if update is None else {key: fresh(value) for key, value in update.items()}


class Values:
    """The state's values, each flagged "flat" when it holds only immutable values: for speed only, a flat
    list is copied with one C-level ``list.copy()``, not a Python walk (benchmarks/graph_engine.py)."""

    __slots__ = ("fields", "data", "_flat")

    def __init__(self, fields: tuple[str, ...], data: dict | None = None, flat: dict | None = None) -> None:
        self.fields, self.data, self._flat = fields, data or {}, flat or {}

    def put(self, key: str, value: Any) -> None:
        """Adopt a value from outside (an update, the input) as the engine's own copy."""
        flat = _is_flat(value)
        self.data[key], self._flat[key] = _copy(value, flat), flat

    def put_grown(self, key: str, value: list, added: list) -> None:
        """Store ``value``, the field's list plus ``added`` (both the engine's own): no rescan of it."""
        self.data[key], self._flat[key] = value, self._flat[key] and _is_flat(added)

    def get_copy(self, key: str) -> Any:
        return _copy(self.data[key], self._flat[key])

    def copy(self) -> dict[str, Any]:
        """The whole state as a dict the caller owns, in the TypedDict's field order (LangGraph's order)."""
        return {key: _copy(self.data[key], self._flat[key]) for key in self.fields if key in self.data}

    def clone(self) -> Values:
        """A second Values holding copies: the merge may grow this one's lists in place."""
        return Values(self.fields, {key: self.get_copy(key) for key in self.data}, dict(self._flat))

    def shallow(self) -> Values:
        return Values(self.fields, dict(self.data), dict(self._flat))
