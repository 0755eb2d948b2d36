"""Notebook 06's exercises: a router, the run loop, a node for a parallel branch, the brief on LangGraph.

Every checker runs the learner's code on inputs the notebook never shows (other cities, other
allowances, small graphs of its own), so copying an output from above cannot pass.
"""

from __future__ import annotations

import operator
from copy import deepcopy
from typing import Any

from mingraph_lite.course.brief import NOTICE, BriefNodes, expected_rows, initial_state
from mingraph_lite.course.weather import WEATHER
from . import Hint, exercise

START, END = "__start__", "__end__"  # spelt as LangGraph and the course's engine spell them


# -- 06.1: the router ---------------------------------------------------------------------------------

def _checked_state(cities: list[str], revisions: int, passed: bool) -> dict[str, Any]:
    state = initial_state(cities)
    readings = [{"city": c, "celsius": WEATHER[c]["celsius"], "conditions": WEATHER[c]["conditions"]}
                for c in cities]
    draft = {"rows": expected_rows({**state, "readings": readings}), "notice": NOTICE if passed else ""}
    review = {"passed": passed, "issues": [] if passed else ["missing_fixed_data_notice"],
              "checked_draft": deepcopy(draft)}
    return {**state, "readings": readings, "draft": draft, "review": review, "revisions": revisions}


@exercise("06.1", kind="code", title="route_after_check: accept, revise or hold")
def check_router(route_after_check: Any) -> str:
    cases = [  # (cities, revisions made, passed, allowance, expected label)
        (["Oslo", "Cairo"], 0, True, 0, "accept"),
        (["London"], 3, True, 1, "accept"),
        (["Sydney", "Oslo"], 0, False, 2, "revise"),
        (["Cairo"], 1, False, 3, "revise"),
        (["Oslo"], 2, False, 2, "hold"),
        (["New York", "London"], 0, False, 0, "hold"),
    ]
    for cities, revisions, passed, allowance, want in cases:
        state = _checked_state(cities, revisions, passed)
        before = deepcopy(state)
        got = route_after_check(state, allowance)
        if state != before:
            raise Hint("your router changed the state it read; a router only chooses, it never edits")
        if got in ("publish", "revise_draft"):
            raise Hint("return a route label ('accept', 'revise' or 'hold'); the path map turns it into a node")
        if got != want:
            raise Hint(_router_hint(passed, revisions, allowance, got))
    for broken, why in ((None, "no review yet"), ("other", "a review of another draft")):
        state = _checked_state(["Paris", "Oslo"], 0, True)
        if broken is None:
            state["review"] = None
        else:
            state["draft"] = {**state["draft"], "notice": "Checked by nobody."}
        try:
            got = route_after_check(state, 1)
        except ValueError:
            continue
        raise Hint(f"with {why}, your router returned {got!r}; it must raise ValueError: only a draft that "
                   "was checked (review['checked_draft'] equal to the draft) may be routed")
    return "the router delivers, revises while allowed, holds after, and refuses a draft nobody checked"


def _router_hint(passed: bool, revisions: int, allowance: int, got: Any) -> str:
    if passed:
        return (f"a draft that passed came back {got!r} with {revisions} revision(s) made and an allowance of "
                f"{allowance}: a draft that passed is delivered, whatever the allowance says")
    return (f"a failed draft with {revisions} revision(s) made and max_revisions={allowance} came back {got!r}: "
            "max_revisions=N allows N revisions, no more and no fewer")


# -- 06.2: the run loop -------------------------------------------------------------------------------

class _Runaway(Exception):
    """Raised by a checker's node when a loop ran far past its bound (so a missing bound cannot hang)."""


def _loop_graph(max_steps: int = 20) -> dict[str, Any]:
    def inc(state):
        return {"n": state["n"] + 1, "log": [f"inc{state['n'] + 1}"]}

    def shout(state):
        return {"log": ["done"], "last": "shout"}

    return {"nodes": {"inc": inc, "shout": shout}, "edges": {START: "inc"},
            "routers": {"inc": (lambda s: "again" if s["n"] < 3 else "stop", {"again": "inc", "stop": "shout"})},
            "reducers": {"log": operator.add}, "max_steps": max_steps}


def _guarded(graph: dict[str, Any], limit: int = 60) -> dict[str, Any]:
    """The same graph, its nodes counting calls: a loop that never moves on fails instead of hanging."""
    calls = []

    def guard(fn: Any) -> Any:
        def node(state: Any) -> Any:
            calls.append(1)
            if len(calls) > limit:
                raise _Runaway
            return fn(state)
        return node

    return {**graph, "nodes": {name: guard(fn) for name, fn in graph["nodes"].items()}}


def _call_run(run: Any, graph: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    given = deepcopy(state)
    try:
        final = run(_guarded(graph), state)
    except _Runaway:
        raise Hint("your loop kept running nodes long after the graph should have ended: after each node, move "
                   "on to the next one (router, fixed edge, or END)") from None
    except KeyError as exc:
        raise Hint(f"your run raised KeyError {exc}: a node with no edge and no router ends the run "
                   "(as in LangGraph), and a field the state does not have yet is simply set") from None
    if state != given:
        raise Hint("your run changed the input dict it was given; work on your own copy of the state")
    if not isinstance(final, dict):
        raise Hint(f"run must return the final state (a dict), got {type(final).__name__}")
    return final


def _check_loop_and_reducer(run: Any) -> None:
    final = _call_run(run, _loop_graph(), {"n": 0, "log": ["start"], "last": None})
    if final.get("log") == ["done"] or final.get("log", [None])[0] != "start":
        raise Hint("the field 'log' has a reducer (operator.add) but lost its earlier entries: merge a field "
                   "that has a reducer with reducer(old, new); replace only the others")
    if final.get("n") != 3 or final.get("log") != ["start", "inc1", "inc2", "inc3", "done"]:
        raise Hint(f"a loop graph of our own ended with n={final.get('n')} and log={final.get('log')}: after a "
                   "node with a router, ask the router for a label and go where the path map sends it")
    if final.get("last") != "shout":
        raise Hint("a field without a reducer is replaced by the node's value")
    best = {"nodes": {"a": lambda s: {"best": 4}, "b": lambda s: {"best": 2, "seen": True}},
            "edges": {START: "a", "a": "b", "b": END}, "routers": {}, "reducers": {"best": max}, "max_steps": 5}
    final = _call_run(run, best, {"best": 3})
    if final != {"best": 4, "seen": True}:
        raise Hint(f"with the reducer max on 'best' (start 3, then 4, then 2) you ended with {final}: call the "
                   "field's own reducer, not always operator.add")


def _check_copies(run: Any) -> None:
    def sneaky(state):
        state["log"].append("edited in place")
        return {"last": "sneaky"}

    graph = {"nodes": {"sneaky": sneaky}, "edges": {START: "sneaky", "sneaky": END}, "routers": {},
             "reducers": {"log": operator.add}, "max_steps": 3}
    given = {"log": ["start"], "last": None}
    try:
        final = run(_guarded(graph), given)
    except _Runaway:
        raise Hint("your loop kept running a one-node graph: after a node with an edge to END, stop") from None
    if "edited in place" in given["log"] or "edited in place" in final.get("log", []):
        raise Hint("a node edited the nested list it was handed and the edit reached the state: hand each node "
                   "a deep copy (copy.deepcopy), so only its returned change slip changes the state")


def _check_bound(run: Any) -> None:
    calls = []

    def again(state):
        calls.append(1)
        if len(calls) > 50:
            raise _Runaway
        return {"n": state["n"] + 1}

    graph = {"nodes": {"again": again}, "edges": {START: "again"},
             "routers": {"again": (lambda s: "loop", {"loop": "again", "out": END})}, "reducers": {},
             "max_steps": 4}
    try:
        run(graph, {"n": 0})
    except _Runaway:
        raise Hint("a router that never takes its exit ran your loop past max_steps: count the nodes that "
                   "ran and raise before starting one more than max_steps") from None
    except Exception:  # the bound stopped it: now count how far it went
        if len(calls) != 4:
            raise Hint(f"with max_steps=4 your loop ran {len(calls)} node(s) before stopping: run exactly "
                       "max_steps nodes, then refuse to start the next") from None
        return
    raise Hint("a router that never takes its exit finished without an error: raise once max_steps nodes ran")


@exercise("06.2", kind="code", title="the run loop: run(graph, state)")
def check_run(run: Any) -> str:
    _check_loop_and_reducer(run)
    _check_copies(run)
    _check_bound(run)
    return "your run loop walks edges and routes, merges through reducers, copies, and stops at its bound"


# -- 06.3: a node for a parallel branch --------------------------------------------------------------

@exercise("06.3", kind="code", title="collect_city(city): one branch's node")
def check_collect_city(collect_city: Any) -> str:
    base = initial_state(["London", "Oslo", "Cairo"])
    base["readings"] = [{"city": "London", "celsius": WEATHER["London"]["celsius"], "conditions": "light rain"}]
    base["events"] = ["collected London"]
    slips = []
    for city in ("Oslo", "Cairo"):
        state = deepcopy(base)
        slip = collect_city(city)(state)
        if state != base:
            raise Hint("your node changed the state it was handed; return a change slip instead")
        slips.append(_check_slip(city, slip))
    merged = base["readings"] + slips[0]["readings"] + slips[1]["readings"]
    if [r["city"] for r in merged] != ["London", "Oslo", "Cairo"]:
        raise Hint("two branches' slips, merged with operator.add, do not hold one new reading each")
    return "each branch hands back one reading in a one-item list; the reducer joins the branches"


def _check_slip(city: str, slip: Any) -> dict[str, Any]:
    if not isinstance(slip, dict):
        raise Hint(f"a node returns a dict of the fields it changed, got {type(slip).__name__}")
    if set(slip) != {"readings", "events"}:
        raise Hint(f"the slip for {city} changes {sorted(slip)}; a collecting branch changes only "
                   "'readings' and 'events'")
    readings, events = slip["readings"], slip["events"]
    if not isinstance(readings, list) or not isinstance(events, list):
        raise Hint("'readings' and 'events' are merged with operator.add, which joins lists: send one-item lists")
    if len(readings) != 1:
        raise Hint(f"the slip for {city} carries {len(readings)} readings: send only the new one; the reducer "
                   "adds it to what the other branches and earlier steps collected")
    reading = readings[0]
    want = WEATHER[city]
    if not isinstance(reading, dict) or reading.get("city") != city or reading.get("celsius") != want["celsius"] \
            or reading.get("conditions") != want["conditions"]:
        raise Hint(f"the reading for {city} should hold its city, celsius and conditions from the teaching data")
    if len(events) != 1 or city not in str(events[0]):
        raise Hint(f"add one event that names {city}; the earlier events are already on the worksheet")
    return slip


# -- 06.4: the parallel brief declared on LangGraph ------------------------------------------------

def _reference_path(nodes: BriefNodes, cities: list[str]) -> list[str]:
    """The brief's path after collecting, walked here with the nodes themselves (no engine involved)."""
    state = initial_state(cities)
    state["readings"] = [{"city": c, **WEATHER[c]} for c in sorted(cities)]
    path, node = [], "write_draft"
    fixed = {"write_draft": "check_draft", "revise_draft": "check_draft"}
    routes = {"accept": "publish", "revise": "revise_draft", "hold": "hold"}
    while True:
        update = getattr(nodes, node)(deepcopy(state))
        state = {**state, **{k: v for k, v in update.items() if k != "events"}}
        path.append(node)
        if node in ("publish", "hold"):
            return path
        node = routes[nodes.route_after_check(state)] if node == "check_draft" else fixed[node]


def _supersteps_on_langgraph(graph: Any, cities: list[str], limit: int) -> tuple[list[tuple[int, str]], dict]:
    steps, final = [], {}
    for mode, payload in graph.stream(initial_state(cities), stream_mode=["debug", "values"],
                                      config={"recursion_limit": limit}):
        if mode == "values":
            final = payload
        elif payload["type"] == "task":
            steps.append((payload["step"], payload["payload"]["name"]))
    return steps, final


@exercise("06.4", kind="code", title="the brief with parallel branches, declared on LangGraph's StateGraph")
def check_langgraph(declare_on_langgraph: Any) -> str:
    try:
        import langgraph  # noqa: F401
    except ImportError:
        raise Hint("LangGraph is not installed here: pip install 'mingraph-lite[langgraph]'") from None
    for cities, style, allowance in ((["Oslo", "Cairo", "London"], "stubborn", 2),
                                     (["Sydney", "New York"], "complete", 0),
                                     (["Cairo", "Oslo"], "missing-notice", 3)):
        nodes = BriefNodes(style, allowance)
        graph = declare_on_langgraph(nodes, cities)
        if not hasattr(graph, "stream"):
            raise Hint(f"declare_on_langgraph returned a {type(graph).__name__}, which cannot run: "
                       "return builder.compile()")
        if not type(graph).__module__.startswith("langgraph"):
            raise Hint(f"declare_on_langgraph returned a {type(graph).__name__} from {type(graph).__module__}: "
                       "build it on langgraph.graph.StateGraph and return builder.compile()")
        steps, final = _supersteps_on_langgraph(graph, cities, 4 * allowance + 10)
        want = [(1, f"collect_{c}") for c in sorted(cities)]
        want += [(i + 2, node) for i, node in enumerate(_reference_path(nodes, cities))]
        if sorted({n for s, n in steps if s == 1}) != [n for _, n in want[:len(cities)]]:
            raise Hint(f"for {cities} the first superstep ran {sorted(n for s, n in steps if s == 1)}: every "
                       "city's collecting node should start at once, each with its own edge from START")
        if steps != want:
            raise Hint(_langgraph_hint([n for _, n in steps[len(cities):]], [n for _, n in want[len(cities):]]))
        if sorted(r["city"] for r in final.get("readings", [])) != sorted(cities):
            raise Hint("the final worksheet does not hold one reading per city")
    return "every city collected in one superstep, joined, then the same path through every exit, on LangGraph"


def _langgraph_hint(path: list[str], want: list[str]) -> str:
    for i, (got, expected) in enumerate(zip(path, want, strict=False)):
        if got != expected:
            after = f"after {path[i - 1]!r}" if i else "after the collecting branches"
            return f"{after} your graph went to {got!r}; check the edges and the path map out of that node"
    if len(path) < len(want):
        last = repr(path[-1]) if path else "the collecting branches"
        return (f"your graph ended the run after {last}: on LangGraph a node with no outgoing edge ends the "
                "run; which edge is missing?")
    return f"your graph ran on after {want[-1]!r}: publish and hold both go to END"


__all__ = ["check_collect_city", "check_langgraph", "check_router", "check_run"]
