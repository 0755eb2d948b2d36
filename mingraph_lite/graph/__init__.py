"""A small LangGraph: ``StateGraph`` declares, ``compile()`` checks, the graph runs in supersteps (docs/graph.md)."""

from .agent_graph import AgentNodes, AgentState, build_agent_graph, initial_agent_state, run_agent_graph
from .builder import END, START, Send, StateGraph
from .runner import CompiledGraph, StepSnapshot

__all__ = ["END", "START", "AgentNodes", "AgentState", "CompiledGraph", "Send", "StateGraph", "StepSnapshot",
           "build_agent_graph", "initial_agent_state", "run_agent_graph"]
