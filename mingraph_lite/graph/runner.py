"""A compiled graph: run it (``invoke``, ``stream``), look back at the last run, draw it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import GraphStepLimit
from ..observers.announce import announce
from . import drawing
from .routes import Wiring
from .state import Schema, copy_update
from .superstep import Run

STREAM_MODES = ("updates", "values")


@dataclass(frozen=True)
class StepSnapshot:
    """One completed node: its name, its update, the state after its superstep merged, the superstep."""

    node: str
    update: Mapping[str, Any] | None
    state: Mapping[str, Any]
    step: int = 0


class CompiledGraph:
    """A checked graph, ready to run; ``history``, ``path`` and ``steps`` describe the last run (up to a failure)."""

    def __init__(self, *, schema: Schema, wiring: Wiring, max_steps: int, observers: tuple, strict: bool,
                 name: str, announce_runs: bool = True) -> None:
        self.schema, self.wiring, self.name = schema, wiring, name
        self.max_steps, self.observers, self.strict, self.announce_runs = max_steps, observers, strict, announce_runs
        self._last: Run | None = None

    @property
    def nodes(self) -> Mapping[str, Any]:
        return self.wiring.nodes

    def __repr__(self) -> str:
        return f"CompiledGraph({self.name!r}, nodes={list(self.nodes)}, max_steps={self.max_steps})"

    def invoke(self, state: Mapping[str, Any], *, observers: Iterable[Any] | None = None) -> dict[str, Any] | None:
        """Run until nothing is due; return the final state, or None if no field was ever written (as LangGraph)."""
        for _ in self._execute(state, observers, ()):
            pass
        return self._last.values.copy() if self._last.written else None

    def stream(self, state: Mapping[str, Any], stream_mode: str | Sequence[str] = "updates", *,
               observers: Iterable[Any] | None = None) -> Iterator[Any]:
        """Run once, yielding ``{node: update}`` per node (``"updates"``) and/or the state after the input and
        each superstep that wrote something (``"values"``); a list of modes yields (mode, payload) pairs."""
        modes = (stream_mode,) if isinstance(stream_mode, str) else tuple(stream_mode)
        bad = [m for m in modes if m not in STREAM_MODES]
        if bad or not modes:
            raise ValueError(f"unknown stream_mode {bad or stream_mode!r}; this engine has {STREAM_MODES} "
                             "(LangGraph's 'debug', 'messages' and 'custom' are not part of it)")
        for mode, payload in self._execute(state, observers, modes):
            yield payload if isinstance(stream_mode, str) else (mode, payload)

    def _execute(self, state: Mapping[str, Any], observers: Iterable[Any] | None,
                 modes: tuple[str, ...]) -> Iterator[tuple[str, Any]]:
        listeners = self.observers if observers is None else tuple(observers)
        self._announce(listeners, "on_run_start", ())
        try:
            self._last = None
            run = self._last = Run(self, state, listeners)
            if "values" in modes and run.written:
                yield "values", run.values.copy()
            while run.due:
                try:
                    writes = run.advance()
                except Exception:  # LangGraph has already streamed the updates of the nodes that finished
                    if "updates" in modes:
                        yield from (("updates", {node: copy_update(update)}) for node, update in run.unmerged)
                    raise
                if "updates" in modes:
                    yield from (("updates", {node: copy_update(update)}) for node, update in writes)
                if "values" in modes and any(update for _, update in writes):
                    yield "values", run.values.copy()
        except BaseException as exc:
            reason = "superstep limit" if isinstance(exc, GraphStepLimit) else "stopped"
            self._announce(listeners, "on_finish", None, reason, stopping=True)
            raise
        self._announce(listeners, "on_finish", None, "finished")

    def _announce(self, listeners: tuple, hook: str, *args: Any, stopping: bool = False) -> None:
        if self.announce_runs and listeners:
            announce(listeners, hook, *args, strict=self.strict, stopping=stopping)

    @property
    def history(self) -> tuple[StepSnapshot, ...]:
        """A ``StepSnapshot`` per completed node of the last run, rebuilt from the updates when read."""
        if self._last is None:
            return ()
        return tuple(StepSnapshot(node, copy_update(update), values.copy(), number)
                     for number, (writes, values) in enumerate(self._last.replay(), start=1)
                     for node, update in writes)

    @property
    def path(self) -> tuple[str, ...]:
        """The nodes the last run completed, superstep by superstep (by name within one)."""
        return () if self._last is None else tuple(self._last.completed)

    @property
    def steps(self) -> tuple[tuple[str, ...], ...]:
        """The nodes of each superstep of the last run: which ran side by side."""
        return () if self._last is None else tuple(tuple(n for n, _ in writes) for writes in self._last.record)

    def draw_mermaid(self, highlight: bool | Iterable[str] = False) -> str:
        """Mermaid flowchart text; ``highlight=True`` marks the nodes the last run visited."""
        return drawing.mermaid(self.wiring, self._highlight(highlight))

    def draw_ascii(self, highlight: bool | Iterable[str] = False) -> str:
        """The graph as plain text, one node and its ways out per block; visited nodes get a ``*``."""
        return drawing.ascii(self.wiring, self._highlight(highlight))

    def _highlight(self, highlight: bool | Iterable[str]) -> frozenset[str]:
        return frozenset(self.path) if highlight is True else frozenset(highlight or ())
