"""Where a run goes next: the names START and END, ``Send``, and the wiring a compiled graph follows.

A node's ways out are of three kinds, as in LangGraph: fixed edges (always taken), conditional
edges (a router picks one or more declared routes, or returns ``Send`` packets), and joins (a node
that waits until every one of several nodes has finished). ``Wiring`` is the checked declaration
the builder hands to the runner, so the runner never needs the builder.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

START = "__start__"  #: where every run enters; LangGraph's spelling, so route maps port as-is
END = "__end__"  #: where a branch of the run stops


def label(name: str) -> str:
    """How a node name reads in a message: START and END by their names, the rest quoted."""
    return {START: "START", END: "END"}.get(name, repr(name))


@dataclass(frozen=True)
class Send:
    """A packet for map-reduce: run ``node`` in the next superstep on ``arg`` instead of the state.

    A router returns a list of these to fan one node out over many inputs (one city each, say);
    all of them run in the same superstep and their updates merge through the reducers.
    """

    node: str
    arg: Any


@dataclass(frozen=True)
class Branch:
    """A conditional edge: ``router(state)`` returns a label, a list of labels, or ``Send`` packets.

    ``path_map`` None is an open router (no map, no ``Literal`` return type): as on LangGraph it
    returns node names and may lead to any node or END, so the checks count it as leading everywhere.
    """

    router: Callable[[Any], Any]
    path_map: Mapping[Any, str] | None
    name: str | None = None  # the router's function name (None for a lambda), as LangGraph names it

    def destinations(self, nodes: Iterable[str]) -> list[str]:
        if self.path_map is None:
            return [*nodes, END]
        return list(dict.fromkeys(self.path_map.values()))


@dataclass(frozen=True)
class Wiring:
    """Every way out of every node, checked: what the runner follows and the drawings show."""

    nodes: Mapping[str, Callable[[Any], Any]]
    edges: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    branches: Mapping[str, tuple[Branch, ...]] = field(default_factory=dict)
    joins: tuple[tuple[tuple[str, ...], str], ...] = ()

    def successors(self, source: str) -> list[str]:
        """Every node or END that ``source`` can lead to, in declaration order."""
        found = list(self.edges.get(source, ()))
        for branch in self.branches.get(source, ()):
            found += branch.destinations(self.nodes)
        found += [target for sources, target in self.joins if source in sources]
        return list(dict.fromkeys(found))


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
