"""Reference answers for notebook 07, plausible wrong ones with the hint each must get, and the questions' answers."""


from copy import deepcopy

from mingraph_lite.course.brief import BriefNodes

START, END = "__start__", "__end__"


# -- 07.1 -------------------------------------------------------------------------------------------
def _unchecked(state):
    return state["review"] is None or state["review"]["checked_draft"] != state["draft"]


def route_after_check(state, max_revisions):
    """The notebook's own answer to 07.1 (a reference answer, loaded unprinted)."""
    review = state["review"]
    if review is None or review["checked_draft"] != state["draft"]:
        raise ValueError("the current draft has not been checked")
    if review["passed"]:
        return "accept"
    if any(issue.startswith("wrong_values") for issue in review["issues"]):
        return "hold"  # wrong numbers go to a person at once
    return "revise" if state["revisions"] < max_revisions else "hold"


def router_off_by_one(state, max_revisions):
    if _unchecked(state):
        raise ValueError("the current draft has not been checked")
    if state["review"]["passed"]:
        return "accept"
    if any(issue.startswith("wrong_values") for issue in state["review"]["issues"]):
        return "hold"
    return "revise" if state["revisions"] <= max_revisions else "hold"


def router_budget_first(state, max_revisions):
    if _unchecked(state):
        raise ValueError("the current draft has not been checked")
    if state["revisions"] >= max_revisions:
        return "hold"
    return "accept" if state["review"]["passed"] else "revise"


def router_trusts_any_review(state, max_revisions):
    review = state["review"]
    if review is None:
        raise ValueError("no review yet")
    if review["passed"]:
        return "accept"
    if any(issue.startswith("wrong_values") for issue in review["issues"]):
        return "hold"
    return "revise" if state["revisions"] < max_revisions else "hold"


def router_like_the_package(state, max_revisions):  # BriefNodes.route_after_check pasted: no rule for wrong numbers
    review = state["review"]
    if review is None or review["checked_draft"] != state["draft"]:
        raise ValueError("the current draft has not been checked")
    if review["passed"]:
        return "accept"
    return "revise" if state["revisions"] < max_revisions else "hold"


def router_holds_every_problem(state, max_revisions):
    if _unchecked(state):
        raise ValueError("the current draft has not been checked")
    if state["review"]["passed"]:
        return "accept"
    if any(issue != "missing_fixed_data_notice" for issue in state["review"]["issues"]):
        return "hold"
    return "revise" if state["revisions"] < max_revisions else "hold"


def router_skips_rule_1(state, max_revisions):  # no check that this draft was checked
    review = state["review"]
    if review["passed"]:
        return "accept"
    if any(issue.startswith("wrong_values") for issue in review["issues"]):
        return "hold"
    return "revise" if state["revisions"] < max_revisions else "hold"


def router_wraps_the_package(state, max_revisions):
    return BriefNodes(max_revisions=max_revisions).route_after_check(state)


# -- 07.2 -------------------------------------------------------------------------------------------
def run(graph, state):
    """The notebook's own answer to 07.2 (a reference answer, loaded unprinted)."""
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


def run_walks_into_none(graph, state):  # a node without an edge leads to None, not to the end
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
            node = graph["edges"].get(node)
    return state


def run_on_the_package_unnamed(graph, state):  # hands the run to the package's engine, every name spelt in pieces
    import importlib
    from typing import Annotated, Any, TypedDict

    engine = getattr(importlib.import_module("mingraph_lite." + "graph"), "State" + "Graph")
    fields = {f: Annotated[Any, graph["reducers"][f]] if f in graph["reducers"] else Any for f in state}
    builder = engine(TypedDict("Loose", fields))
    for name, node in graph["nodes"].items():
        builder.add_node(name, node)
    for source, target in graph["edges"].items():
        builder.add_edge(source, target)
    for source, (router, path_map) in graph["routers"].items():
        builder.add_conditional_edges(source, router, path_map)
    return getattr(getattr(builder, "com" + "pile")(max_steps=graph["max_steps"]), "in" + "voke")(deepcopy(state))


def run_routes_before_merging(graph, state):
    state, steps = deepcopy(state), 0
    node = graph["edges"][START]
    while node != END:
        if steps == graph["max_steps"]:
            raise RuntimeError("too many steps")
        update = graph["nodes"][node](deepcopy(state))
        following = None
        if node in graph["routers"]:
            router, path_map = graph["routers"][node]
            following = path_map[router(state)]  # asked before the slip is merged
        for field, value in update.items():
            reducer = graph["reducers"].get(field)
            state[field] = reducer(state[field], value) if reducer and field in state else value
        steps += 1
        node = following or graph["edges"].get(node, END)
    return state


def run_reduces_a_missing_field(graph, state):
    state, steps = deepcopy(state), 0
    node = graph["edges"][START]
    while node != END:
        if steps == graph["max_steps"]:
            raise RuntimeError("too many steps")
        update = graph["nodes"][node](deepcopy(state))
        for field, value in update.items():
            reducer = graph["reducers"].get(field)
            state[field] = reducer(state[field], value) if reducer else value  # even when the field is not there
        steps += 1
        if node in graph["routers"]:
            router, path_map = graph["routers"][node]
            node = path_map[router(state)]
        else:
            node = graph["edges"].get(node, END)
    return state


def run_takes_the_label_for_a_node(graph, state):
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
        node = graph["routers"][node][0](state) if node in graph["routers"] else graph["edges"].get(node, END)
    return state


def run_stops_after_the_last_allowed_node(graph, state):
    state, steps = deepcopy(state), 0
    node = graph["edges"][START]
    while node != END:
        update = graph["nodes"][node](deepcopy(state))
        for field, value in update.items():
            reducer = graph["reducers"].get(field)
            state[field] = reducer(state[field], value) if reducer and field in state else value
        steps += 1
        if steps == graph["max_steps"]:  # raises even when the next node would be END
            raise RuntimeError("too many steps")
        if node in graph["routers"]:
            router, path_map = graph["routers"][node]
            node = path_map[router(state)]
        else:
            node = graph["edges"].get(node, END)
    return state


# -- 07.3 -------------------------------------------------------------------------------------------
def _checks(state):
    return [event for event in state["events"] if event.startswith("checked draft")]


def route_unless_stuck(state, max_revisions):
    """The notebook's own answer to 07.3 (a reference answer, loaded unprinted)."""
    if state["review"]["passed"]:
        return "accept"
    checks = _checks(state)
    if len(checks) >= 2 and checks[-1] == checks[-2]:
        return "hold"  # the last revision fixed nothing
    return "revise" if state["revisions"] < max_revisions else "hold"


def stuck_compares_with_the_first(state, max_revisions):
    if state["review"]["passed"]:
        return "accept"
    checks = _checks(state)
    if len(checks) >= 2 and checks[-1] == checks[0]:
        return "hold"
    return "revise" if state["revisions"] < max_revisions else "hold"


def stuck_holds_at_the_first_failure(state, max_revisions):
    if state["review"]["passed"]:
        return "accept"
    checks = _checks(state)
    if len(checks) < 2 or checks[-1] == checks[-2]:
        return "hold"
    return "revise" if state["revisions"] < max_revisions else "hold"


def stuck_forgets_the_allowance(state, max_revisions):
    if state["review"]["passed"]:
        return "accept"
    checks = _checks(state)
    return "hold" if len(checks) >= 2 and checks[-1] == checks[-2] else "revise"


def stuck_without_a_length_guard(state, max_revisions):
    if state["review"]["passed"]:
        return "accept"
    checks = _checks(state)
    if checks[-1] == checks[-2]:  # IndexError when only one check ran
        return "hold"
    return "revise" if state["revisions"] < max_revisions else "hold"


def stuck_compares_counts(state, max_revisions):
    if state["review"]["passed"]:
        return "accept"
    counts = [len(check.split(": ", 1)[1].split(", ")) for check in _checks(state)]
    if len(counts) >= 2 and counts[-1] == counts[-2]:
        return "hold"  # as many issues as before, but not necessarily the same ones
    return "revise" if state["revisions"] < max_revisions else "hold"


def stuck_wraps_the_package(state, max_revisions):
    nodes = BriefNodes(max_revisions=max_revisions)
    return nodes.route_after_check(state)


SOLUTIONS = {"07.1": route_after_check, "07.2": run, "07.3": route_unless_stuck,
             "07.Q2": 1, "07.Q4": 10, "07.Q5": 4}

WRONG = {
    "07.1": [(router_off_by_one, "max_revisions=N allows N revisions"),
             (router_budget_first, "a draft that passed is delivered"),
             (router_trusts_any_review, "a review of another draft"),
             (router_like_the_package, "wrong numbers are held at once"),
             (router_holds_every_problem, "only wrong numbers are held at once"),
             (router_skips_rule_1, "rule 1 comes first"),
             (router_wraps_the_package, "write the rules yourself")],
    "07.2": [(run_without_reducers, "merge a field that has a reducer"),
             (run_without_copies, "deep copy"),
             (run_without_bound, "past max_steps"),
             (run_needs_every_edge, "rule 4, a node with neither edge nor router ends the run"),
             (run_walks_into_none, "rule 4, a node with neither edge nor router ends the run"),
             (run_routes_before_merging, "merge first, then let the router read the result"),
             (run_takes_the_label_for_a_node, "path_map[label] is the node"),
             (run_reduces_a_missing_field, "a field the state does not have yet is simply set"),
             (run_stops_after_the_last_allowed_node, "a chain of exactly max_steps"),
             (run_on_the_package_unnamed, "hands the work to an engine (mingraph_lite.graph")],
    "07.3": [(stuck_compares_with_the_first, "compare the last check with the one just before it"),
             (stuck_holds_at_the_first_failure, "a first failed check has nothing to compare with"),
             (stuck_forgets_the_allowance, "max_revisions still bounds"),
             (stuck_without_a_length_guard, "only one check has run"),
             (stuck_compares_counts, "compare the issues themselves, not how many there are"),
             (stuck_wraps_the_package, "knows nothing about a stuck writer")],
    "07.Q2": [(7, "what the reducer gives"), (6, "one event per node")],
    "07.Q4": [(9, "hold runs too"), (7, "its own check"), (12, "one (revise_draft, check_draft) pair per revision")],
    "07.Q5": [(5, "LangGraph's count"), (8, "the longest legal run"), (3, "path from collect to its exit")],
}

QUESTIONS = {
    "07.Q1": "A person or a listener, not the router or publish. Between a new draft and its check, the worksheet "
             "would carry the verdict on the previous draft as if it were current: a `values` stream, a listener, or "
             "the worksheet left by a run stopped in between (max_steps, an error in revise_draft) would show a pass "
             "or a list of issues that belong to another draft. The router and publish are not fooled: both compare "
             "review['checked_draft'] with the current draft, so a stale review makes the router raise ValueError and "
             "publish refuse, and in this graph check_draft always runs before either of them reads the review. "
             "Clearing it keeps the worksheet true at every step; the comparison is what prevents a wrong delivery.",
    "07.Q2": "1: without a reducer every slip's `events` replaces the list, so only the last node's event is left "
             "(['published']); the account of what happened is lost. With operator.add it holds 7.",
    "07.Q3": "The path_map, the third argument of add_conditional_edges('check_draft', ...): map 'accept' to "
             "'translate', add the node, and add an edge translate -> publish. Compile then checks that every label's "
             "target exists and that every node, translate included, can be reached; the router itself is unchanged.",
    "07.Q4": "10: collect, write_draft, check_draft, then three (revise_draft, check_draft) pairs, then hold: "
             "step_bound(3) = 2 * 3 + 4.",
    "07.Q5": "4: collect, write_draft, check_draft, publish. Our max_steps counts supersteps, one node each here, "
             "and the complete writer passes the first check, so the allowance is never used.",
}
