"""Compile-time checks: everything a declaration can get wrong, found before anything runs.

Each failure is a ``GraphValidationError`` naming the offender: an edge from or to a node that does
not exist, no entry, a node that cannot be reached from START (LangGraph accepts it and never runs
it; here it is almost always a forgotten edge), and a node from which no path ever finishes.
A node with no way out is fine: as on LangGraph, the run simply ends there.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping

from ..errors import GraphValidationError
from .routes import END, START, Wiring, label


def check_wiring(wiring: Wiring) -> None:
    """Raise GraphValidationError for the first problem found; return None when the graph can run."""
    if not wiring.nodes:
        raise GraphValidationError("the graph has no nodes: add_node(name, fn) first")
    for source, targets in _every_way_out(wiring):
        _check_source(source, wiring)
        for how, target in targets:
            _check_target(source, how, target, wiring)
    if not wiring.successors(START):
        raise GraphValidationError("no entry: nothing leaves START; add_edge(START, '<first node>')")
    successors = {name: wiring.successors(name) for name in (START, *wiring.nodes)}
    reached = _reachable([START], successors)
    for node in wiring.nodes:
        if node not in reached:
            raise GraphValidationError(f"node {node!r} is unreachable from START; connect it or remove it "
                                       "(LangGraph would accept it and never run it)")
    _check_finishing(wiring, successors)


def _every_way_out(wiring: Wiring) -> Iterable[tuple[str, list[tuple[str, str]]]]:
    """(source, [(how it leads there, target), ...]) for every edge, route and join."""
    for source, targets in wiring.edges.items():
        yield source, [("an edge", target) for target in targets]
    for source, branches in wiring.branches.items():
        for branch in branches:
            routes = (branch.path_map or {}).items()
            yield source, [(f"route {key!r}", target) for key, target in routes]
    for sources, target in wiring.joins:
        if START in sources:
            raise GraphValidationError("a join cannot wait for START; START is only an entry")
        for source in sources:
            yield source, [("a join", target)]


def _check_source(source: str, wiring: Wiring) -> None:
    if source == END:
        raise GraphValidationError("an edge leaves END, but END is where a run stops; remove it")
    if source != START and source not in wiring.nodes:
        raise GraphValidationError(f"Found edge starting at unknown node {source!r}; known nodes: "
                                   f"{', '.join(map(repr, wiring.nodes))}")


def _check_target(source: str, how: str, target: str, wiring: Wiring) -> None:
    if target == START:
        raise GraphValidationError(f"{how} from {label(source)} goes back to START; START is only an "
                                   "entry, point it at a node instead")
    if target != END and target not in wiring.nodes:
        raise GraphValidationError(f"Found edge ending at unknown node {target!r}: {how} from {label(source)} "
                                   f"goes there; known nodes: {', '.join(map(repr, wiring.nodes))}, or END")


def _check_finishing(wiring: Wiring, successors: Mapping[str, list[str]]) -> None:
    """Every node must be able to finish: reach END, or a node with no way out (the run ends there)."""
    predecessors: dict[str, set[str]] = {}
    for source, targets in successors.items():
        for target in targets:
            predecessors.setdefault(target, set()).add(source)
    sinks = [name for name in wiring.nodes if not successors[name]]
    finishing = _reachable([END, *sinks], predecessors)
    for node in wiring.nodes:
        if node not in finishing:
            raise GraphValidationError(f"node {node!r} has no path to END: every way out of it loops back "
                                       "without an exit; add a route to END")


def _reachable(origins: list[str], links: Mapping[str, Iterable[str]]) -> set[str]:
    seen, queue = set(origins), deque(origins)
    while queue:
        for nxt in links.get(queue.popleft(), ()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen
