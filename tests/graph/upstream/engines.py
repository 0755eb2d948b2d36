"""The two engines every ported LangGraph test runs on: LangGraph itself (the control) and ours.

The ports are re-creations, in this project's own code, of tests from LangGraph's repository,
``libs/langgraph/tests/`` at tag ``1.2.11`` (commit 644815f9e5bc52ad8f7a5227a456227e9c3e639b, the
newest 1.2 tag in the stored snapshot; the venv runs langgraph 1.2.x). Each test names the upstream
file and test it re-creates. A test keeps its graph and its expected results; where the engines
differ on purpose, the test asserts LangGraph's result on LangGraph and our clear error on ours,
and ``docs/graph.md`` lists the difference.

The only translation is the bound: LangGraph takes ``recursion_limit`` per run, ours takes
``max_steps`` at compile, and ``max_steps = recursion_limit - 1`` stops at the same superstep.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

LANGGRAPH_DEFAULT_RECURSION_LIMIT = 25


@dataclass(frozen=True)
class Engine:
    """One engine's names, error types and a way to compile with LangGraph's bound semantics."""

    name: str
    StateGraph: Any
    START: str
    END: str
    Send: Any
    InvalidUpdateError: type[BaseException]  # two writes to a plain field in one step, a bad update
    RecursionError: type[BaseException]  # the superstep bound

    @property
    def ours(self) -> bool:
        return self.name == "ours"

    def compile(self, builder: Any, recursion_limit: int = LANGGRAPH_DEFAULT_RECURSION_LIMIT) -> App:
        if self.ours:
            return App(builder.compile(max_steps=recursion_limit - 1), None)
        return App(builder.compile(), {"recursion_limit": recursion_limit})


@dataclass(frozen=True)
class App:
    """A compiled graph with the bound folded in, so a test calls ``invoke``/``stream`` the same way."""

    graph: Any
    config: Mapping[str, Any] | None

    def invoke(self, state: Any) -> Any:
        if self.config is None:
            return self.graph.invoke(state)
        return self.graph.invoke(state, config=dict(self.config))

    def stream(self, state: Any, stream_mode: Any = "updates") -> Iterator[Any]:
        if self.config is None:
            return self.graph.stream(state, stream_mode=stream_mode)
        return self.graph.stream(state, config=dict(self.config), stream_mode=stream_mode)


def langgraph_engine() -> Engine:
    pytest.importorskip("langgraph", reason="LangGraph not installed: pip install 'mingraph-lite[langgraph]'")
    from langgraph.errors import GraphRecursionError, InvalidUpdateError
    from langgraph.graph import END, START, StateGraph
    from langgraph.types import Send

    return Engine("langgraph", StateGraph, START, END, Send, InvalidUpdateError, GraphRecursionError)


def our_engine() -> Engine:
    from mingraph_lite.errors import GraphExecutionError, GraphStepLimit
    from mingraph_lite.graph import END, START, Send, StateGraph

    return Engine("ours", StateGraph, START, END, Send, GraphExecutionError, GraphStepLimit)
