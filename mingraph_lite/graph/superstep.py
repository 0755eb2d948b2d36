"""One run of a compiled graph, superstep by superstep, as LangGraph (Pregel) runs it.

A superstep: every node that is due runs on its own copy of the same state (in a fixed order: by
node name, then ``Send`` packets in the order they were sent); then all their updates merge into
one new state (``merge.py``); then each node's ways out say what is due in the next superstep. A
fixed edge is always taken; a router reads the state as it was before the step plus its own node's
update (what LangGraph's routers read too) and picks one or more routes; a join is due once every
one of its sources has finished. A node with no way out simply adds nothing. When nothing is due,
the run is over.

If a node, router or reducer raises, its own exception propagates unchanged, with ``node``,
``completed`` (nodes whose updates were merged) and ``state`` (the last good state) attached.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import GraphExecutionError, GraphStepLimit
from ..observers.announce import announce
from .merge import Write, check_update, merge_step, start_state
from .routes import END, START, Send, resolve
from .state import StateView, copy_state, take

_STATE = object()  # the task reads the state (not a Send packet)


@dataclass(frozen=True)
class Task:
    """A node due in the next superstep, with the packet it was sent (or the state)."""

    node: str
    arg: Any = _STATE


def attach(exc: BaseException, node: str | None, completed: list[str], state: dict, flat: dict) -> None:
    """Attach ``node``, ``completed`` and ``state`` to ``exc``, keeping any a deeper layer already set.

    Attributes, not only ``add_note``: Python 3.10 has no notes, and code reads them (``graph_context``).
    """
    context = {"node": node, "completed": tuple(completed), "state": None}
    for name, value in context.items():
        if getattr(exc, name, None) not in (None, ()):
            continue
        if name == "state":
            value = copy_state(state, flat)
        try:
            setattr(exc, name, value)
        except (AttributeError, TypeError):  # an exception type that refuses new attributes
            if hasattr(exc, "add_note"):
                exc.add_note(f"graph context: {name}={value!r}")


def _own(update: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The engine's own copy of an update, so a node that keeps its dict cannot rewrite the record."""
    return None if update is None else {key: take(value)[0] for key, value in update.items()}


class Run:
    """The moving parts of one run: state, step count, what is due, waiting joins, the record."""

    def __init__(self, graph: Any, given: Mapping[str, Any], listeners: tuple) -> None:
        self.graph, self.schema, self.wiring = graph, graph.schema, graph.wiring
        self.listeners = listeners
        self.state, self.flat = start_state(given, self.schema)
        self.step = 0
        self.completed: list[str] = []
        self.waiting: list[set[str]] = [set() for _ in self.wiring.joins]
        self.first = (copy_state(self.state, self.flat), dict(self.flat))  # after the input: kept apart
        # Per superstep, only its writes: a snapshot's state is rebuilt from them when asked for.
        # Keeping every step's whole state would hold O(n^2) items for a run whose list grows each
        # step, and the garbage collector's walks over them would make a long run quadratic.
        self.steps: list[list[Write]] = []
        self.due = self._order(self._follow(START, self.state, self.flat))

    def superstep(self) -> list[Write]:
        """Run every due node on the same state, merge their updates, work out what is due next."""
        if self.step >= self.graph.max_steps:
            self._stop()
        self.step += 1
        writes = [(task.node, self._run_task(task)) for task in self.due]
        writes = [(node, _own(update)) for node, update in writes]
        # What each node's routers read: the state before the step plus that node's own update.
        # Made from a copy, before the step's merge, which may grow the old state's lists in place.
        try:
            own_views = [merge_step(copy_state(self.state, self.flat), self.flat, [write], self.schema)
                         if len(writes) > 1 and write[0] in self.wiring.branches else None for write in writes]
            self.state, self.flat = merge_step(self.state, self.flat, writes, self.schema, grow_in_place=True)
        except Exception as exc:
            attach(exc, None, self.completed, self.state, self.flat)
            raise
        self.completed += [node for node, _ in writes]
        self.steps.append(writes)
        due: list[str | Send] = []
        for (node, _), view in zip(writes, own_views, strict=True):
            due += self._follow(node, *(view or (self.state, self.flat)))
        self.due = self._order(due + self._joined({node for node, _ in writes}))
        return writes

    def replay(self) -> list[tuple[list[Write], dict, dict]]:
        """Each superstep's writes with the state (and flat flags) after it, rebuilt from the start."""
        state, flat = self.first
        rebuilt = []
        for writes in self.steps:
            state, flat = merge_step(state, flat, writes, self.schema)
            rebuilt.append((writes, state, flat))
        return rebuilt

    def _run_task(self, task: Task) -> Any:
        node, step = task.node, self.step
        given = copy_state(self.state, self.flat) if task.arg is _STATE else take(task.arg)[0]
        if self.listeners:
            announce(self.listeners, "on_node_start", node, copy_state(self.state, self.flat)
                     if task.arg is _STATE else take(task.arg)[0], step, strict=self.graph.strict)
        try:
            update = check_update(node, self.wiring.nodes[node](given), self.schema)
        except Exception as exc:
            attach(exc, node, self.completed, self.state, self.flat)
            raise
        if self.listeners:
            announce(self.listeners, "on_node_end", node, {k: take(v)[0] for k, v in (update or {}).items()},
                     step, strict=self.graph.strict)
        return update

    def _follow(self, node: str, state: dict, flat: dict) -> list[str | Send]:
        """Where ``node``'s ways out lead, given the state its routers read."""
        due: list[str | Send] = list(self.wiring.edges.get(node, ()))
        where = "at START" if node == START else f"after {node!r}"
        for branch in self.wiring.branches.get(node, ()):
            try:
                result = branch.router(StateView(state, flat))
            except Exception as exc:
                attach(exc, node, self.completed, self.state, self.flat)
                raise
            try:
                due += resolve(branch, result, where, self.wiring.nodes)
            except ValueError as exc:
                raise GraphExecutionError(str(exc), node=node, completed=tuple(self.completed),
                                          state=copy_state(self.state, self.flat)) from None
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
    def _order(due: list[str | Send]) -> list[Task]:
        """Nodes once each, by name (LangGraph's order), then Send packets as sent; END is dropped."""
        names = sorted({d for d in due if isinstance(d, str) and d != END})
        packets = [Task(d.node, d.arg) for d in due if isinstance(d, Send)]
        return [Task(name) for name in names] + packets

    def _stop(self) -> None:
        limit = self.graph.max_steps
        nodes = ", ".join(dict.fromkeys(t.node for t in self.due))
        raise GraphStepLimit(
            f"stopped before superstep {limit + 1}: {limit} supersteps ran (max_steps={limit}) and "
            f"{nodes} still due; raise max_steps if the run is legitimately long, or check the routers "
            f"for a loop that never takes its exit (on LangGraph this is recursion_limit={limit + 1})",
            node=self.due[0].node, completed=tuple(self.completed), state=copy_state(self.state, self.flat))
