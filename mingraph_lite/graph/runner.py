"""A compiled graph: run it (``invoke``, ``stream``), look back at the last run, draw it.

The superstep loop itself is in ``superstep.py``; this module is what a learner calls. ``max_steps``
counts supersteps: one superstep runs every node that is due at once, so a straight chain of N nodes
takes N supersteps and a fan-out to three nodes plus their join takes two. LangGraph's
``recursion_limit`` counts the same supersteps plus one (the step that takes the input), so
``max_steps=N`` stops exactly where ``recursion_limit=N + 1`` does.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import drawing
from .routes import Wiring
from .state import Schema, copy_state, take
from .superstep import Run

STREAM_MODES = ("updates", "values")


@dataclass(frozen=True)
class StepSnapshot:
    """One completed node: its name, its update, the state after its superstep merged, the superstep."""

    node: str
    update: Mapping[str, Any] | None
    state: Mapping[str, Any]
    step: int = 0


def _copy_update(update: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return None if update is None else {key: take(value)[0] for key, value in update.items()}


class CompiledGraph:
    """A checked graph, ready to run: ``invoke``, ``stream``, ``history``, ``path``, ``steps``, drawings.

    ``history`` holds a ``StepSnapshot`` per completed node of the most recent run (also a failed
    one, up to the failure), ``path`` the node names and ``steps`` the nodes of each superstep.
    They are replaced when the next run starts. Each snapshot is an independent copy.
    """

    def __init__(self, *, schema: Schema, wiring: Wiring, max_steps: int, observers: tuple, strict: bool,
                 name: str) -> None:
        self.schema, self.wiring, self.name = schema, wiring, name
        self.max_steps, self.observers, self.strict = max_steps, observers, strict
        self._last: Run | None = None

    @property
    def nodes(self) -> Mapping[str, Any]:
        return self.wiring.nodes

    def __repr__(self) -> str:
        return f"CompiledGraph({self.name!r}, nodes={list(self.nodes)}, max_steps={self.max_steps})"

    def invoke(self, state: Mapping[str, Any], *, observers: Iterable[Any] | None = None) -> dict[str, Any]:
        """Run until nothing is due and return the final state (a copy the caller owns)."""
        run = self._start(state, observers)
        while run.due:
            run.superstep()
        return copy_state(run.state, run.flat)

    def stream(self, state: Mapping[str, Any], stream_mode: str | Sequence[str] = "updates", *,
               observers: Iterable[Any] | None = None) -> Iterator[Any]:
        """Run once, yielding as it goes; LangGraph's default mode, ``"updates"``, unless told otherwise.

        ``"updates"`` yields ``{node: update}`` per completed node (``None`` if it changed nothing),
        ``"values"`` the whole state: after the input, then after each superstep, each time only if
        something was written (as LangGraph does). One mode as a str yields bare payloads; a list of
        modes yields ``(mode, payload)`` pairs, as LangGraph does.
        """
        modes = (stream_mode,) if isinstance(stream_mode, str) else tuple(stream_mode)
        bad = [m for m in modes if m not in STREAM_MODES]
        if bad or not modes:
            raise ValueError(f"unknown stream_mode {bad or stream_mode!r}; this engine has {STREAM_MODES} "
                             "(LangGraph's 'debug', 'messages' and 'custom' are not part of it)")
        single = isinstance(stream_mode, str)

        def emit(mode: str, payload: Any) -> Any:
            return payload if single else (mode, payload)

        run = self._start(state, observers)
        if "values" in modes and state:
            yield emit("values", copy_state(run.state, run.flat))
        while run.due:
            writes = run.superstep()
            if "updates" in modes:
                for node, update in writes:
                    yield emit("updates", {node: _copy_update(update)})
            if "values" in modes and any(update for _, update in writes):
                yield emit("values", copy_state(run.state, run.flat))

    def _start(self, state: Mapping[str, Any], observers: Iterable[Any] | None) -> Run:
        listeners = self.observers if observers is None else tuple(observers)
        self._last = None
        self._last = Run(self, state, listeners)
        return self._last

    @property
    def history(self) -> tuple[StepSnapshot, ...]:
        """A ``StepSnapshot`` per completed node of the last run, in order.

        The states are rebuilt when you read this, by replaying each superstep's recorded updates
        through the reducers from the input (reducers are pure functions, so the replay is exact).
        """
        if self._last is None:
            return ()
        return tuple(StepSnapshot(node, _copy_update(update), copy_state(state, flat), number)
                     for number, (writes, state, flat) in enumerate(self._last.replay(), start=1)
                     for node, update in writes)

    @property
    def path(self) -> tuple[str, ...]:
        """The nodes the last run completed, superstep by superstep (by name within one)."""
        return () if self._last is None else tuple(self._last.completed)

    @property
    def steps(self) -> tuple[tuple[str, ...], ...]:
        """The nodes of each superstep of the last run: which ran side by side."""
        if self._last is None:
            return ()
        return tuple(tuple(node for node, _ in writes) for writes in self._last.steps)

    def draw_mermaid(self, highlight: bool | Iterable[str] = False) -> str:
        """Mermaid flowchart text; ``highlight=True`` marks the nodes the last run visited."""
        return drawing.mermaid(self.wiring, self._highlight(highlight))

    def draw_ascii(self, highlight: bool | Iterable[str] = False) -> str:
        """The graph as plain text, one node and its ways out per block; visited nodes get a ``*``."""
        return drawing.ascii(self.wiring, self._highlight(highlight))

    def _highlight(self, highlight: bool | Iterable[str]) -> frozenset[str]:
        if highlight is True:
            return frozenset(self.path)
        return frozenset(highlight or ())
