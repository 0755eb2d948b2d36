"""Merging a superstep: every update of the step lands on one new state, through the reducers.

The writes of a step are applied in a fixed order (the order the runner ran the nodes: by node
name, then ``Send`` packets in the order they were sent), so a run is the same every time. A
reducer field folds every write of the step in that order; a plain field takes one write per step,
and a second write to it in the same step is an error naming both nodes (LangGraph's rule too).

A merge builds a new dict, so an older state (the history, the last good state after a failure)
keeps its values, with one exception kept for speed (``_append_in_place``): a list merged with
``operator.add`` is extended in place and cut back if the merge fails; the history records each
step's update and rebuilds past states from them, so it does not rely on those lists.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from typing import Any

from ..errors import GraphExecutionError
from .state import APPENDING, Schema, private_copy, take

Write = tuple[str, Mapping[str, Any]]  # (node name, its update)


def check_update(node: str, update: Any, schema: Schema) -> Mapping[str, Any] | None:
    """A node's return value as an update: None (or {}) means "no change", recorded as None as on
    LangGraph; anything else must be a dict of fields."""
    if update is None or (isinstance(update, Mapping) and not update):
        return None
    if not isinstance(update, Mapping):
        raise GraphExecutionError(f"node {node!r} returned {type(update).__name__}; a node returns a dict of "
                                  "the fields it changed (or None to change nothing)", node=node)
    unknown = sorted(map(str, set(update) - set(schema.fields)))
    if unknown:
        raise GraphExecutionError(
            f"node {node!r} returned unknown field(s) {unknown}; the state's fields are {list(schema.fields)} "
            "(LangGraph silently drops an unknown key; here a typo'd key is an error)", node=node)
    return update


def start_state(given: Mapping[str, Any], schema: Schema) -> tuple[dict, dict]:
    """The state the first nodes see: reducer fields at their empty value, then the input merged in."""
    if not isinstance(given, Mapping):
        raise TypeError(f"a graph runs on a dict of its state fields, got {type(given).__name__}")
    unknown = sorted(map(str, set(given) - set(schema.fields)))
    if unknown:
        raise ValueError(f"unknown state field(s) {unknown} for {schema.name}; fields: {list(schema.fields)} "
                         "(LangGraph silently drops unknown input keys; here a typo is an error)")
    state: dict[str, Any] = {}
    flat: dict[str, bool] = {}
    for key, value in schema.defaults.items():
        state[key], flat[key] = take(value)
    return merge_step(state, flat, [("__input__", given)], schema)


def merge_step(state: Mapping[str, Any], flat: Mapping[str, bool], writes: Sequence[Write],
               schema: Schema, *, grow_in_place: bool = False) -> tuple[dict, dict]:
    """Apply one superstep's writes, in order, to a new state; the given one is left untouched.

    ``grow_in_place`` is the one exception, for the runner's own merge: see ``_append_in_place``.
    """
    new_state, new_flat = dict(state), dict(flat)
    writer: dict[str, str] = {}  # plain field -> the node that wrote it this step
    grown: list[tuple[list, int]] | None = [] if grow_in_place else None
    for node, update in writes:
        try:
            _merge_one(node, update or {}, new_state, new_flat, writer, schema, grown)
        except Exception as exc:
            for items, length in grown or ():  # undo the growth: the given state is as it was
                del items[length:]
            if getattr(exc, "node", None) is None:  # a reducer's own error: say whose update it was
                with suppress(AttributeError, TypeError):
                    exc.node = node
            raise
    return new_state, new_flat


def _merge_one(node: str, update: Mapping[str, Any], new_state: dict, new_flat: dict, writer: dict,
               schema: Schema, grown: list | None) -> None:
    for key, value in update.items():
        reducer = schema.reducers.get(key)
        if reducer is None:
            if key in writer:
                raise GraphExecutionError(
                    f"At key {key!r}: nodes {writer[key]!r} and {node!r} both wrote this plain field "
                    "in the same superstep, and a plain field takes one value per step; give it a "
                    "reducer (Annotated[type, reducer]) or let one node write it", node=node)
            writer[key] = node
            new_state[key], new_flat[key] = take(value)
        elif key not in new_state:  # a reducer field with no empty value: the first write is kept
            new_state[key], new_flat[key] = take(value)
        else:
            new_state[key], new_flat[key] = _reduce(reducer, new_state[key], new_flat[key], value, grown)


def _reduce(reducer: Any, left: Any, left_flat: bool, value: Any, grown: list | None) -> tuple[Any, bool]:
    right, right_flat = take(value)
    if reducer not in APPENDING:  # an unknown reducer may edit its arguments: give it a copy
        return take(reducer(private_copy(left, left_flat), right))
    if type(left) is list and type(right) is list:  # no rescan of the whole list: it was flat or not
        if grown is not None:
            return _append_in_place(left, right, grown), left_flat and right_flat
        return reducer(left, right), left_flat and right_flat
    return take(reducer(left, right))


def _append_in_place(items: list, more: list, grown: list[tuple[list, int]]) -> list:
    """``items + more`` without copying ``items``: why a long run stays linear (benchmarks/graph_engine.py).

    The old state shares ``items``, so the caller drops the old state once the merge succeeds, and
    ``merge_step`` truncates ``items`` back (from ``grown``) if a later write of the step fails.
    """
    grown.append((items, len(items)))
    items.extend(more)
    return items
