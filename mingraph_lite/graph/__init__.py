"""A small LangGraph: explicit state, partial updates, reducers, supersteps, declared routes, bounds.

``StateGraph`` declares (LangGraph's method names), ``compile()`` checks, the compiled graph runs
(``invoke``/``stream``) in supersteps (parallel branches, joins, ``Send``) and draws itself.
``build_agent_graph`` is the model/tools loop as two nodes on this engine. How the engine works,
what ``max_steps`` counts, and the one table of every difference from LangGraph: ``docs/graph.md``.
"""

from .agent_graph import AgentNodes, AgentState, build_agent_graph, initial_agent_state, run_agent_graph
from .builder import END, START, Send, StateGraph
from .runner import CompiledGraph, StepSnapshot

__all__ = ["END", "START", "AgentNodes", "AgentState", "CompiledGraph", "Send", "StateGraph", "StepSnapshot",
           "build_agent_graph", "initial_agent_state", "run_agent_graph"]
