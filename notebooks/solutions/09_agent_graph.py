"""Reference answers for notebook 09, plausible wrong ones with the hint each must get, and the questions' answers."""


# -- 09.1 -------------------------------------------------------------------------------------------
def _already_ran(state):
    return [(call.name, call.arguments) for message in state["messages"] if message.role == "assistant"
            for call in message.tool_calls]


def route_after_model(state):
    """The notebook's own answer to 09.1 (a reference answer, loaded unprinted)."""
    if state["stop_reason"] is not None or not state["pending_calls"]:
        return "end"
    ran = _already_ran(state)
    if any((call.name, call.arguments) in ran for call in state["pending_calls"]):
        return "repeat"  # the same call again will get the same answer: stop before running it
    return "tools"


def repeat_before_the_stop(state):
    ran = _already_ran(state)
    if any((call.name, call.arguments) in ran for call in state["pending_calls"]):
        return "repeat"
    return "end" if state["stop_reason"] is not None or not state["pending_calls"] else "tools"


def repeat_by_name_only(state):
    if state["stop_reason"] is not None or not state["pending_calls"]:
        return "end"
    names = [name for name, _ in _already_ran(state)]
    return "repeat" if any(call.name in names for call in state["pending_calls"]) else "tools"


def repeat_of_the_last_round_only(state):
    if state["stop_reason"] is not None or not state["pending_calls"]:
        return "end"
    replies = [message for message in state["messages"] if message.role == "assistant"]
    last = [(call.name, call.arguments) for call in replies[-1].tool_calls] if replies else []
    return "repeat" if any((call.name, call.arguments) in last for call in state["pending_calls"]) else "tools"


def repeat_against_the_batch_itself(state):
    if state["stop_reason"] is not None or not state["pending_calls"]:
        return "end"
    batch = [(call.name, call.arguments) for call in state["pending_calls"]]
    return "repeat" if any((call.name, call.arguments) in batch for call in state["pending_calls"]) else "tools"


def repeat_within_the_batch(state):
    if state["stop_reason"] is not None or not state["pending_calls"]:
        return "end"
    batch = [(call.name, call.arguments) for call in state["pending_calls"]]
    if any(batch.count(call) > 1 for call in batch) or any(call in _already_ran(state) for call in batch):
        return "repeat"
    return "tools"


def repeat_of_the_first_call_only(state):
    if state["stop_reason"] is not None or not state["pending_calls"]:
        return "end"
    first = state["pending_calls"][0]
    return "repeat" if (first.name, first.arguments) in _already_ran(state) else "tools"


def repeat_wraps_the_package(state):
    from mingraph_lite.graph import AgentNodes

    route = AgentNodes.route_after_model(state)
    return "repeat" if route == "tools" and (state["pending_calls"][0].name, state["pending_calls"][0].arguments) \
        in _already_ran(state) else route


# -- 09.2 -------------------------------------------------------------------------------------------
PREDICTION = {"package_supersteps": 13, "router_supersteps": 8, "router_tool_handlers": 3}


# -- 09.3 -------------------------------------------------------------------------------------------
def give_up(state):
    """The notebook's own answer to 09.3 (a reference answer, loaded unprinted)."""
    ran = _already_ran(state)
    repeated = [f"{call.name}({call.arguments})" for call in state["pending_calls"]
                if (call.name, call.arguments) in ran]
    return {"stop_reason": "repeated call", "pending_calls": [], "pending_reply": None,
            "error": "asked again: " + ", ".join(repeated)}


def give_up_keeps_the_batch(state):
    return {**give_up(state), "pending_calls": state["pending_calls"]}


def give_up_with_an_answer(state):
    return {**give_up(state), "answer": "stopped: the model repeated a call"}


def give_up_names_every_pending_call(state):
    named = ", ".join(f"{call.name}({call.arguments})" for call in state["pending_calls"])
    return {**give_up(state), "error": "asked again: " + named}


def give_up_names_only_the_tool(state):
    ran = [name for name, _ in _already_ran(state)]
    return {**give_up(state), "error": "asked again: " + ", ".join(c.name for c in state["pending_calls"]
                                                                   if c.name in ran)}


def give_up_says_nothing(state):
    return {"stop_reason": "repeated call", "pending_calls": [], "pending_reply": None}


def give_up_in_place(state):
    change = give_up(state)
    state["pending_calls"] = []
    return change


def give_up_as_a_step_limit(state):
    return {**give_up(state), "stop_reason": "step limit"}


# -- 09.4 -------------------------------------------------------------------------------------------
def wire_agent(nodes, router, hold):
    """The notebook's own answer to 09.4 (a reference answer, loaded unprinted)."""
    from mingraph_lite.graph import END, START, AgentState, StateGraph

    builder = StateGraph(AgentState)
    builder.add_node("model", nodes.model)
    builder.add_node("tools", nodes.tools)
    builder.add_node("hold", hold)
    builder.add_edge(START, "model")
    builder.add_conditional_edges("model", router, {"tools": "tools", "repeat": "hold", "end": END})
    builder.add_conditional_edges("tools", nodes.route_after_tools, {"model": "model", "end": END})
    builder.add_edge("hold", END)
    return builder


def wire_tools_straight_back(nodes, router, hold):
    from mingraph_lite.graph import END, START, AgentState, StateGraph

    builder = StateGraph(AgentState)
    builder.add_node("model", nodes.model)
    builder.add_node("tools", nodes.tools)
    builder.add_node("hold", hold)
    builder.add_edge(START, "model")
    builder.add_conditional_edges("model", router, {"tools": "tools", "repeat": "hold", "end": END})
    builder.add_edge("tools", "model")
    builder.add_edge("hold", END)
    return builder


def wire_repeat_to_end(nodes, router, hold):
    from mingraph_lite.graph import END, START, AgentState, StateGraph

    builder = StateGraph(AgentState)
    builder.add_node("model", nodes.model)
    builder.add_node("tools", nodes.tools)
    builder.add_edge(START, "model")
    builder.add_conditional_edges("model", router, {"tools": "tools", "repeat": END, "end": END})
    builder.add_conditional_edges("tools", nodes.route_after_tools, {"model": "model", "end": END})
    return builder


def wire_with_the_package_router(nodes, router, hold):
    return wire_agent(nodes, nodes.route_after_model, hold)


def wire_without_repeat_in_the_map(nodes, router, hold):
    from mingraph_lite.graph import END, START, AgentState, StateGraph

    builder = StateGraph(AgentState)
    builder.add_node("model", nodes.model)
    builder.add_node("tools", nodes.tools)
    builder.add_node("hold", hold)
    builder.add_edge(START, "model")
    builder.add_conditional_edges("model", router, {"tools": "tools", "end": END})
    builder.add_conditional_edges("tools", nodes.route_after_tools, {"model": "model", "end": END})
    builder.add_edge("hold", END)
    return builder


def wire_and_compile(nodes, router, hold):
    return wire_agent(nodes, router, hold).compile()


def wire_by_the_course(nodes, router, hold):
    from lessons.exercises.nb09 import _agent_with_router

    return _agent_with_router(router, nodes.llm, hold=hold)


def wire_hold_back_to_model(nodes, router, hold):
    builder = wire_without_hold_to_end(nodes, router, hold)
    builder.add_edge("hold", "model")  # gives up, then asks the model again
    return builder


def wire_without_hold_to_end(nodes, router, hold):
    from mingraph_lite.graph import END, START, AgentState, StateGraph

    builder = StateGraph(AgentState)
    builder.add_node("model", nodes.model)
    builder.add_node("tools", nodes.tools)
    builder.add_node("hold", hold)
    builder.add_edge(START, "model")
    builder.add_conditional_edges("model", router, {"tools": "tools", "repeat": "hold", "end": END})
    builder.add_conditional_edges("tools", nodes.route_after_tools, {"model": "model", "end": END})
    return builder


SOLUTIONS = {"09.1": route_after_model, "09.2": PREDICTION, "09.3": give_up, "09.4": wire_agent,
             "09.Q1": 0, "09.Q4": 3, "09.Q5": "tools"}

WRONG = {
    "09.1": [(repeat_by_name_only, "the same name AND the same arguments"),
             (repeat_of_the_last_round_only, "not only the last round"),
             (repeat_against_the_batch_itself, "a first batch repeats nothing"),
             (repeat_within_the_batch, "among the calls already filed in messages"),
             (repeat_wraps_the_package, "write all three rules yourself"),
             (repeat_before_the_stop, "read stop_reason before looking for repeats"),
             (repeat_of_the_first_call_only, "any pending call, not only the first")],
    "09.2": [({**PREDICTION, "package_supersteps": 12}, "model runs a seventh time"),
             ({**PREDICTION, "router_tool_handlers": 4}, "never reaches the tools node"),
             ({**PREDICTION, "router_supersteps": 7}, "a superstep of its own"),
             ({"package_supersteps": 13}, "a whole number for each of")],
    "09.3": [(give_up_keeps_the_batch, "clear the batch"),
             (give_up_with_an_answer, "a stop never fills in an answer"),
             (give_up_names_every_pending_call, "name only the pending calls that repeat"),
             (give_up_names_only_the_tool, "write each repeated call as name(arguments)"),
             (give_up_says_nothing, "say which call repeated"),
             (give_up_in_place, "changed the worksheet it was handed"),
             (give_up_as_a_step_limit, "not 'repeated call'")],
    "09.4": [(wire_tools_straight_back, "route_after_tools must decide"),
             (wire_repeat_to_end, "to the hold node, and hold to END"),
             (wire_with_the_package_router, "use the router handed in"),
             (wire_without_repeat_in_the_map, "does not compile"),
             (wire_and_compile, "return the StateGraph you built, not compiled"),
             (wire_by_the_course, "this exercise already written"),
             (wire_without_hold_to_end, "hold has no edge to END"),
             (wire_hold_back_to_model, "would call the model again after giving up")],
    "09.Q1": [(1, "checked for a whole batch before it starts"), (2, "allows one handler, and the first batch asks"),
              (2.0, "a whole number")],
    "09.Q4": [(2, "not before a tools visit"), (6, "allows three model calls, not six"), ("three", "a whole number")],
    "09.Q5": [("repeat", "which calls are filed after the first round"), ("Tools", "one of")],
}

QUESTIONS = {
    "09.Q1": "None: max_tool_calls is checked for the whole batch before it starts, and the first batch asks for two "
             "lookups, which would exceed 1; the run stops with stop_reason 'tool budget' and tool_calls_made 0.",
    "09.Q2": "The tools node writes [] to clear the batch it ran. With operator.add, old + [] is the old batch, so the "
             "calls would still be pending and would run again on the next tools step.",
    "09.Q3": "A check of its own: a node after `model` that compares the final reply with the tool results (here a "
             "Celsius value called °F, the mistake notebook 05's classification finds), and a route from it to a hold "
             "exit, as the brief routes a failed check. The agent graph's routers read only the budgets and whether "
             "calls are pending; a wrong number in a final reply looks like any other answer until something checks "
             "it.",
    "09.Q4": "3: each of the three replies asks for one conversion, and the tools node runs it; the budget is checked "
             "before each model call, so the fourth visit to model stops the run with 'step limit'.",
    "09.Q5": "'tools': rule 2 compares the pending calls with calls already filed in messages, and after the first "
             "round only the two get_weather calls are filed. Two identical calls in one batch both run (the router "
             "does not compare a batch with itself).",
}
