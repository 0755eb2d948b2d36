"""Notebook 08's exercises 08.1 and 08.2: a branch's node, a join inside a loop (08.3, Send, is in nb08_send.py).

Every checker runs the learner's code on inputs the notebook never shows (other cities, graphs and worksheets of
its own).
"""

from __future__ import annotations

import operator
from copy import deepcopy
from typing import Any

from mingraph_lite.course.brief import BriefNodes, initial_state
from mingraph_lite.course.weather import WEATHER
from mingraph_lite.graph import END, START
from . import Hint, exercise
from .borrowing import borrowed
from .nb07 import engine_below
from ..parallel_brief import CALLS, brief_in_parallel, collect_one

# -- 08.1: a node for a parallel branch --------------------------------------------------------------

def _node_for(collect_city: Any, city: str) -> Any:
    node = collect_city(city)
    if isinstance(node, dict):
        raise Hint(f"collect_city({city!r}) returned a change slip; it must return a node, a function that takes "
                   "the worksheet and returns the slip (define it inside collect_city and return it)")
    if not callable(node):
        raise Hint(f"collect_city({city!r}) returned a {type(node).__name__}; it must return a node: a function "
                   "of the worksheet")
    return node


def _run_node(node: Any, state: dict[str, Any], city: str) -> Any:
    try:
        return node(state)
    except KeyError as exc:
        if exc.args and exc.args[0] == "city":
            raise Hint("your node read state['city'], but it is handed the whole worksheet, which has no 'city' "
                       "field: take the city from collect_city's own argument (the inner function sees it)") from None
        raise Hint(f"your node for {city} looked up {exc} and it was not there: the reading's fields come from "
                   f"WEATHER[city], which holds 'celsius' and 'conditions'") from None
    except TypeError as exc:
        raise Hint(f"calling your node on the worksheet failed ({exc}): collect_city(city) returns a function "
                   "that takes one argument, the worksheet") from None


@exercise("08.1", kind="code", title="collect_city(city): one branch's node")
def check_collect_city(collect_city: Any) -> str:
    used = borrowed(collect_city, {"BriefNodes", "fan_out", "connect_brief"})
    if used:
        raise Hint(f"your node calls the package's ({used}), whose collect_city reads a Send packet: write the "
                   "node that reads WEATHER for its city and returns the slip yourself")
    _refuse_collect_one(collect_city)
    base = initial_state(["London", "Oslo", "Cairo"])
    base["readings"] = [{"city": "London", "celsius": WEATHER["London"]["celsius"], "conditions": "light rain"}]
    base["events"] = ["collected London"]
    slips = []
    for city in ("Oslo", "Cairo"):
        state = deepcopy(base)
        slip = _run_node(_node_for(collect_city, city), state, city)
        if state != base:
            raise Hint("your node changed the state it was handed; return a change slip instead")
        slips.append(_check_slip(city, slip))
    merged = base["readings"] + slips[0]["readings"] + slips[1]["readings"]
    if [r["city"] for r in merged] != ["London", "Oslo", "Cairo"]:
        raise Hint("two branches' slips, merged with operator.add, do not hold one new reading each")
    _check_already_collected(collect_city, base)
    return "each branch hands back one new reading, or none when its city is already on the worksheet"


def _refuse_collect_one(collect_city: Any) -> None:
    """An answer that calls the notebook's collect_one is refused by what it does, however it is spelt."""
    before = len(CALLS)
    try:
        for city in ("Sydney", "New York"):
            node = collect_city(city)
            if callable(node):
                node(initial_state(["Sydney", "New York"]))
    except Exception:  # the checks below give the hint that fits
        pass
    finally:
        used = len(CALLS) > before
        del CALLS[before:]
    if used or borrowed(collect_city, {"collect_one"}):
        raise Hint("your node calls collect_one, the notebook's first try: the exercise is the branch itself, so "
                   "write the reading from WEATHER[city] in your own node (collect_one's slip would be yours "
                   "otherwise, not a node you wrote)")


def _check_already_collected(collect_city: Any, base: dict[str, Any]) -> None:
    state = deepcopy(base)
    slip = _run_node(_node_for(collect_city, "London"), state, "London")
    if state != base:
        raise Hint("your node changed the state it was handed; return a change slip instead")
    if not isinstance(slip, dict) or slip.get("readings"):
        raise Hint("the worksheet already holds a reading for London, and your node sent another: look in "
                   "state['readings'] first, and then send no reading, only an event saying so")
    events = slip.get("events")
    if set(slip) - {"readings", "events"} or not isinstance(events, list) or len(events) != 1 \
            or "London" not in str(events[0]):
        raise Hint("for a city already collected, the slip holds only 'events': a one-item list naming the city")


def _check_slip(city: str, slip: Any) -> dict[str, Any]:
    if not isinstance(slip, dict):
        raise Hint(f"a node returns a dict of the fields it changed, got {type(slip).__name__}")
    if set(slip) == {"events"}:
        raise Hint(f"the slip for {city} holds no reading, though the worksheet has none for {city} yet: does your "
                   "node use its own city, the argument collect_city was given?")
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


# -- 08.2: a superstep loop whose join waits afresh on each pass -------------------------------------

def _looping_graph(first: str, other: str, join: str, laps: int) -> dict[str, Any]:
    """START -> lap -> (first -> first2, other) -> join -> lap again, ``laps`` times: an uneven join inside a loop."""
    second = f"{first}2"

    def mark(name: str) -> Any:
        return lambda state: {"log": [name]}

    return {"nodes": {"lap": lambda state: {"log": ["lap"], "laps": state["laps"] + 1},
                      first: mark(first), second: mark(second), other: mark(other), join: mark(join)},
            "edges": {START: ["lap"], "lap": [first, other], first: [second], second: [join], other: [join]},
            "routers": {join: (lambda state: "again" if state["laps"] < laps else "stop", {"again": "lap", "stop": END})},
            "joins": {join: {second, other}}, "reducers": {"log": operator.add}, "max_steps": 4 * laps + 4}


def _run_loop(run: Any, graph: dict[str, Any], state: dict[str, Any]) -> tuple[dict[str, Any], list]:
    kept = deepcopy(state)
    try:
        result = run(graph, state)
    except NotImplementedError:  # the stub (a RuntimeError too): "not done", not a hint
        raise
    except RuntimeError as error:  # max_steps: the loop went round more often than the graph says
        raise Hint(f"your loop stopped at max_steps ({error}): a join started before all its sources had run "
                   "again, and the run went round once too often") from None
    if state != kept:
        raise Hint("your loop changed the state it was handed; work on a deep copy, as run_supersteps does")
    if not (isinstance(result, tuple) and len(result) == 2 and isinstance(result[1], list)):
        raise Hint("return (state, log), as run_supersteps does")
    return result


def _loop_hint(log: list, want: list, sources: set[str], join: str) -> str:
    ran = [names for _, names in log]
    if not any(join in names for names in ran):
        return (f"{join!r} never started: its sources finish in different supersteps, so the join must remember "
                "which have run, across supersteps, until all have")
    first = next(step for step, names in log if join in names)
    if not sources <= {name for step, names in log if step < first for name in names}:
        return (f"superstep {first} started {join!r} before all of {sorted(sources)} had run: a join waits for every "
                "one of its sources, not any one")
    early = next((step for step, names in log if join in names and sources & set(names)), None)
    if early is not None:
        return (f"superstep {early} ran {join!r} next to one of its sources (as `loop` did with `meet` in superstep 7 "
                "of run_supersteps): the join started before that source "
                f"had run again, because what it waits for still held the first pass. Forget a join's sources "
                "each time it starts")
    return f"your log was {log}, the run should go {want}"


ENGINES_SEEN: list[str] = []


def _node(name: str) -> Any:
    def node(state: dict[str, Any]) -> dict[str, Any]:
        ENGINES_SEEN.extend(filter(None, [engine_below()]))
        return {"log": [name]}

    return node


def _two_joins(shared: bool = False) -> dict[str, Any]:
    """START -> a, b, c; j1 waits for a and b; j2 for c and j1 (j2's first source ran before j1 started), or, shared,
    for a and c (one source both joins wait for: round 18's reader passed with a set shared by the joins)."""
    edges = {START: ["a", "b", "c"], "a": ["j1", "j2"] if shared else ["j1"], "b": ["j1"], "c": ["j2"],
             "j1": [] if shared else ["j2"]}
    return {"nodes": {name: _node(name) for name in ("a", "b", "c", "j1", "j2")}, "edges": edges, "routers": {},
            "joins": {"j1": {"a", "b"}, "j2": {"a", "c"} if shared else {"c", "j1"}},
            "reducers": {"log": operator.add}, "max_steps": 6}


def _beside() -> dict[str, Any]:
    """START -> p, s, t; p -> s again; j waits for s and t: s runs beside j, then t, then j starts a second time."""
    nodes = {name: _node(name) for name in ("p", "s", "t")}
    nodes["j"] = lambda state: {"log": ["j"], "laps": state["laps"] + 1}
    return {"nodes": nodes, "edges": {START: ["p", "s", "t"], "p": ["s"], "s": ["j"], "t": ["j"]},
            "routers": {"j": (lambda state: "again" if state["laps"] < 2 else "stop", {"again": "t", "stop": END})},
            "joins": {"j": {"s", "t"}}, "reducers": {"log": operator.add}, "max_steps": 6}


def _check_beside(run: Any) -> None:
    _, log = _run_loop(run, _beside(), {"log": [], "laps": 0})
    if [(step, sorted(names)) for step, names in log] != [(1, ["p", "s", "t"]), (2, ["j", "s"]), (3, ["t"]), (4, ["j"])]:
        raise Hint(f"j waits for s and t; s ran again beside j in superstep 2, then t in 3, and your log was {log}: "
                   "a source that runs beside its join (after the join started) counts for the join's next pass")


def _source_loops() -> dict[str, Any]:
    """p -> a, t; a routes to s (lap 1) or to y -> s (lap 2); s loops on itself once on lap 1; j waits for s and t, then
    p again. On lap 2, t arrives while s has not run again, though s has run more times than j (round 17's reader)."""
    nodes = {**{name: _node(name) for name in ("p", "a", "t", "y")},
             "s": lambda state: {"log": ["s"], "s_runs": state["s_runs"] + 1},
             "j": lambda state: {"log": ["j"], "laps": state["laps"] + 1}}
    return {"nodes": nodes, "edges": {START: ["p"], "p": ["a", "t"], "t": ["j"], "y": ["s"]},
            "routers": {"a": (lambda state: "s" if state["laps"] == 0 else "y", {"s": "s", "y": "y"}),
                        "s": (lambda state: "again" if state["laps"] == 0 and state["s_runs"] == 1 else "on",
                              {"again": "s", "on": "j"}),
                        "j": (lambda state: "again" if state["laps"] < 2 else "stop", {"again": "p", "stop": END})},
            "joins": {"j": {"s", "t"}}, "reducers": {"log": operator.add}, "max_steps": 12}


def _check_source_loops(run: Any) -> None:
    _, log = _run_loop(run, _source_loops(), {"log": [], "laps": 0, "s_runs": 0})
    want = list(enumerate([["p"], ["a", "t"], ["s"], ["s"], ["j"], ["p"], ["a", "t"], ["y"], ["s"], ["j"]], start=1))
    if any("j" in names for step, names in log if 5 < step < 10):
        raise Hint(f"j waits for s and t; s ran twice on lap 1 (it loops on itself), and on lap 2 your loop started j "
                   f"before s ran again (log: {log}): counting runs says s ran more often than j, yet it has not run "
                   "since j last started. Keep which sources ran since the join started, not how many times")
    if [(step, sorted(names)) for step, names in log] != want:
        raise Hint(f"j waits for s and t, and s loops on itself on lap 1; your log was {log}, the run should go {want}")


def _refuse_engines(run: Any) -> None:
    """An answer whose nodes an engine runs is refused by what happens, however the engine was reached."""
    used = borrowed(run, {"StateGraph", "compile", "invoke", "build_brief_graph"})
    del ENGINES_SEEN[:]
    try:
        run(_two_joins(), {"log": []})
    except Exception:  # the checks below give the hint that fits
        pass
    finally:
        used, ENGINES_SEEN[:] = used or next(iter(sorted(set(ENGINES_SEEN))), None), []
    if used:
        raise Hint(f"your loop hands the work to an engine ({used}): the exercise is the superstep loop itself, "
                   "deciding which nodes start together and when a join may start")


def _check_two_joins(run: Any) -> None:
    _, log = _run_loop(run, _two_joins(), {"log": []})
    if [(step, sorted(names)) for step, names in log] != [(1, ["a", "b", "c"]), (2, ["j1"]), (3, ["j2"])]:
        raise Hint(f"with two joins (j1 waits for a and b, j2 for c and j1) your log was {log}: when j1 started, "
                   "your loop also forgot that c had run for j2. Forget only the sources of the join that started")
    _, log = _run_loop(run, _two_joins(shared=True), {"log": []})
    if [(step, sorted(names)) for step, names in log] != [(1, ["a", "b", "c"]), (2, ["j1", "j2"])]:
        raise Hint(f"j1 waits for a and b, j2 for a and c, and a ran once for both; your log was {log}: a source "
                   "counts for every join it leads to, so keep a set for each join, and empty only the one that started")


def _check_bound(run: Any) -> None:
    graph, calls = _looping_graph("c", "d", "meet", 3), []
    graph["max_steps"] = 6  # the three laps need 12 supersteps
    graph["nodes"] = {name: (lambda state, fn=fn: calls.append(1) or fn(state)) for name, fn in graph["nodes"].items()}
    try:
        run(graph, {"log": [], "laps": 0})
    except NotImplementedError:
        raise
    except Exception:  # the bound stopped it: the supersteps 1 to 6 run 8 nodes
        if len(calls) == 8:
            return
    raise Hint(f"the notebook's `loop` with three laps needs 12 supersteps; with max_steps=6 yours ran {len(calls)} "
               "nodes: run exactly max_steps supersteps, then raise RuntimeError as run_supersteps does")


@exercise("08.2", kind="code", title="run_looping_supersteps(graph, state): a join inside a loop")
def check_looping(run_looping_supersteps: Any) -> str:
    _refuse_engines(run_looping_supersteps)
    for first, other, join, laps in (("c", "d", "meet", 2), ("north", "south", "merge", 3)):
        graph = _looping_graph(first, other, join, laps)
        want = []
        for lap in range(laps):
            want += [(len(want) + 1, ["lap"]), (len(want) + 2, sorted([first, other])), (len(want) + 3, [f"{first}2"]),
                     (len(want) + 4, [join])]
        state, log = _run_loop(run_looping_supersteps, graph, {"log": [], "laps": 0})
        if [(step, sorted(names)) for step, names in log] != want:
            raise Hint(_loop_hint(log, want, {f"{first}2", other}, join))
        if state.get("log", [])[-1:] != [join] or state.get("laps") != laps:
            raise Hint(f"the log is right, but the final state is {state}: merge each slip as run_supersteps does")
    cities = ["Oslo", "Cairo"]
    brief = brief_in_parallel(BriefNodes("missing-notice", 1), cities, collect_one,
                              {"readings": operator.add, "events": operator.add})
    state, log = _run_loop(run_looping_supersteps, brief, initial_state(cities))
    del CALLS[:]
    path = ["write_draft", "check_draft", "revise_draft", "check_draft", "publish"]
    if [(step, sorted(names)) for step, names in log] != [(1, ["collect_Cairo", "collect_Oslo"])] + \
            [(i + 2, [node]) for i, node in enumerate(path)] or state.get("status") != "published":
        raise Hint(f"on the parallel brief (no loop through its join) your log was {log}: the brief's join is "
                   "reached once, and should run as with run_supersteps")
    _check_two_joins(run_looping_supersteps)
    _check_beside(run_looping_supersteps)
    _check_source_loops(run_looping_supersteps)
    from .nb08_rules import check_kept_rules  # here, not at the top: that module reads this one's helpers

    check_kept_rules(run_looping_supersteps)
    _check_bound(run_looping_supersteps)
    return "each pass waits for the join's sources again; the brief runs as before"


__all__ = ["check_collect_city", "check_looping"]
