"""Notebook 08's parallel brief as a plain dict, for the superstep loop the notebook writes, and a first-try branch.

The notebook teaches the loop and the join; this wiring (which node goes where) is the brief of notebook 07
with its one ``collect`` node split into one branch per city, so it lives here, out of the reader's way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_type_hints

from mingraph_lite.course.weather import WEATHER
from mingraph_lite.graph import END, START


CALLS: list[str] = []  # every city collect_one made a node for or collected: 08.1's check refuses an answer that uses it


def reducers_of(state_type: type) -> dict[str, Callable]:
    """{field: reducer} for every Annotated field of a TypedDict (the reducer is the annotation's last item), as in 07."""
    hints = get_type_hints(state_type, include_extras=True)
    return {field: hint.__metadata__[-1] for field, hint in hints.items() if hasattr(hint, "__metadata__")}


def collect_one(city: str) -> Callable[[dict], dict]:
    """A first try at one branch: its slip repeats the worksheet's readings, then adds its city's."""
    CALLS.append(city)

    def collect(state: dict) -> dict:
        CALLS.append(city)
        return {"readings": [*state["readings"], {"city": city, **WEATHER[city]}], "events": [f"collected {city}"]}

    return collect


def brief_in_parallel(nodes: Any, cities: list[str], collect_node: Callable[[str], Any], reducers: dict,
                      max_steps: int = 10) -> dict[str, Any]:
    """The brief as a dict: one ``collect_<city>`` branch per city from START, joined before ``write_draft``.

    Edges are lists (a fan-out); ``joins`` names the nodes a join target waits for.
    """
    branches = [f"collect_{city}" for city in cities]
    steps = ("write_draft", "check_draft", "revise_draft", "publish", "hold")
    return {
        "nodes": {**{b: collect_node(c) for b, c in zip(branches, cities, strict=True)},
                  **{n: getattr(nodes, n) for n in steps}},
        "edges": {START: branches, **{b: ["write_draft"] for b in branches}, "write_draft": ["check_draft"],
                  "revise_draft": ["check_draft"], "publish": [END], "hold": [END]},
        "routers": {"check_draft": (nodes.route_after_check,
                                    {"accept": "publish", "revise": "revise_draft", "hold": "hold"})},
        "joins": {"write_draft": set(branches)},
        "reducers": reducers,
        "max_steps": max_steps,
    }


def declare_parallel(builder: Any, nodes: Any, cities: list[str], collect_node: Callable[[str], Any]) -> Any:
    """The parallel brief on a builder (ours or LangGraph's): one branch per city from START, joined, then 07's path."""
    branches = [f"collect_{city}" for city in cities]
    for city, branch in zip(cities, branches, strict=True):
        builder.add_node(branch, collect_node(city))
        builder.add_edge(START, branch)  # a fan-out: one edge per branch
    for name in ("write_draft", "check_draft", "revise_draft", "publish", "hold"):
        builder.add_node(name, getattr(nodes, name))
    builder.add_edge(branches, "write_draft")  # the join: one edge from the list, waits for every branch
    builder.add_edge("write_draft", "check_draft")
    builder.add_conditional_edges("check_draft", nodes.route_after_check,
                                  {"accept": "publish", "revise": "revise_draft", "hold": "hold"})
    builder.add_edge("revise_draft", "check_draft")
    builder.add_edge("publish", END)
    builder.add_edge("hold", END)
    return builder  # uncompiled: each caller compiles it with its own bound
