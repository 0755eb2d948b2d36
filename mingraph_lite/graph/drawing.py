"""Drawing a graph as text: Mermaid for notebooks and docs, plain ASCII for a terminal.

Both are made here from the declaration, with no network and no extra package. A drawing can mark
the nodes a run visited, which turns "which way did it go?" into something you can see.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .builder import END, START


def _ways_out(exits: Mapping[str, Any], source: str) -> list[tuple[str | None, str]]:
    way = exits.get(source)
    if way is None:
        return []
    if isinstance(way, str):
        return [(None, way)]
    return [(str(label), target) for label, target in way[1].items()]


def _order(nodes: Iterable[str], exits: Mapping[str, Any]) -> list[str]:
    """START, then nodes in the order a walk from START first meets them, then END."""
    seen, order, queue = {START}, [START], [START]
    while queue:
        for _, target in _ways_out(exits, queue.pop(0)):
            if target not in seen:
                seen.add(target)
                order.append(target)
                queue.append(target)
    order += [n for n in nodes if n not in seen]
    if END in order:
        order.remove(END)
    return order + [END]


def mermaid(nodes: Iterable[str], exits: Mapping[str, Any], visited: frozenset[str] = frozenset()) -> str:
    """``flowchart TD`` text; dashed arrows are routes, labelled with their route label."""
    ids = {START: "__start__", END: "__end__"}
    lines = ["flowchart TD", "    __start__([START])", "    __end__([END])"]
    for i, node in enumerate(nodes):
        ids[node] = f"n{i}"
        lines.append(f'    n{i}["{node}"]')
    for source in _order(nodes, exits):
        for label, target in _ways_out(exits, source):
            arrow = "-->" if label is None else f"-. {label} .->"
            lines.append(f"    {ids[source]} {arrow} {ids[target]}")
    marked = [ids[n] for n in nodes if n in visited]
    if marked:
        lines.append("    classDef visited fill:#ffe08a,stroke:#b8860b,stroke-width:2px")
        lines.append(f"    class {','.join(marked)} visited")
    return "\n".join(lines)


def ascii(nodes: Iterable[str], exits: Mapping[str, Any], visited: frozenset[str] = frozenset()) -> str:
    """One block per node: its name (``*`` if visited), then one line per way out."""
    names = {START: "START", END: "END"}
    lines = []
    for source in _order(nodes, exits):
        mark = " *" if source in visited else ""
        lines.append(f"[{names.get(source, source)}]{mark}")
        for label, target in _ways_out(exits, source):
            arrow = "----->" if label is None else f"--{label}-->"
            lines.append(f"    {arrow} {names.get(target, target)}")
    if visited:
        lines.append("(* = visited by the last run)")
    return "\n".join(lines)
