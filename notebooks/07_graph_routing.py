# %% [markdown]
# # 07 · Graph routing: a worksheet, change slips, and routes you declare
#
# **By the end of this notebook you will be able to**
#
# - write a workflow's *state* (the worksheet) as a typed dict, and say which fields an update replaces and which it
#   adds to (a *reducer*);
# - read *nodes* that hand back only what they changed, and write *routers* that pick among routes declared up front;
# - write the run loop of a graph engine yourself, then use the package's;
# - tell a run that **delivered** from one that **stopped trying**;
# - say what `max_steps` and LangGraph's `recursion_limit` count.
#
# **Before you start:** notebooks 01 to 03; Python dicts and functions.
# **Time:** about 88 minutes (estimated from length: see "How long" in 00).
#
# **Source:** the weather brief and its two exits come from the article *"Stage 03: The Brief Is Written. Why Can't
# We Deliver It Yet? Making State and Control Flow Explicit"* (a staged tutorial; no author named). The code
# here is ours.
#
# Nothing here calls a model.

# %%
import inspect
from typing import get_type_hints

from lessons.exercises import check
from lessons.langgraph_runs import misspelt_runs, overwrite_clears, show_recursion_limits
from lessons.pictures import draw_brief_paths
from lessons.predict import reveal
from lessons.reference import reference
from mingraph_lite import GraphStepLimit, GraphValidationError
from mingraph_lite.course.brief import NOTICE, BriefNodes, BriefState, initial_state, render, review_issues, step_bound
from mingraph_lite.course.weather import WEATHER
from mingraph_lite.graph import END, START, StateGraph

try:  # LangGraph is optional: every cell that uses it says so and skips when it is missing
    from langgraph.graph import StateGraph as LangGraphStateGraph
except ImportError:
    LangGraphStateGraph = None

# %% [markdown]
# ## The job: a weather brief that is checked before it goes out
#
# A travel page shows a short weather brief for the cities a reader picked, in Celsius and Fahrenheit. The page owner
# adds a delivery rule: **check it before showing it.** No city may be missing, the numbers must match the data, and
# the brief must say `"Fixed teaching data, not live weather."`. A rejected draft may be fixed, but not forever:
# after the allowed number of revisions, stop and say it needs attention.
#
# So there are two ways to finish: **deliver** a draft that passed, or **stop trying** and hand it to a person.
#
# ### The naive version first

# %%
def naive_brief(cities, writer="missing-notice", max_revisions=1):
    rows = [f"{city}: {w['celsius']}°C / {round(w['celsius'] * 9 / 5 + 32, 1)}°F, {w['conditions']}."
            for city, w in zip(cities, map(WEATHER.get, cities))]  # the row format `render` uses below
    draft = "\n".join(rows + ([NOTICE] if writer == "complete" else []))
    revisions = 0
    while NOTICE not in draft and revisions < max_revisions:
        if writer != "stubborn":  # a stubborn writer "revises" without fixing anything
            draft = draft + "\n" + NOTICE
        revisions += 1
    return draft


for writer in ("missing-notice", "stubborn"):
    print(f"--- writer: {writer}\n{naive_brief(['Tokyo', 'Paris'], writer)}")

# %% [markdown]
# The stubborn case goes out **without the notice**, just like a good brief: the loop fell through to
# `return draft`, so the caller cannot tell "passed" from "gave up".
#
# The fix is to write the process down: what the run knows (the **state**, our worksheet), the steps (**nodes**), and
# which step comes next (**edges**, some of them **routes** chosen by a small function, the **router**).
#
# ## The worksheet: a typed dict, and how each field changes
#
# The worksheet's type, as the package declares it:

# %%
print(inspect.getsource(BriefState))

# %% [markdown]
# `Annotated[list[str], operator.add]` attaches
# a **reducer** to `events`: "old value + contribution", so the account only grows (`readings` has one too, for
# notebook 08). Every other field is **replaced**: a new `draft` replaces the old. `initial_state()` checks the
# options before any work starts:

# %%
state = initial_state(["Tokyo", "Paris"], include_fahrenheit=True)
print("\n".join(f"  {field:<19} {value!r}" for field, value in state.items()))
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

# %% [markdown]
# Three habits follow. A slip never repeats the past (old events sent back would append twice). Leaving a
# field out means "unchanged", so clearing a **plain** field takes an explicit `None`; a field with a reducer can't be
# cleared that way, here or in the package's engine (`operator.add(list, None)` raises). LangGraph 1.x
# has a way out: a slip value wrapped in `langgraph.types.Overwrite` skips the reducer. And a field with no reducer is
# replaced *whole*: there is no deep merge of nested dicts.

# %%
print("plain field, None clears it:", merge(after_draft, {"draft": None})["draft"])
print("no deep merge, the rows are gone:", merge({"draft": {"rows": ["Tokyo"]}}, {"draft": {"notice": NOTICE}}))
try:
    merge(after_draft, {"events": None})
except TypeError as error:
    print("reducer field, None raises:", error)
_ = overwrite_clears(state)  # LangGraph only, where installed: lessons/langgraph_runs.py

# %% [markdown]
# ## The nodes
#
# Each step is a method of `BriefNodes` that reads the worksheet and returns a change slip:

# %%
for node in ("collect", "write_draft", "check_draft", "revise_draft", "hold"):
    print(inspect.getsource(getattr(BriefNodes, node)))

# %% [markdown]
# A new draft sets `review=None`: the old verdict no longer applies. The sixth node, `publish`, sets
# `status="published"` and the answer, and raises unless the current draft is the one that passed its check. `check_draft` lists a draft's issues with `review_issues`; here Tokyo's temperature is
# wrong:

# %%
collected = {**state, **BriefNodes().collect(state)}
hot = BriefNodes().write_draft(collected)["draft"]
hot["rows"][0]["celsius"] = 30
print(review_issues({**collected, "draft": hot}))

# %% [markdown]
# ## The router: your turn first
#
# After `check_draft`, a *router* chooses one of three **routes**: `"accept"`, `"revise"` or `"hold"`. It returns a
# route *label*; a declared map turns the label into a node. The package's router accepts a passed draft, revises while it may, then holds; the owner wants one more rule.
#
# ### Exercise 07.1: `route_after_check`
#
# Write `route_after_check(state, max_revisions)`. Rules:
#
# 1. if there is no review, or the review's `checked_draft` is not the current `draft`, raise `ValueError`
#    (nobody checked *this* draft);
# 2. a draft that passed is accepted;
# 3. a draft whose check found wrong numbers (an issue starting with `"wrong_values"`) is held at once, whatever the
#    allowance: the data or the writer is broken, and a person should look first;
# 4. otherwise revise while fewer than `max_revisions` revisions were made, else hold.
#
# The check runs your router on worksheets of its own. An answer that calls the package's router is refused; its
# source in `brief.py` holds most of this answer: leave it closed.

# %%
def route_after_check(state, max_revisions):
    raise NotImplementedError  # your code here


# %%
check("07.1", route_after_check)

# %% [markdown]
# ## The run loop: your turn again
#
# What runs the nodes? A loop. For this exercise a graph is a plain dict:
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
# ### Exercise 07.2: `run(graph, state)`
#
# Write `run(graph, state)` that returns the final worksheet. Rules:
#
# 1. start at `graph["edges"][START]`; stop when the next node is `END`;
# 2. hand each node a **deep copy** of the worksheet (`copy.deepcopy`), so only its slip can change anything;
# 3. merge the slip: a field with a reducer becomes `reducer(old, new)` (if the field exists yet), any other is
#    replaced;
# 4. next node: a node with a router goes where `path_map[router(state)]` says, read *after* the merge; otherwise
#    its fixed edge; a node with neither ends the run;
# 5. once `max_steps` nodes have run, raise `RuntimeError` instead of starting another;
# 6. never change the dict you were given.
#
# The check runs your loop on small graphs of its own. About fifteen lines.

# %%
def run(graph, state):
    raise NotImplementedError  # your code here


# %%
check("07.2", run)

# %% [markdown]
# The notebook's own `run` (loaded unprinted) runs the brief as such a dict:

# %%
run_loop = reference("07.2")
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
print("events:", *by_hand["events"], sep="\n  ")

# %% [markdown]
# The first check found the missing notice, the revision added it, the second check passed.
#
# ## The package's engine: declare, compile, run
#
# The package's `StateGraph` takes the same pieces through LangGraph's method names: `add_node`, `add_edge`,
# `add_conditional_edges(source, router, path_map)`, and reads the reducers from the `TypedDict`. Streamed with both
# modes, a run yields `("updates", slip)` and `("values", worksheet)` pairs (`path_of` below).

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
# `compile()` checks the declared map before anything runs: a misspelt route target, or a node no edge reaches:

# %%
misspelt = declare(nodes, {"accept": "publsh", "revise": "revise_draft", "hold": "hold"})
# "translate" is added, but no edge leads to it
for builder in (misspelt, declare(nodes).add_node("translate", lambda state: {})):
    try:
        builder.compile()
    except GraphValidationError as error:
        print(f"{type(error).__name__}: {error}")
if LangGraphStateGraph is not None:
    accepted = declare(nodes, on=LangGraphStateGraph).add_node("translate", lambda state: {}).compile()
    print("LangGraph compiles the same forgotten node:", "translate" in accepted.nodes)

# %% [markdown]
# LangGraph compiles the unreachable node; ours refuses it, as a forgotten edge is almost always a mistake.
#
# ## Each exit's path

# %%
exits = {"writer 'complete': deliver at once": "complete",
         "writer 'missing-notice': deliver after a revision": "missing-notice",
         "writer 'stubborn': stop trying, hold": "stubborn"}
draw_brief_paths({caption: path_of(declare(BriefNodes(style, 1)).compile(max_steps=8), state)[1]
                  for caption, style in exits.items()}, title="The weather brief: one graph, three paths through it")

# %% [markdown]
# **Predict first.** The stubborn writer never adds the notice. With **two** revisions allowed, how many nodes will
# run, and with which `status`?

# %%
my_guess = ...  # e.g. {"nodes": 7, "status": "published"}

# %%
held, held_path = path_of(declare(BriefNodes("stubborn", max_revisions=2)).compile(max_steps=10), state)
reveal(my_guess, {"nodes": len(held_path), "status": held["status"]})
print("path:", " -> ".join(held_path))

# %% [markdown]
# What the held run kept:

# %%
print("the held run: answer =", held["answer"], "| issues =", held["review"]["issues"])
print("its last draft, kept for a person to look at:\n" + render(held["draft"]))

# %% [markdown]
# ## Another router: stop when a revision fixed nothing
#
# Every stubborn revision failed alike. A router may read any field, and `events` says what every check found. This one holds
# once the draft has been checked a given number of times:

# %%
def route_by_checks(state, max_checks):
    checks = [event for event in state["events"] if event.startswith("checked draft")]
    if state["review"]["passed"]:
        return "accept"
    return "revise" if len(checks) < max_checks else "hold"


counting = BriefNodes("stubborn", max_revisions=5)
counting.route_after_check = lambda state: route_by_checks(state, max_checks=2)  # this object's router swapped
final, walked = path_of(declare(counting).compile(max_steps=step_bound(5)), state)
print("checks found:", [event for event in final["events"] if event.startswith("checked draft")])
print("path:", " -> ".join(walked), "| status:", final["status"])

# %% [markdown]
# Each check leaves one event, `"checked draft: "` and the issues it found (or `accepted`). The fixed count saved four
# useless revisions, but it would also hold a writer that was making progress.
#
# ### Exercise 07.3: `route_unless_stuck`
#
# Write `route_unless_stuck(state, max_revisions)`, a router that stops when revising stopped helping. You may assume
# the current draft was checked. Rules:
#
# 1. a draft that passed is accepted;
# 2. a failed draft whose check found exactly what the check before it found (compare the last two
#    `"checked draft: ..."` events) is held: the revision fixed nothing, so another one will not either;
# 3. otherwise revise while fewer than `max_revisions` revisions were made, else hold.
#
# The check runs your router on worksheets of its own, then in the brief with writers and allowances not shown here.

# %%
def route_unless_stuck(state, max_revisions):
    raise NotImplementedError  # your code here


# %%
check("07.3", route_unless_stuck)

# %% [markdown]
# ## When a run goes wrong inside a node
#
# Edit a draft after it passed and `publish` refuses. The node's own exception leaves our engine as itself, with
# where it happened attached:

# %%
class Tamperer(BriefNodes):
    def publish(self, state):  # publish itself edits its copy of the checked draft, then publishes it
        state["draft"]["rows"][0]["celsius"] = 30
        return super().publish(state)


try:
    declare(Tamperer("complete")).compile().invoke(state)
except ValueError as error:  # the node's own error, with what the engine attached: where, what ran, the last good state
    print(f"{type(error).__name__}: {error}\n  node:", error.node, "| completed:", error.completed, "| status kept:", error.state["status"])

# %% [markdown]
# Here `revise_draft` writes `"drafts"`: LangGraph drops the
# unknown key without a word (the revision is lost and the run ends held), while ours stops at the node and names the
# fields:

# %%
_ = misspelt_runs(declare, state)  # both engines: lessons/langgraph_runs.py

# %% [markdown]
# ## `max_steps`, and LangGraph's `recursion_limit`
#
# A router that always says `"revise"` passes every compile check; only a bound stops it. The package's `max_steps`
# counts **supersteps**; without parallel branches, one superstep runs one node. The engine
# stops *before* the step that would exceed the bound, keeping what was done.
#
# **Predict first.** The missing-notice run with one revision ran six nodes. Which bounds let it finish, 6, 5, both?

# %%
my_bounds = ...  # e.g. [6, 5]: the bounds that finish

# %%
finished = []
for bound in (6, 5):
    try:
        end, walked = path_of(declare(BriefNodes("missing-notice", 1)).compile(max_steps=bound), state)
        print(f"max_steps={bound}: {end['status']} after {len(walked)} nodes")
        finished.append(bound)
    except GraphStepLimit as error:
        print(f"max_steps={bound}: {type(error).__name__}: {error}\n   completed: {error.completed}")
reveal(my_bounds, finished, "finished with")
assert len(held_path) == step_bound(2)  # the stubborn run with two revisions, 8 nodes: the longest (below)

# %% [markdown]
# The longest legal run of the brief is the stubborn writer's: `2 * max_revisions + 4` supersteps (`step_bound`).
#
# LangGraph's bound is `recursion_limit`, passed per run in `config`; it counts one superstep more, since START runs
# as a step there. Ask it:

# %%
if LangGraphStateGraph is None:
    print("skipped: LangGraph is not installed (pip install 'mingraph-lite[langgraph]')")
else:  # LangGraph's own call: the bound goes in each run's config
    on_langgraph = declare(nodes, on=LangGraphStateGraph).compile()
    print("recursion_limit=7:", on_langgraph.invoke(state, config={"recursion_limit": 7})["status"])
    # the same call under 6 and 7, then a checkpointer whose snapshots number the steps: lessons/langgraph_runs.py
    assert show_recursion_limits(declare(nodes, on=LangGraphStateGraph), state, limits=(6, 7)) == list(range(-1, 7))

# %% [markdown]
# Step -1 is your input, step 0 is START, steps 1 to 6 are the six nodes: `recursion_limit = max_steps + 1`.
# With a checkpointer, LangGraph can *pause* a run for a person (a node calls `interrupt(value)`, a later
# `Command(resume=answer)` carries on); ours cannot.

# %% [markdown]
# ## Wrap-up
#
# **Next, notebooks 08 and 09:** parallel branches and the same graph on LangGraph; the agent loop as a graph.

# %% [markdown]
# ## Questions
#
# Answers: `QUESTIONS` in `notebooks/solutions/07_graph_routing.py`; the cells after the list check three.
#
# 1. `write_draft` and `revise_draft` set `review=None`, yet `check_draft` runs right after each of them. If they
#    didn't, who could still read a stale review, and what keeps the router and `publish` from trusting one?
# 2. Suppose `events` had no reducer. After the missing-notice run with one revision allowed, how many entries would
#    the final `events` list hold?
# 3. A router returns a label (`"accept"`), not a node name (`"publish"`). Which argument of which call in `declare`
#    would you change to send accepted drafts to a new `translate` node first, and what does compile then check?
# 4. The stubborn writer, the package's router, `max_revisions=3`: how many nodes run?
# 5. The complete writer with `max_revisions=2`: what is the smallest `max_steps` that lets our engine finish the run?

# %%
answer_q2 = ...  # a number

# %%
check("07.Q2", answer_q2)

# %%
answer_q4 = ...  # a number

# %%
check("07.Q4", answer_q4)

# %%
answer_q5 = ...  # a number

# %%
check("07.Q5", answer_q5)
