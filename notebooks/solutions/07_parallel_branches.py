"""Reference answers for notebook 07, plausible wrong ones with the hint each must get, and the questions' answers."""


from mingraph_lite.course.brief import BriefNodes, build_brief_graph
from mingraph_lite.course.weather import WEATHER

START, END = "__start__", "__end__"


# -- 07.1 -------------------------------------------------------------------------------------------
def collect_city(city):
    def collect(state):
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


def collect_city_wrong_field(city):
    def collect(state):
        reading = {"city": city, "celsius": WEATHER[city]["temperature"], "conditions": WEATHER[city]["conditions"]}
        return {"readings": [reading], "events": [f"collected {city}"]}

    return collect


def collect_city_wraps_the_package(city):
    return lambda state: BriefNodes.collect_city({"city": city})


# -- 07.2 -------------------------------------------------------------------------------------------
def _declare(builder, nodes, cities, *, parallel=True, join=True, second_check=True):
    branches = [f"collect_{city}" for city in cities]
    for city, branch in zip(cities, branches):
        builder.add_node(branch, collect_city(city))
    for name in ("write_draft", "check_draft", "revise_draft", "publish", "hold"):
        builder.add_node(name, getattr(nodes, name))
    if not parallel:  # one after the other: correct worksheet, but one superstep per city
        chain = [START, *branches, "write_draft"]
        for source, target in zip(chain, chain[1:]):
            builder.add_edge(source, target)
    else:
        for branch in branches:
            builder.add_edge(START, branch)  # a fan-out: one edge per branch
        if join:
            builder.add_edge(branches, "write_draft")  # the join: waits for every branch
        else:
            for branch in branches:
                builder.add_edge(branch, "write_draft")
    builder.add_edge("write_draft", "check_draft")
    builder.add_conditional_edges("check_draft", nodes.route_after_check,
                                  {"accept": "publish", "revise": "revise_draft", "hold": "hold"})
    if second_check:
        builder.add_edge("revise_draft", "check_draft")
    builder.add_edge("publish", END)
    builder.add_edge("hold", END)
    return builder


def declare_parallel(builder, nodes, cities):
    return _declare(builder, nodes, cities)


def declare_one_after_another(builder, nodes, cities):
    return _declare(builder, nodes, cities, parallel=False)


def declare_without_a_join(builder, nodes, cities):
    return _declare(builder, nodes, cities, join=False)


def declare_forgets_the_second_check(builder, nodes, cities):
    return _declare(builder, nodes, cities, second_check=False)


def declare_without_the_hold_node(builder, nodes, cities):
    branches = [f"collect_{city}" for city in cities]
    for city, branch in zip(cities, branches):
        builder.add_node(branch, collect_city(city))
        builder.add_edge(START, branch)
    for name in ("write_draft", "check_draft", "revise_draft", "publish"):  # "hold" forgotten
        builder.add_node(name, getattr(nodes, name))
    builder.add_edge(branches, "write_draft")
    builder.add_edge("write_draft", "check_draft")
    builder.add_conditional_edges("check_draft", nodes.route_after_check,
                                  {"accept": "publish", "revise": "revise_draft", "hold": "hold"})
    builder.add_edge("revise_draft", "check_draft")
    builder.add_edge("publish", END)
    return builder


def declare_while_07_1_is_open(builder, nodes, cities):
    def collect_city(city):  # 07.1's cell still holds its stub
        raise NotImplementedError

    for city in cities:
        builder.add_node(f"collect_{city}", collect_city(city))
    return builder


def declare_and_compile(builder, nodes, cities):
    return _declare(builder, nodes, cities).compile()


def declare_with_the_package(builder, nodes, cities):
    return build_brief_graph(nodes.draft_style, nodes.max_revisions)


# -- 07.3 -------------------------------------------------------------------------------------------
def latest_per_city(old, new):
    merged = list(old)
    where = {reading["city"]: i for i, reading in enumerate(merged)}
    for reading in new:
        if reading["city"] in where:
            merged[where[reading["city"]]] = reading  # replaced in its place
        else:
            where[reading["city"]] = len(merged)
            merged.append(reading)
    return merged


def latest_only_new(old, new):
    return list(new)


def latest_keeps_the_first(old, new):
    seen = {reading["city"] for reading in old}
    return old + [reading for reading in new if reading["city"] not in seen]


def latest_moves_to_the_end(old, new):
    fresh = {reading["city"] for reading in new}
    return [reading for reading in old if reading["city"] not in fresh] + list(new)


def latest_in_place(old, new):
    for reading in new:
        old[:] = [r for r in old if r["city"] != reading["city"]] + [reading]
    return old


def latest_appends_each_new_one(old, new):  # replaces old's cities, but a city new holds twice is added twice
    merged, where = list(old), {reading["city"]: i for i, reading in enumerate(old)}
    for reading in new:
        if reading["city"] in where:
            merged[where[reading["city"]]] = reading
        else:
            merged.append(reading)
    return merged


def latest_adds(old, new):
    return old + new


# -- 07.4 -------------------------------------------------------------------------------------------
def send_missing(state, send):
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


def send_with_the_package(state, send):
    return [p for p in BriefNodes.fan_out(state, send) if p]


SOLUTIONS = {"07.1": collect_city, "07.2": declare_parallel, "07.3": latest_per_city, "07.4": send_missing,
             "07.Q2": 8, "07.Q3": 1, "07.Q5": {"supersteps": 4, "collect_city": 2}}

WRONG = {
    "07.1": [(collect_city_ignores_the_worksheet, "look in state['readings'] first"),
             (collect_city_repeats_the_past, "send only the new one"),
             (collect_city_bare_reading, "one-item lists"),
             (collect_city_in_place, "changed the state it was handed"),
             (collect_city_returns_the_slip, "it must return a node"),
             (collect_city_reads_a_packet, "which has no 'city' field"),
             (collect_city_wrong_field, "WEATHER[city], which holds 'celsius' and 'conditions'"),
             (collect_city_wraps_the_package, "reads a Send packet"),
             (collect_city_wraps_collect_one, "your node calls collect_one")],
    "07.2": [(declare_one_after_another, "every city's collecting node should start at once"),
             (declare_forgets_the_second_check, "a node with no outgoing edge ends the run"),
             (declare_without_a_join, "Join them with one add_edge"),
             (declare_without_the_hold_node, "refused to compile your declaration"),
             (declare_and_compile, "return the builder itself, uncompiled"),
             (declare_while_07_1_is_open, "07.1's collect_city is still the stub"),
             (declare_with_the_package, "one named collect_<city> node per city")],
    "07.3": [(latest_adds, "appears twice"),
             (latest_only_new, "readings of cities only old holds were lost"),
             (latest_keeps_the_first, "you kept the old reading"),
             (latest_moves_to_the_end, "a replaced city keeps its place"),
             (latest_in_place, "changed a list it was given"),
             (latest_appends_each_new_one, "new holds two readings of Oslo")],
    "07.4": [(send_every_city, "a city that already has a reading gets no packet"),
             (send_names_only, "build each packet with the `send` it is handed"),
             (send_the_worksheet, "a packet holding only the city"),
             (send_with_our_send, "build each packet with the `send` it is handed"),
             (send_in_sorted_order, "in the order state['cities'] lists them"),
             (send_with_the_package, "build the packets yourself"),
             (send_nothing_when_all_kept, "a silent exit. Return the route 'write_draft'"),
             (send_route_always, "only for a worksheet that misses no city")],
    "07.Q2": [(10, "10 counts node executions"), (9, "the three collecting branches share superstep 1"),
              ("eight", "a whole number")],
    "07.Q3": [(2, "for every superstep in which an edge into it fires")],
    "07.Q5": [({"supersteps": 6, "collect_city": 2}, "share one superstep"),
              ({"supersteps": 4, "collect_city": 3}, "a city that already has a reading gets no packet"),
              (4, "a dict")],
}

QUESTIONS = {
    "07.Q1": "In one superstep every branch reads the same worksheet and their slips are merged together; a plain "
             "field takes one value, so each branch's readings would replace the others' and whichever merged last "
             "would win, silently dropping cities. The sequential collect wrote all readings in one slip. Our loop "
             "refuses two writes to a plain field in one superstep and names both nodes (both engines refuse too; "
             "LangGraph names only the key): a loud "
             "error at the cause beats a brief that quietly lacks a city.",
    "07.Q2": "8: the three collecting branches share superstep 1, then write_draft, check_draft, two (revise_draft, "
             "check_draft) pairs and hold, one node per superstep (10 node executions).",
    "07.Q3": "Once: both branches are two nodes long, so a2 and b2 run in the same superstep and trigger write "
             "together. The join matters when branches differ in length (a -> a2 against b made write run twice).",
    "07.Q4": "`slips = {node: graph['nodes'][node](deepcopy(state)) for node in sorted(active - {END})}`: every node "
             "is called on a copy of the same state before anything is merged. The merge loop runs over `slips` in "
             "that sorted order, so the merged worksheet is the same on every run.",
    "07.Q5": "4 supersteps and 2 runs of collect_city: the router sends one packet per missing city, both packets "
             "run collect_city in superstep 1, then write_draft, check_draft and publish take one superstep each.",
}
