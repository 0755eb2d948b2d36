# %% [markdown]
# # 06 · Graph routing: a worksheet, change slips, and routes you declare
#
# **By the end of this notebook you will be able to**
#
# - write down a workflow's *state* (the worksheet) as a typed dict, and say field by field whether an update
#   replaces it or adds to it (a *reducer*);
# - write steps as *nodes* that read the worksheet and hand back only what they changed, and a *router* that picks
#   the next step from routes declared up front;
# - write the run loop of a graph engine yourself, in about fifteen lines, then use the package's;
# - tell the two ways a run can finish apart: it **delivered**, or it **stopped trying** (and says so);
# - run parallel branches in *supersteps* and join them, and say what `max_steps` and LangGraph's
#   `recursion_limit` count;
# - declare the same graph on the real LangGraph, and run the agent loop from notebook 01 as a two-node graph.
#
# **Before you start:** notebooks 01 to 04 (the loop, the cards, the listeners); Python dicts and functions.
# **Time:** about 60 minutes, exercises included.
#
# **Source:** the weather brief and its two exits come from the article *"Stage 03: The Brief Is Written. Why Can't
# We Deliver It Yet? Making State and Control Flow Explicit"* (a staged tutorial on agent engineering; the copy we
# worked from does not name its author). The code here is ours.
#
# Nothing here calls a model except the agent graph near the end, and that one is **scripted**, or replays a recorded
# run of a real model (no network).

# %%
import inspect
import operator
from collections import Counter
from copy import deepcopy
from pathlib import Path
from typing import Annotated, TypedDict, get_type_hints

import matplotlib.pyplot as plt

from mingraph_lite import (Agent, ConsoleLogger, EventRecorder, GraphExecutionError, GraphStepLimit,
                           GraphValidationError, Observer)
from mingraph_lite.course.brief import (NOTICE, BriefNodes, BriefState, build_brief_graph, initial_state, render,
                                        step_bound)
from lessons.exercises import check
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import WEATHER, weather_registry
from mingraph_lite.graph import END, START, StateGraph, build_agent_graph, run_agent_graph

try:  # LangGraph is optional: every cell that uses it says so and skips when it is missing
    from langgraph.graph import StateGraph as LangGraphStateGraph
except ImportError:
    LangGraphStateGraph = None

# %% [markdown]
# ## The job: a weather brief that is checked before it goes out
#
# A travel page shows a short weather brief for the cities a reader picked, in Celsius and Fahrenheit. The page owner
# adds a delivery rule: **check it before showing it.** No city may be missing, the numbers must match the data, and
# the brief must say `"Fixed teaching data, not live weather."` so nobody mistakes it for a forecast. A rejected draft
# may be fixed, but not forever: after the allowed number of revisions, stop and say it needs attention.
#
# So there are two ways to finish: **deliver** a draft that passed, or **stop trying** and hand it to a person. A run
# that stopped has not delivered, and nothing downstream should be able to mistake one for the other.
#
# ### The naive version first
#
# Most of us would write a loop with a few variables:

# %%
def naive_brief(cities, writer="missing-notice", max_revisions=1):
    rows = [f"{city}: {WEATHER[city]['celsius']}°C / {round(WEATHER[city]['celsius'] * 9 / 5 + 32, 1)}°F"
            for city in cities]
    draft = "\n".join(rows + ([NOTICE] if writer == "complete" else []))
    revisions = 0
    while NOTICE not in draft and revisions < max_revisions:
        if writer != "stubborn":  # a stubborn writer "revises" without fixing anything
            draft = draft + "\n" + NOTICE
        revisions += 1
    return draft


for writer in ("missing-notice", "stubborn"):
    print(f"--- writer: {writer}")
    print(naive_brief(["Tokyo", "Paris"], writer))

# %% [markdown]
# It runs, and the stubborn case goes out **without the notice**, returned exactly like a good brief. The loop ran
# out of revisions and fell through to `return draft`; the caller cannot tell "passed" from "gave up". Nothing records
# what was checked, or which draft. One more condition (a second check, a different fix per problem) and this loop
# becomes a knot of flags.
#
# The fix is to write the process down: what the run knows (the **state**, our worksheet), the steps (**nodes**), and
# which step comes next (**edges**, some of them **routes** chosen by a small function, the **router**).
#
# ## The worksheet: a typed dict, and how each field changes
#
# Here is the worksheet's type, exactly as the package declares it:

# %%
print(inspect.getsource(BriefState))

# %% [markdown]
# A `TypedDict` is still a plain dict at run time; the type names the fields. `Annotated[list[str], operator.add]`
# attaches a **reducer** to `events`: the rule "old value + contribution", so the account of what happened only
# grows. (`readings` has one too; why it needs one waits for the parallel branches, later.) Every field without one
# is **replaced**: `draft` is *the current draft*, and a new one replaces the old.
#
# `initial_state()` checks the options before any work starts (an unknown city is an error here, not three steps
# later):

# %%
state = initial_state(["Tokyo", "Paris"], include_fahrenheit=True)
for field, value in state.items():
    print(f"  {field:<19} {value!r}")
try:
    initial_state(["Tokyo", "Atlantis"])
except ValueError as error:
    print("bad option:", error)

# %% [markdown]
# A node doesn't hand back the whole worksheet, only a **change slip** (a partial update). The merge is a few lines:

# %%
def reducers_of(state_type):
    """{field: reducer} for every Annotated field of a TypedDict (the reducer is the annotation's last item)."""
    hints = get_type_hints(state_type, include_extras=True)
    return {field: hint.__metadata__[-1] for field, hint in hints.items() if hasattr(hint, "__metadata__")}


reducers = reducers_of(BriefState)
print("reducers:", reducers)


def merge(state, update):
    merged = dict(state)
    for field, value in update.items():
        merged[field] = reducers[field](merged[field], value) if field in reducers else value
    return merged


after_collect = merge(state, {"readings": [{"city": "Tokyo", "celsius": 24}], "events": ["collected"]})
after_draft = merge(after_collect, {"draft": {"notice": ""}, "events": ["wrote draft"]})
print("events:  ", after_draft["events"])      # added to
print("readings:", after_draft["readings"])    # untouched: a field the slip doesn't mention stays as it was
print("draft:   ", after_draft["draft"])       # replaced
assert after_draft["events"] == ["collected", "wrote draft"] and after_draft["readings"] == after_collect["readings"]

# %% [markdown]
# Three habits follow. A slip never repeats the past (sending the old events back would append them twice). Leaving a
# field out means "unchanged", so clearing one takes an explicit `None`. And a field with no reducer is replaced
# *whole*: there is no deep merge of nested dicts.
#
# ## The nodes
#
# Each step of the brief is one method of `BriefNodes`. All of them read the worksheet and return a change slip:

# %%
for name in ("collect", "write_draft", "check_draft", "revise_draft", "publish", "hold"):
    print(inspect.getsource(getattr(BriefNodes, name)))

# %% [markdown]
# Look at what each slip carries. `write_draft` and `revise_draft` set `review=None`: a new draft makes the old
# verdict meaningless. `check_draft` stores a copy of the draft it checked next to its verdict, and `publish`
# refuses any draft that is not that one. `revise_draft` never collects again: the readings are already on the
# worksheet. And `hold` is the second way to finish: `status="needs_attention"`, no answer. (`collect` reads one city
# at a time through `collect_city`; that one-city step becomes a parallel branch later on.)
#
# ## The router: your turn first
#
# After `check_draft`, something must choose between three **routes**: `"accept"` (go and publish), `"revise"`
# (fix it and check again) or `"hold"` (stop trying). That choice is a small function, the *router*. It returns a
# route *label*; a declared map turns the label into a node, so a router can only choose among routes declared up
# front.
#
# ### Exercise 06.1: `route_after_check`
#
# Write `route_after_check(state, max_revisions)`. Rules:
#
# 1. if there is no review, or the review's `checked_draft` is not the current `draft`, raise `ValueError`
#    (nobody checked *this* draft);
# 2. a draft that passed is accepted;
# 3. otherwise revise while fewer than `max_revisions` revisions were made, else hold.
#
# The check runs your router on worksheets for other cities and other allowances.

# %%
def route_after_check(state, max_revisions):
    raise NotImplementedError  # your code here


# %%
check("06.1", route_after_check)

# %% [markdown]
# The package's router, for comparison (its allowance lives on the `BriefNodes` object):

# %%
print(inspect.getsource(BriefNodes.route_after_check))

# %% [markdown]
# ## The run loop: your turn again
#
# We have a worksheet, nodes and a router. What runs them? A loop: start at the node after START, hand it a copy of
# the worksheet, merge its slip, ask where to go next, stop at END. That loop is the whole of a graph engine's core.
#
# A graph, for this exercise, is a plain dict:
#
# ```python
# graph = {
#     "nodes":    {"name": node_function, ...},         # node_function(state) -> change slip
#     "edges":    {START: "first", "first": "second", "second": END, ...},  # fixed ways out
#     "routers":  {"check": (router, {"label": "node", ...})},              # chosen ways out
#     "reducers": {"field": reducer, ...},              # reducer(old, new) -> merged; other fields are replaced
#     "max_steps": 10,                                  # the most nodes one run may execute
# }
# ```
#
# ### Exercise 06.2: `run(graph, state)`
#
# Write `run(graph, state)` that returns the final worksheet. Rules:
#
# 1. start at `graph["edges"][START]`; stop when the next node is `END`;
# 2. hand each node a **deep copy** of the worksheet (`copy.deepcopy`), so only its slip can change anything;
# 3. merge the slip: a field with a reducer becomes `reducer(old, new)` (if the field exists yet), any other is replaced;
# 4. next node: a node with a router goes where `path_map[router(state)]` says, read *after* the merge; otherwise
#    its fixed edge; a node with neither ends the run (as on LangGraph);
# 5. once `max_steps` nodes have run, raise `RuntimeError` instead of starting another;
# 6. never change the dict you were given.
#
# The check runs your loop on small graphs of its own (a counter that loops, a node that tries to edit its copy, a
# router that never takes its exit). About fifteen lines.

# %%
def run(graph, state):
    raise NotImplementedError  # your code here


# %%
check("06.2", run)

# %% [markdown]
# Our version, every line visible. This is the loop the rest of the notebook builds on:

# %%
def run_loop(graph, state):
    state, steps = deepcopy(state), 0
    node = graph["edges"][START]
    while node != END:
        if steps == graph["max_steps"]:
            raise RuntimeError(f"stopped before {node!r}: {steps} nodes ran (max_steps)")
        update = graph["nodes"][node](deepcopy(state))  # a copy: the node can't edit the real worksheet
        for field, value in update.items():
            reducer = graph["reducers"].get(field)
            state[field] = reducer(state[field], value) if reducer and field in state else value
        steps += 1
        if node in graph["routers"]:
            router, path_map = graph["routers"][node]
            node = path_map[router(state)]  # the router reads the merged worksheet, and only picks a label
        else:
            node = graph["edges"].get(node, END)  # no way out: the run ends here
    return state


nodes = BriefNodes(draft_style="missing-notice", max_revisions=1)
brief_as_dict = {
    "nodes": {name: getattr(nodes, name)
              for name in ("collect", "write_draft", "check_draft", "revise_draft", "publish", "hold")},
    "edges": {START: "collect", "collect": "write_draft", "write_draft": "check_draft",
              "revise_draft": "check_draft", "publish": END, "hold": END},
    "routers": {"check_draft": (nodes.route_after_check,
                                {"accept": "publish", "revise": "revise_draft", "hold": "hold"})},
    "reducers": reducers_of(BriefState),
    "max_steps": 8,
}
by_hand = run_loop(brief_as_dict, state)
print("status:", by_hand["status"])
for event in by_hand["events"]:
    print("  ", event)

# %% [markdown]
# That is the brief, run by fifteen lines: the first check found the missing notice, the revision added it, the
# second check passed. Everything a graph engine adds on top is care: checking the declaration before running,
# refusing a misspelt field, telling listeners what happens, and running several nodes at once (all below).
#
# ## The package's engine: declare, compile, run
#
# The package's `StateGraph` takes the same pieces through LangGraph's method names: `add_node`, `add_edge`,
# `add_conditional_edges(source, router, path_map)`. It reads the reducers from the `TypedDict` itself.

# %%
def declare(nodes, routes=None, *, on=StateGraph):
    builder = on(BriefState)  # our StateGraph by default; LangGraph's takes the very same calls
    for name in ("collect", "write_draft", "check_draft", "revise_draft", "publish", "hold"):
        builder.add_node(name, getattr(nodes, name))
    builder.add_edge(START, "collect")
    builder.add_edge("collect", "write_draft")
    builder.add_edge("write_draft", "check_draft")
    builder.add_conditional_edges("check_draft", nodes.route_after_check,
                                  routes or {"accept": "publish", "revise": "revise_draft", "hold": "hold"})
    builder.add_edge("revise_draft", "check_draft")
    builder.add_edge("publish", END)
    builder.add_edge("hold", END)
    return builder


def path_of(graph, state, **options):
    """Run once, streaming each node's slip; return (final worksheet, node path)."""
    path, final = [], None
    for mode, payload in graph.stream(state, stream_mode=["updates", "values"], **options):
        if mode == "updates":
            path += list(payload)
        else:
            final = payload
    return final, path


graph = declare(BriefNodes("missing-notice", max_revisions=1)).compile(max_steps=8)
final, path = path_of(graph, state)
print("path:", " -> ".join(path), f"({len(path)} nodes)")
print("the same final worksheet as our fifteen lines:", final == by_hand)

# %% [markdown]
# ### A compile error, caught before running
#
# Because every route is declared, `compile()` can check the whole picture before anything runs. Misspell one route
# target and it refuses, naming the route and the known nodes. Nothing ran, so nothing has to be undone:

# %%
try:
    declare(nodes, {"accept": "publsh", "revise": "revise_draft", "hold": "hold"}).compile()
except GraphValidationError as error:
    print(f"{type(error).__name__}: {error}")

forgotten = declare(nodes).add_node("translate", lambda state: {})  # added, but no edge leads to it
try:
    forgotten.compile()
except GraphValidationError as error:
    print(f"{type(error).__name__}: {error}")
if LangGraphStateGraph is not None:
    accepted = declare(nodes, on=LangGraphStateGraph).add_node("translate", lambda state: {}).compile()
    print("LangGraph compiles the same forgotten node:", "translate" in accepted.nodes)

# %% [markdown]
# Compile checks the *map*: every route leads somewhere, every node can be reached. (LangGraph's compile accepts the
# unreachable node and would simply never run it; ours refuses, because a forgotten edge is almost always a
# mistake.) Compile can't prove a router will ever choose the exit; for that there is a bound (`max_steps`, below).
#
# ## The graph as a picture, and each exit's path
#
# The brief has two ways to finish and three ways to get there. Here is the graph drawn three times, each with the
# path one writer took highlighted (the thicker the arrow, the more often it was walked):

# %%
LAYOUT = {START: (0, 6), "collect": (0, 5), "write_draft": (0, 4), "check_draft": (0, 3),
          "revise_draft": (2.3, 4), "publish": (-1.3, 1.7), "hold": (1.3, 1.7), END: (0, 0.5)}
ARROWS = [(START, "collect", ""), ("collect", "write_draft", ""), ("write_draft", "check_draft", ""),
          ("check_draft", "publish", "accept"), ("check_draft", "revise_draft", "revise"),
          ("revise_draft", "check_draft", ""), ("check_draft", "hold", "hold"), ("publish", END, ""),
          ("hold", END, "")]


def draw_graph(ax, path, title, colour="#d62728"):
    walked, visits = Counter(zip([START, *path], [*path, END])), Counter(path)
    for source, target, label in ARROWS:
        times = walked[(source, target)]
        loop = {source, target} == {"check_draft", "revise_draft"}  # the two arrows of the loop bend apart
        ax.annotate("", xy=LAYOUT[target], xytext=LAYOUT[source],
                    arrowprops=dict(arrowstyle="-|>", color=colour if times else "#bbbbbb", lw=1.2 + 1.8 * times,
                                    shrinkA=18, shrinkB=18, connectionstyle="arc3,rad=0.4" if loop else "arc3"))
        if label or times > 1:
            (x1, y1), (x2, y2) = LAYOUT[source], LAYOUT[target]
            x, y = x1 + 0.45 * (x2 - x1), y1 + 0.45 * (y2 - y1)
            x, y = (x + 0.35, y - 0.45) if loop else (x, y)
            ax.text(x, y, label + (f" ×{times}" if times > 1 else ""), fontsize=8, ha="center",
                    color=colour if times else "#888888", bbox=dict(fc="white", ec="none", pad=0.5))
    for node, (x, y) in LAYOUT.items():
        name = {START: "START", END: "END"}.get(node, node) + (f" ×{visits[node]}" if visits[node] > 1 else "")
        ax.text(x, y, name, ha="center", va="center", fontsize=9,
                bbox=dict(boxstyle="round,pad=0.35", fc="#fde0dd" if node in path else "white",
                          ec=colour if node in path or node in (START, END) else "#999999"))
    ax.set_xlim(-2.3, 3.4)
    ax.set_ylim(0, 6.5)
    ax.set_title(title, fontsize=10)
    ax.axis("off")


exits = [("complete", "deliver at once"), ("missing-notice", "deliver after a revision"),
         ("stubborn", "stop trying: hold")]
paths = {style: path_of(declare(BriefNodes(style, 1)).compile(max_steps=8), state)[1] for style, _ in exits}
fig, axes = plt.subplots(1, 3, figsize=(13, 5))
for ax, (style, outcome) in zip(axes, exits):
    draw_graph(ax, paths[style], f"writer '{style}': {outcome}\n{len(paths[style])} nodes")
fig.suptitle("The weather brief: one graph, three paths through it", fontsize=12)
plt.tight_layout()
plt.show()

# %% [markdown]
# (The package can also write the graph as text: `graph.draw_ascii()` for a terminal, `graph.draw_mermaid()` for
# documentation sites that render Mermaid. The picture above is the one that shows everywhere.)
#
# ## Run it through every exit
#
# **Predict first.** The stubborn writer never adds the notice. With **two** revisions allowed, how many nodes will
# run before the run ends, and with which `status`? Write your guess:

# %%
my_guess = {"nodes": None, "status": None}  # e.g. {"nodes": 7, "status": "published"}

# %%
held_graph = declare(BriefNodes("stubborn", max_revisions=2)).compile(max_steps=10)
held, held_path = path_of(held_graph, state)
happened = {"nodes": len(held_path), "status": held["status"]}
print("what happened:", happened, "| your guess:", my_guess, "| right:", my_guess == happened)
print("path:", " -> ".join(held_path))

# %% [markdown]
# Collect, write, check, then one (revise, check) pair per revision allowed, then `hold`. Now all three writers side by
# side, and what each run leaves on the worksheet:

# %%
print(f"{'writer':<15}{'revisions':>10}  {'status':<16}{'answer?':<9}path")
for style, allowed in [("complete", 1), ("missing-notice", 1), ("stubborn", 1), ("stubborn", 0)]:
    end, walked = path_of(declare(BriefNodes(style, allowed)).compile(max_steps=8), state)
    print(f"{style:<15}{allowed:>10}  {end['status']:<16}{str(end['answer'] is not None):<9}{' -> '.join(walked)}")

print("\nthe held run: answer =", held["answer"], "| issues =", held["review"]["issues"])
print("its last draft, kept for a person to look at:")
print(render(held["draft"]))

# %% [markdown]
# The held run reaches END like the others, but with `status="needs_attention"` and `answer=None`. Its last draft
# stays on the worksheet for a person; it is never passed off as an answer. That is the second way to finish, and it
# can't be confused with the first.
#
# The check is about *this* draft. Edit a draft after it passed and `publish` refuses. A node's own exception leaves
# the engine as itself (a `ValueError` stays a `ValueError`, as on LangGraph), carrying where it happened:

# %%
class Tamperer(BriefNodes):
    def publish(self, state):  # someone edits the draft between the check and publishing
        state["draft"]["rows"][0]["celsius"] = 30
        return super().publish(state)


try:
    declare(Tamperer("complete")).compile().invoke(state)
except ValueError as error:  # the node's own error, with what the engine attached: where, what ran, the last good state
    print(f"{type(error).__name__}: {error}")
    print("  node:", error.node, "| completed:", error.completed, "| status kept:", error.state["status"])

# %% [markdown]
# A misspelt field is the commonest silent bug in a graph. Here `revise_draft` writes `"draft"` as `"drafts"`:
# LangGraph drops the unknown key without a word (the revision is lost, the old draft is checked again, and the run
# ends held, with no error anywhere), while ours stops at the node and names the fields. This is one of the places where the package's engine is
# deliberately stricter than LangGraph:

# %%
class Misspeller(BriefNodes):
    def revise_draft(self, state):
        update = super().revise_draft(state)
        update["drafts"] = update.pop("draft")  # the typo
        return update


try:
    declare(Misspeller()).compile().invoke(state)
except GraphExecutionError as error:
    print(f"ours: {type(error).__name__}: {error}")
if LangGraphStateGraph is not None:
    end = declare(Misspeller(), on=LangGraphStateGraph).compile().invoke(state)
    print("LangGraph:", end["status"], "| the typo'd key in the final worksheet:", "drafts" in end)

# %% [markdown]
# ## Watching a run: `updates` and `values`, from one execution
#
# `stream()` runs the graph once and reports as it goes. `"updates"` gives each node's change slip; `"values"` gives
# the whole merged worksheet after each step (the input first). Ask for both and you get `(mode, payload)` pairs
# from the **same** run, so the last `values` item is the final worksheet: no need to call `invoke()` afterwards (that
# would be a second run). Asked for nothing, `stream()` gives plain `updates`, as LangGraph does.

# %%
streamed = declare(BriefNodes("missing-notice", 1)).compile(max_steps=8)
final = None
for mode, payload in streamed.stream(state, stream_mode=["updates", "values"]):
    if mode == "updates":
        (node, update), = payload.items()
        print(f"  updates  {node:<13} changed {sorted(update)}")
    else:
        final = payload
        print(f"  values   events so far: {len(payload['events'])}, status: {payload['status']}")
collected = [event for event in final["events"] if event.startswith("collected")]
print("\neach city collected once:", collected, "| status:", final["status"])
print("stream(state) with no mode yields plain {node: slip} dicts:", [list(item) for item in streamed.stream(state)])

# %% [markdown]
# ## `max_steps`, and LangGraph's `recursion_limit`
#
# Compile can't prove a router ever takes its exit. A router that always says `"revise"` passes every compile check;
# only a bound stops it. The package's `max_steps` counts **supersteps**: rounds of the scheduler. In a graph without
# parallel branches, one superstep runs one node, so the missing-notice run (six nodes) needs `max_steps=6`, and five
# is too few. The engine stops *before* the step that would exceed the bound, keeping what was done:

# %%
for bound in (6, 5):
    try:
        end, walked = path_of(declare(BriefNodes("missing-notice", 1)).compile(max_steps=bound), state)
        print(f"max_steps={bound}: {end['status']} after {len(walked)} nodes")
    except GraphStepLimit as error:
        print(f"max_steps={bound}: {type(error).__name__}: {error}")
        print("   completed:", error.completed)

# %% [markdown]
# How big should the bound be? For the brief, the longest legal run is collect, write, check, then a (revise, check)
# pair per allowed revision, then publish or hold: `2 * max_revisions + 4` supersteps, which `step_bound` computes.
# The stubborn writer takes exactly that longest path, so it is the test:

# %%
for allowed in range(4):
    _, walked = path_of(declare(BriefNodes("stubborn", allowed)).compile(max_steps=step_bound(allowed)), state)
    print(f"max_revisions={allowed}: step_bound={step_bound(allowed)}, the stubborn run took {len(walked)}")
    assert len(walked) == step_bound(allowed)

# %% [markdown]
# LangGraph's bound is `recursion_limit`, also counted in supersteps, but the same six-node run needs **7**. The extra
# one is LangGraph's START: it is a real superstep there (step 0, where a hidden `__start__` task writes your input
# into the worksheet); your nodes run in steps 1 to 6. So `recursion_limit = max_steps + 1` for the same run. A cell
# that would fail if that were false, on the real LangGraph (skipped if it is not installed):

# %%
if LangGraphStateGraph is None:
    print("skipped: LangGraph is not installed (pip install 'mingraph-lite[langgraph]')")
else:
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.errors import GraphRecursionError

    for limit in (7, 6):
        try:
            end = declare(nodes, on=LangGraphStateGraph).compile().invoke(state, config={"recursion_limit": limit})
            print(f"recursion_limit={limit}: {end['status']}")
        except GraphRecursionError:
            print(f"recursion_limit={limit}: GraphRecursionError")
    saving = declare(nodes, on=LangGraphStateGraph).compile(checkpointer=InMemorySaver())
    steps = [item["step"] for item in saving.stream(state, {"configurable": {"thread_id": "brief"}},
                                                    stream_mode="debug") if item["type"] == "checkpoint"]
    print("LangGraph's checkpoints are numbered", steps, "(-1 is the input; step 0 is START's own superstep)")
    import langgraph.pregel._loop as loop  # LangGraph's own scheduler: where the limit is set and checked

    print("\nfrom", "/".join(loop.__file__.split("/")[-3:]) + ":")
    lines = [line.strip() for line in inspect.getsource(loop).splitlines()]
    for line in dict.fromkeys(line for line in lines if 'self.checkpoint_metadata["step"] + 1' in line
                              or 'self.config["recursion_limit"] + 1' in line or "if self.step > self.stop" in line):
        print("   ", line)

# %% [markdown]
# Read LangGraph's own lines: a fresh run starts at step -1 (the input), so `stop` comes out equal to
# `recursion_limit`; and `step > stop` is checked at the top of *every* superstep, also the one after your last node
# that finds nothing left to run (step 7 here). Your six nodes plus START's step 0 make seven supersteps, and the
# limit has to cover all of them.
#
# ## Parallel branches: several nodes in one superstep
#
# `collect` looks up the cities one after another. The lookups don't depend on each other: a real brief would fetch
# them at the same time. A graph says so with several edges out of one node (a **fan-out**), and one edge from all of
# them into the next node (a **join**): the next node waits until every branch has finished.
#
# The rule that makes this safe is the **superstep**: every node triggered in a step reads the *same* worksheet, and
# their slips are merged only when all of them have finished, in a fixed order. That raises a question the
# sequential loop never had: what if two branches write the same field in one step?
#
# ### The naive version: two branches, one plain field
#
# Here is a superstep loop, our own, every line visible. It is `run_loop` with one change: instead of one current
# node it keeps a *set* of active nodes, runs them all on the same worksheet, merges their slips, and collects the
# next set. Edges are now lists (a fan-out), and `"joins"` names a node that waits for several others.

# %%
def next_nodes(graph, node, state):
    if node in graph["routers"]:
        router, path_map = graph["routers"][node]
        labels = router(state)  # a router may return a list of labels: one branch each
        return [path_map[label] for label in (labels if isinstance(labels, list) else [labels])]
    return graph["edges"].get(node, [])


def run_supersteps(graph, state):
    state, step, log, waiting = deepcopy(state), 0, [], {}
    active = set(next_nodes(graph, START, state))
    while active - {END}:
        step += 1
        if step > graph["max_steps"]:
            raise RuntimeError(f"stopped before superstep {step} (max_steps={graph['max_steps']})")
        slips = {node: graph["nodes"][node](deepcopy(state)) for node in sorted(active - {END})}  # same state
        written = {}
        for node, slip in slips.items():  # merged after all ran, in a fixed (sorted) order
            for field, value in slip.items():
                reducer = graph["reducers"].get(field)
                if reducer is None and field in written:
                    raise ValueError(f"{written[field]!r} and {node!r} both wrote the plain field {field!r} in "
                                     f"superstep {step}; give it a reducer")
                written[field] = node
                state[field] = reducer(state[field], value) if reducer and field in state else value
        log.append((step, sorted(slips)))
        active = set()
        for node in slips:  # (LangGraph's router reads the old state plus its own node's slip: the same here,
            for target in next_nodes(graph, node, state):  # since the router's node runs alone in its step)
                needs = graph["joins"].get(target)
                if needs:  # a join waits until every one of its sources has finished
                    waiting.setdefault(target, set()).add(node)
                if not needs or waiting[target] >= needs:
                    active.add(target)
                    waiting.pop(target, None)
    return state, log


def collect_one(city):  # a first try: each branch collects one city and writes `readings`
    def collect(state):
        return {"readings": [{"city": city, **WEATHER[city]}], "events": [f"collected {city}"]}
    return collect


def brief_in_parallel(nodes, cities, collect_node, reducers):
    branches = [f"collect_{city}" for city in cities]
    steps = ("write_draft", "check_draft", "revise_draft", "publish", "hold")
    return {
        "nodes": {**{b: collect_node(c) for b, c in zip(branches, cities)}, **{n: getattr(nodes, n) for n in steps}},
        "edges": {START: branches, **{b: ["write_draft"] for b in branches}, "write_draft": ["check_draft"],
                  "revise_draft": ["check_draft"], "publish": [END], "hold": [END]},
        "routers": {"check_draft": (nodes.route_after_check,
                                    {"accept": "publish", "revise": "revise_draft", "hold": "hold"})},
        "joins": {"write_draft": set(branches)},
        "reducers": reducers,
        "max_steps": 10,
    }


first_sketch = {"events": operator.add}  # suppose only `events` had a reducer, and `readings` were plain
try:
    run_supersteps(brief_in_parallel(BriefNodes(), ["Tokyo", "Paris"], collect_one, first_sketch), state)
except ValueError as error:
    print("our loop:", error)

class FirstSketch(TypedDict):  # the same first sketch on both engines: `readings` without a reducer
    readings: list
    events: Annotated[list, operator.add]


for engine in (StateGraph, LangGraphStateGraph):
    if engine is None:
        continue  # LangGraph is not installed
    sketch = engine(FirstSketch)
    for city in ("Tokyo", "Paris"):
        sketch.add_node(f"collect_{city}", collect_one(city))
        sketch.add_edge(START, f"collect_{city}")
    try:
        sketch.compile().invoke({"readings": [], "events": []})
    except Exception as error:  # each engine has its own error type for this
        print(f"{engine.__module__.split('.')[0]}: {type(error).__name__}: {str(error).splitlines()[0]}")

# %% [markdown]
# `readings` is a plain field: each branch's slip would *replace* it, and whichever merged last would win, silently
# dropping a city. Our loop refuses instead, naming both nodes, and so do both engines, each with its own error. The fix is the one you already know: give the field a reducer, so each branch *adds* its
# reading. That is why the package's `BriefState` (its source is printed near the top) declares
# `readings: Annotated[list[dict[str, Any]], operator.add]`:

# %%
print("BriefState's reducers:", reducers_of(BriefState))
merged, _ = run_supersteps(brief_in_parallel(BriefNodes(), ["Tokyo", "Paris"], collect_one, reducers_of(BriefState)),
                           state)
print("with them, both branches' readings arrive:", [reading["city"] for reading in merged["readings"]])


# %% [markdown]
# ### Exercise 06.3: one branch's node
#
# Write `collect_city(city)`: it returns a **node** (a function of the worksheet) that collects that one city. Its
# slip changes only `readings` and `events`, each a one-item list: the new reading (a dict with the city's `city`,
# `celsius` and `conditions` from `WEATHER`) and one event naming the city. The reducer adds them to what the other
# branches collected. The check runs your node for other cities, on a worksheet that already holds a reading.

# %%
def collect_city(city):
    raise NotImplementedError  # your code here


# %%
check("06.3", collect_city)

# %% [markdown]
# Our version (the rest of the notebook uses this one):

# %%
def collect_city(city):
    def collect(state):
        record = WEATHER[city]
        reading = {"city": city, "celsius": record["celsius"], "conditions": record["conditions"],
                   "source": "fixed teaching data"}
        return {"readings": [reading], "events": [f"collected {city}"]}

    collect.__name__ = f"collect_{city}"
    return collect


# %% [markdown]
# **Predict first.** Three cities, collected in parallel, with the missing-notice writer and one revision allowed. How
# many **supersteps** does the run take, and how many **node executions**?

# %%
my_guess = {"supersteps": None, "nodes": None}  # e.g. {"supersteps": 9, "nodes": 9}

# %%
three = initial_state(["Tokyo", "Paris", "Oslo"])
final, log = run_supersteps(brief_in_parallel(BriefNodes(), three["cities"], collect_city, reducers_of(BriefState)),
                            three)
for step, ran in log:
    print(f"  superstep {step}: {', '.join(ran)}")
happened = {"supersteps": len(log), "nodes": sum(len(ran) for _, ran in log)}
print("what happened:", happened, "| your guess:", my_guess, "| right:", my_guess == happened)
print("readings:", [r["city"] for r in final["readings"]], "| status:", final["status"])

# %% [markdown]
# Three collecting nodes share superstep 1, so eight node executions fit in six supersteps. The readings arrive in
# the order the slips were merged (sorted by node name, so every run gives the same worksheet), not the order the
# cities were listed.
#
# ## The parallel brief on the real LangGraph, and on ours
#
# LangGraph spells a fan-out as one `add_edge(START, branch)` per branch, and a join as one edge from a *list* of
# nodes: `add_edge([branch_1, branch_2, ...], "write_draft")`. The package's `StateGraph` takes the same calls.
#
# ### Exercise 06.4: declare the parallel brief on LangGraph
#
# Write `declare_on_langgraph(nodes, cities)`: build the parallel brief on `langgraph.graph.StateGraph` over
# `BriefState`: one `collect_<city>` node per city (from your or our `collect_city`), all starting at once
# and joined before `write_draft`; then `write_draft`, `check_draft`, `revise_draft`, `publish` and `hold` from
# `nodes` (a `BriefNodes`) with its router, wired as before. Return the compiled graph. The check runs it on LangGraph
# for other cities, writers and allowances, and compares its supersteps with the brief's. If LangGraph is not
# installed, the check is skipped.

# %%
def declare_on_langgraph(nodes, cities):
    raise NotImplementedError  # your code here


# %%
if LangGraphStateGraph is None:
    print("06.4 skipped: LangGraph is not installed (pip install 'mingraph-lite[langgraph]')")
else:
    check("06.4", declare_on_langgraph)

# %% [markdown]
# ### Our declaration, on the package's engine, and who ran when
#
# Here is our declaration. It takes the builder as an argument, so the very same function can be handed our
# `StateGraph` or LangGraph's. Listeners hear each node start and end **with its superstep**, so the same kind of
# listener you wrote in notebook 04 can say who ran when:

# %%
def declare_parallel(builder, nodes, cities):
    branches = [f"collect_{city}" for city in cities]
    for city, branch in zip(cities, branches):
        builder.add_node(branch, collect_city(city))
        builder.add_edge(START, branch)  # a fan-out: one edge per branch
    for name in ("write_draft", "check_draft", "revise_draft", "publish", "hold"):
        builder.add_node(name, getattr(nodes, name))
    builder.add_edge(branches, "write_draft")  # the join: waits for every branch
    builder.add_edge("write_draft", "check_draft")
    builder.add_conditional_edges("check_draft", nodes.route_after_check,
                                  {"accept": "publish", "revise": "revise_draft", "hold": "hold"})
    builder.add_edge("revise_draft", "check_draft")
    builder.add_edge("publish", END)
    builder.add_edge("hold", END)
    return builder


class WhoRanWhen(Observer):
    def __init__(self):
        self.ran = []

    def on_node_end(self, node, update, superstep=None):
        self.ran.append((superstep, node))


who = WhoRanWhen()
ours = declare_parallel(StateGraph(BriefState), BriefNodes(), three["cities"]).compile(max_steps=10)
ours_final = ours.invoke(three, observers=[who])
for step in sorted({s for s, _ in who.ran}):
    print(f"  superstep {step}: {', '.join(sorted(n for s, n in who.ran if s == step))}")
print("same supersteps as our loop:", [(s, sorted(n for t, n in who.ran if t == s)) for s, _ in log] == log,
      "| same worksheet:", ours_final == final)
for bound in (6, 5):  # max_steps counts supersteps: 8 node executions fit in 6
    try:
        declare_parallel(StateGraph(BriefState), BriefNodes(), three["cities"]).compile(max_steps=bound) \
            .invoke(three)
        print(f"max_steps={bound}: enough for {len(who.ran)} node executions")
    except GraphStepLimit:
        print(f"max_steps={bound}: GraphStepLimit")

# %% [markdown]
# And the same run as a picture: one row per node, one column per superstep.

# %%
fig, ax = plt.subplots(figsize=(9, 3.6))
lanes = list(dict.fromkeys(node for _, node in sorted(who.ran, key=lambda item: item[0])))
for step, node in who.ran:
    row = lanes.index(node)
    ax.barh(row, 0.8, left=step - 0.4, color="#1f5fa8" if node.startswith("collect") else "#6a3d9a")
ax.set_yticks(range(len(lanes)), lanes)
ax.invert_yaxis()
ax.set_xticks(range(1, max(s for s, _ in who.ran) + 1))
ax.set_xlabel("superstep")
ax.set_title("The parallel brief: three branches share superstep 1, then one node per step")
ax.grid(axis="x", alpha=0.3)
plt.tight_layout()
plt.show()

# %% [markdown]
# The package's own brief (`build_brief_graph`) takes the other road LangGraph offers for "one branch per item":
# a single `collect_city` node and a router at START that returns one `Send("collect_city", {"city": ...})` per city
# (LangGraph's map-reduce). The node runs once per packet, all in the same superstep; `graph.steps` groups a run's
# nodes by superstep:

# %%
packaged = build_brief_graph("missing-notice", max_revisions=1)
packaged.invoke(three)
for number, ran in enumerate(packaged.steps, start=1):
    print(f"  superstep {number}: {', '.join(ran)}")

# %% [markdown]
# ### Ours beside LangGraph's
#
# Here is the code that runs the parallel brief on each engine, side by side, and then both are run. `declare_parallel`
# is the same function in both columns; what differs is the builder it is handed, the name of the bound, and how
# each engine tells you who ran in which superstep (our listeners; LangGraph's `debug` stream).

# %%
def run_on_ours(nodes, state):
    from mingraph_lite.graph import StateGraph

    builder = StateGraph(BriefState)
    graph = declare_parallel(builder, nodes, state["cities"]).compile(max_steps=10)
    who = WhoRanWhen()
    final = graph.invoke(state, observers=[who])
    return final, sorted(who.ran)


def run_on_langgraph(nodes, state):
    from langgraph.graph import StateGraph

    builder = StateGraph(BriefState)
    graph = declare_parallel(builder, nodes, state["cities"]).compile()
    ran, final = [], None
    for mode, item in graph.stream(state, stream_mode=["debug", "values"],
                                   config={"recursion_limit": 11}):
        if mode == "values":
            final = item
        elif item["type"] == "task":
            ran.append((item["step"], item["payload"]["name"]))
    return final, sorted(ran)


# %%
left, right = inspect.getsource(run_on_ours).splitlines(), inspect.getsource(run_on_langgraph).splitlines()
width = max(map(len, left)) + 2
print(f"{'ours (mingraph_lite)':<{width}}| LangGraph")
print("-" * width + "+" + "-" * 60)
for a, b in zip(left + [""] * (len(right) - len(left)), right + [""] * (len(left) - len(right))):
    print(f"{a:<{width}}| {b}")

# %%
if LangGraphStateGraph is None:
    print("skipped: LangGraph is not installed (pip install 'mingraph-lite[langgraph]')")
else:
    print(f"{'writer':<16}{'same supersteps':>16}{'same worksheet':>16}   supersteps")
    for style in ("complete", "missing-notice", "stubborn"):
        ours_end, ours_ran = run_on_ours(BriefNodes(style), three)
        theirs_end, theirs_ran = run_on_langgraph(BriefNodes(style), three)
        print(f"{style:<16}{str(ours_ran == theirs_ran):>16}{str(ours_end == theirs_end):>16}"
              f"   {max(step for step, _ in theirs_ran)}")

# %% [markdown]
# ### Where the two engines still differ
#
# The package's engine follows LangGraph wherever LangGraph's behaviour is well defined. Where it stays different,
# it is on purpose, and the graph documentation keeps one table of every difference and its reason. Here it is, read
# from that page:

# %%
from IPython.display import Markdown, display

doc = Path("../docs/graph.md").read_text(encoding="utf-8")
table_start = doc.index("\n|", doc.index("## Every remaining difference from LangGraph"))
table = doc[table_start:].split("\n\n")[0]
display(Markdown(table))

# %% [markdown]
# ## The agent loop as a graph
#
# The loop from notebook 01 fits the same mould with two nodes: `model` (ask the model once; return its reply and the
# slips it asks for) and `tools` (check the whole batch, run it, answer every slip). The worksheet:

# %%
from mingraph_lite.graph import AgentNodes, AgentState

print(inspect.getsource(AgentState))
print(inspect.getsource(AgentNodes.route_after_model))
print(inspect.getsource(AgentNodes.route_after_tools))

# %% [markdown]
# `messages` is the folder, with `operator.add`: every node adds, none rewrites. `pending_calls` is the batch still
# to run, **replaced**: writing `[]` clears it (with `add`, an empty list would leave the old calls pending, and they
# would run again). `pending_reply` is the reply that asked for them: it joins the folder together with its answers,
# in the `tools` node's one update, so a round cut short (Ctrl-C in a tool) leaves the folder as it was, never with a
# slip unanswered. A stopped run keeps `answer=None` and says why in `stop_reason`.
#
# The same listeners as notebook 04 plug in unchanged. The nodes announce what `Agent` announces, in the same order;
# the engine adds its node start and end around them.

# %%
recorder = EventRecorder()
agent_graph = build_agent_graph(four_round_manager(), weather_registry(), SYSTEM_PROMPT,
                                observers=[ConsoleLogger(width=70), recorder])
end = run_agent_graph(agent_graph, QUESTION)
print()
print("nodes:", " -> ".join(e["node"] for e in recorder.events if e["event"] == "node_end"))
print("answer:", end["answer"], "| stop_reason:", end["stop_reason"], "| model calls:", end["model_steps"],
      "| tool calls:", end["tool_calls_made"])

# %% [markdown]
# **The same announcements?** Run the `Agent` from notebook 03 with the same scripted manager and an `EventRecorder`,
# and compare its events with the graph's, leaving out the graph's own node events:

# %%
agent_recorder = EventRecorder()
Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[agent_recorder]).run({"question": QUESTION})
graph_events = [e for e in recorder.events if not e["event"].startswith("node_")]
print("Agent events:", len(agent_recorder.events), "| graph events without node_*:", len(graph_events),
      "| node events:", len(recorder.events) - len(graph_events))
print("identical:", graph_events == agent_recorder.events)
print("in order:", " ".join(agent_recorder.names()[:7]), "...")

# %% [markdown]
# ### Budgets, and a run that stopped is not a run that answered
#
# `max_model_steps` and `max_tool_calls` are separate budgets, each checked before the work it bounds. The four-round
# manager asks for both lookups, then one conversion per round. **Predict first:** with `max_tool_calls=3` (and plenty
# of model steps), what is the `stop_reason`, and how many tool handlers run?

# %%
my_guess = {"stop_reason": None, "tool_calls_made": None}  # "answered", "step limit", "tool budget" or "tool failed"

# %%
short = run_agent_graph(build_agent_graph(four_round_manager(), weather_registry(), SYSTEM_PROMPT,
                                          max_tool_calls=3), QUESTION)
happened = {"stop_reason": short["stop_reason"], "tool_calls_made": short["tool_calls_made"]}
print("what happened:", happened, "| your guess:", my_guess, "| right:", my_guess == happened)
print("answer:", short["answer"])
print("the work kept:", [f"{m.name}={m.content}" for m in short["messages"] if m.role == "tool"])

# %% [markdown]
# The budget is checked before a batch starts, so the batch that would exceed it (the second conversion) never starts;
# the work already done stays on the worksheet, and there is no answer. A stopped run is reported as stopped.
#
# ### A real model that never takes the exit
#
# The scripted manager always finds the exit. A real small model may not. The course keeps real runs of the shipped
# local models, recorded by the lab's experiment command (`data/experiments/README.md`). This one is **SmolLM2-135M**
# (Q4_1 weights, run in-process by llama.cpp), definition `finish-right`, variant "zero-shot" (our question, our
# system prompt, nothing else), run #12: sampling at temperature 0.7, seed 112, at most 6 model calls. Here its six
# recorded replies are **replayed** through the agent graph (the replay also checks that the graph sends the folder
# the model was sent):

# %%
import csv

from mingraph_lite import ReplayLLM

FINISH = Path("../data/experiments/finish-right")
with (FINISH / "smollm2-135m" / "results.csv").open(encoding="utf-8") as handle:
    row = next(r for r in csv.DictReader(handle) if r["variant"] == "zero-shot" and r["index"] == "12")
replayed = ReplayLLM.from_trace(FINISH / "smollm2-135m" / row["trace"])
real = run_agent_graph(build_agent_graph(replayed, weather_registry(), SYSTEM_PROMPT,
                                         max_model_steps=6), QUESTION)
print(f"model: {replayed.responses[0].model}, \"{row['variant']}\" #{row['index']}, seed {row['seed']}, "
      f"temperature {row['temperature']} | replies recorded: {len(replayed.responses)}")
slips = [c for m in real["messages"] if m.role == "assistant" for c in m.tool_calls]
print("slips it wrote:", [f"{c.name}({c.arguments})" for c in slips])
print("stop_reason:", real["stop_reason"], "| answer:", real["answer"], "| model calls:", real["model_steps"])
assert {c.name for c in slips} == {"to_fahrenheit"} and real["stop_reason"] == "step limit"
assert [c.arguments["celsius"] for c in slips][:3] == [22, 20, 10]  # no lookup ran: each number is made up

# %% [markdown]
# The tiny model never looked up a city: it made up a temperature (22; no tool had run), converted it, then made up
# others (20, then 10 four times) and converted those, one per round. The graph did what it is built for: the model-step budget
# stopped the run, the work stayed on the worksheet, and the result says **stopped**, with no answer. A run that
# stopped is not a run that delivered, whether the reason is a stubborn writer or a model that loops.
#
# The other way round matters as much: a run that **reached END** is not a run that is right. No recorded run
# answers our question right; the closest is **Gemma 3 270M** (Q4_K_M weights, in-process llama.cpp), same
# definition, variant "worked example" (a short exchange on two other cities, put in the folder before the
# question), run #10: temperature 0.7, seed 110, at most 6 model calls. Replayed through the same graph, with the
# worked example on the worksheet:

# %%
from mingraph_lite import SystemMessage, UserMessage
from mingraph_lite.course.definition import load
from mingraph_lite.graph import initial_agent_state

finish_right = load("finish-right")
worked = next(v for v in finish_right.variants if v.name == "worked example")
start = initial_agent_state(finish_right.question)
start["messages"] = [SystemMessage(worked.system_prompt), *worked.messages, UserMessage(finish_right.question)]
closest = ReplayLLM.from_trace(FINISH / "gemma3-270m" / "traces" / "worked-example-10.jsonl")
ended = build_agent_graph(closest, worked.registry(), max_model_steps=6).invoke(start)
print("model:", closest.responses[0].model, "| stop_reason:", ended["stop_reason"], "| model calls:",
      ended["model_steps"])
print("work kept:", [f"{m.name}={m.content}" for m in ended["messages"][-4:] if m.role == "tool"])
print("answer, its first line:", ended["answer"].splitlines()[0])
assert ended["stop_reason"] == "answered" and "24°F" in ended["answer"]  # 24 is Tokyo's Celsius, not its °F

# %% [markdown]
# Both lookups came back right (18 and 24, Celsius), and the reply then called them °F, without a conversion: the
# graph reached END with `stop_reason` "answered" and a wrong answer. Routing decides when a run stops; whether its
# answer is right needs a check of its own (notebook 05 finds this run's first wrong line).
#
# ### The active model
#
# The same graph with the model `MINGRAPH_LLM` names (scripted by default; with a live model, its answer will vary,
# so this cell's output is not compared):

# %%
# NBVAL_IGNORE_OUTPUT
from mingraph_lite.course.scripts import make_llm

llm = make_llm()
live = run_agent_graph(build_agent_graph(llm, weather_registry(), SYSTEM_PROMPT, max_model_steps=6), QUESTION)
print("model:", llm.name)
print("stop_reason:", live["stop_reason"], "| answer:", live["answer"])

# %% [markdown]
# ## What is still open
#
# - **The state lives in this process.** Printing the worksheet doesn't save the run; a restart doesn't resume it.
#   Durable checkpoints (LangGraph has them; you saw its checkpoint numbers above) are the next layer, with their own
#   questions about what may be replayed.
# - **Compile checks the map, not the driver.** A router that always picks `revise` passes every compile check; only
#   `max_steps` (and business limits like `max_revisions`) stop it.
# - **The check is narrow on purpose.** Comparing rows and a fixed sentence works for structured page data. A free-text
#   answer from a model needs acceptance rules of its own; reaching END is not the same as being right.
# - **Copies are not a sandbox.** Nodes get copies, so they can't corrupt the worksheet by accident, but a node that
#   wrote a file or sent a message has done it; a failed merge can't undo the outside world.
# - **Parallel is not concurrent here.** Branches of one superstep share a state and merge in a fixed order, but our
#   engine runs them one after another; real parallel fetching (threads, `async`) is LangGraph's next layer.
