"""One declaration, either engine: this one, or LangGraph's own ``StateGraph``, imported only when asked.

A declaration is written once as ``connect(builder, send)`` with the method names both engines share
(``add_node``, ``add_edge``, ``add_conditional_edges``) and the engine's own ``Send``. Without
LangGraph installed you get an ImportError naming the extra, never this engine under LangGraph's name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

INSTALL_HINT = "pip install 'mingraph-lite[langgraph]'"


def langgraph_state_graph() -> type:
    """LangGraph's ``StateGraph`` class, or an ImportError that says how to install it."""
    try:
        from langgraph.graph import StateGraph
    except ImportError as exc:
        raise ImportError(f"this needs LangGraph, which is not installed: {INSTALL_HINT}") from exc
    return StateGraph


def compile_on(engine: str, state_type: type, connect: Callable[[Any, type], Any], *, max_steps: int,
               **options: Any) -> Any:
    """Declare with ``connect`` on ``engine`` ("mingraph" or "langgraph") and compile with the same bound.

    ``options`` go to this engine's ``compile``. LangGraph's ``recursion_limit`` is ``max_steps + 1``:
    it also counts the superstep that takes the input.
    """
    if engine == "mingraph":
        from .builder import Send, StateGraph

        return connect(StateGraph(state_type), Send).compile(max_steps=max_steps, **options)
    if engine == "langgraph":
        builder = langgraph_state_graph()(state_type)
        from langgraph.types import Send

        connect(builder, Send)
        return builder.compile().with_config(recursion_limit=max_steps + 1)
    raise ValueError(f"engine must be 'mingraph' or 'langgraph', got {engine!r}")
