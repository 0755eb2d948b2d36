"""Random small graphs, each built once and run on this engine and on LangGraph, compared aspect by aspect.

A seed makes a case: a TypedDict with plain and reducer fields in a random order, nodes that write
some of them, fixed edges, fan-out, joins, routers with path maps (some returning several labels,
some returning ``Send`` packets), an input and a bound (``max_steps=N`` here, ``recursion_limit=N+1``
there); about one case in seven adds one of the ``QUIRKS`` of declaration. Every node adds 1 to
``hops`` and the routers take their exit once ``hops`` passes a cap, so most runs finish and some
meet the bound, a node's planted failure or two writes to a plain field.

Compared: what compile refuses, the final state of ``invoke`` (key order included) or the error
family, the ``updates`` stream per superstep (unordered within a superstep: LangGraph streams them as
its threads finish) and the ``values`` stream. Where ``docs/graph.md`` documents a difference, the
comparison leaves it out (``DOCUMENTED``): at the bound LangGraph runs superstep N+1, streams it and
raises its error if it fails, where this engine stops before it.

    python -m tests.graph.differential --seeds 300      # agreement per aspect over seeds 0..299
"""

from __future__ import annotations

import argparse
import operator
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Annotated, Any, TypedDict

from mingraph_lite.errors import GraphValidationError

ASPECTS = ("compile", "final", "updates", "values")
#: Our engine refuses these on purpose (docs/graph.md's table); such a case is not compared.
DOCUMENTED = ("unreachable from START", "has no path to END")
QUIRKS = ("builtin reducer", "colon in a name", "two routers named alike", "empty path map")
KINDS = {"plain": str, "log": Annotated[list, operator.add], "total": Annotated[int, operator.add]}


class Planted(Exception):
    """A node's own failure, planted by the generator."""


@dataclass
class Case:
    seed: int
    fields: dict[str, Any]                      # name -> annotation, in declaration order
    writes: dict[str, tuple[str, ...]]          # node -> fields it writes (besides hops)
    fail_at: dict[str, int]                     # node -> the hops value at which it raises
    edges: list[tuple[str, str]] = field(default_factory=list)
    joins: list[tuple[tuple[str, ...], str]] = field(default_factory=list)
    routers: list[tuple[str, dict[str, str], int, int]] = field(default_factory=list)  # source, map, salt, cap
    senders: list[tuple[str, str]] = field(default_factory=list)                     # source, worker
    given: dict[str, Any] = field(default_factory=dict)
    max_steps: int = 5
    quirk: str | None = None  # a declaration LangGraph refuses or accepts where a small engine might not

    def state_type(self) -> type:
        extra = {"peak": Annotated[int, max]} if self.quirk == "builtin reducer" else {}
        return TypedDict("State", {**self.fields, **extra})


def make_case(seed: int) -> Case:
    rnd = random.Random(seed)
    names = ["hops"] + [f"{kind}{i}" for i, kind in enumerate(rnd.choices(["plain", "log", "total"], k=3))]
    rnd.shuffle(names)
    fields = {name: Annotated[int, operator.add] if name == "hops" else KINDS[name.rstrip("0123456789")]
              for name in names}
    nodes = [f"n{i}" for i in range(rnd.randint(2, 6))]
    others = [name for name in names if name != "hops"]
    case = Case(seed, fields, {n: tuple(rnd.sample(others, rnd.randint(0, 2))) for n in nodes},
                {n: rnd.randint(1, 6) for n in nodes if rnd.random() < 0.1}, max_steps=rnd.randint(2, 8))
    case.edges.append(("__start__", "n0"))
    if rnd.random() < 0.3:
        case.edges.append(("__start__", rnd.choice(nodes)))
    for i, node in enumerate(nodes[1:], start=1):
        case.edges.append((rnd.choice(nodes[:i]), node))  # a tree of fixed edges: every node reachable
    for i, node in enumerate(nodes):
        roll = rnd.random()
        if roll < 0.25:
            case.edges.append((node, "__end__"))
        elif roll < 0.55:
            targets = rnd.sample(nodes, rnd.randint(1, min(3, len(nodes))))
            path_map = {f"to_{t}": t for t in targets} | {"stop": "__end__"}
            case.routers.append((node, path_map, rnd.randint(0, 5), rnd.randint(2, 12)))
        elif roll < 0.7:
            case.senders.append((node, rnd.choice(nodes)))
        if i >= 2 and rnd.random() < 0.2:
            case.joins.append((tuple(rnd.sample(nodes[:i], 2)), node))
    case.quirk = rnd.choice(QUIRKS) if rnd.random() < 0.15 else None
    case.given = {name: _value(fields[name], "in", rnd.randint(0, 3)) for name in names if rnd.random() < 0.5}
    return case


def _value(annotation: Any, who: str, hops: int) -> Any:
    if annotation is str:
        return f"{who}@{hops}"
    return [f"{who}@{hops}"] if annotation == KINDS["log"] else 1


def node_fn(case: Case, name: str):
    def node(state: dict) -> dict | None:
        hops = state.get("hops", 0)
        if case.fail_at.get(name) == hops:
            raise Planted(f"{name} at hops={hops}")
        if hops % 5 == 4 and not case.writes[name]:
            return None  # sometimes a node changes nothing
        update = {"hops": 1}
        update.update({f: _value(case.fields[f], name, hops) for f in case.writes[name]})
        return update
    node.__name__ = name
    return node


def router_fn(path_map: dict[str, str], salt: int, cap: int):
    labels = sorted(label for label in path_map if label != "stop")

    def route(state: dict) -> str | list[str]:
        hops = state.get("hops", 0)
        if hops >= cap:
            return "stop"
        first = labels[(hops + salt) % len(labels)]
        return [first, labels[(hops + salt + 1) % len(labels)]] if (hops + salt) % 4 == 3 else first
    return route


def sender_fn(worker: str, send: type):
    def fan_out(state: dict) -> list:
        hops = state.get("hops", 0)
        return [send(worker, {"hops": hops + i}) for i in range(hops % 3)] if hops < 6 else []
    return fan_out


def declare(case: Case, builder: Any, send: type) -> Any:
    for name in case.writes:
        builder.add_node(name, node_fn(case, name))
    for source, target in case.edges:
        builder.add_edge(source, target)
    for sources, target in case.joins:
        builder.add_edge(list(sources), target)
    for source, path_map, salt, cap in case.routers:
        builder.add_conditional_edges(source, router_fn(path_map, salt, cap), path_map)
    for source, worker in case.senders:
        builder.add_conditional_edges(source, sender_fn(worker, send), [worker])
    if case.quirk == "colon in a name":
        builder.add_node("odd:name", node_fn(case, "n0"))
        builder.add_edge("n0", "odd:name")
    elif case.quirk == "two routers named alike":
        for salt in (0, 1):
            path_map = {"to_n0": "n0", "stop": "__end__"}
            builder.add_conditional_edges("n0", router_fn(path_map, salt, 3), path_map)
    elif case.quirk == "empty path map":  # no path map: the router names the node itself
        builder.add_conditional_edges("n0", lambda state: "__end__" if state.get("hops", 0) > 2 else "n0", {})
    return builder


def family(exc: BaseException | None) -> str:
    """What kind of ending a run had, in words both engines share."""
    if exc is None:
        return "finished"
    if type(exc).__name__ in ("GraphStepLimit", "GraphRecursionError"):
        return "step limit"
    conflict = re.search(r"At key '(\w+)'", str(exc))
    return f"conflict at {conflict.group(1)}" if conflict else type(exc).__name__


class _Supersteps:
    """Our engine's listener: which superstep each streamed update belongs to."""

    def __init__(self) -> None:
        self.current = 0

    def on_node_end(self, node: str, update: Any, superstep: int | None = None) -> None:
        self.current = superstep


@dataclass
class Outcome:
    refused: str | None = None
    final: Any = None
    updates: list = field(default_factory=list)  # per superstep: sorted (node, update) reprs
    values: list = field(default_factory=list)   # (superstep, items)


def _ordered(state: Any) -> Any:
    return None if state is None else list(state.items())


def _collect(stream, superstep) -> tuple[list, list]:
    """The updates per superstep (sorted within one) and the values, up to the end or the error."""
    updates: dict[int, list] = {}
    values: list = []
    try:
        for mode, payload in stream:
            if mode == "updates":
                for node, update in payload.items():
                    updates.setdefault(superstep(), []).append(repr((node, _ordered(update))))
            else:
                values.append((superstep(), _ordered(payload)))
    except Exception:  # the error's family is compared through invoke
        pass
    return [sorted(u) for _, u in sorted(updates.items())], values


def run_ours(case: Case) -> Outcome:
    from mingraph_lite.graph import Send, StateGraph

    try:
        graph = declare(case, StateGraph(case.state_type()), Send).compile(max_steps=case.max_steps)
    except Exception as exc:
        return Outcome(refused=str(exc) if isinstance(exc, GraphValidationError) else type(exc).__name__)
    out = Outcome()
    try:
        out.final = ("finished", _ordered(graph.invoke(dict(case.given))))
    except Exception as exc:
        out.final = (family(exc), None)
    heard = _Supersteps()
    stream = graph.stream(dict(case.given), stream_mode=["updates", "values"], observers=[heard])
    out.updates, out.values = _collect(stream, lambda: heard.current)
    return out


def run_langgraph(case: Case) -> Outcome:
    from langgraph.graph import StateGraph
    from langgraph.types import Send

    try:
        graph = declare(case, StateGraph(case.state_type()), Send).compile()
    except Exception as exc:
        return Outcome(refused=type(exc).__name__)
    config = {"recursion_limit": case.max_steps + 1}
    out = Outcome()
    try:
        out.final = ("finished", _ordered(graph.invoke(dict(case.given), config=config)))
    except Exception as exc:
        out.final = (family(exc), None)
    step = [0]

    def tagged():
        for mode, payload in graph.stream(dict(case.given), config=config,
                                          stream_mode=["updates", "values", "debug"]):
            if mode == "debug":
                step[0] = payload["step"] if payload["type"] == "task" else step[0]
            else:
                yield mode, payload
    out.updates, out.values = _collect(tagged(), lambda: step[0])
    if step[0] > case.max_steps:  # DOCUMENTED: LangGraph runs superstep N+1 before it raises
        out.final = ("step limit", None)  # ... and raises that superstep's own error, if it fails
        out.updates = out.updates[:case.max_steps]
        out.values = [(s, v) for s, v in out.values if s <= case.max_steps]
    return out


def compare(seed: int) -> dict[str, bool] | None:
    """{aspect: agrees} for one seed, or None when our engine refuses it on purpose (DOCUMENTED)."""
    case = make_case(seed)
    ours, theirs = run_ours(case), run_langgraph(case)
    if ours.refused and any(reason in ours.refused for reason in DOCUMENTED):
        return None
    if ours.refused or theirs.refused:
        return {"compile": bool(ours.refused) == bool(theirs.refused)}
    return {"compile": True, "final": ours.final == theirs.final, "updates": ours.updates == theirs.updates,
            "values": ours.values == theirs.values}


def agreement(seeds: range) -> tuple[Counter, Counter, list[tuple[int, str]], int]:
    agreed, compared, differing, skipped = Counter(), Counter(), [], 0
    for seed in seeds:
        result = compare(seed)
        if result is None:
            skipped += 1
            continue
        for aspect, same in result.items():
            compared[aspect] += 1
            agreed[aspect] += same
            if not same:
                differing.append((seed, aspect))
    return agreed, compared, differing, skipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.graph.differential", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=300, help="compare seeds 0..N-1")
    parser.add_argument("--show", type=int, default=8, help="list this many differing (seed, aspect) pairs")
    args = parser.parse_args(argv)
    agreed, compared, differing, skipped = agreement(range(args.seeds))
    print(f"{args.seeds} seeds, {skipped} refused by this engine on purpose (not compared)")
    for aspect in ASPECTS:
        print(f"  {aspect:8} {agreed[aspect]:4} / {compared[aspect]:4} agree")
    for seed, aspect in differing[:args.show]:
        print(f"  differs: seed {seed}, {aspect}")
    return 0 if not differing else 1


if __name__ == "__main__":
    raise SystemExit(main())
