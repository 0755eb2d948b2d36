"""Reference answers for notebook 06, and plausible wrong ones with the hint each must get."""


from copy import deepcopy

from mingraph_lite.course.brief import BriefState
from mingraph_lite.course.weather import WEATHER

START, END = "__start__", "__end__"


# -- 06.1 -------------------------------------------------------------------------------------------
def route_after_check(state, max_revisions):
    review = state["review"]
    if review is None or review["checked_draft"] != state["draft"]:
        raise ValueError("the current draft has not been checked")
    if review["passed"]:
        return "accept"
    return "revise" if state["revisions"] < max_revisions else "hold"


def router_off_by_one(state, max_revisions):
    review = state["review"]
    if review is None or review["checked_draft"] != state["draft"]:
        raise ValueError("the current draft has not been checked")
    if review["passed"]:
        return "accept"
    return "revise" if state["revisions"] <= max_revisions else "hold"


def router_budget_first(state, max_revisions):
    review = state["review"]
    if review is None or review["checked_draft"] != state["draft"]:
        raise ValueError("the current draft has not been checked")
    if state["revisions"] >= max_revisions:
        return "hold"
    return "accept" if review["passed"] else "revise"


def router_trusts_any_review(state, max_revisions):
    review = state["review"]
    if review is None:
        raise ValueError("no review yet")
    if review["passed"]:
        return "accept"
    return "revise" if state["revisions"] < max_revisions else "hold"


# -- 06.2 -------------------------------------------------------------------------------------------
def run(graph, state):
    state, steps = deepcopy(state), 0
    node = graph["edges"][START]
    while node != END:
        if steps == graph["max_steps"]:
            raise RuntimeError(f"stopped before {node!r}: {steps} nodes ran (max_steps)")
        update = graph["nodes"][node](deepcopy(state))
        for field, value in update.items():
            reducer = graph["reducers"].get(field)
            state[field] = reducer(state[field], value) if reducer and field in state else value
        steps += 1
        if node in graph["routers"]:
            router, path_map = graph["routers"][node]
            node = path_map[router(state)]
        else:
            node = graph["edges"].get(node, END)
    return state


def run_without_reducers(graph, state):
    state, steps = deepcopy(state), 0
    node = graph["edges"][START]
    while node != END:
        if steps == graph["max_steps"]:
            raise RuntimeError("too many steps")
        state.update(graph["nodes"][node](deepcopy(state)))
        steps += 1
        if node in graph["routers"]:
            router, path_map = graph["routers"][node]
            node = path_map[router(state)]
        else:
            node = graph["edges"].get(node, END)
    return state


def run_without_copies(graph, state):
    state, steps = dict(state), 0
    node = graph["edges"][START]
    while node != END:
        if steps == graph["max_steps"]:
            raise RuntimeError("too many steps")
        update = graph["nodes"][node](state)
        for field, value in update.items():
            reducer = graph["reducers"].get(field)
            state[field] = reducer(state[field], value) if reducer and field in state else value
        steps += 1
        if node in graph["routers"]:
            router, path_map = graph["routers"][node]
            node = path_map[router(state)]
        else:
            node = graph["edges"].get(node, END)
    return state


def run_without_bound(graph, state):
    state = deepcopy(state)
    node = graph["edges"][START]
    while node != END:
        update = graph["nodes"][node](deepcopy(state))
        for field, value in update.items():
            reducer = graph["reducers"].get(field)
            state[field] = reducer(state[field], value) if reducer and field in state else value
        if node in graph["routers"]:
            router, path_map = graph["routers"][node]
            node = path_map[router(state)]
        else:
            node = graph["edges"].get(node, END)
    return state


def run_needs_every_edge(graph, state):
    state, steps = deepcopy(state), 0
    node = graph["edges"][START]
    while node != END:
        if steps == graph["max_steps"]:
            raise RuntimeError("too many steps")
        update = graph["nodes"][node](deepcopy(state))
        for field, value in update.items():
            reducer = graph["reducers"].get(field)
            state[field] = reducer(state[field], value) if reducer and field in state else value
        steps += 1
        if node in graph["routers"]:
            router, path_map = graph["routers"][node]
            node = path_map[router(state)]
        else:
            node = graph["edges"][node]
    return state


# -- 06.3 -------------------------------------------------------------------------------------------
def collect_city(city):
    def collect(state):
        record = WEATHER[city]
        reading = {"city": city, "celsius": record["celsius"], "conditions": record["conditions"],
                   "source": "fixed teaching data"}
        return {"readings": [reading], "events": [f"collected {city}"]}

    return collect


def collect_city_repeats_the_past(city):
    def collect(state):
        reading = {"city": city, **WEATHER[city]}
        return {"readings": state["readings"] + [reading], "events": [f"collected {city}"]}

    return collect


def collect_city_bare_reading(city):
    def collect(state):
        return {"readings": {"city": city, **WEATHER[city]}, "events": [f"collected {city}"]}

    return collect


def collect_city_in_place(city):
    def collect(state):
        state["readings"].append({"city": city, **WEATHER[city]})
        return {"readings": [{"city": city, **WEATHER[city]}], "events": [f"collected {city}"]}

    return collect


# -- 06.4 -------------------------------------------------------------------------------------------
def _declare(builder, nodes, cities, *, parallel=True, second_check=True):
    from langgraph.graph import END, START

    for city in cities:
        builder.add_node(f"collect_{city}", collect_city(city))
    for name in ("write_draft", "check_draft", "revise_draft", "publish", "hold"):
        builder.add_node(name, getattr(nodes, name))
    if parallel:
        for city in cities:
            builder.add_edge(START, f"collect_{city}")
        builder.add_edge([f"collect_{city}" for city in cities], "write_draft")
    else:  # one after the other: correct worksheet, but one superstep per city
        chain = [START] + [f"collect_{city}" for city in cities] + ["write_draft"]
        for source, target in zip(chain, chain[1:]):
            builder.add_edge(source, target)
    builder.add_edge("write_draft", "check_draft")
    builder.add_conditional_edges("check_draft", nodes.route_after_check,
                                  {"accept": "publish", "revise": "revise_draft", "hold": "hold"})
    if second_check:
        builder.add_edge("revise_draft", "check_draft")
    builder.add_edge("publish", END)
    builder.add_edge("hold", END)
    return builder.compile()


def declare_on_langgraph(nodes, cities):
    from langgraph.graph import StateGraph

    return _declare(StateGraph(BriefState), nodes, cities)


def declare_one_after_another(nodes, cities):
    from langgraph.graph import StateGraph

    return _declare(StateGraph(BriefState), nodes, cities, parallel=False)


def declare_forgets_the_second_check(nodes, cities):
    from langgraph.graph import StateGraph

    return _declare(StateGraph(BriefState), nodes, cities, second_check=False)


def declare_but_never_compile(nodes, cities):
    from langgraph.graph import StateGraph

    builder = StateGraph(BriefState)
    _declare(builder, nodes, cities)
    return builder


SOLUTIONS = {"06.1": route_after_check, "06.2": run, "06.3": collect_city, "06.4": declare_on_langgraph}

WRONG = {
    "06.1": [(router_off_by_one, "max_revisions=N allows N revisions"),
             (router_budget_first, "a draft that passed is delivered"),
             (router_trusts_any_review, "a review of another draft")],
    "06.2": [(run_without_reducers, "merge a field that has a reducer"),
             (run_without_copies, "deep copy"),
             (run_without_bound, "past max_steps"),
             (run_needs_every_edge, "a node with no edge and no router ends the run")],
    "06.3": [(collect_city_repeats_the_past, "send only the new one"),
             (collect_city_bare_reading, "one-item lists"),
             (collect_city_in_place, "changed the state it was handed")],
    "06.4": [(declare_one_after_another, "every city's collecting node should start at once"),
             (declare_forgets_the_second_check, "a node with no outgoing edge ends the run"),
             (declare_but_never_compile, "return builder.compile()")],
}
