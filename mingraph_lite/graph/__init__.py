"""A small state-graph engine: explicit state, partial updates, reducers, declared routes, bounds.

``StateGraph`` declares, ``compile()`` checks, the compiled graph runs (``invoke``/``stream``) and
draws itself. ``build_agent_graph`` is the model/tools loop as two nodes on this engine.
"""

from .agent_graph import AgentState, build_agent_graph, initial_agent_state, run_agent_graph
from .builder import END, START, StateGraph
from .runner import CompiledGraph, StepSnapshot

__all__ = ["END", "START", "AgentState", "CompiledGraph", "StateGraph", "StepSnapshot", "build_agent_graph",
           "initial_agent_state", "run_agent_graph"]
