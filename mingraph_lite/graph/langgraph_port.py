"""The same declarations on the real thing: LangGraph's own ``StateGraph``, imported only when asked.

Nothing here imitates LangGraph. A declaration is written once as ``connect(builder)`` using the
method names both engines share (``add_node``, ``add_edge``, ``add_conditional_edges``), and this
module hands it LangGraph's builder. If LangGraph is not installed you get an ImportError naming the
extra, never our engine under LangGraph's name. ``START``/``END`` are spelled as LangGraph spells them.

Bounds differ in name and count: our ``max_steps=N`` allows N supersteps; LangGraph's
``recursion_limit`` counts supersteps plus the one that takes the input, so the same run needs
``recursion_limit=N + 1``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

INSTALL_HINT = "pip install 'mingraph-lite[langgraph]'"


def langgraph_state_graph() -> type:
    """LangGraph's ``StateGraph`` class, or an ImportError that says how to install it."""
    try:
        from langgraph.graph import StateGraph
    except ImportError as exc:
        raise ImportError(f"this needs LangGraph, which is not installed: {INSTALL_HINT}") from exc
    return StateGraph


def langgraph_send() -> type:
    """LangGraph's ``Send`` class (for map-reduce routers), or an ImportError that says how to install it."""
    try:
        from langgraph.types import Send
    except ImportError as exc:
        raise ImportError(f"this needs LangGraph, which is not installed: {INSTALL_HINT}") from exc
    return Send


def compile_on_langgraph(state_type: type, connect: Callable[[Any], Any]) -> Any:
    """Declare with ``connect`` on LangGraph's builder and return LangGraph's compiled graph."""
    builder = langgraph_state_graph()(state_type)
    connect(builder)
    return builder.compile()


def run_on_langgraph(graph: Any, state: Mapping[str, Any], *, recursion_limit: int = 25
                     ) -> tuple[dict[str, Any], tuple[str, ...], list[dict[str, Any]]]:
    """Run once with both stream modes; return (final state, node path, updates in order)."""
    final: dict[str, Any] = dict(state)
    path: list[str] = []
    updates: list[dict[str, Any]] = []
    for mode, payload in graph.stream(dict(state), stream_mode=["updates", "values"],
                                      config={"recursion_limit": recursion_limit}):
        if mode == "updates":
            for node, update in payload.items():
                path.append(node)
                updates.append(dict(update or {}))
        else:
            final = payload
    return final, tuple(path), updates


def run_on_mingraph(graph: Any, state: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...],
                                                                   list[dict[str, Any]]]:
    """The same report from our engine, from one stream."""
    final: dict[str, Any] = dict(state)
    updates: list[dict[str, Any]] = []
    path: list[str] = []
    for mode, payload in graph.stream(state, stream_mode=("updates", "values")):
        if mode == "updates":
            for node, update in payload.items():
                path.append(node)
                updates.append(update)
        else:
            final = payload
    return final, tuple(path), updates

