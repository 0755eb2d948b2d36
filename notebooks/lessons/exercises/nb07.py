"""Notebook 07's exercises and checked questions: a branch's node, one declaration for two engines, a reducer.

Every checker runs the learner's code on inputs the notebook never shows (other cities, writers and
allowances, worksheets of its own), on the package's engine and, where installed, on LangGraph.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Annotated, Any, TypedDict, get_type_hints

from mingraph_lite.course.brief import BriefNodes, BriefState, connect_brief, initial_state
from mingraph_lite.course.weather import WEATHER
from mingraph_lite.graph import StateGraph
from . import Hint, exercise
from .borrowing import borrowed
from ..parallel_brief import CALLS

# -- 07.1: a node for a parallel branch --------------------------------------------------------------

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


@exercise("07.1", kind="code", title="collect_city(city): one branch's node")
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


# -- 07.2: the parallel brief declared once, for both engines ----------------------------------------

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


def _supersteps_on_langgraph(graph: Any, cities: list[str], limit: int) -> list[tuple[int, str]]:
    steps = []
    for item in graph.stream(initial_state(cities), stream_mode="debug", config={"recursion_limit": limit}):
        if item["type"] == "task":
            steps.append((item["step"], item["payload"]["name"]))
    return steps


def _supersteps_on_ours(graph: Any, cities: list[str], limit: int) -> list[tuple[int, str]]:
    graph.invoke(initial_state(cities))
    return [(number, node) for number, ran in enumerate(graph.steps, start=1) for node in ran]


class _Recording:
    """Hands the learner a builder that forwards every call and remembers the edges declared."""

    def __init__(self, builder: Any) -> None:
        self.builder, self.edges = builder, []

    def add_edge(self, source: Any, target: str) -> Any:
        self.edges.append((tuple(source) if isinstance(source, list | tuple) else source, target))
        self.builder.add_edge(source, target)
        return self

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.builder, name)
        if not callable(method):
            return method

        def forward(*args: Any, **kwargs: Any) -> Any:
            result = method(*args, **kwargs)
            return self if result is self.builder else result
        return forward


def _declared(declare_parallel: Any, engine: Any, nodes: BriefNodes, cities: list[str]) -> _Recording:
    recording = _Recording(engine(BriefState))
    try:
        returned = declare_parallel(recording, nodes, cities)
    except NotImplementedError as exc:
        _refuse_open_07_1(exc)
        raise
    if returned is not recording and hasattr(returned, "stream"):
        raise Hint("declare_parallel returned a compiled graph: return the builder itself, uncompiled, so each "
                   "caller compiles it with its own bound (max_steps on ours, recursion_limit on LangGraph)")
    if returned is not recording:
        raise Hint(f"declare_parallel returned {type(returned).__name__}: return the builder you were handed")
    return recording


def _refuse_open_07_1(exc: NotImplementedError) -> None:
    """A stub raised by collect_city, not by declare_parallel itself: 07.2 is written, 07.1 is not."""
    frame = exc.__traceback__
    while frame.tb_next is not None:
        frame = frame.tb_next
    if frame.tb_frame.f_code.co_name == "collect_city":
        raise Hint("your declaration calls collect_city, and 07.1's collect_city is still the stub: finish 07.1, or "
                   "make the nodes with our_collect_city (the notebook's own, loaded after 07.1)") from None


def _engines() -> list[tuple[str, Any, Any]]:
    try:
        from langgraph.graph import StateGraph as LangGraph
    except ImportError:  # checked on our engine only
        LangGraph = None
    engines = [("LangGraph", LangGraph, _supersteps_on_langgraph)] if LangGraph else []
    return engines + [("our engine", StateGraph, _supersteps_on_ours)]


@exercise("07.2", kind="code", title="declare_parallel(builder, nodes, cities): one declaration, two engines",
          may_use=("07.1",))
def check_declare(declare_parallel: Any) -> str:
    used = borrowed(declare_parallel, {"build_brief_graph", "connect_brief", "fan_out", "Send"})
    if used:
        raise Hint(f"your declaration uses the package's ({used}), which sends packets to one collect_city node: "
                   "declare one named collect_<city> node per city, each with its own edge from START")
    for cities, style, allowance in ((["Oslo", "Cairo", "London"], "stubborn", 2),
                                     (["Sydney", "New York"], "complete", 0),
                                     (["Cairo", "Oslo"], "missing-notice", 3)):
        nodes, branches = BriefNodes(style, allowance), [f"collect_{c}" for c in cities]
        want = [(1, b) for b in sorted(branches)]
        want += [(i + 2, node) for i, node in enumerate(_reference_path(nodes, cities))]
        for name, engine, supersteps in _engines():
            recording = _declared(declare_parallel, engine, nodes, cities)
            try:
                graph = recording.builder.compile()
            except Exception as error:  # each engine words its refusal its own way; say what to look at
                raise Hint(f"{name} refused to compile your declaration ({str(error).splitlines()[0]}): every node "
                           "an edge or a route names must be added, and every added node reached") from None
            steps = sorted(supersteps(graph, cities, 4 * allowance + 10))
            first = sorted(n for s, n in steps if s == 1)
            if first != sorted(branches):
                raise Hint(f"on {name}, for {cities} the first superstep ran {first}: every city's collecting "
                           "node should start at once, each with its own edge from START")
            if steps != sorted(want):
                raise Hint(_langgraph_hint([n for _, n in steps[len(cities):]], [n for _, n in want[len(cities):]]))
        if not any(isinstance(s, tuple) and set(s) == set(branches) and t == "write_draft" for s, t in recording.edges):
            raise Hint("each branch has its own edge into write_draft, and no join: it works here only because every "
                       "branch is one node long; a longer branch would start write_draft twice. Join them with one "
                       "add_edge([every collect_<city>], 'write_draft')")
    return "every city collected in one superstep, joined, then the same path through every exit, on both engines"


def _langgraph_hint(path: list[str], want: list[str]) -> str:
    for i, (got, expected) in enumerate(zip(path, want, strict=False)):
        if got != expected:
            after = f"after {path[i - 1]!r}" if i else "after the collecting branches"
            return f"{after} your graph went to {got!r}; check the edges and the path map out of that node"
    if len(path) < len(want):
        last = repr(path[-1]) if path else "the collecting branches"
        return (f"your graph ended the run after {last}: a node with no outgoing edge ends the run; which edge "
                "is missing?")
    return f"your graph ran on after {want[-1]!r}: publish and hold both go to END"


# -- 07.3: a reducer that keeps the latest reading per city ------------------------------------------

def _r(city: str, celsius: int, source: str = "fresh") -> dict[str, Any]:
    return {"city": city, "celsius": celsius, "conditions": "test", "source": source}


def _reducer_hint(got: Any, old: list, new: list, want: list) -> str:
    if not isinstance(got, list):
        return f"a reducer returns the merged value, here a list of readings, not {type(got).__name__}"
    cities = [r.get("city") for r in got if isinstance(r, dict)]
    twice = sorted({c for c in cities if cities.count(c) > 1})
    repeated = [c for c in twice if [r["city"] for r in new].count(c) > 1]
    if repeated:
        return (f"new holds two readings of {repeated[0]} and your list kept both: the later one wins, in the "
                "first one's place (new holds at most one reading per city once merged)")
    if twice:
        return (f"{twice[0]} appears twice: a reading in new for a city old already has replaces that reading "
                "(operator.add would keep both)")
    if len(got) < len(want):
        return "readings of cities only old holds were lost: keep every city of old, replacing only those new names"
    stale = [r["city"] for r in got if isinstance(r, dict) and r not in new and r["city"] in [n["city"] for n in new]]
    if stale:
        return f"you kept the old reading for {stale[0]}: the reading in new replaces it"
    return (f"merging {[r['city'] for r in old]} with {[r['city'] for r in new]} gave {cities}, not "
            f"{[r['city'] for r in want]}: a replaced city keeps its place, and new cities go at the end in new's order")


def _reducer_cases(latest_per_city: Any) -> None:
    cases = [([_r("Tokyo", 19, "stale"), _r("Paris", 18)], [_r("Tokyo", 24)], [_r("Tokyo", 24), _r("Paris", 18)]),
             ([_r("Tokyo", 24)], [_r("Oslo", 5), _r("Cairo", 30)], [_r("Tokyo", 24), _r("Oslo", 5), _r("Cairo", 30)]),
             ([], [_r("London", 11), _r("Oslo", 5)], [_r("London", 11), _r("Oslo", 5)]),
             ([_r("Tokyo", 19, "stale"), _r("Paris", 15, "stale"), _r("Oslo", 5)],
              [_r("Paris", 18), _r("Sydney", 25), _r("Tokyo", 24)],
              [_r("Tokyo", 24), _r("Paris", 18), _r("Oslo", 5), _r("Sydney", 25)]),
             ([_r("Tokyo", 24)], [_r("Oslo", 5), _r("Cairo", 30), _r("Oslo", 7)],  # two readings of one new city
              [_r("Tokyo", 24), _r("Oslo", 7), _r("Cairo", 30)])]
    for old, new, want in cases:
        kept = deepcopy((old, new))
        got = latest_per_city(old, new)
        if (old, new) != kept:
            raise Hint("your reducer changed a list it was given; build and return a new list, since the engine "
                       "(or a checkpoint) may still hold the old one")
        if got != want:
            raise Hint(_reducer_hint(got, old, new, want))


@exercise("07.3", kind="code", title="latest_per_city(old, new): a reducer that replaces a city's reading")
def check_latest(latest_per_city: Any) -> str:
    _reducer_cases(latest_per_city)
    fields = {**get_type_hints(BriefState, include_extras=True),
              "readings": Annotated[list[dict[str, Any]], latest_per_city]}
    fresh_state = TypedDict("FreshBrief", fields)
    start = initial_state(["Cairo", "Oslo", "London"])
    start["readings"] = [{"city": "Oslo", "celsius": -3, "conditions": "snow", "source": "an earlier run"}]
    final = connect_brief(StateGraph(fresh_state), BriefNodes("complete")).compile().invoke(start)
    shown = [line.split(":")[0] for line in final["answer"].splitlines()[:-1]]
    if sorted(shown) != ["Cairo", "London", "Oslo"] or "-3" in final["answer"]:
        raise Hint(f"the brief run with your reducer, starting from a stale Oslo reading, published rows for {shown}; "
                   "each city once, with its fresh reading")
    return "a city's new reading replaces its old one in place; new cities are added; the brief shows each city once"


__all__ = ["check_collect_city", "check_declare", "check_latest"]
