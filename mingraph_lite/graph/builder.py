"""Declaring a graph: nodes, fixed edges, conditional edges with declared routes; checked at compile.

Every method returns the builder, so a declaration can chain. Nothing is checked while you add
things one by one (a node may be added after the edge that names it); ``compile()`` checks the whole
picture at once, before anything runs, and names the offender.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..errors import GraphValidationError
from .state import read_schema

START = "__start__"  #: where every run enters; the same spelling as LangGraph's, so route maps port as-is
END = "__end__"  #: where a run stops

Node = Callable[[dict], Mapping[str, Any]]
Router = Callable[[dict], Any]


def _label(name: str) -> str:
    return {START: "START", END: "END"}.get(name, repr(name))


class StateGraph:
    """A graph over a TypedDict state; ``Annotated[T, reducer]`` fields merge, the others are replaced.

    >>> builder = StateGraph(MyState).add_node("a", a).add_edge(START, "a").add_edge("a", END)
    >>> graph = builder.compile(max_steps=10)
    """

    def __init__(self, state_type: type) -> None:
        self.state_type = state_type
        self.fields, self.reducers = read_schema(state_type)
        self.nodes: dict[str, Node] = {}
        self._exits: dict[str, list[Any]] = {}  # source -> [destination name | (router, path_map)]

    def add_node(self, name: str | Node, fn: Node | None = None) -> StateGraph:
        """Add node ``name`` running ``fn(state) -> update``; ``add_node(fn)`` names it ``fn.__name__``."""
        if fn is None and callable(name):
            name, fn = name.__name__, name
        if not isinstance(name, str) or not name:
            raise TypeError(f"a node name must be a non-empty str, got {name!r}")
        if not callable(fn):
            raise TypeError(f"node {name!r} needs a function state -> update, got {fn!r}")
        if name in (START, END):
            raise GraphValidationError(f"{name!r} is reserved for {_label(name)}; pick another node name")
        if name in self.nodes:
            raise GraphValidationError(f"node {name!r} was added twice; node names must be unique")
        self.nodes[name] = fn
        return self

    def add_edge(self, source: str, destination: str) -> StateGraph:
        """After ``source`` always go to ``destination`` (a node or END)."""
        self._exits.setdefault(source, []).append(destination)
        return self

    def add_conditional_edges(self, source: str, router: Router, path_map: Mapping[str, str]) -> StateGraph:
        """After ``source``, ``router(state)`` returns a label; ``path_map`` says where each label goes.

        The map is required: the routes are declared up front, so compile can check every one and a
        router cannot invent a destination at run time.
        """
        if not callable(router):
            raise TypeError(f"the router after {source!r} must be a function state -> label, got {router!r}")
        if not isinstance(path_map, Mapping) or not path_map:
            raise TypeError(f"add_conditional_edges({source!r}, ...) needs a path map "
                            f"{{label: destination}} declaring every route, got {path_map!r}")
        self._exits.setdefault(source, []).append((router, dict(path_map)))
        return self

    # -- compile -------------------------------------------------------------------------------

    def compile(self, max_steps: int = 25, *, observers: Iterable[Any] = (), strict: bool = False,
                name: str | None = None) -> Any:
        """Check the declaration and return a runnable graph.

        ``max_steps`` counts node executions (not revisions, not model calls): a run that has
        executed that many nodes without reaching END stops with ``GraphStepLimit`` before starting
        another. ``observers`` hear every run (node start/end); ``strict`` makes a failing one stop it.
        """
        from .runner import CompiledGraph

        if not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 1:
            raise ValueError(f"max_steps counts node executions and must be an int >= 1, got {max_steps!r}")
        exits = self._validate()
        return CompiledGraph(state_type=self.state_type, fields=self.fields, reducers=self.reducers,
                             nodes=dict(self.nodes), exits=exits, max_steps=max_steps,
                             observers=tuple(observers), strict=strict,
                             name=name or getattr(self.state_type, "__name__", "graph"))

    def _validate(self) -> dict[str, Any]:
        if not self.nodes:
            raise GraphValidationError("the graph has no nodes: add_node(name, fn) first")
        known = ", ".join(map(repr, self.nodes))
        for source, outs in self._exits.items():
            if source == END:
                raise GraphValidationError("an edge leaves END, but END is where a run stops; remove it")
            if source != START and source not in self.nodes:
                raise GraphValidationError(f"an edge leaves unknown node {source!r}; known nodes: {known}")
            for out in outs:
                targets = out[1].items() if isinstance(out, tuple) else [(None, out)]
                for label, target in targets:
                    if target == START:
                        raise GraphValidationError(f"an edge from {_label(source)} goes back to START; "
                                                   "START is only an entry, point it at a node instead")
                    if target != END and target not in self.nodes:
                        what = f"route {label!r} from" if label is not None else "an edge from"
                        raise GraphValidationError(f"{what} {_label(source)} goes to unknown node "
                                                   f"{target!r}; known nodes: {known}, or END")
        if START not in self._exits:
            raise GraphValidationError("no entry: nothing leaves START; add_edge(START, '<first node>')")
        for source, outs in self._exits.items():
            if len(outs) > 1:
                raise GraphValidationError(
                    f"{_label(source)} has {len(outs)} ways out; this engine runs one node at a time, so "
                    "give each node exactly one edge or one conditional edge (put the choice in its router)")
        for node in self.nodes:
            if node not in self._exits:
                raise GraphValidationError(f"node {node!r} has no way out: add_edge({node!r}, ...) "
                                           "to another node or to END")
        exits = {source: outs[0] for source, outs in self._exits.items()}
        successors = {source: _destinations(out) for source, out in exits.items()}
        reached = _reachable(START, successors)
        for node in self.nodes:
            if node not in reached:
                raise GraphValidationError(f"node {node!r} is unreachable from START; "
                                           "connect it or remove it")
        predecessors: dict[str, set[str]] = {}
        for source, targets in successors.items():
            for target in targets:
                predecessors.setdefault(target, set()).add(source)
        finishing = _reachable(END, predecessors)
        for node in self.nodes:
            if node not in finishing:
                raise GraphValidationError(f"node {node!r} has no path to END: every way out of it loops "
                                           "back without an exit; add a route to END")
        return exits


def _destinations(out: Any) -> list[str]:
    return list(out[1].values()) if isinstance(out, tuple) else [out]


def _reachable(origin: str, links: Mapping[str, Iterable[str]]) -> set[str]:
    seen, queue = {origin}, deque([origin])
    while queue:
        for nxt in links.get(queue.popleft(), ()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen
