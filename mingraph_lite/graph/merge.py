"""Merging a superstep: its updates land on one new state, in the order the nodes ran."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from typing import Any

from ..errors import GraphExecutionError
from .state import APPENDING, Schema, Values, fresh

Write = tuple[str, Mapping[str, Any] | None]  # (node name, its update)


def check_update(node: str, update: Any, schema: Schema) -> Mapping[str, Any] | None:
    """A node's return value as an update: None or {} is "no change" (recorded as None, as on LangGraph)."""
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


def start_values(given: Mapping[str, Any], schema: Schema) -> Values:
    """The state the first nodes see: reducer fields at their empty value, then the input merged in."""
    if not isinstance(given, Mapping):
        raise TypeError(f"a graph runs on a dict of its state fields, got {type(given).__name__}")
    unknown = sorted(map(str, set(given) - set(schema.fields)))
    if unknown:
        raise ValueError(f"unknown state field(s) {unknown} for {schema.name}; fields: {list(schema.fields)} "
                         "(LangGraph silently drops unknown input keys; here a typo is an error)")
    values = Values(schema.fields)
    for key, value in schema.defaults.items():
        values.put(key, value)
    return merge_superstep(values, [("__input__", given)], schema)


def merge_superstep(values: Values, writes: Sequence[Write], schema: Schema, *, grow_in_place: bool = False) -> Values:
    """Apply one superstep's writes, in order, to a new state; ``values`` is left as it was."""
    _check_plain_fields(writes, schema)
    new = values.shallow()
    grown: list[tuple[list, int]] | None = [] if grow_in_place else None
    for node, update in writes:
        try:
            for key, value in (update or {}).items():
                _merge_field(new, key, value, schema.reducers.get(key), grown)
        except Exception as exc:
            for items, length in grown or ():
                del items[length:]
            if getattr(exc, "node", None) is None:  # a reducer's own error: say whose update it was
                with suppress(AttributeError, TypeError):
                    exc.node = node
            raise
    return new


def _check_plain_fields(writes: Sequence[Write], schema: Schema) -> None:
    """Two writes to one plain field: name the field first written (LangGraph's choice) and both nodes."""
    writers: dict[str, list[str]] = {}
    for node, update in writes:
        for key in update or ():
            if key not in schema.reducers:
                writers.setdefault(key, []).append(node)
    for key, nodes in writers.items():
        if len(nodes) > 1:
            raise GraphExecutionError(
                f"At key {key!r}: nodes {nodes[0]!r} and {nodes[1]!r} both wrote this plain field in the same "
                "superstep, and a plain field takes one value per superstep; give it a reducer "
                "(Annotated[type, reducer]) or let one node write it", node=nodes[1])


def _merge_field(new: Values, key: str, value: Any, reducer: Any, grown: list | None) -> None:
    if reducer is None or key not in new.data:  # plain, or a reducer field with no empty value yet
        new.put(key, value)
    elif reducer not in APPENDING:  # a reducer we do not know may edit its arguments: give it copies
        new.put(key, reducer(new.get_copy(key), fresh(value)))
    else:
        left, right = new.data[key], fresh(value)
        if type(left) is not list or type(right) is not list:
            new.put(key, reducer(left, right))
        elif grown is None:
            new.put_grown(key, left + right, right)
        else:  # the old state shares ``left``: the runner drops it once the merge succeeds
            grown.append((left, len(left)))
            left.extend(right)
            new.put_grown(key, left, right)
