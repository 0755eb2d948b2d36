# %% [markdown]
# # 08 · Parallel branches, the join, and the real LangGraph
#
# **By the end you will be able to**
#
# - run parallel branches in *supersteps*, join them, and say why a shared field needs a reducer;
# - declare a fan-out and a join on the real LangGraph;
# - write a branch's node, a loop with a join, a `Send` fan-out.
#
# **Prerequisites:** 07's brief, run loop and reducers. Without LangGraph (`pip install 'mingraph-lite[langgraph]'`),
# its cells use the package's engine or skip.
# **Words:** our worksheet = LangGraph's *state*; slip = *update* (a node's returned dict); packet = a `Send`'s `arg`.
# **Time:** about 76 minutes (estimated from length: see "How long" in 00). Nothing here calls a model.

# %%
import inspect
import operator
from copy import deepcopy
from typing import Annotated, TypedDict

from lessons.exercises import check
from lessons.exercises.nb08_send import brief_with_entry  # 08.3's brief, with a router at START
from lessons.langgraph_runs import compare_engines, loop_on_engines, uneven_joins
from lessons.parallel_brief import brief_in_parallel, collect_one, declare_parallel
from lessons.reference import reference
from mingraph_lite.course.brief import BriefNodes, BriefState, build_brief_graph, initial_state
from mingraph_lite.course.weather import WEATHER  # your 08.1 reads it
from mingraph_lite.graph import END, START, Send, StateGraph

try:
    from langgraph.graph import StateGraph as LangGraphStateGraph  # the real LangGraph, for the cells you write on it
except ImportError:  # without it, the package's StateGraph takes the same calls
    LangGraphStateGraph = StateGraph

# %% [markdown]
# ## Parallel branches: several nodes in one superstep
#
# A **superstep** is one round in which several nodes run, all reading the *same* worksheet; their slips merge after
# all have run. A *fan-out* (several edges out of one node) starts several nodes at once. A *join* is a node that
# waits for all of its sources.
#
# Our loop is 07's with a *set* of active nodes; `"joins"` names each join's sources. Each pass:
#
# 1. the first set is `START`'s targets;
# 2. every active node runs on its own copy of the worksheet;
# 3. slips merge in sorted node-name order; two writes to a field with no reducer are refused;
# 4. next: every target of the nodes that ran; a join target once all its sources are `done`.

# %%
def next_nodes(graph, node, state):
    if node in graph["routers"]:
        router, path_map = graph["routers"][node]
        return [path_map[router(state)]]
    return graph["edges"].get(node, [])


def run_supersteps(graph, state):
    state, log, done = deepcopy(state), [], set()
    active = set(next_nodes(graph, START, state))  # 1. the starting set
    while active - {END}:
        if len(log) == graph["max_steps"]:
            raise RuntimeError(f"stopped after {len(log)} supersteps (max_steps)")
        slips = {node: graph["nodes"][node](deepcopy(state)) for node in sorted(active - {END})}  # 2. run
        for node, slip in slips.items():  # 3. merge, only after all ran, in sorted order
            for field, value in slip.items():
                reducer = graph["reducers"].get(field)
                writers = [name for name, other in slips.items() if field in other]
                if reducer is None and len(writers) > 1:
                    raise ValueError(f"{writers} all wrote the plain field {field!r} in one superstep; give it a reducer")
                state[field] = reducer(state[field], value) if reducer and field in state else value
        log.append((len(log) + 1, sorted(slips)))
        done |= set(slips)  # 4. the next set: a join target only once all of its sources have run
        active = {target for node in slips for target in next_nodes(graph, node, state)
                  if done >= graph["joins"].get(target, set())}
    return state, log


# %% [markdown]
# `done` keeps every node that ran: right for a join reached once, wrong inside a loop. Two laps of
# `lap -> (c -> c2, d) -> meet`:

# %%
def logs(name):  # a node whose slip only logs its name
    return lambda state: {"log": [name]}


def lap(state):  # logs and counts the laps
    return {"log": ["lap"], "laps": state["laps"] + 1}


def again_or_stop(state):  # meet's router: a second lap, then the end
    return "again" if state["laps"] < 2 else "stop"


loop = {"nodes": {"lap": lap, "c": logs("c"), "c2": logs("c2"), "d": logs("d"), "meet": logs("meet")},
        "edges": {START: ["lap"], "lap": ["c", "d"], "c": ["c2"], "c2": ["meet"], "d": ["meet"]},
        "routers": {"meet": (again_or_stop, {"again": "lap", "stop": END})},
        "joins": {"meet": {"c2", "d"}}, "reducers": {"log": operator.add}, "max_steps": 12}
_, loop_log = run_supersteps(loop, {"log": [], "laps": 0})
print("\n".join(f"  superstep {step}: {', '.join(ran)}" for step, ran in loop_log))
assert loop_log[6:] == [(7, ["c2", "meet"]), (8, ["meet"])]  # lap 2's meet: beside c2, then again

# %% [markdown]
# On lap 2, `meet` starts in superstep 7 **beside** `c2` (`done` still holds lap 1's `c2`), then again in 8.


# %% [markdown]
# The brief as such a dict: a `collect_<city>` branch per city out of `START`, joined at `write_draft`. Each branch
# is `collect_one(city)`, a first try: its slip repeats the worksheet's readings, then adds its city's (harmless on
# empty worksheets; 08.1 does better). Without a reducer on `readings`, our loop refuses:

# %%
try:  # a reducer on events only
    run_supersteps(brief_in_parallel(BriefNodes(), ["Tokyo", "Paris"], collect_one, {"events": operator.add}),
                   initial_state(["Tokyo", "Paris"]))
except ValueError as error:
    print("our loop:", error)

# %% [markdown]
# **Try it on LangGraph.** A fan-out is one `add_edge(START, branch)` per branch; a join is one edge from a *list*
# of sources, such as `add_edge(["collect_Tokyo", "collect_Paris"], "report")`.
#
# 1. Add the four edges the comment asks for and run the cell: it prints `InvalidUpdateError` at key `'readings'`
#    (our loop named the nodes; "last one wins" would drop a city).
# 2. Write `readings: Annotated[list, operator.add]` and run it again: it prints `both cities came back`.

# %%
class FirstSketch(TypedDict):  # `readings` without a reducer, as above
    readings: list
    events: Annotated[list, operator.add]


sketch = LangGraphStateGraph(FirstSketch)
sketch.add_node("collect_Tokyo", collect_one("Tokyo"))
sketch.add_node("collect_Paris", collect_one("Paris"))
sketch.add_node("report", lambda state: {"events": ["report"]})
# your edges: START to each branch, one join edge into "report", and "report" to END

try:
    cities = sorted(r["city"] for r in sketch.compile().invoke({"readings": [], "events": []})["readings"])
    assert cities == ["Paris", "Tokyo"], f"only {cities} came back: START needs an edge to each branch"
    print("both cities came back:", cities)
except Exception as error:  # whatever the engine (or the assert) says, on one line
    print(f"{type(error).__name__}: {str(error).splitlines()[0]}")


# %% [markdown]
# ### Exercise 08.1: one branch's node
#
# Write `collect_city(city)`: it returns a **node** (a function of the worksheet) for that city:
#
# 1. if the worksheet already holds a reading for `city`, the slip adds only one event naming the city (say,
#    `"Oslo already collected"`);
# 2. otherwise the slip holds only `readings` and `events`, each a one-item list: the new reading (`city`, and
#    `celsius` and `conditions` from `WEATHER`) and one event naming the city;
# 3. the node never changes the worksheet it is handed.
#
# The package's `BriefNodes.collect_city` is refused.

# %%
def collect_city(city):
    raise NotImplementedError  # your code here


# %%
check("08.1", collect_city)

# %%
our_collect_city = reference("08.1")  # the notebook's version, unprinted, under a name of its own: yours stays yours


# %% [markdown]
# ## The parallel brief on the real LangGraph, and on ours
#
# Our `StateGraph` takes LangGraph's calls: one declaration serves both engines.

# %%
print(inspect.getsource(declare_parallel))


def our_declare_parallel(builder, nodes, cities):  # the brief with 08.1's branches
    return declare_parallel(builder, nodes, cities, collect_node=our_collect_city)


# %% [markdown]
# Three cities, each writer of 07: same supersteps, same worksheet on both engines?

# %%
three = initial_state(["Tokyo", "Paris", "Oslo"])
rows = compare_engines(our_declare_parallel, three)  # LangGraph's debug stream read: lessons/langgraph_runs.py
assert all(same_steps and same_end for _, same_steps, same_end in rows)

# %% [markdown]
# ### Why the join edge matters
#
# Branches `a -> a2` and `b` into `write`, with and without a join.

# %%
_ = uneven_joins()  # builds both declarations on each engine (lessons/langgraph_runs.py)

# %% [markdown]
# ### Exercise 08.2: a join inside a loop
#
# Write `run_looping_supersteps(graph, state)`: `run_supersteps`, except that a join target starts only once each of
# its sources has run **since that join last started**; a source that runs beside its join counts for the join's
# next pass. The check runs `loop` (`meet` alone in supersteps 4 and 8) and graphs of its own. Hint: per join, a set
# of its sources run since it last started, emptied as the join starts.

# %%
def run_looping_supersteps(graph, state):
    raise NotImplementedError  # your code here


# %%
check("08.2", run_looping_supersteps)

# %%
try:  # your loop on `loop`: meet once per lap, alone
    print(*run_looping_supersteps(loop, {"log": [], "laps": 0})[1], sep="\n")
except NotImplementedError:
    print("not written yet")

# %% [markdown]
# `loop` on both engines, with `add_edge(["c2", "d"], "meet")`: `meet` once per lap.

# %%
for ran in loop_on_engines(loop["nodes"], again_or_stop).values():
    assert sorted(ran) == sorted(["lap", "c", "d", "c2", "meet"] * 2) and ran[4::5] == ["meet", "meet"]


# %% [markdown]
# ### Where the two engines still differ
#
# | | LangGraph | The package's engine |
# |---|---|---|
# | A superstep's nodes | may run concurrently; writes applied in a fixed order | run one by one; slips merge by node name, packets in `Send` order |
# | Two writes to a plain field | `InvalidUpdateError` | `GraphExecutionError` |
#
# The rest: [`docs/graph.md`](../docs/graph.md).

# %% [markdown]
# ## A replacing reducer: the latest reading per city
#
# `operator.add` is right while each city is collected once. Skipping a city already collected (08.1, 08.3) suits a
# kept reading that is good enough; to show today's values, collect again with a reducer that *replaces* a city's
# old reading (`readings: Annotated[list, latest_per_city]`):

# %%
def latest_per_city(old, new):  # a city's new reading takes its old one's place; a new city goes at the end
    fresh = {reading["city"]: reading for reading in new}
    return [fresh.pop(reading["city"], reading) for reading in old] + list(fresh.values())


stale = initial_state(["Tokyo", "Paris"])  # an earlier run left Tokyo at 19°C
stale["readings"] = [{"city": "Tokyo", "celsius": 19, "conditions": "rain", "source": "an earlier run"}]
now = [{"city": city, **WEATHER[city]} for city in stale["cities"]]
assert latest_per_city(stale["readings"], now) == now and WEATHER["Tokyo"]["celsius"] != 19  # 19°C gone, Paris added

# %% [markdown]
# ## `Send`: one branch per missing city
#
# A *packet* is `Send(node, arg)`: run `node` on `arg`, not on the worksheet. A node runs once per packet, all in
# one superstep, slips merged in `Send` order. Use `Send` when the number of branches is known only at run
# time (here: how many cities lack a reading). `collect_city -> write_draft` needs no join: `write_draft` runs
# once, next.

# %%
sent = build_brief_graph("complete")
sent.invoke(three)
print("supersteps:", sent.steps, "\none packet:", BriefNodes.fan_out(three, Send)[0])
assert sent.steps[0] == ("collect_city",) * 3 and sent.steps[1] == ("write_draft",)
wiring = [line.strip() for line in inspect.getsource(brief_with_entry).splitlines() if "builder.add" in line]
print(*[line for line in wiring if "START" in line or '"collect_city", "write_draft"' in line], sep="\n")

# %% [markdown]
# ### Exercise 08.3: `send_missing(state, send)`
#
# The router at START. Rules:
#
# 1. one `send("collect_city", {"city": city})` per city of `state["cities"]` with no reading in `state["readings"]`,
#    in `cities`' order, built with the `send` you are handed;
# 2. if none is missing, return the route `"write_draft"` (an empty list starts no node: the run ends with no draft).

# %%
def send_missing(state, send):
    raise NotImplementedError  # your code here


# %%
check("08.3", send_missing)

# %%
try:  # the brief with your send_missing at START, on `stale`: only Paris is collected
    yours = brief_with_entry(StateGraph(BriefState), send_missing, Send).compile(max_steps=10).invoke(stale)
    print(yours["status"], yours["answer"], sep="\n")
except NotImplementedError:
    print("not written yet")

# %% [markdown]
# Tokyo keeps `stale`'s earlier reading there: a router that skips kept readings never refreshes them. To show
# today's values, send every city and give `readings` the replacing reducer above.

# %% [markdown]
# ## Questions
#
# Answers: `QUESTIONS` in `notebooks/solutions/08_parallel_branches.py`; the cells below check three.
#
# 1. Why does `readings` need a reducer in parallel, but not in 07? Why is our loop's refusal better than "last one
#    wins"?
# 2. Three cities in parallel, the stubborn writer, `max_revisions=2`, our engine: how many supersteps?
# 3. In the uneven graph, make `b` two nodes long too (`b -> b2`) with **no** join (edges from `a2` and `b2` into
#    `write`). How many times does `write` run?
# 4. Which line of `run_supersteps` makes a superstep's nodes read the same worksheet and fixes their merge order?
# 5. 08.3's `send_missing` at START, the complete writer, three cities, one already read: how many supersteps, and
#    how many runs of `collect_city`?

# %%
answer_q2 = ...  # a number

# %%
check("08.Q2", answer_q2)

# %%
answer_q3 = ...  # a number

# %%
check("08.Q3", answer_q3)

# %%
answer_q5 = ...  # a dict of two numbers: {"supersteps": ..., "collect_city": ...}

# %%
check("08.Q5", answer_q5)
