"""Reference answers for notebook 08, plausible wrong ones with the hint each must get, and the questions' answers."""


from copy import deepcopy

from mingraph_lite.course.brief import BriefNodes
from mingraph_lite.course.weather import WEATHER

START, END = "__start__", "__end__"


# -- 08.1 -------------------------------------------------------------------------------------------
def collect_city(city):
    def collect(state):
        """The notebook's own answer to 08.1 (a reference answer, loaded unprinted)."""
        if any(reading["city"] == city for reading in state["readings"]):
            return {"events": [f"{city} already collected"]}
        record = WEATHER[city]
        reading = {"city": city, "celsius": record["celsius"], "conditions": record["conditions"],
                   "source": "fixed teaching data"}
        return {"readings": [reading], "events": [f"collected {city}"]}

    collect.__name__ = f"collect_{city}"
    return collect


def collect_city_wraps_collect_one(city):
    from lessons.parallel_brief import collect_one

    def collect(state):
        if any(reading["city"] == city for reading in state["readings"]):
            return {"events": [f"{city} already collected"]}
        return collect_one(city)(state)

    return collect


def collect_city_ignores_the_worksheet(city):
    def collect(state):
        return {"readings": [{"city": city, **WEATHER[city]}], "events": [f"collected {city}"]}

    return collect


def collect_city_repeats_the_past(city):
    def collect(state):
        reading = {"city": city, **WEATHER[city]}
        return {"readings": state["readings"] + [reading], "events": [f"collected {city}"]}

    return collect


def collect_city_copies_the_first_try(city):  # collect_one's slip plus the "already collected" rule
    def collect(state):
        if any(reading["city"] == city for reading in state["readings"]):
            return {"events": [f"{city} already collected"]}
        return {"readings": [*state["readings"], {"city": city, **WEATHER[city]}], "events": [f"collected {city}"]}

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


def collect_city_returns_the_slip(city):  # the slip itself, not a node that makes it
    return {"readings": [{"city": city, **WEATHER[city]}], "events": [f"collected {city}"]}


def collect_city_reads_a_packet(city):  # as if it were handed a Send packet
    def collect(state):
        return {"readings": [{"city": state["city"], **WEATHER[state["city"]]}], "events": [f"collected {city}"]}

    return collect


def collect_city_ignores_its_city(city):  # reads the worksheet's first city, not its own
    def collect(state):
        first = state["cities"][0]
        if any(reading["city"] == first for reading in state["readings"]):
            return {"events": [f"{first} already collected"]}
        return {"readings": [{"city": first, **WEATHER[first]}], "events": [f"collected {first}"]}

    return collect


def collect_city_wrong_field(city):
    def collect(state):
        reading = {"city": city, "celsius": WEATHER[city]["temperature"], "conditions": WEATHER[city]["conditions"]}
        return {"readings": [reading], "events": [f"collected {city}"]}

    return collect


def collect_city_wraps_the_package(city):
    return lambda state: BriefNodes.collect_city({"city": city})


# -- 08.2 -------------------------------------------------------------------------------------------
def next_nodes(graph, node, state):  # as in the notebook
    if node in graph["routers"]:
        router, path_map = graph["routers"][node]
        return [path_map[router(state)]]
    return graph["edges"].get(node, [])


def _merge(graph, state, slips, refuse_two_writes=True):
    """Merge a superstep's slips by node name; two writes to a plain field are refused, as run_supersteps does."""
    for slip in slips.values():
        for field, value in slip.items():
            reducer, writers = graph["reducers"].get(field), [n for n, s in slips.items() if field in s]
            if refuse_two_writes and reducer is None and len(writers) > 1:
                raise ValueError(f"{writers} all wrote the plain field {field!r} in one superstep")
            state[field] = reducer(state[field], value) if reducer and field in state else value


def _superstep(graph, state, ran):
    """Every node on its own copy of the same worksheet, then one merge: the notebook's superstep."""
    _merge(graph, state, {node: graph["nodes"][node](deepcopy(state)) for node in ran})


def _loop(graph, state, ready, superstep=_superstep):
    """The notebook's run_supersteps, with who may start next decided by ``ready(ran, triggered)``."""
    state, log = deepcopy(state), []
    active = set(next_nodes(graph, START, state))
    while active - {END}:
        if len(log) == graph["max_steps"]:
            raise RuntimeError(f"stopped after {len(log)} supersteps (max_steps)")
        ran = sorted(active - {END})
        superstep(graph, state, ran)
        log.append((len(log) + 1, ran))
        active = ready(graph, [(node, target) for node in ran for target in next_nodes(graph, node, state)])
    return state, log


def run_looping_supersteps(graph, state):
    arrived = {}  # join target -> the sources that have run since it last started

    def ready(graph, triggered):
        """The notebook's own answer to 08.2 (a reference answer, loaded unprinted)."""
        active = set()
        for node, target in triggered:
            arrived.setdefault(target, set()).add(node)
            if arrived[target] >= graph["joins"].get(target, set()):
                active.add(target)
        for target in active:
            del arrived[target]  # started: it waits afresh for the next pass
        return active

    return _loop(graph, state, ready)


def _ready_as_08_2():
    """08.2's own rule, for wrong answers that break something else."""
    arrived = {}

    def ready(graph, triggered):
        active = set()
        for node, target in triggered:
            arrived.setdefault(target, set()).add(node)
            if arrived[target] >= graph["joins"].get(target, set()):
                active.add(target)
        for target in active:
            del arrived[target]
        return active
    return ready


def run_without_the_plain_field_rule(graph, state):  # keeps the last write to a plain field, never refuses two
    return _loop(graph, state, _ready_as_08_2(),
                 lambda graph, state, ran: _merge(graph, state, {n: graph["nodes"][n](deepcopy(state)) for n in ran},
                                                  refuse_two_writes=False))


def run_one_node_after_another(graph, state):  # merges each slip before the next node runs: no shared worksheet
    def one_by_one(graph, state, ran):
        for node in ran:
            _merge(graph, state, {node: graph["nodes"][node](deepcopy(state))})
    return _loop(graph, state, _ready_as_08_2(), one_by_one)


def run_shares_one_set(graph, state):  # one set for every join, emptied of a join's sources the moment it starts
    done = set()

    def ready(graph, triggered):
        active = set()
        for node, target in triggered:
            done.add(node)
            if done >= graph["joins"].get(target, set()):
                active.add(target)
                done.difference_update(graph["joins"].get(target, set()))
        return active

    return _loop(graph, state, ready)


def run_forgets_beside_the_join(graph, state):  # empties a join's set after the superstep it ran in
    arrived = {}

    def ready(graph, triggered):
        for node, target in triggered:
            arrived.setdefault(target, set()).add(node)
        active = {target for _, target in triggered if arrived[target] >= graph["joins"].get(target, set())}
        for node, _ in triggered:
            arrived.pop(node, None)  # a source that ran beside this join is forgotten with it
        return active

    return _loop(graph, state, ready)


def run_remembers_the_whole_run(graph, state):  # the notebook's run_supersteps: done never forgets
    done = set()

    def ready(graph, triggered):
        done.update(node for node, _ in triggered)
        return {target for _, target in triggered if done >= graph["joins"].get(target, set())}

    return _loop(graph, state, ready)


def run_remembers_one_superstep(graph, state):  # forgets arrivals between supersteps: an uneven join never starts
    def ready(graph, triggered):
        ran = {node for node, _ in triggered}
        return {target for _, target in triggered if ran >= graph["joins"].get(target, set())}

    return _loop(graph, state, ready)


def run_counts_the_runs(graph, state):  # a join starts once each source has run more times than it has
    runs = {}

    def ready(graph, triggered):
        for node in {node for node, _ in triggered}:
            runs[node] = runs.get(node, 0) + 1
        return {target for _, target in triggered
                if all(runs.get(source, 0) > runs.get(target, 0) for source in graph["joins"].get(target, set()))}

    return _loop(graph, state, ready)


def run_forgets_every_join(graph, state):  # when any join starts, forgets what every join was waiting for
    done = set()

    def ready(graph, triggered):
        done.update(node for node, _ in triggered)
        active = {target for _, target in triggered if done >= graph["joins"].get(target, set())}
        if active & set(graph["joins"]):
            done.clear()
        return active

    return _loop(graph, state, ready)


def run_without_a_bound(graph, state):  # never stops a loop that keeps going
    return run_looping_supersteps({**graph, "max_steps": None}, state)


def _wire(builder, graph):
    """The dict graph's nodes, edges, joins and routers declared on an engine's builder (both hand-offs below)."""
    for name, node in graph["nodes"].items():
        builder.add_node(name, node)
    for source, targets in graph["edges"].items():
        for target in targets:
            if target not in graph["joins"]:
                builder.add_edge(source, target)
    for target, sources in graph["joins"].items():
        builder.add_edge(sorted(sources), target)
    for source, (router, path_map) in graph["routers"].items():
        builder.add_conditional_edges(source, router, path_map)


def run_on_the_package(graph, state):  # hands the run to the package's engine (a sketch: the check refuses it first)
    from typing import Annotated, Any, TypedDict

    from mingraph_lite.graph import StateGraph
    fields = {f: Annotated[Any, graph["reducers"][f]] if f in graph["reducers"] else Any for f in state}
    builder = StateGraph(TypedDict("Loose", fields))
    _wire(builder, graph)
    compiled = builder.compile()
    return compiled.invoke(deepcopy(state)), compiled.steps


def run_on_the_package_unnamed(graph, state):  # the same hand-off, with every name spelt in pieces
    import importlib
    from typing import Annotated, Any, TypedDict

    engine = getattr(importlib.import_module("mingraph_lite." + "graph"), "State" + "Graph")
    fields = {f: Annotated[Any, graph["reducers"][f]] if f in graph["reducers"] else Any for f in state}
    builder = engine(TypedDict("Loose", fields))
    _wire(builder, graph)
    compiled = getattr(builder, "com" + "pile")(max_steps=graph["max_steps"])
    return getattr(compiled, "in" + "voke")(deepcopy(state)), list(enumerate(compiled.steps, start=1))


def run_in_place(graph, state):  # leaves the caller's state holding the run's result
    final, log = run_looping_supersteps(graph, state)
    state.update(final)
    return final, log


def run_returns_the_state_only(graph, state):
    return run_looping_supersteps(graph, state)[0]


def run_any_source_suffices(graph, state):  # a join starts as soon as one of its sources has run
    return _loop(graph, state, lambda graph, triggered: {target for _, target in triggered})


# -- 08.3 -------------------------------------------------------------------------------------------
def send_missing(state, send):
    """The notebook's own answer to 08.3 (a reference answer, loaded unprinted)."""
    have = {reading["city"] for reading in state["readings"]}
    missing = [city for city in state["cities"] if city not in have]
    if not missing:
        return "write_draft"  # no packet would start nothing: the run would end at once, with no draft
    return [send("collect_city", {"city": city}) for city in missing]


def send_nothing_when_all_kept(state, send):
    have = {reading["city"] for reading in state["readings"]}
    return [send("collect_city", {"city": city}) for city in state["cities"] if city not in have]


def send_route_always(state, send):
    have = {reading["city"] for reading in state["readings"]}
    return "write_draft" if have else [send("collect_city", {"city": city}) for city in state["cities"]]


def send_one_packet(state, send):  # one Send, not a list of them
    missing = [city for city in state["cities"] if city not in {r["city"] for r in state["readings"]}]
    return send("collect_city", {"city": missing[0]}) if missing else "write_draft"


def send_every_city(state, send):
    return [send("collect_city", {"city": city}) for city in state["cities"]]


def send_names_only(state, send):
    have = {reading["city"] for reading in state["readings"]}
    return [city for city in state["cities"] if city not in have]


def send_the_worksheet(state, send):
    have = {reading["city"] for reading in state["readings"]}
    return [send("collect_city", {**state, "city": city}) for city in state["cities"] if city not in have]


def send_with_our_send(state, send):
    from mingraph_lite.graph import Send

    have = {reading["city"] for reading in state["readings"]}
    return [Send("collect_city", {"city": city}) for city in state["cities"] if city not in have]


def send_in_sorted_order(state, send):
    have = {reading["city"] for reading in state["readings"]}
    return [send("collect_city", {"city": city}) for city in sorted(state["cities"]) if city not in have]


def send_route_as_a_list(state, send):
    have = {reading["city"] for reading in state["readings"]}
    missing = [city for city in state["cities"] if city not in have]
    return [send("collect_city", {"city": city}) for city in missing] or ["write_draft"]


def send_through_the_dict(state, send):  # the package's fan_out reached around its name, on the missing cities
    have = {reading["city"] for reading in state["readings"]}
    missing = {**state, "cities": [city for city in state["cities"] if city not in have]}
    return BriefNodes.__dict__["fan_out"].__func__(missing, send) or "write_draft"


def send_with_the_package(state, send):
    return [p for p in BriefNodes.fan_out(state, send) if p]


SOLUTIONS = {"08.1": collect_city, "08.2": run_looping_supersteps, "08.3": send_missing,
             "08.Q2": 8, "08.Q3": 1, "08.Q5": {"supersteps": 4, "collect_city": 2}}

WRONG = {
    "08.1": [(collect_city_ignores_the_worksheet, "look in state['readings'] first"),
             (collect_city_repeats_the_past, "send only the new one"),
             (collect_city_copies_the_first_try, "send only the new one"),
             (collect_city_bare_reading, "one-item lists"),
             (collect_city_in_place, "changed the state it was handed"),
             (collect_city_returns_the_slip, "it must return a node"),
             (collect_city_reads_a_packet, "which has no 'city' field"),
             (collect_city_ignores_its_city, "does your node use its own city"),
             (collect_city_wrong_field, "WEATHER[city], which holds 'celsius' and 'conditions'"),
             (collect_city_wraps_the_package, "reads a Send packet"),
             (collect_city_wraps_collect_one, "your node calls collect_one")],
    "08.2": [(run_remembers_the_whole_run, "next to one of its sources"),
             (run_without_the_plain_field_rule, "refuse it with ValueError"),
             (run_shares_one_set, "a source counts for every join it leads to"),
             (run_one_node_after_another, "its own copy of the same worksheet"),
             (run_remembers_one_superstep, "never started"),
             (run_forgets_beside_the_join, "counts for the join's next pass"),
             (run_forgets_every_join, "Forget only the sources of the join that started"),
             (run_counts_the_runs, "not how many times"),
             (run_without_a_bound, "run exactly max_steps supersteps"),
             (run_on_the_package, "hands the work to an engine"),
             (run_on_the_package_unnamed, "hands the work to an engine (mingraph_lite.graph"),
             (run_in_place, "changed the state it was handed"),
             (run_returns_the_state_only, "return (state, log)"),
             (run_any_source_suffices, "waits for every one of its sources")],
    "08.3": [(send_one_packet, "return a list of Send"),
             (send_every_city, "a city that already has a reading gets no packet"),
             (send_names_only, "build each packet with the `send` it is handed"),
             (send_the_worksheet, "a packet holding only the city"),
             (send_with_our_send, "build each packet with the `send` it is handed"),
             (send_route_as_a_list, "asks for the route as a string"),
             (send_through_the_dict, "runs the package's fan_out"),
             (send_in_sorted_order, "in the order state['cities'] lists them"),
             (send_with_the_package, "build the packets yourself"),
             (send_nothing_when_all_kept, "a silent exit. Return the route 'write_draft'"),
             (send_route_always, "only for a worksheet that misses no city")],
    "08.Q2": [(10, "10 counts node executions"), (9, "the three collecting branches share superstep 1"),
              (6, "allows two revisions before hold"), (7, "did you count hold"),
              ("eight", "a whole number")],
    "08.Q3": [(2, "for every superstep in which an edge into it fires"), (3, "a2 and b2 run in the same superstep")],
    "08.Q5": [({"supersteps": 6, "collect_city": 2}, "share one superstep"),
              ({"supersteps": 3, "collect_city": 2}, "each node after the packets takes a superstep of its own"),
              ({"supersteps": 4, "collect_city": 3}, "a city that already has a reading gets no packet"),
              (4, "a dict")],
}

QUESTIONS = {
    "08.Q1": "In one superstep every branch reads the same worksheet and their slips are merged together; a plain "
             "field takes one value, so each branch's readings would replace the others' and whichever merged last "
             "would win, silently dropping cities. The sequential collect wrote all readings in one slip. Our loop "
             "refuses two writes to a plain field in one superstep and names both nodes (both engines refuse too; "
             "LangGraph names only the key): a loud "
             "error at the cause beats a brief that quietly lacks a city.",
    "08.Q2": "8: the three collecting branches share superstep 1, then write_draft, check_draft, two (revise_draft, "
             "check_draft) pairs and hold, one node per superstep (10 node executions).",
    "08.Q3": "Once: both branches are two nodes long, so a2 and b2 run in the same superstep and trigger write "
             "together. The join matters when branches differ in length (a -> a2 against b made write run twice).",
    "08.Q4": "`slips = {node: graph['nodes'][node](deepcopy(state)) for node in sorted(active - {END})}`: every node "
             "is called on a copy of the same state before anything is merged. The merge loop runs over `slips` in "
             "that sorted order, so the merged worksheet is the same on every run.",
    "08.Q5": "4 supersteps and 2 runs of collect_city: the router sends one packet per missing city, both packets "
             "run collect_city in superstep 1, then write_draft, check_draft and publish take one superstep each.",
}
