"""One run of a compiled graph, superstep by superstep, as LangGraph (Pregel) runs it: each due node on its own
copy of the state, one after another; a node's exception ends the run and nothing of its superstep is merged."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ..errors import GraphExecutionError, GraphStepLimit
from ..observers.announce import announce
from .merge import Write, check_update, merge_superstep, start_values
from .routes import END, START, Send, resolve
from .state import Values, copy_update, fresh

_STATE = object()  # a task's packet when it reads the state: each due node is a Send(node, packet)


def attach(exc: BaseException, node: str | None, completed: list[str], values: Values) -> None:
    """Attach ``node``, ``completed`` and ``state`` to ``exc`` (attributes: Python 3.10 has no notes)."""
    for name, value in (("node", node), ("completed", tuple(completed)), ("state", None)):
        if getattr(exc, name, None) not in (None, ()):
            continue
        value = values.copy() if name == "state" else value
        try:
            setattr(exc, name, value)
        except (AttributeError, TypeError):  # an exception type that refuses new attributes
            if hasattr(exc, "add_note"):
                exc.add_note(f"graph context: {name}={value!r}")


class Run:
    """The moving parts of one run: state, superstep count, what is due, waiting joins, the record."""

    def __init__(self, graph: Any, given: Mapping[str, Any], listeners: tuple) -> None:
        self.graph, self.schema, self.wiring, self.listeners = graph, graph.schema, graph.wiring, listeners
        self.values = start_values(given, self.schema)
        self.written = bool(given)  # LangGraph's invoke returns None when no field was ever written
        self.superstep = 0
        self.completed: list[str] = []
        self.waiting: list[set[str]] = [set() for _ in self.wiring.joins]
        self.first = self.values.clone()  # the history: this and each superstep's writes (not O(n^2) states)
        self.record: list[list[Write]] = []
        self.unmerged: list[Write] = []  # a failed superstep's finished updates, for the stream
        self.due = self._order(self._follow(START, self.values))

    def advance(self) -> list[Write]:
        """Run every due node on the same state, merge their updates, work out what is due next."""
        if self.superstep >= self.graph.max_steps:
            self._stop()
        self.superstep += 1
        writes, failure = self._run_tasks()
        try:
            if failure is not None:
                raise failure
            # A router reads the state before the superstep plus its node's update (as on LangGraph).
            own = [merge_superstep(self.values.clone(), [write], self.schema)
                   if len(writes) > 1 and write[0] in self.wiring.branches else None for write in writes]
            self.values = merge_superstep(self.values, writes, self.schema, grow_in_place=True)
        except Exception as exc:
            self.unmerged = writes
            attach(exc, None, self.completed, self.values)
            raise
        self.completed += [node for node, _ in writes]
        self.written = self.written or any(update for _, update in writes)
        self.record.append(writes)
        due: list[str | Send] = []
        for (node, _), view in zip(writes, own, strict=True):
            due += self._follow(node, view or self.values)
        self.due = self._order(due + self._joined({node for node, _ in writes}))
        return writes

    def _run_tasks(self) -> tuple[list[Write], Exception | None]:
        writes, failure = [], None
        for task in self.due:
            try:
                writes.append((task.node, copy_update(self._run_task(task))))
            except Exception as exc:
                failure = failure or exc
        return writes, failure

    def replay(self) -> list[tuple[list[Write], Values]]:
        """Each superstep's writes with the state after it, rebuilt from the start."""
        values, rebuilt = self.first, []
        for writes in self.record:
            values = merge_superstep(values, writes, self.schema)
            rebuilt.append((writes, values))
        return rebuilt

    def _run_task(self, task: Send) -> Mapping[str, Any] | None:
        node, given = task.node, self._input(task)
        if self.listeners:
            announce(self.listeners, "on_node_start", node, self._input(task), self.superstep, strict=self.graph.strict)
        try:
            update = check_update(node, self.wiring.nodes[node](given), self.schema)
        except Exception as exc:
            attach(exc, node, self.completed, self.values)
            raise
        if self.listeners:
            announce(self.listeners, "on_node_end", node, copy_update(update) or {}, self.superstep,
                     strict=self.graph.strict)
        return update

    def _input(self, task: Send) -> Any:
        return self.values.copy() if task.arg is _STATE else fresh(task.arg)

    def _follow(self, node: str, values: Values) -> list[str | Send]:
        """Where ``node``'s ways out lead, given the state its routers read."""
        due: list[str | Send] = list(self.wiring.edges.get(node, ()))
        where = "at START" if node == START else f"after {node!r}"
        for branch in self.wiring.branches.get(node, ()):
            try:
                result = branch.router(MappingProxyType(values.copy()))  # read-only: a router decides
            except Exception as exc:
                attach(exc, node, self.completed, self.values)
                raise
            try:
                due += resolve(branch, result, where, self.wiring.nodes)
            except ValueError as exc:
                raise GraphExecutionError(str(exc), node=node, completed=tuple(self.completed),
                                          state=self.values.copy()) from None
        return due

    def _joined(self, finished: set[str]) -> list[str]:
        """Joins whose every source has now finished (each fires once, then waits afresh)."""
        due = []
        for seen, (sources, target) in zip(self.waiting, self.wiring.joins, strict=True):
            seen |= finished & set(sources)
            if seen == set(sources):
                seen.clear()
                due.append(target)
        return due

    @staticmethod
    def _order(due: list[str | Send]) -> list[Send]:
        """Nodes once each, by name (LangGraph's order), then Send packets as sent; END is dropped."""
        names = sorted({d for d in due if isinstance(d, str) and d != END})
        return [Send(name, _STATE) for name in names] + [d for d in due if isinstance(d, Send)]

    def _stop(self) -> None:
        limit = self.graph.max_steps
        nodes = ", ".join(dict.fromkeys(t.node for t in self.due))
        raise GraphStepLimit(
            f"stopped before superstep {limit + 1}: {limit} supersteps ran (max_steps={limit}) and "
            f"{nodes} still due; raise max_steps if the run is legitimately long, or check the routers "
            f"for a loop that never takes its exit (on LangGraph this is recursion_limit={limit + 1})",
            node=self.due[0].node, completed=tuple(self.completed), state=self.values.copy())
