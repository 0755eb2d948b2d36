# %% [markdown]
# # 08 · Parallel branches, the join, and the real LangGraph
#
# **By the end you will be able to**
#
# - run parallel branches in *supersteps*, join them, and say why a shared field needs a reducer;
# - write a branch's node, a loop whose join waits on every pass, and a reducer;
# - fan out with `Send`, one branch per item not yet done.
#
# **Prerequisites:** notebook 07. LangGraph's cells skip without it.
# **Time:** about 88 minutes (estimated from length: see "How long" in 00). Nothing here calls a model.

# %%
import inspect
import operator
from copy import deepcopy
from functools import partial
from typing import Annotated, TypedDict

from lessons.exercises import check
from lessons.langgraph_runs import compare_engines, loop_on_engines, plain_field_refusals, uneven_joins
from lessons.parallel_brief import brief_in_parallel, collect_one, declare_parallel, reducers_of
from lessons.predict import reveal
from lessons.reference import reference
from mingraph_lite.course.brief import BriefNodes, BriefState, build_brief_graph, connect_brief, initial_state
from mingraph_lite.course.weather import WEATHER  # your 08.1 reads it
from mingraph_lite.graph import END, START, Send, StateGraph

state = initial_state(["Tokyo", "Paris"])

# %% [markdown]
# ## Parallel branches: several nodes in one superstep
#
# A *fan-out* (edges out of one node) runs `collect`'s lookups in one superstep; a *join* waits for all its
# sources. In a **superstep**, every node reads the *same* worksheet; slips merge after all ran.
#
# Our superstep loop: 07's run loop with a *set* of active nodes; `"joins"` names a node that waits for others.
# Each pass:
#
# 1. the first set is `START`'s targets;
# 2. every active node runs on its own copy of the worksheet, so all read the same one;
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
# `lap -> (c -> c2, d) -> meet`, where `meet` waits for `c2` and `d`:

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
        "joins": {"meet": {"c2", "d"}},
        "reducers": {"log": operator.add},
        "max_steps": 12}
_, loop_log = run_supersteps(loop, {"log": [], "laps": 0})
print("\n".join(f"  superstep {step}: {', '.join(ran)}" for step, ran in loop_log))
assert loop_log[6:] == [(7, ["c2", "meet"]), (8, ["meet"])]  # lap 2's meet: beside c2, then again

# %% [markdown]
# On lap 2, `meet` starts in superstep 7 **beside** `c2` (`done` still holds lap 1's `c2`), then again in 8.


# %% [markdown]
# The brief as such a dict, a `collect_<city>` branch per city; `collect_one` is a first try:

# %%
parallel = brief_in_parallel(BriefNodes(), ["Tokyo", "Paris"], collect_one, reducers_of(BriefState))
print("out of START:", parallel["edges"][START], "| write_draft waits for:", sorted(parallel["joins"]["write_draft"]))

# %% [markdown]
# Without a reducer on `readings`: our loop, then both engines:

# %%
try:  # a first sketch: only `events` has a reducer
    run_supersteps(brief_in_parallel(BriefNodes(), ["Tokyo", "Paris"], collect_one, {"events": operator.add}), state)
except ValueError as error:
    print("our loop:", error)

# %%
class FirstSketch(TypedDict):  # the same first sketch on both engines: `readings` without a reducer
    readings: list
    events: Annotated[list, operator.add]


_ = plain_field_refusals(FirstSketch, collect_one, ["Tokyo", "Paris"])  # builds it: lessons/langgraph_runs.py

# %% [markdown]
# Last-one-wins would silently drop a city; all three refuse (ours names the nodes). The fix is a reducer, as
# `BriefState`'s `readings` has:

# %%
merged, _ = run_supersteps(parallel, state)  # the brief with BriefState's reducers, built above
print("with them, both branches' readings arrive:", [reading["city"] for reading in merged["readings"]])
assert [reading["city"] for reading in merged["readings"]] == ["Paris", "Tokyo"]

# %% [markdown]
# Paris first: slips merge by node name.


# %% [markdown]
# ### Exercise 08.1: one branch's node
#
# Write `collect_city(city)`: it returns a **node** (a function of the worksheet) for that one city. Rules:
#
# 1. if the worksheet already holds a reading for `city`, the slip adds no reading, only one event that names the
#    city (say, `"Oslo already collected"`);
# 2. otherwise the slip changes only `readings` and `events`, each a one-item list: the new reading (a dict with the
#    city's `city`, `celsius` and `conditions` from `WEATHER`) and one event naming the city;
# 3. the node never changes the worksheet it is handed.
#
# The package's `BriefNodes.collect_city` is refused.

# %%
def collect_city(city):
    raise NotImplementedError  # your code here


# %%
check("08.1", collect_city)

# %% [markdown]
# The notebook's version, unprinted:

# %%
our_collect_city = reference("08.1")  # a name of its own: yours stays yours


# %% [markdown]
# **Predict first.** Three cities, collected in parallel, with the missing-notice writer and one revision allowed. How
# many **supersteps** does the run take, and how many **node executions**?

# %%
my_guess = ...  # e.g. {"supersteps": 9, "nodes": 9}

# %%
three = initial_state(["Tokyo", "Paris", "Oslo"])
_, log = run_supersteps(brief_in_parallel(BriefNodes(), three["cities"], our_collect_city, reducers_of(BriefState)),
                        three)
happened = {"supersteps": len(log), "nodes": sum(len(ran) for _, ran in log)}
reveal(my_guess, happened, gated=True, hint="the three collects start together; each node after the join runs alone")
if my_guess == happened:  # the log, once your guess is right
    print("\n".join(f"  superstep {step}: {', '.join(ran)}" for step, ran in log))

# %% [markdown]
# ## The parallel brief on the real LangGraph, and on ours
#
# LangGraph spells a fan-out as one `add_edge(START, branch)` per branch, a join as one edge from a *list* of nodes;
# the package's `StateGraph` takes the same calls; one declaration serves both:

# %%
print(*[line.strip() for line in inspect.getsource(declare_parallel).splitlines() if "add_edge(START" in line
        or "add_edge(branches" in line], sep="\n")  # its fan-out and join lines (lessons/parallel_brief.py)
our_declare_parallel = partial(declare_parallel, collect_node=our_collect_city)

# %% [markdown]
# On each engine, for each writer of notebook 07:

# %%
rows = compare_engines(our_declare_parallel, three)  # LangGraph's debug stream read: lessons/langgraph_runs.py
assert all(same_steps and same_end for _, same_steps, same_end in rows)

# %% [markdown]
# ### Why the join edge matters
#
# Branches `a -> a2` and `b` into `write`, with and without a join, on both engines:

# %%
_ = uneven_joins()  # builds both declarations on each engine (lessons/langgraph_runs.py)

# %% [markdown]
# ### Exercise 08.2: a join inside a loop
#
# Write `run_looping_supersteps(graph, state)`: `run_supersteps`, except that a join target starts only once each of
# its sources has run **since that join last started**; a source that runs in the same superstep as its join counts
# for the join's next pass. The check runs `loop` above (`meet` once per lap, alone, in supersteps 4 and 8), graphs
# of its own and the brief. Hint: per join, keep the sources run since it last started
# (for `meet`: which of `c2`, `d`); empty that set as the join starts, before its superstep runs.

# %%
def run_looping_supersteps(graph, state):
    raise NotImplementedError  # your code here


# %%
check("08.2", run_looping_supersteps)

# %% [markdown]
# `loop` on both real engines, its join declared as `add_edge(["c2", "d"], "meet")`: `meet` runs once per lap.

# %%
for ran in loop_on_engines(loop["nodes"], again_or_stop).values():
    assert sorted(ran) == sorted(["lap", "c", "d", "c2", "meet"] * 2) and ran[4::5] == ["meet", "meet"]


# %% [markdown]
# ### Where the two engines still differ
#
# | What | LangGraph | The package's engine |
# |---|---|---|
# | Nodes of one superstep | may run concurrently; writes applied in a fixed order (`apply_writes` sorts the tasks) | run one after another; slips merge by node name, `Send` packets in `Send` order |
# | Two writes to a plain field in one superstep | `InvalidUpdateError` | `GraphExecutionError` |
#
# The rest: [`docs/graph.md`](../docs/graph.md).

# %% [markdown]
# ## A reducer of your own: the latest reading per city
#
# `operator.add` is right while each city is collected once. Start from an earlier run's Tokyo at 19°C, and the
# package's brief collects every city again:

# %%
stale = initial_state(["Tokyo", "Paris"])
stale["readings"] = [{"city": "Tokyo", "celsius": 19, "conditions": "rain", "source": "an earlier run"}]
doubled = build_brief_graph("complete").invoke(stale)
print(f"the package's brief: {doubled['status']}\n{doubled['answer']}")
skipped = our_declare_parallel(StateGraph(BriefState), BriefNodes("complete"), stale["cities"]).compile().invoke(stale)
print(f"\nwith 08.1's collect_city, which skips a city already collected: {skipped['status']}\n{skipped['answer']}")
assert skipped["status"] == "published" and "Tokyo: 19°C" in skipped["answer"] and WEATHER["Tokyo"]["celsius"] != 19

# %% [markdown]
# Tokyo twice, one row stale, yet published (`check_draft` compares the rows with `readings`, not `WEATHER`); 08.1's
# branch keeps the stale 19°C. The latest reading per city needs a reducer (`(old, new) -> merged`, once per
# slip) that *replaces* the old one.

# %% [markdown]
# ### Exercise 08.3: `latest_per_city`
#
# Write the reducer `latest_per_city(old, new)` for `readings`. Both are lists of reading dicts. Rules:
#
# 1. a reading in `new` for a city `old` already has replaces that city's reading, **in its place** (so the page
#    keeps its order);
# 2. a reading for a city not in `old` is added at the end, in the order `new` lists them; if `new` holds two
#    readings of one city, the later one wins, in the first one's place;
# 3. return a new list: never change `old` or `new` (the engine may still hold them).
#

# %%
def latest_per_city(old, new):
    raise NotImplementedError  # your code here


# %%
check("08.3", latest_per_city)

# %% [markdown]
# 08.3's reducer on `stale`: one Tokyo row, fresh. Skipping (08.1, 08.4) saves calls;
# a replacing reducer refreshes; pick one per field.

# %%
class FreshBrief(BriefState):  # BriefState with the notebook's latest_per_city on readings
    readings: Annotated[list, reference("08.3")]


fresh = connect_brief(StateGraph(FreshBrief), BriefNodes("complete")).compile().invoke(stale)
print(fresh["answer"])
assert [(r["city"], r["celsius"]) for r in fresh["readings"] if r["city"] == "Tokyo"] == [("Tokyo", 24)]

# %% [markdown]
# ## `Send`: one branch per missing city
#
# A *packet* is `Send(node, arg)`: run `node` on `arg` (here `{"city": ...}`), not the worksheet. A node runs once
# per packet, all in one superstep; their slips merge in `Send` order.

# %%
sent = build_brief_graph("complete")
sent.invoke(three)
print("supersteps:", sent.steps, "\none packet:", BriefNodes.fan_out(three, Send)[0])
assert sent.steps[0] == ("collect_city",) * 3

# %% [markdown]
# ### Exercise 08.4: `send_missing(state, send)`
#
# Write the router at START. Rules:
#
# 1. one `send("collect_city", {"city": city})` per city of `state["cities"]` with no reading in `state["readings"]`,
#    in the order `cities` lists them, built with the `send` you are handed;
# 2. if none is missing, return the route `"write_draft"` (an empty list starts no node: the run ends with no draft).

# %%
def send_missing(state, send):
    raise NotImplementedError  # your code here


# %%
check("08.4", send_missing)

# %% [markdown]
# ## Questions
#
# Answers: `QUESTIONS` in `notebooks/solutions/08_parallel_branches.py`; the cells below check three.
#
# 1. Why does `readings` need a reducer in parallel, but not in notebook 07? What does our loop do without one, and
#    why is that better than "last one wins"?
# 2. Three cities in parallel, the stubborn writer, `max_revisions=2`, on our engine: how many supersteps does the run
#    take?
# 3. In the uneven graph, make `b` two nodes long too (`b -> b2`) with **no** join (edges from `a2` and `b2` into
#    `write`). How many times does `write` run?
# 4. Which line of `run_supersteps` makes a superstep's nodes read the same worksheet and fixes their merge order?
#    Which part does each job?
# 5. 08.4's `send_missing` at START, the complete writer, three cities of which one already has a reading: how many
#    supersteps does the run take, and how many times does `collect_city` run?

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
