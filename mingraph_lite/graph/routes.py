"""The wiring: every way out of every node, checked before a run, and followed as LangGraph does."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import GraphValidationError

START = "__start__"  #: LangGraph's spelling, so route maps port as-is
END = "__end__"
Arrow = tuple[str, str, str | None]  # (kind: "edge" | "route" | "join", target, label)


def label(name: str) -> str:
    """How a node name reads in a message: START and END by their names, the rest quoted."""
    return {START: "START", END: "END"}.get(name, repr(name))


@dataclass(frozen=True)
class Send:
    """Map-reduce: run ``node`` in the next superstep on ``arg`` instead of the state (a router returns these)."""

    node: str
    arg: Any


@dataclass(frozen=True)
class Branch:
    """A router and its routes; ``path_map`` None: it may name any node or END, as on LangGraph."""

    router: Callable[[Any], Any]
    path_map: Mapping[Any, str] | None
    name: str | None = None  # the router's function name (None for a lambda), as LangGraph names it


@dataclass(frozen=True)
class Wiring:
    """Every way out of every node: what the runner follows, the checks check and the drawings show."""

    nodes: Mapping[str, Callable[[Any], Any]]
    edges: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    branches: Mapping[str, tuple[Branch, ...]] = field(default_factory=dict)
    joins: tuple[tuple[tuple[str, ...], str], ...] = ()

    def ways_out(self, source: str) -> list[Arrow]:
        arrows: list[Arrow] = [("edge", target, None) for target in self.edges.get(source, ())]
        for branch in self.branches.get(source, ()):
            if branch.path_map is None:  # an open router may lead anywhere
                arrows += [("route", target, "?") for target in [*self.nodes, END]]
            else:
                arrows += [("route", target, str(key)) for key, target in branch.path_map.items()]
        return arrows + [("join", target, "join " + " + ".join(sources))
                         for sources, target in self.joins if source in sources]

    def successors(self, source: str) -> list[str]:
        """Every node or END that ``source`` can lead to, in declaration order."""
        return list(dict.fromkeys(target for _, target, _ in self.ways_out(source)))

    def check(self) -> None:
        """Raise GraphValidationError naming the first problem: unknown nodes, no entry, unreachable, no exit."""
        if not self.nodes:
            raise GraphValidationError("the graph has no nodes: add_node(name, fn) first")
        if any(START in sources for sources, _ in self.joins):
            raise GraphValidationError("a join cannot wait for START; START is only an entry")
        for source in dict.fromkeys([*self.edges, *self.branches, *(s for ss, _ in self.joins for s in ss)]):
            self._check_source(source)
            for kind, target, text in self.ways_out(source):
                self._check_target(source, {"route": f"route {text!r}"}.get(kind, f"a {kind}"), target)
        if not self.successors(START):
            raise GraphValidationError("no entry: nothing leaves START; add_edge(START, '<first node>')")
        successors = {name: self.successors(name) for name in (START, *self.nodes)}
        reached = reachable([START], successors)
        for node in self.nodes:
            if node not in reached:
                raise GraphValidationError(f"node {node!r} is unreachable from START; connect it or remove it "
                                           "(LangGraph would accept it and never run it)")
        predecessors: dict[str, set[str]] = {}
        for source, targets in successors.items():
            for target in targets:
                predecessors.setdefault(target, set()).add(source)
        finishing = reachable([END, *(name for name in self.nodes if not successors[name])], predecessors)
        for node in self.nodes:
            if node not in finishing:  # a node with no way out finishes: the run ends there
                raise GraphValidationError(f"node {node!r} has no path to END: every way out of it loops back "
                                           "without an exit; add a route to END")

    def _check_source(self, source: str) -> None:
        if source == END:
            raise GraphValidationError("an edge leaves END, but END is where a run stops; remove it")
        if source != START and source not in self.nodes:
            raise GraphValidationError(f"Found edge starting at unknown node {source!r}; known nodes: "
                                       f"{', '.join(map(repr, self.nodes))}")

    def _check_target(self, source: str, how: str, target: str) -> None:
        if target == START:
            raise GraphValidationError(f"{how} from {label(source)} goes back to START; START is only an "
                                       "entry, point it at a node instead")
        if target != END and target not in self.nodes:
            raise GraphValidationError(f"Found edge ending at unknown node {target!r}: {how} from "
                                       f"{label(source)} goes there; known nodes: "
                                       f"{', '.join(map(repr, self.nodes))}, or END")


def reachable(origins: list[str], links: Mapping[str, Iterable[str]]) -> dict[str, None]:
    """Every name reachable from ``origins`` through ``links``, in the order a breadth-first walk meets them."""
    seen, queue = dict.fromkeys(origins), deque(origins)
    while queue:
        for nxt in links.get(queue.popleft(), ()):
            if nxt not in seen:
                seen[nxt] = None
                queue.append(nxt)
    return seen


def resolve(branch: Branch, result: Any, where: str, nodes: Iterable[str]) -> list[str | Send]:
    """Turn what a router returned into destinations; an undeclared label is a ValueError."""
    picks = list(result) if isinstance(result, (list, tuple)) else [result]
    path_map = branch.path_map if branch.path_map is not None else {n: n for n in [*nodes, END]}
    allowed = set(path_map.values())
    chosen: list[str | Send] = []
    for pick in picks:
        if isinstance(pick, Send):
            if pick.node not in allowed or pick.node == END:
                raise ValueError(f"the router {where} sent a packet to {pick.node!r}, which is not one of "
                                 f"its routes: {sorted(map(str, allowed - {END}))}")
            chosen.append(pick)
            continue
        try:
            chosen.append(path_map[pick])
        except (KeyError, TypeError):
            what = "declared route" if branch.path_map is not None else "node (nor END)"
            raise ValueError(f"the router {where} returned {pick!r}, which is not a {what}; "
                             f"its routes: {', '.join(map(repr, path_map))}") from None
    return chosen
