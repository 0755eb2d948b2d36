"""Measurement 2: the graph engine's cost per node execution, ours against LangGraph's, as runs grow.

One node in a loop: ``step`` adds one to ``count`` and appends the old count to ``events`` (an
``Annotated[list, operator.add]`` field, the shape of every message history), and a router sends it
round again until ``count`` reaches n. n node executions per run, at each size.

Growth is t(2n)/t(n) for the whole run: 2.0 means each node costs the same however long the run is;
4.0 means the cost of a node grows with the run (quadratic). Before timing, each engine is asked
whether a node that mutates the state it was handed changes the run (our engine promises it does
not; the answer for LangGraph is reported as found, not assumed).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Annotated, Any, TypedDict

from .report import LANGGRAPH_MISSING, Section, Target, times, us
from .timing import Plan, compare, ratio

SIZES = (500, 1000, 2000)


class Counter(TypedDict):
    count: int
    limit: int
    events: Annotated[list, operator.add]


def step(state: dict) -> dict:
    return {"count": state["count"] + 1, "events": [state["count"]]}


def meddling_step(state: dict) -> dict:
    """The same node, but it also scribbles on what it was handed (an isolation probe)."""
    count = state["count"]
    state["events"].append("scribbled")
    state["count"] = -1
    return {"count": count + 1, "events": [count]}


def route(state: dict) -> str:
    return "again" if state["count"] < state["limit"] else "done"


def _declare(builder: Any, node: Callable[[dict], dict], start: str, end: str) -> Any:
    builder.add_node("step", node)
    builder.add_edge(start, "step")
    builder.add_conditional_edges("step", route, {"again": "step", "done": end})
    return builder


def ours(node: Callable[[dict], dict] = step, max_steps: int = max(SIZES)) -> Callable[[int], dict]:
    from mingraph_lite.graph import END, START, StateGraph

    graph = _declare(StateGraph(Counter), node, START, END).compile(max_steps=max_steps)
    return lambda n: graph.invoke({"count": 0, "limit": n, "events": []})


def langgraphs(node: Callable[[dict], dict] = step, max_steps: int = max(SIZES)) -> Callable[[int], dict]:
    from langgraph.graph import END, START, StateGraph

    graph = _declare(StateGraph(Counter), node, START, END).compile()
    # One node per superstep here; LangGraph's recursion_limit is our max_steps + 1 (the input's step).
    config = {"recursion_limit": max_steps + 1}
    return lambda n: graph.invoke({"count": 0, "limit": n, "events": []}, config=config)


def _checked(run: Callable[[int], dict], n: int, engine: str) -> Callable[[], None]:
    expected = list(range(n))

    def once() -> None:
        final = run(n)
        if final["count"] != n or final["events"] != expected:
            raise AssertionError(f"{engine} at n={n} ended with count={final['count']}: not doing the work")
    return once


def isolated(make: Callable[..., Callable[[int], dict]]) -> bool:
    """True when a node scribbling on its input leaves the run exactly as the clean node's."""
    final = make(meddling_step, max_steps=10)(5)
    return final["events"] == [0, 1, 2, 3, 4] and final["count"] == 5


def _engines(include_langgraph: bool, notes: list[str]) -> dict[str, Callable[..., Callable[[int], dict]]]:
    engines: dict[str, Callable[..., Callable[[int], dict]]] = {"ours": ours}
    if include_langgraph:
        try:
            import langgraph.graph  # noqa: F401
            engines["LangGraph"] = langgraphs
        except ImportError:
            notes.append(LANGGRAPH_MISSING)
    return engines


def _table(sizes: tuple[int, ...], with_langgraph: bool, per_node: dict, cpu: dict) -> tuple[list, list]:
    rows = []
    for n in sizes:
        row = [f"{n:,}", us(per_node[("ours", n)]), us(cpu[("ours", n)])]
        if with_langgraph:
            lg = per_node[("LangGraph", n)]
            row += [us(lg), times(ratio(lg, per_node[("ours", n)])),
                    times(ratio(cpu[("LangGraph", n)], cpu[("ours", n)]))]
        rows.append(tuple(row))
    columns = ["node executions", "ours, us per node", "ours, CPU us per node"]
    if with_langgraph:
        columns += ["LangGraph, us per node", "LangGraph / ours", "LangGraph / ours, CPU"]
    return columns, rows


def _targets(sizes: tuple[int, ...], with_langgraph: bool, per_node: dict, growth: dict, cpu_growth: dict,
             isolation: dict) -> list[Target]:
    lo, hi = sizes[-2], sizes[-1]
    if with_langgraph:
        worst = min(ratio(per_node[("LangGraph", n)], per_node[("ours", n)]) for n in sizes)
        speed = Target("graph engine at least 10x faster per node than LangGraph at every size",
                       f"smallest LangGraph/ours = {times(worst)}", worst >= 10)
    else:
        speed = Target("graph engine at least 10x faster per node than LangGraph", "LangGraph absent", None)
    return [speed, Target(f"growth t({hi:,})/t({lo:,}) at most 2.3 with isolated nodes",
                          f"ours {growth['ours']:.2f} wall, {cpu_growth['ours']:.2f} CPU; "
                          f"isolated: {'yes' if isolation['ours'] else 'NO'}",
                          growth["ours"] <= 2.3 and isolation["ours"])]


def run(plan: Plan | None = None, *, sizes: tuple[int, ...] = SIZES,
        include_langgraph: bool = True) -> Section:
    notes: list[str] = []
    engines = _engines(include_langgraph, notes)
    isolation = {name: isolated(make) for name, make in engines.items()}
    variants = {}
    for name, make in engines.items():
        runner = make(max_steps=max(sizes))
        for n in sizes:
            variants[(name, n)] = _checked(runner, n, name)
    timings = compare(variants, plan or Plan())
    per_node = {k: t.median_ns / k[1] for k, t in timings.items()}
    cpu = {k: t.cpu_median_ns / k[1] for k, t in timings.items()}
    columns, rows = _table(sizes, "LangGraph" in engines, per_node, cpu)
    lo, hi = sizes[-2], sizes[-1]
    growth = {name: ratio(timings[(name, hi)].median_ns, timings[(name, lo)].median_ns) for name in engines}
    cpu_growth = {name: ratio(timings[(name, hi)].cpu_median_ns, timings[(name, lo)].cpu_median_ns)
                  for name in engines}
    notes.insert(0, "growth t({:,})/t({:,}) of the whole run, wall (CPU): {}".format(
        hi, lo, ", ".join(f"{name} {g:.2f} ({cpu_growth[name]:.2f})" for name, g in growth.items())))
    notes.insert(1, "isolation (a node that mutates what it was handed changes nothing): " +
                 ", ".join(f"{name} {'yes' if ok else 'NO'}" for name, ok in isolation.items()))
    targets = _targets(sizes, "LangGraph" in engines, per_node, growth, cpu_growth, isolation)
    return Section("graph", "2. Graph engine per node execution", tuple(columns), tuple(rows), tuple(targets),
                   tuple(notes), {"per_node_ns": {f"{k[0]}@{k[1]}": v for k, v in per_node.items()},
                                  "growth": growth, "cpu_growth": cpu_growth, "isolated": isolation})
