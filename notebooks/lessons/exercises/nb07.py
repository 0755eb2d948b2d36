"""Notebook 07's exercises and checked questions: a router, the run loop, a router that stops when stuck.

Every checker runs the learner's code on inputs the notebook never shows (other cities, other
allowances, small graphs of its own), so copying an output from above cannot pass; an answer that
only calls the package's own router or engine is refused by ``borrowed``.
"""

from __future__ import annotations

import operator
import sys
from copy import deepcopy
from typing import Any

from mingraph_lite.course.brief import NOTICE, BriefNodes, BriefState, expected_rows, initial_state
from mingraph_lite.course.weather import WEATHER
from mingraph_lite import GraphStepLimit
from mingraph_lite.graph import StateGraph
from . import Hint, exercise
from .borrowing import borrowed

START, END = "__start__", "__end__"  # spelt as LangGraph and the course's engine spell them


# -- 07.1: the router ---------------------------------------------------------------------------------

def _checked_state(cities: list[str], revisions: int, passed: bool, issue: str = "") -> dict[str, Any]:
    """A worksheet whose current draft was checked; ``issue`` replaces the missing notice as what it found."""
    state = initial_state(cities)
    readings = [{"city": c, "celsius": WEATHER[c]["celsius"], "conditions": WEATHER[c]["conditions"]}
                for c in cities]
    draft = {"rows": expected_rows({**state, "readings": readings}), "notice": NOTICE if passed or issue else ""}
    if issue.startswith("wrong_values"):
        draft["rows"][0] = {**draft["rows"][0], "celsius": draft["rows"][0]["celsius"] + 10}
    elif issue.startswith("missing_city"):
        draft["rows"] = draft["rows"][1:]
    review = {"passed": passed, "issues": [] if passed else [issue or "missing_fixed_data_notice"],
              "checked_draft": deepcopy(draft)}
    return {**state, "readings": readings, "draft": draft, "review": review, "revisions": revisions}


@exercise("07.1", kind="code", title="route_after_check: accept, revise or hold, and hold wrong numbers at once")
def check_router(route_after_check: Any) -> str:
    used = borrowed(route_after_check, {"BriefNodes", "route_after_check", "connect_brief", "build_brief_graph"})
    if used:
        raise Hint(f"your router calls the package's ({used}): the exercise is to write the rules yourself, "
                   "reading state['review'], state['draft'] and state['revisions']")
    cases = [  # (cities, revisions made, passed, what the check found, allowance, expected label)
        (["Oslo", "Cairo"], 0, True, "", 0, "accept"),
        (["London"], 3, True, "", 1, "accept"),
        (["Sydney", "Oslo"], 0, False, "", 2, "revise"),
        (["Cairo"], 1, False, "", 3, "revise"),
        (["Oslo"], 2, False, "", 2, "hold"),
        (["New York", "London"], 0, False, "", 0, "hold"),
        (["Cairo", "Oslo"], 0, False, "missing_city:Cairo", 2, "revise"),
        (["Sydney", "Paris"], 0, False, "wrong_values:Sydney", 3, "hold"),
    ]
    for cities, revisions, passed, issue, allowance, want in cases:
        state = _checked_state(cities, revisions, passed, issue)
        before = deepcopy(state)
        got = route_after_check(state, allowance)
        if state != before:
            raise Hint("your router changed the state it read; a router only chooses, it never edits")
        if got in ("publish", "revise_draft"):
            raise Hint("return a route label ('accept', 'revise' or 'hold'); the path map turns it into a node")
        if got != want:
            raise Hint(_router_hint(passed, issue, revisions, allowance, got))
    for broken, why in ((None, "no review yet"), ("other", "a review of another draft")):
        state = _checked_state(["Paris", "Oslo"], 0, True)
        state.update({"review": None} if broken is None else {"draft": {**state["draft"], "notice": "Checked by nobody."}})
        try:
            got = route_after_check(state, 1)
        except ValueError:
            continue
        except Exception as exc:  # e.g. TypeError from review["passed"] when review is None
            raise Hint(f"with {why}, your router raised {type(exc).__name__} instead of ValueError: rule 1 comes "
                       "first, check that a review exists and that its checked_draft is the current draft, and "
                       "raise ValueError when not") from None
        raise Hint(f"with {why}, your router returned {got!r}; it must raise ValueError: only a draft that "
                   "was checked (review['checked_draft'] equal to the draft) may be routed")
    return "the router delivers, holds wrong numbers at once, revises while allowed, and refuses an unchecked draft"


def _router_hint(passed: bool, issue: str, revisions: int, allowance: int, got: Any) -> str:
    if passed:
        return (f"a draft that passed came back {got!r} with {revisions} revision(s) made and an allowance of "
                f"{allowance}: a draft that passed is delivered, whatever the allowance says")
    if issue.startswith("wrong_values"):
        return (f"a draft whose check found {issue!r} came back {got!r} with revisions still allowed: wrong numbers "
                "are held at once (rule 3); the package's router would revise it, which is why it is not the answer")
    if issue:
        return (f"a draft whose check found {issue!r} came back {got!r}: only wrong numbers are held at once; "
                "any other problem is revised while revisions are allowed")
    return (f"a failed draft with {revisions} revision(s) made and max_revisions={allowance} came back {got!r}: "
            "max_revisions=N allows N revisions, no more and no fewer")


# -- 07.2: the run loop -------------------------------------------------------------------------------

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


def engine_below() -> str | None:
    """The engine module that called the running node, if an engine did (however the answer reached it)."""
    frame = sys._getframe(1)
    while frame is not None:
        module = str(frame.f_globals.get("__name__", ""))
        if module.startswith(("mingraph_lite.graph", "langgraph")):
            return module
        frame = frame.f_back
    return None


class _Engine(Exception):
    """Raised by a checker's node when an engine, not the answer's own loop, called it."""


def _guarded(graph: dict[str, Any], limit: int = 60) -> dict[str, Any]:
    """The same graph, its nodes counting calls: a loop that never moves on fails instead of hanging."""
    calls = []

    def guard(fn: Any) -> Any:
        def node(state: Any) -> Any:
            calls.append(1)
            if len(calls) > limit:
                raise _Runaway
            if engine_below():
                raise _Engine(engine_below())
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
    except _Engine as engine:
        raise Hint(f"your run hands the work to an engine ({engine}): the exercise is the loop itself, walking "
                   "graph['edges'] and graph['routers'] node by node") from None
    except KeyError as exc:
        raise Hint(_key_error_hint(graph, exc.args[0] if exc.args else None)) from None
    if state != given:
        raise Hint("your run changed the input dict it was given; work on your own copy of the state")
    if not isinstance(final, dict):
        raise Hint(f"run must return the final state (a dict), got {type(final).__name__}")
    return final


def _key_error_hint(graph: dict[str, Any], key: Any) -> str:
    labels = {label for _, path_map in graph["routers"].values() for label in path_map}
    if key in labels and key not in graph["nodes"]:
        return (f"your run looked up the route label {key!r} as a node: a router returns a label, and "
                "path_map[label] is the node to run next")
    if key in graph["nodes"] or key is None:
        where = f"a fixed edge out of {key!r}, which has none" if key is not None else "a node called None"
        return (f"your run looked for {where}: rule 4, a node with neither edge nor router ends the run "
                "(as on LangGraph), so use graph['edges'].get(node, END)")
    return (f"your run raised KeyError {key!r}: a field the state does not have yet is simply set, and only a "
            "field that is already there is merged through its reducer")


def _check_loop_and_reducer(run: Any) -> None:
    final = _call_run(run, _loop_graph(), {"n": 0, "log": ["start"], "last": None})
    if final.get("log") == ["done"] or final.get("log", [None])[0] != "start":
        raise Hint("the field 'log' has a reducer (operator.add) but lost its earlier entries: merge a field "
                   "that has a reducer with reducer(old, new); replace only the others")
    if final.get("n") == 4 and "inc4" in final.get("log", []):
        raise Hint("on a graph of our own your loop ran the looping node once more than its router allows: it asked "
                   "the router before merging the node's slip; merge first, then let the router read the result")
    if final.get("n") != 3 or final.get("log") != ["start", "inc1", "inc2", "inc3", "done"]:
        raise Hint(f"a loop graph of our own ended with n={final.get('n')} and log={final.get('log')}: after a "
                   "node with a router, ask the router for a label and go where the path map sends it")
    if final.get("last") != "shout":
        raise Hint("a field without a reducer is replaced by the node's value")
    best = {"nodes": {"a": lambda s: {"best": 4}, "b": lambda s: {"best": 2, "seen": True, "notes": ["b"]}},
            "edges": {START: "a", "a": "b", "b": END}, "routers": {}, "max_steps": 5,
            "reducers": {"best": max, "notes": operator.add}}  # `notes` is not in the state yet: it is set
    final = _call_run(run, best, {"best": 3})
    if final.get("notes") != ["b"]:
        raise Hint(f"a field with a reducer that the state did not hold yet ended as {final.get('notes')!r}, not "
                   "['b']: the first value is simply set; only a field that is already there goes through its reducer")
    if {**final, "notes": None} != {"best": 4, "seen": True, "notes": None}:
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


def _check_exact_bound(run: Any) -> None:
    chain = {"nodes": {name: (lambda s, name=name: {"log": [name]}) for name in ("one", "two", "three")},
             "edges": {START: "one", "one": "two", "two": "three", "three": END}, "routers": {},
             "reducers": {"log": operator.add}, "max_steps": 3}
    try:
        final = _call_run(run, chain, {"log": []})
    except Hint:
        raise
    except Exception as exc:
        raise Hint(f"a chain of exactly max_steps=3 nodes raised {type(exc).__name__}: it should finish, since the "
                   "node after the third is END; check the bound before starting a node, not after one ran") from None
    if final.get("log") != ["one", "two", "three"]:
        raise Hint(f"a chain one -> two -> three ended with log={final.get('log')}, not ['one', 'two', 'three']")


@exercise("07.2", kind="code", title="the run loop: run(graph, state)")
def check_run(run: Any) -> str:
    used = borrowed(run, {"StateGraph", "compile", "invoke", "build_brief_graph"})
    if used:
        raise Hint(f"your run hands the work to an engine ({used}): the exercise is the loop itself, walking "
                   "graph['edges'] and graph['routers'] node by node")
    _check_loop_and_reducer(run)
    _check_copies(run)
    _check_bound(run)
    _check_exact_bound(run)
    return "your run loop walks edges and routes, merges through reducers, copies, and stops at its bound"


# -- 07.3: a router that stops when a revision fixed nothing ---------------------------------------

def _with_checks(found: list[str], revisions: int) -> dict[str, Any]:
    """A checked worksheet whose account holds one "checked draft: ..." event per entry of ``found``."""
    state = _checked_state(["Oslo", "Cairo"], revisions, found[-1] == "accepted")
    state["events"] = ["collected Oslo", "collected Cairo", "wrote draft"]
    for i, verdict in enumerate(found):
        state["events"] += ([f"revised draft (revision {i})"] if i else []) + [f"checked draft: {verdict}"]
    return state


MISSING, WRONG_OSLO = "missing_fixed_data_notice", "wrong_values:Oslo, missing_fixed_data_notice"
WRONG_CAIRO = "wrong_values:Cairo"  # one issue, like MISSING, but another one


def _stuck_cases(router: Any) -> None:
    cases = [  # (what each check found, revisions made, allowance, expected label, why)
        ([MISSING, "accepted"], 1, 1, "accept", "a draft that passed is accepted"),
        ([MISSING], 0, 3, "revise", "a first failed check has nothing to compare with: revise while allowed"),
        ([WRONG_OSLO, MISSING], 1, 3, "revise", "the issues changed, so the revision helped: revise again"),
        ([MISSING, WRONG_OSLO, WRONG_OSLO], 2, 5, "hold", "compare the last check with the one just before it"),
        ([WRONG_OSLO, MISSING, WRONG_OSLO], 2, 5, "revise", "compare the last check with the one just before it"),
        ([MISSING, WRONG_CAIRO], 1, 4, "revise", "the issues changed though there are as many as before: compare the "
                                                  "issues themselves, not how many there are"),
        ([WRONG_OSLO, MISSING], 1, 1, "hold", "max_revisions still bounds a writer that keeps changing"),
        ([MISSING], 0, 0, "hold", "max_revisions still bounds a writer that keeps changing"),
    ]
    for found, revisions, allowance, want, why in cases:
        state = _with_checks(found, revisions)
        before = deepcopy(state)
        try:
            got = router(state, allowance)
        except IndexError:
            raise Hint(f"with {len(found)} check(s) in the account your router raised IndexError: when only one "
                       "check has run there is no check before it to compare with, so look at the last two only "
                       "once there are two") from None
        if state != before:
            raise Hint("your router changed the state it read; a router only chooses, it never edits")
        if got != want:
            raise Hint(f"checks that found {found} with {revisions} revision(s) made and max_revisions={allowance} "
                       f"came back {got!r}, not {want!r}: {why}")


class _Swapped(BriefNodes):
    def __init__(self, router: Any, draft_style: str, max_revisions: int) -> None:
        super().__init__(draft_style, max_revisions)
        self.router = router

    def route_after_check(self, state: dict) -> str:
        return self.router(state, self.max_revisions)


def brief_graph(nodes: BriefNodes, state_type: Any = BriefState, on: Any = StateGraph) -> Any:
    """The sequential brief, declared as the notebook's ``declare`` does (uncompiled)."""
    builder = on(state_type)
    for name in ("collect", "write_draft", "check_draft", "revise_draft", "publish", "hold"):
        builder.add_node(name, getattr(nodes, name))
    for source, target in (("__start__", "collect"), ("collect", "write_draft"), ("write_draft", "check_draft"),
                           ("revise_draft", "check_draft"), ("publish", "__end__"), ("hold", "__end__")):
        builder.add_edge(source, target)
    builder.add_conditional_edges("check_draft", nodes.route_after_check,
                                  {"accept": "publish", "revise": "revise_draft", "hold": "hold"})
    return builder


def walk(graph: Any, state: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """(final worksheet, the nodes that ran), from one streamed run."""
    path, final = [], state
    for mode, payload in graph.stream(state, stream_mode=["updates", "values"]):
        if mode == "updates":
            path += list(payload)
        else:
            final = payload
    return final, path


@exercise("07.3", kind="code", title="route_unless_stuck: hold when a revision fixed nothing")
def check_stuck(route_unless_stuck: Any) -> str:
    used = borrowed(route_unless_stuck, {"BriefNodes", "route_after_check", "build_brief_graph"})
    if used:
        raise Hint(f"your router calls the package's ({used}), which knows nothing about a stuck writer: "
                   "write the rules yourself from state['review'], state['events'] and state['revisions']")
    _stuck_cases(route_unless_stuck)
    for style, allowance, status, nodes in (("stubborn", 6, "needs_attention", 6), ("missing-notice", 4, "published", 6),
                                            ("complete", 0, "published", 4)):
        graph = brief_graph(_Swapped(route_unless_stuck, style, allowance)).compile(max_steps=2 * allowance + 4)
        try:
            final, path = walk(graph, initial_state(["Sydney", "London", "Cairo"]))
        except GraphStepLimit:
            raise Hint(f"with the {style} writer and max_revisions={allowance}, your router kept the brief running past "
                       "its longest legal run: it must hold once the allowance is used up") from None
        if (final["status"], len(path)) != (status, nodes):
            raise Hint(f"swapped into the brief with the {style} writer and max_revisions={allowance}, your router "
                       f"ended {final['status']!r} after {len(path)} nodes ({' -> '.join(path)}), not {status!r} "
                       f"after {nodes}")
    return "your router accepts, revises while the issues change, and holds a writer that is stuck or out of tries"


__all__ = ["brief_graph", "check_router", "check_run",
           "check_stuck", "walk"]
