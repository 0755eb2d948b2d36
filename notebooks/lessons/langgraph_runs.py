"""Notebooks 07 and 08's runs on LangGraph beside the package's engine, printed: the bound each counts, who ran when.

Each function only prints what a run did; the notebooks call it in one line where LangGraph is installed, so the
learner reads the outcome, and the LangGraph calls that produce it are here for anyone who wants them.
"""

from __future__ import annotations

import inspect
import operator
from typing import Annotated, Any, TypedDict

from mingraph_lite import Observer
from mingraph_lite.course.brief import BriefNodes, BriefState
from mingraph_lite.graph import END, START, StateGraph


def _lines(function: Any, text: str) -> list[str]:
    """The lines of ``function``'s own code that hold ``text``: the LangGraph calls a printout stands for."""
    return [line.strip() for line in inspect.getsource(function).splitlines() if text in line and "print" not in line]


def show_recursion_limits(builder: Any, state: dict, limits: tuple[int, ...] = (6, 7)) -> list[int]:
    """Run a LangGraph builder under each recursion_limit, then once with a checkpointer; print and return its steps."""
    from langgraph.checkpoint.memory import InMemorySaver  # keeps one snapshot per superstep, with its number
    from langgraph.errors import GraphRecursionError

    print("the LangGraph calls:", *_lines(show_recursion_limits, ".invoke("), sep="\n  ")
    for limit in limits:
        try:
            builder.compile().invoke(state, config={"recursion_limit": limit})
            print(f"recursion_limit={limit}: finished")
        except GraphRecursionError:
            print(f"recursion_limit={limit}: GraphRecursionError")
    graph, thread = builder.compile(checkpointer=InMemorySaver()), {"configurable": {"thread_id": "06"}}
    graph.invoke(state, config=thread)
    steps = sorted(snap.metadata["step"] for snap in graph.get_state_history(thread))
    print("LangGraph's snapshot steps:", steps)
    return steps


class _WhoRanWhen(Observer):
    def __init__(self) -> None:
        self.ran: list[tuple[int | None, str]] = []

    def on_node_end(self, node: str, update: Any, superstep: int | None = None) -> None:
        self.ran.append((superstep, node))


def package_matches_loop(declare: Any, state: dict, log: list, final: dict) -> tuple[bool, bool]:
    """The package's engine, heard by a listener of each node's superstep, against our loop's log and worksheet."""
    who = _WhoRanWhen()
    ours_final = declare(StateGraph(BriefState), BriefNodes(), state["cities"]).compile(max_steps=10).invoke(
        state, observers=[who])
    same = ([(step, sorted(node for at, node in who.ran if at == step)) for step, _ in log] == log, ours_final == final)
    print("same supersteps as our loop:", same[0], "| same worksheet:", same[1])
    return same


def _on_langgraph(declare: Any, nodes: BriefNodes, state: dict) -> tuple[dict, list[tuple[int, str]]]:
    """LangGraph's final worksheet and (superstep, node) pairs, read from its debug stream."""
    from langgraph.graph import StateGraph as LangGraphStateGraph

    graph = declare(LangGraphStateGraph(BriefState), nodes, state["cities"]).compile()
    ran, final = [], {}
    for mode, item in graph.stream(state, stream_mode=["debug", "values"], config={"recursion_limit": 11}):
        if mode == "values":
            final = item
        elif item["type"] == "task":
            ran.append((item["step"], item["payload"]["name"]))
    return final, sorted(ran)


def compare_engines(declare: Any, state: dict, styles: tuple[str, ...] = ("complete", "missing-notice", "stubborn"),
                    ) -> list[tuple[str, bool, bool]]:
    """One declaration on both engines, per writer: print (and return) same supersteps? same worksheet?

    Without LangGraph it prints that it skipped and returns no rows."""
    try:
        import langgraph  # noqa: F401
    except ImportError:  # LangGraph is optional
        print("skipped: LangGraph is not installed (pip install 'mingraph-lite[langgraph]')")
        return []
    rows = []
    print(f"{'writer':<16}{'same supersteps':>16}{'same worksheet':>16}   supersteps")
    for style in styles:
        who = _WhoRanWhen()
        ours = declare(StateGraph(BriefState), BriefNodes(style), state["cities"]).compile(max_steps=10)
        ours_end = ours.invoke(state, observers=[who])
        theirs_end, theirs_ran = _on_langgraph(declare, BriefNodes(style), state)
        rows.append((style, sorted(who.ran) == theirs_ran, ours_end == theirs_end))
        print(f"{style:<16}{str(rows[-1][1]):>16}{str(rows[-1][2]):>16}   {max(step for step, _ in theirs_ran)}")
    return rows


def overwrite_clears(state: dict) -> list | None:
    """LangGraph's Overwrite, the one update that bypasses a reducer, on the brief's events: print and return them."""
    try:
        from langgraph.graph import StateGraph as LangGraphStateGraph
        from langgraph.types import Overwrite
    except ImportError:  # LangGraph is optional
        return None
    clearing = LangGraphStateGraph(BriefState).add_node("clear", lambda state: {"events": Overwrite([])})
    clearing.add_edge(START, "clear")
    cleared = clearing.compile().invoke({**state, "events": ["collected", "wrote draft"]})
    print("LangGraph's node:", *_lines(overwrite_clears, "Overwrite([])}"))
    print("LangGraph, Overwrite([]) on the events field:", cleared["events"])
    return cleared["events"]


class Misspeller(BriefNodes):
    """The brief's nodes, except that ``revise_draft`` writes ``drafts``: a typo'd field."""

    def revise_draft(self, state: dict) -> dict:
        update = super().revise_draft(state)
        update["drafts"] = update.pop("draft")  # the typo
        return update


def misspelt_runs(declare: Any, state: dict) -> dict[str, str]:
    """The Misspeller on each installed engine: print (and return) what each does with the unknown key."""
    from mingraph_lite import GraphExecutionError

    seen = {}
    try:
        declare(Misspeller()).compile().invoke(state)
    except GraphExecutionError as error:
        seen["ours"] = f"{type(error).__name__}: {error}"
        print(f"ours: {seen['ours']}")
    try:
        from langgraph.graph import StateGraph as LangGraphStateGraph
    except ImportError:  # LangGraph is optional: our engine alone
        return seen
    end = declare(Misspeller(), on=LangGraphStateGraph).compile().invoke(state)
    seen["langgraph"] = f"{end['status']} | the typo'd key in the final worksheet: {'drafts' in end}"
    print("LangGraph:", seen["langgraph"])
    return seen


class _Log(TypedDict):
    log: Annotated[list[str], operator.add]


def _uneven(builder: Any, join: bool) -> Any:
    """Branches ``a -> a2`` and ``b`` into ``write``: one join edge from both, or one edge from each."""
    for name in ("a", "a2", "b", "write"):
        builder.add_node(name, lambda state, name=name: {"log": [name]})
    for source, target in ((START, "a"), ("a", "a2"), (START, "b")):
        builder.add_edge(source, target)
    if join:
        builder.add_edge(["a2", "b"], "write")  # one edge from both branches: waits for both
    else:
        builder.add_edge("a2", "write")  # one edge per branch: each one triggers "write" on its own
        builder.add_edge("b", "write")  # and one from b
    builder.add_edge("write", END)
    return builder.compile()


def uneven_joins() -> list[tuple[int, list[str]]]:
    """Print the uneven graph's edges into ``write``, then who ran with and without the join on each engine; return our steps."""
    print("the edges into write (_uneven in lessons/langgraph_runs.py):", *_lines(_uneven, '"write")  #'), sep="\n  ")
    try:
        from langgraph.graph import StateGraph as LangGraphStateGraph
    except ImportError:  # LangGraph is optional: our engine alone
        LangGraphStateGraph = None
    for engine in (StateGraph, LangGraphStateGraph):
        for join in (True, False) if engine else ():
            ran = _uneven(engine(_Log), join).invoke({"log": []})["log"]
            print(f"{engine.__module__.split('.')[0]:<14} join={str(join):<6} {ran}  write ran {ran.count('write')}x")
    no_join = _uneven(StateGraph(_Log), join=False)
    no_join.invoke({"log": []})
    print("our engine without the join, superstep by superstep:", no_join.steps)
    return no_join.steps


def plain_field_refusals(state_type: type, branch: Any, cities: list[str]) -> dict[str, str]:
    """One branch per city from START, on each installed engine: print (and return) the first line of its refusal."""
    try:
        from langgraph.graph import StateGraph as LangGraphStateGraph
    except ImportError:  # LangGraph is optional: our engine alone
        LangGraphStateGraph = None
    refusals = {}
    for engine in (StateGraph, LangGraphStateGraph):
        if engine is None:
            continue
        sketch = engine(state_type)
        for city in cities:
            sketch.add_node(f"collect_{city}", branch(city))
            sketch.add_edge(START, f"collect_{city}")
        try:
            sketch.compile().invoke({field: [] for field in state_type.__annotations__})
        except Exception as error:  # each engine has its own error type for this
            name = engine.__module__.split(".")[0]
            refusals[name] = f"{type(error).__name__}: {str(error).splitlines()[0]}"
            print(f"{name}: {refusals[name]}")
    return refusals


class _Lap(TypedDict):
    log: Annotated[list, operator.add]
    laps: int


def loop_on_engines(nodes: dict, router: Any) -> dict[str, list[str]]:
    """Notebook 08's two-lap ``loop`` (``lap -> (c -> c2, d) -> meet``, ``meet`` joining ``c2`` and ``d``) on the
    package's engine and, where installed, LangGraph; print and return each run's log."""
    engines: dict[str, Any] = {"ours": StateGraph}
    try:
        from langgraph.graph import StateGraph as LangGraphStateGraph
        engines["LangGraph"] = LangGraphStateGraph
    except ImportError:
        print("LangGraph is not installed: ours only")
    logs = {}
    for engine, make in engines.items():
        builder = make(_Lap)
        for name, node in nodes.items():
            builder.add_node(name, node)
        builder.add_edge(START, "lap")
        builder.add_edge("lap", "c")
        builder.add_edge("lap", "d")
        builder.add_edge("c", "c2")
        builder.add_edge(["c2", "d"], "meet")  # the join
        builder.add_conditional_edges("meet", router, {"again": "lap", "stop": END})
        logs[engine] = builder.compile().invoke({"log": [], "laps": 0})["log"]
        print(f"{engine}: {logs[engine]}")
    return logs
