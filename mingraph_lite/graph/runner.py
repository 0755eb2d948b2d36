"""Running a compiled graph: one node at a time, each on a copy, each update merged in one piece.

The loop, in words: hand the current node a copy of the state; take its partial update; merge it
into a candidate state (reducers for ``Annotated`` fields, replacement for the rest); adopt the
candidate only if the whole merge worked; ask the node's way out where to go next; stop at END.
A router gets a read-only ``StateView`` that copies each value it reads: it decides, it never edits.

Speed without giving up isolation (see ``state.py`` for the copies): the runner owns its state
values and never edits them in place, with one exception. A list field merged with ``operator.add``
is extended in place (amortised O(update) instead of rebuilding an O(n) list every step) and, if a
later field of the same update fails to merge, truncated back. Because such lists only ever grow,
the history stores a length mark instead of a copy, and copies are made when someone looks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import GraphExecutionError, GraphStepLimit
from ..observers.announce import announce
from . import drawing
from .builder import END, START
from .state import APPENDING, StateView, detach, detach_state, take

STREAM_MODES = ("updates", "values")


@dataclass(frozen=True)
class StepSnapshot:
    """One completed node: its name, the update it returned, and (a copy of) the state after merging."""

    node: str
    update: Mapping[str, Any]
    state: Mapping[str, Any]


class _RunLog:
    """The last run, kept cheaply: per step a reference to the state and length marks for growing lists."""

    def __init__(self) -> None:
        self.steps: list[tuple[str, dict, dict, dict, dict]] = []
        self._snapshots: tuple[StepSnapshot, ...] | None = None

    def add(self, node: str, update: dict, state: dict, flat: dict, growing: Iterable[str]) -> None:
        marks = {key: len(state[key]) for key in growing if type(state.get(key)) is list}
        self.steps.append((node, update, state, flat, marks))
        self._snapshots = None

    def snapshots(self) -> tuple[StepSnapshot, ...]:
        if self._snapshots is None:
            made = []
            for node, update, state, flat, marks in self.steps:
                view = {k: (v[:marks[k]] if k in marks else v) for k, v in state.items()}
                made.append(StepSnapshot(node, detach(update, False), detach_state(view, flat)))
            self._snapshots = tuple(made)
        return self._snapshots


class CompiledGraph:
    """A checked graph, ready to run: ``invoke``, ``stream``, ``history``, ``draw_mermaid``, ``draw_ascii``.

    ``history`` holds a ``StepSnapshot`` per completed node of the most recent run (also a failed
    one, up to the failure), and ``path`` the node names. Both are replaced when the next run
    starts, so read them before running again. Each snapshot is an independent copy.
    """

    def __init__(self, *, state_type: type, fields: Sequence[str], reducers: Mapping[str, Any],
                 nodes: Mapping[str, Any], exits: Mapping[str, Any], max_steps: int,
                 observers: tuple, strict: bool, name: str) -> None:
        self.state_type, self.name = state_type, name
        self.fields, self.reducers = tuple(fields), dict(reducers)
        self.nodes, self.exits = dict(nodes), dict(exits)
        self.max_steps, self.observers, self.strict = max_steps, observers, strict
        self._field_set = frozenset(self.fields)
        self._growing = tuple(k for k, r in self.reducers.items() if r in APPENDING)
        self._log = _RunLog()

    def __repr__(self) -> str:
        return f"CompiledGraph({self.name!r}, nodes={list(self.nodes)}, max_steps={self.max_steps})"

    # -- the public ways to run ---------------------------------------------------------------

    def invoke(self, state: Mapping[str, Any], *, observers: Iterable[Any] | None = None) -> dict[str, Any]:
        """Run to END and return the final state (a copy the caller owns)."""
        last: tuple[dict, dict] = ({}, {})
        for last in self._run(state, observers):  # noqa: B007 - we only need the final state
            pass
        return detach_state(*last)

    def stream(self, state: Mapping[str, Any], stream_mode: str | Sequence[str] = STREAM_MODES, *,
               observers: Iterable[Any] | None = None) -> Iterator[Any]:
        """Run once, yielding as it goes; the last ``"values"`` item is the final state.

        ``"updates"`` yields ``{node: update}`` per completed node, ``"values"`` the whole merged
        state (the input first, then after each node). One mode as a str yields bare payloads; a
        sequence of modes yields ``(mode, payload)`` pairs, as LangGraph does.
        """
        modes = (stream_mode,) if isinstance(stream_mode, str) else tuple(stream_mode)
        bad = [m for m in modes if m not in STREAM_MODES]
        if bad or not modes:
            raise ValueError(f"unknown stream_mode {bad or stream_mode!r}; choose from {STREAM_MODES}")
        single = isinstance(stream_mode, str)

        def emit(mode: str, payload: Any) -> Any:
            return payload if single else (mode, payload)

        log, first = None, True
        for current, flat in self._run(state, observers):
            if first:
                first, log = False, self._log
                if "values" in modes:
                    yield emit("values", detach_state(current, flat))
                continue
            node, update = log.steps[-1][:2]
            if "updates" in modes:
                yield emit("updates", {node: detach(update, False)})
            if "values" in modes:
                yield emit("values", detach_state(current, flat))

    @property
    def history(self) -> tuple[StepSnapshot, ...]:
        """A ``StepSnapshot`` per completed node of the last run."""
        return self._log.snapshots()

    @property
    def path(self) -> tuple[str, ...]:
        """The nodes the last run completed, in order."""
        return tuple(step[0] for step in self._log.steps)

    def draw_mermaid(self, highlight: bool | Iterable[str] = False) -> str:
        """Mermaid flowchart text; ``highlight=True`` marks the nodes the last run visited."""
        return drawing.mermaid(self.nodes, self.exits, self._highlight(highlight))

    def draw_ascii(self, highlight: bool | Iterable[str] = False) -> str:
        """The graph as plain text, one node and its ways out per block; visited nodes get a ``*``."""
        return drawing.ascii(self.nodes, self.exits, self._highlight(highlight))

    def _highlight(self, highlight: bool | Iterable[str]) -> frozenset[str]:
        if highlight is True:
            return frozenset(self.path)
        return frozenset(highlight or ())

    # -- the loop ----------------------------------------------------------------------------------

    def _run(self, state: Mapping[str, Any], observers: Iterable[Any] | None) -> Iterator[tuple[dict, dict]]:
        """Yield (state, flat) once at the start and after each node; raise on any failure."""
        if not isinstance(state, Mapping):
            raise TypeError(f"a graph runs on a dict of its state fields, got {type(state).__name__}")
        unknown = sorted(set(state) - self._field_set)
        if unknown:
            raise ValueError(f"unknown state field(s) {unknown} for {self.name}; fields: {list(self.fields)}")
        listeners = self.observers if observers is None else tuple(observers)
        current: dict[str, Any] = {}
        flat: dict[str, bool] = {}
        for key, value in state.items():
            current[key], flat[key] = take(value)
        self._log = log = _RunLog()
        completed: list[str] = []
        yield current, flat
        node = self._next(START, current, flat, completed)
        while node != END:
            if len(completed) >= self.max_steps:
                raise GraphStepLimit(
                    f"stopped before running {node!r}: {self.max_steps} nodes ran without reaching END "
                    f"(max_steps={self.max_steps}); raise max_steps if the run is legitimately long, or "
                    "check the routers for a loop that never takes its exit",
                    node=node, completed=tuple(completed), state=detach_state(current, flat))
            if listeners:
                announce(listeners, "on_node_start", node, detach_state(current, flat), strict=self.strict)
            try:
                update = self.nodes[node](detach_state(current, flat))
            except Exception as exc:
                raise self._failure(f"node {node!r} failed: {type(exc).__name__}: {exc}",
                                    node, completed, current, flat, exc) from exc
            current, flat, taken = self._merge(node, update, current, flat, completed)
            completed.append(node)
            log.add(node, taken, current, flat, self._growing)
            if listeners:
                announce(listeners, "on_node_end", node, detach(taken, False), strict=self.strict)
            yield current, flat
            node = self._next(node, current, flat, completed)

    def _merge(self, node: str, update: Any, current: dict, flat: dict,
               completed: list[str]) -> tuple[dict, dict, dict]:
        """Stage the whole update on a candidate; adopt it only if every field merged."""
        if not isinstance(update, Mapping):
            raise self._failure(f"node {node!r} returned {type(update).__name__}; a node returns a dict of "
                                "the fields it changed (return {} to change nothing)",
                                node, completed, current, flat)
        if not self._field_set.issuperset(update):
            unknown = sorted(map(str, set(update) - self._field_set))
            raise self._failure(f"node {node!r} returned unknown field(s) {unknown}; "
                                f"the state's fields are {list(self.fields)}", node, completed, current, flat)
        candidate, new_flat, taken = dict(current), dict(flat), {}
        grown: list[tuple[list, int]] = []
        key = None
        try:
            for key, value in update.items():
                right, right_flat = take(value)
                taken[key] = right
                reducer = self.reducers.get(key)
                if reducer is None or key not in candidate:
                    # a private copy: the stored value must not be the object the update record holds
                    candidate[key], new_flat[key] = detach(right, right_flat), right_flat
                elif reducer in APPENDING and type(candidate[key]) is list and type(right) is list:
                    grown.append((candidate[key], len(candidate[key])))
                    candidate[key].extend(right)
                    new_flat[key] = new_flat[key] and right_flat
                else:
                    left = candidate[key] if reducer in APPENDING else detach(candidate[key], flat[key])
                    candidate[key], new_flat[key] = take(reducer(left, right))
        except Exception as exc:
            for items, length in grown:  # undo the in-place growth: the state is as it was
                del items[length:]
            raise self._failure(f"merging field {key!r} from node {node!r} failed: "
                                f"{type(exc).__name__}: {exc}", node, completed, current, flat, exc) from exc
        return candidate, new_flat, taken

    def _next(self, node: str, current: dict, flat: dict, completed: list[str]) -> str:
        way_out = self.exits[node]
        if isinstance(way_out, str):
            return way_out
        router, path_map = way_out
        where = "at START" if node == START else f"after {node!r}"
        try:
            label = router(StateView(current, flat))
        except Exception as exc:
            raise self._failure(f"the router {where} failed: {type(exc).__name__}: {exc}",
                                node, completed, current, flat, exc) from exc
        try:
            return path_map[label]
        except (KeyError, TypeError):
            raise self._failure(f"the router {where} returned {label!r}, which is not a declared route; "
                                f"declared routes: {', '.join(map(repr, path_map))}",
                                node, completed, current, flat) from None

    @staticmethod
    def _failure(message: str, node: str, completed: list[str], current: dict, flat: dict,
                 cause: BaseException | None = None) -> GraphExecutionError:
        return GraphExecutionError(message, node=node, completed=tuple(completed),
                                   state=detach_state(current, flat), cause=cause)
