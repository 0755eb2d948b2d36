"""Declaring a graph with LangGraph's method names, so one declaration runs on either engine (``compile_on``)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, get_args, get_origin, get_type_hints

from ..errors import GraphValidationError
from .routes import END, START, Branch, Send, Wiring, label
from .runner import CompiledGraph
from .state import read_schema

Node = Callable[[dict], Any]
Router = Callable[[dict], Any]


def _literal_routes(router: Router) -> dict[str, str] | None:
    """The routes a ``-> Literal["a", "b"]`` annotation declares, as LangGraph reads them; else None."""
    target = router if inspect.isfunction(router) or inspect.ismethod(router) else type(router).__call__
    try:
        returns = get_type_hints(target).get("return")
    except Exception:  # an annotation that cannot be resolved declares nothing
        return None
    return {name: name for name in get_args(returns)} if get_origin(returns) is Literal else None


class StateGraph:
    """A graph over a TypedDict state; ``Annotated[T, reducer]`` fields merge, the others are replaced."""

    def __init__(self, state_type: type) -> None:
        self.state_type = state_type
        self.schema = read_schema(state_type)
        self.nodes: dict[str, Node] = {}
        self._edges: dict[str, list[str]] = {}
        self._branches: dict[str, list[Branch]] = {}
        self._joins: list[tuple[tuple[str, ...], str]] = []

    def add_node(self, name: str | Node, fn: Node | None = None) -> StateGraph:
        """Add node ``name`` running ``fn(state) -> update``; ``add_node(fn)`` names it ``fn.__name__``."""
        if fn is None and callable(name):
            name, fn = name.__name__, name
        if not isinstance(name, str) or not name:
            raise TypeError(f"a node name must be a non-empty str, got {name!r}")
        if not callable(fn):
            raise TypeError(f"node {name!r} needs a function state -> update, got {fn!r}")
        if name in (START, END):
            raise GraphValidationError(f"{name!r} is reserved for {label(name)}; pick another node name")
        if ":" in name or "|" in name:
            raise GraphValidationError(f"node name {name!r} holds ':' or '|', reserved characters (LangGraph's too); "
                                       "pick another node name")
        if name in self.nodes:
            raise GraphValidationError(f"node {name!r} was added twice; node names must be unique")
        self.nodes[name] = fn
        return self

    def add_edge(self, source: str | Sequence[str], destination: str) -> StateGraph:
        """After ``source`` always go to ``destination``; a list of sources is a join (wait for all)."""
        if isinstance(source, str):
            self._edges.setdefault(source, []).append(destination)
        else:
            sources = tuple(source)
            if not sources or not all(isinstance(s, str) for s in sources):
                raise TypeError(f"add_edge needs a node name or a list of node names, got {source!r}")
            self._joins.append((sources, destination))
        return self

    def add_conditional_edges(self, source: str, router: Router,
                              path_map: Mapping[Any, str] | Sequence[str] | None = None) -> StateGraph:
        """After ``source``, ``router(state)`` returns a label, a list of labels or ``Send`` packets; the
        routes are ``path_map``, else a ``Literal[...]`` return annotation, else any node or END."""
        if not callable(router):
            raise TypeError(f"the router after {source!r} must be a function state -> label, got {router!r}")
        if not path_map:  # None, {} or [] alike, as on LangGraph
            path_map = _literal_routes(router)
        elif isinstance(path_map, (list, tuple)):
            path_map = {target: target for target in path_map}
        if path_map is not None and not isinstance(path_map, Mapping):
            raise TypeError(f"add_conditional_edges({source!r}, ...) takes a path map {{label: destination}} "
                            f"or a list of destinations, got {path_map!r}")
        name = getattr(router, "__name__", None)
        name = None if name == "<lambda>" else name  # LangGraph's name for a lambda
        if any(branch.name == name for branch in self._branches.get(source, ())):
            raise GraphValidationError(f"two routers named {name!r} leave {label(source)} (LangGraph tells "
                                       "routers apart by name); give one of them another name")
        self._branches.setdefault(source, []).append(Branch(router, None if path_map is None else dict(path_map), name))
        return self

    def add_sequence(self, nodes: Iterable[Node | tuple[str, Node]]) -> StateGraph:
        """Add nodes and an edge from each to the next (functions, or ``(name, function)`` pairs)."""
        previous = None
        for item in nodes:
            name, fn = item if isinstance(item, tuple) else (getattr(item, "__name__", None), item)
            self.add_node(name, fn)
            if previous is not None:
                self.add_edge(previous, name)
            previous = name
        if previous is None:
            raise ValueError("add_sequence needs at least one node")
        return self

    def set_entry_point(self, node: str) -> StateGraph:
        return self.add_edge(START, node)

    def set_conditional_entry_point(self, router: Router, path_map: Any = None) -> StateGraph:
        return self.add_conditional_edges(START, router, path_map)

    def set_finish_point(self, node: str) -> StateGraph:
        return self.add_edge(node, END)

    def compile(self, max_steps: int = 25, *, observers: Iterable[Any] = (), strict: bool = False,
                name: str | None = None, announce_runs: bool = True) -> CompiledGraph:
        """Check the declaration and return a runnable graph; ``max_steps`` counts supersteps."""
        if not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 0:
            raise ValueError(f"max_steps counts supersteps and must be an int >= 0, got {max_steps!r}")
        wiring = Wiring(nodes=dict(self.nodes), edges={k: tuple(v) for k, v in self._edges.items()},
                        branches={k: tuple(v) for k, v in self._branches.items()}, joins=tuple(self._joins))
        wiring.check()
        return CompiledGraph(schema=self.schema, wiring=wiring, max_steps=max_steps,
                             observers=tuple(observers), strict=strict, announce_runs=announce_runs,
                             name=name or getattr(self.state_type, "__name__", "graph"))


def langgraph_state_graph() -> type:
    """LangGraph's own ``StateGraph`` class, or an ImportError naming the extra to install."""
    try:
        from langgraph.graph import StateGraph as TheirStateGraph
    except ImportError as exc:
        raise ImportError("this needs LangGraph, which is not installed: pip install 'mingraph-lite[langgraph]'"
                          ) from exc
    return TheirStateGraph


def compile_on(engine: str, state_type: type, connect: Callable[[Any, type], Any], *, max_steps: int,
               **options: Any) -> Any:
    """``connect(builder, Send)`` on ``engine`` ("mingraph" or "langgraph"), compiled with the same bound."""
    if engine == "mingraph":
        return connect(StateGraph(state_type), Send).compile(max_steps=max_steps, **options)
    if engine == "langgraph":
        builder = langgraph_state_graph()(state_type)
        from langgraph.types import Send as TheirSend

        connect(builder, TheirSend)
        return builder.compile().with_config(recursion_limit=max_steps + 1)  # it counts the input's superstep
    raise ValueError(f"engine must be 'mingraph' or 'langgraph', got {engine!r}")
