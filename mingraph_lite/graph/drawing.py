"""Drawing a graph as text, offline: Mermaid for notebooks and docs, plain ASCII for a terminal."""

from __future__ import annotations

from typing import Any

from .routes import END, START, Wiring, reachable


def _order(wiring: Wiring) -> list[str]:
    """START, then nodes in the order a walk from START first meets them, then END."""
    met = reachable([START], {name: wiring.successors(name) for name in (START, *wiring.nodes)})
    return [n for n in met if n != END] + [n for n in wiring.nodes if n not in met] + [END]


def mermaid(wiring: Wiring, visited: frozenset[str] = frozenset()) -> str:
    """``flowchart TD`` text; dashed arrows are routes (labelled), thick ones feed a join."""
    ids = {START: "__start__", END: "__end__"}
    lines = ["flowchart TD", "    __start__([START])", "    __end__([END])"]
    for i, node in enumerate(wiring.nodes):
        ids[node] = f"n{i}"
        lines.append(f'    n{i}["{node}"]')
    for source in _order(wiring):
        for kind, target, text in wiring.ways_out(source):
            arrow = {"edge": "-->", "route": f"-. {'END' if text == END else text} .->", "join": f"== {text} ==>"}[kind]
            lines.append(f"    {ids[source]} {arrow} {ids[target]}")
    marked = [ids[n] for n in wiring.nodes if n in visited]
    if marked:
        lines.append("    classDef visited fill:#ffe08a,stroke:#b8860b,stroke-width:2px")
        lines.append(f"    class {','.join(marked)} visited")
    return "\n".join(lines)


def ascii(wiring: Wiring, visited: frozenset[str] = frozenset()) -> str:
    """One block per node: its name (``*`` if visited), then one line per way out."""
    names: dict[str, Any] = {START: "START", END: "END"}
    lines = []
    for source in _order(wiring):
        mark = " *" if source in visited else ""
        arrows = wiring.ways_out(source)
        fan = " (fan-out: these run side by side)" if sum(kind == "edge" for kind, _, _ in arrows) > 1 else ""
        lines.append(f"[{names.get(source, source)}]{mark}{fan}")
        for kind, target, text in arrows:
            arrow = {"edge": "----->", "route": f"--{names.get(text, text)}-->", "join": f"=={text}==>"}[kind]
            lines.append(f"    {arrow} {names.get(target, target)}")
    if visited:
        lines.append("(* = visited by the last run)")
    return "\n".join(lines)
