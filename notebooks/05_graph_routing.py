# %% [markdown]
# # 05 · Graph routing: a worksheet, change slips, and routes you declare
#
# **By the end of this notebook you will be able to**
#
# - write down a workflow's *state* (the worksheet) and say, field by field, whether an update replaces it or adds to it;
# - write steps as *nodes* that read the worksheet and hand back only what they changed;
# - declare every route out of a decision up front, and let `compile()` catch a misspelt or dead-end route before
#   anything runs;
# - tell the two ways a run can finish apart: it delivered, or it stopped trying (and says so);
# - watch one run as change slips (`updates`) and as whole worksheets (`values`), without running it twice;
# - run the same nodes on the real LangGraph, and the agent loop from notebook 01 as a two-node graph that the same
#   listeners hear unchanged.
#
# Nothing here calls a model except the agent graph at the end, and that one is **scripted** (no network).

# %%
import operator
from copy import deepcopy

from IPython.display import Markdown, display

from mingraph_lite import (Agent, ConsoleLogger, EventRecorder, GraphExecutionError, GraphStepLimit,
                           GraphValidationError)
from mingraph_lite.course.brief import (DRAFT_STYLES, NOTICE, BriefNodes, BriefState, build_brief_graph,
                                        initial_state, render, step_bound)
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import WEATHER, weather_registry
from mingraph_lite.graph import END, START, StateGraph, build_agent_graph, run_agent_graph


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
# out of revisions and fell through to `return draft`; the caller has no way to tell "passed" from "gave up". Nothing
# records what was checked, or which draft. With one more condition (a second check, a different fix per problem)
# this loop becomes a knot of flags.
#
# The fix is to write the process down explicitly: what the run knows (the **state**), the steps (**nodes**), and which
# step comes next (**edges**, some of them **routes** chosen by a small function).
#
# ## The worksheet: state, and how each field changes
#
# The state is a plain dictionary with a declared shape. `initial_state()` checks the options before any work starts
# (an unknown city or a duplicate is an error here, not three steps later):

# %%
state = initial_state(["Tokyo", "Paris"], include_fahrenheit=True)
for field, value in state.items():
    print(f"  {field:<19} {value!r}")
print()
merge_rules = StateGraph(BriefState).reducers  # read from the TypedDict's Annotated fields
print("fields with a reducer:", {field: f"operator.{fn.__name__}" for field, fn in merge_rules.items()},
      "| every other field is replaced")
try:
    initial_state(["Tokyo", "Atlantis"])
except ValueError as error:
    print("bad option:", error)

# %% [markdown]
# `draft` is *the current draft*: a new one replaces the old. `events` is *the account of what happened*: it only grows.
# Both are ordinary values; what differs is the merge rule. `Annotated[list[str], operator.add]` attaches a
# **reducer** to `events`: "old value + contribution". Every other field is replaced.
#
# A node doesn't hand back the whole worksheet, only a **change slip** (a partial update). The merge is a few lines:

# %%
reducers = {"events": operator.add}


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
# Three habits fall out of this. A slip never repeats the past (sending the old events back would append them twice).
# Leaving a field out means "unchanged", so clearing one takes an explicit `None` (a new draft sets `review=None`: the
# old assessment no longer applies). And a field with no reducer is replaced *whole*: there is no deep merge of nested
# dictionaries.
#
# The package's engine adds what a few lines can't: each node gets a **copy** of the state (it can't edit the real one
# by accident), and the whole slip is merged on a candidate that is adopted only if every field merged, so a failing
# reducer leaves the state as it was.
#
# ## Nodes, edges and declared routes
#
# Each step of the brief is one method of `BriefNodes`: `collect`, `write_draft`, `check_draft`, `revise_draft`,
# `publish`, `hold`. The check stores what it checked (a copy of the draft) next to its verdict; `publish` refuses any
# draft that is not the one that passed. After the check, a **router** picks a label, and the declaration maps each
# label to a node. Here is the whole declaration, by hand:

# %%
nodes = BriefNodes(draft_style="missing-notice", max_revisions=1)


def declare(nodes, routes=None):
    builder = StateGraph(BriefState)
    for name in ("collect", "write_draft", "check_draft", "revise_draft", "publish", "hold"):
        builder.add_node(name, getattr(nodes, name))
    builder.add_edge(START, "collect").add_edge("collect", "write_draft").add_edge("write_draft", "check_draft")
    builder.add_conditional_edges("check_draft", nodes.route_after_check,
                                  routes or {"accept": "publish", "revise": "revise_draft", "hold": "hold"})
    builder.add_edge("revise_draft", "check_draft").add_edge("publish", END).add_edge("hold", END)
    return builder


graph = declare(nodes).compile(max_steps=step_bound(1))
print(graph.draw_ascii())

# %% [markdown]
# The path map (`{"accept": "publish", ...}`) is required. The router can only *choose* among declared routes; it
# cannot invent a destination at run time. That is what lets `compile()` check every route before anything runs. The
# same drawing as Mermaid text (JupyterLab renders it as a diagram; the text itself is plain and needs no network):

# %%
print(graph.draw_mermaid())
display(Markdown("```mermaid\n" + graph.draw_mermaid() + "\n```"))

# %% [markdown]
# ### A compile error, caught before running
#
# Misspell one route target and compile refuses, naming the route and the known nodes. Nothing has run, so nothing has
# to be undone:

# %%
try:
    declare(nodes, {"accept": "publsh", "revise": "revise_draft", "hold": "hold"}).compile()
except GraphValidationError as error:
    print(f"{type(error).__name__}: {error}")

closed_loop = StateGraph(BriefState)
closed_loop.add_node("check_draft", nodes.check_draft).add_node("revise_draft", nodes.revise_draft)
closed_loop.add_edge(START, "check_draft").add_edge("check_draft", "revise_draft")
closed_loop.add_edge("revise_draft", "check_draft")
try:
    closed_loop.compile()
except GraphValidationError as error:
    print(f"{type(error).__name__}: {error}")

# %% [markdown]
# Compile checks the *picture*: every route leads somewhere, every node is reachable, every node has some path to END.
# It can't prove a router will ever choose the exit. For that there is `max_steps`, counted in **node executions**
# (not revisions, not model calls): once that many nodes have run without reaching END, the next one is not started.
#
# ## Run it through every exit
#
# **Predict first:** with the default writer (it forgets the notice once, then fixes it) and one revision allowed, how
# many nodes will run? Write your guess here: ...

# %%
final = graph.invoke(state, observers=[ConsoleLogger(width=90)])
print()
print("path:", " -> ".join(graph.path), f"({len(graph.path)} nodes)")
print(final["status"].upper())
print(final["answer"])

# %% [markdown]
# Six nodes: the first check found the missing notice, the revision added it, and the second check passed. The
# revision did not collect the readings again: it edits the draft from what is already on the worksheet.
#
# Now all three writers. `complete` gets it right first time; `stubborn` never adds the notice, so after its
# revisions are used up the router says `hold`:

# %%
print(f"{'writer':<15}{'revisions':>10}  {'status':<16}path")
for style, allowed in [("complete", 1), ("missing-notice", 1), ("stubborn", 1), ("stubborn", 0)]:
    brief = build_brief_graph(style, allowed)
    end = brief.invoke(state)
    print(f"{style:<15}{allowed:>10}  {end['status']:<16}{' -> '.join(brief.path)}")

held = build_brief_graph("stubborn", 1).invoke(state)
print("\nthe held run: answer =", held["answer"], "| issues =", held["review"]["issues"])
print("its last draft, kept for a person to look at:")
print(render(held["draft"]))

# %% [markdown]
# The held run ends at END like the others, but with `status="needs_attention"` and `answer=None`. Its last draft is
# still on the worksheet for a person to look at; it is simply never passed off as an answer.
#
# The check is about *this* draft. If someone edits the draft after it passed, the old verdict doesn't cover it, and
# `publish` refuses:

# %%
checked = build_brief_graph("complete").invoke(state)  # its review holds a copy of the draft that passed
tampered = deepcopy(checked)
tampered["draft"]["rows"][0]["celsius"] = 30
try:
    BriefNodes().publish(tampered)
except ValueError as error:
    print("publish:", error)
print("publishing the untouched draft works:", BriefNodes().publish(checked)["status"])

# %% [markdown]
# ## Watching a run: `updates` and `values`, from one execution
#
# `stream()` runs the graph once and reports as it goes. `"updates"` gives each node's change slip; `"values"` gives
# the whole merged worksheet after each node (and the input first). Ask for both and you get both, interleaved, from
# the **same** run: the final worksheet is the last `values` item, so there is no need to call `invoke()` afterwards
# (that would be a second run).

# %%
streamed = build_brief_graph()
final = None
for mode, payload in streamed.stream(state, stream_mode=("updates", "values")):
    if mode == "updates":
        (node, update), = payload.items()
        print(f"  updates  {node:<13} changed {sorted(update)}")
    else:
        final = payload
        print(f"  values   events so far: {len(payload['events'])}, status: {payload['status']}")
print("\ncollected once:", final["events"].count("collected 2 cities") == 1, "| status:", final["status"])

# %% [markdown]
# ### The bound, and a router that goes off the map
#
# Compile the same brief with too small a bound and the run stops before the node that would exceed it, reporting what
# it completed and the last good worksheet. A router that returns a label nobody declared fails the same way, naming the
# allowed labels:

# %%
try:
    declare(nodes).compile(max_steps=4).invoke(state)
except GraphStepLimit as error:
    print(f"{type(error).__name__}: {error}")
    print("  completed:", error.completed, "| events kept:", error.state["events"])

lost = BriefNodes()
lost.route_after_check = lambda state: "retry"
try:
    declare(lost).compile().invoke(state)
except GraphExecutionError as error:
    print(f"\n{type(error).__name__}: {error}")
    print("  failed at:", error.node, "| completed:", error.completed)

# %% [markdown]
# ### Exercise 1: the stubborn writer with two revisions
#
# With `build_brief_graph("stubborn", max_revisions=2)`, how many nodes run, and how does the run end? Write the path
# length (a number) and the final status (a string).

# %%
stubborn_nodes = None   # your answer, e.g. 6
stubborn_status = None  # your answer: "published" or "needs_attention"


# %%
def check_stubborn(nodes_run, status):
    graph = build_brief_graph("stubborn", max_revisions=2)
    end = graph.invoke(initial_state(["Tokyo", "Paris"]))
    if nodes_run is None or status is None:
        return "not answered yet"
    if nodes_run == len(graph.path) and status == end["status"]:
        return "correct"
    return ("not quite, hint: collect, write, check, then one (revise, check) pair per revision allowed, "
            "then the exit the router picks when no revisions are left")


print(check_stubborn(stubborn_nodes, stubborn_status))

# %% [markdown]
# ## The same nodes on the real LangGraph
#
# Nothing above is specific to our engine. `connect_brief(builder, nodes)` declares the brief with the three method
# names LangGraph's `StateGraph` also has, so the very same node functions, router and path map can be handed to
# LangGraph's own builder (imported from `langgraph`, never our engine under its name). If LangGraph is not installed,
# this cell says so and skips.
#
# We run each writer on both engines and compare the node path, every change slip, and the final worksheet:

# %%
from mingraph_lite.graph.langgraph_port import langgraph_state_graph, run_on_langgraph, run_on_mingraph

try:
    langgraph_state_graph()
except ImportError as error:
    print("skipped:", error)
else:
    real = build_brief_graph(engine="langgraph")
    print("LangGraph's compiled graph class comes from:", type(real).__module__.split(".")[0])
    print(f"{'writer':<16}{'same path':>10}{'same slips':>12}{'same final state':>18}   path")
    for style in DRAFT_STYLES:
        ours = run_on_mingraph(build_brief_graph(style), state)
        theirs = run_on_langgraph(build_brief_graph(style, engine="langgraph"), state,
                                  recursion_limit=step_bound(1) + 1)
        print(f"{style:<16}{str(ours[1] == theirs[1]):>10}{str(ours[2] == theirs[2]):>12}"
              f"{str(ours[0] == theirs[0]):>18}   {len(theirs[1])} nodes")

# %% [markdown]
# Same paths, same slips, same final worksheets. Two differences are worth knowing. LangGraph's bound is a
# `recursion_limit` on *super-steps* (rounds of scheduling; parallel nodes share one), ours counts node executions;
# in a graph without parallel branches they line up. And our compile is stricter: it rejects a node with no path to
# END, which LangGraph's compile does not promise to catch.
#
# ## The agent loop as a graph
#
# The loop from notebook 01 fits the same mould with two nodes: `model` (ask the model once; return its reply and the
# slips it asks for) and `tools` (check the whole batch, run it, answer every slip). The worksheet:
#
# - `messages`: the folder, with `operator.add`: every node adds, none rewrites;
# - `pending_calls`: the batch still to run, **replaced**: writing `[]` clears it (with `add`, an empty list would
#   leave the old calls pending, and they would run again);
# - `pending_reply`: the reply that asked for them. It joins the folder together with its answers, in the `tools`
#   node's one update, so a round cut short (Ctrl-C in a tool) leaves the folder as it was, never a slip unanswered;
# - `model_steps`, `tool_calls_made`: counters for two separate budgets, checked *before* the work they bound;
# - `answer` and `stop_reason`: a stopped run keeps `answer=None` and says why it stopped.
#
# The same listeners as notebook 03 plug in unchanged. The nodes announce what `Agent` announces, in the same order;
# the engine adds its node start and end around them.

# %%
recorder = EventRecorder()
agent_graph = build_agent_graph(four_round_manager(), weather_registry(), SYSTEM_PROMPT,
                                observers=[ConsoleLogger(width=70), recorder])
print(agent_graph.draw_ascii())
print()
end = run_agent_graph(agent_graph, QUESTION)
print()
print("path:", " -> ".join(agent_graph.path))
print("answer:", end["answer"], "| stop_reason:", end["stop_reason"], "| model calls:", end["model_steps"],
      "| tool calls:", end["tool_calls_made"])

# %% [markdown]
# **The same announcements?** Run the `Agent` from notebook 02 with the same scripted manager and an `EventRecorder`,
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
# `max_model_steps` and `max_tool_calls` are separate budgets, each checked before the work it bounds. Work done before
# a budget stops the run stays on the worksheet. With one model call allowed, the lookups happen, but the model is never
# asked again:

# %%
short = build_agent_graph(four_round_manager(), weather_registry(), SYSTEM_PROMPT, max_model_steps=1)
stopped = run_agent_graph(short, QUESTION)
print("path:", " -> ".join(short.path))
print("stop_reason:", stopped["stop_reason"], "| answer:", stopped["answer"])
print("the work kept:", [f"{m.name}={m.content}" for m in stopped["messages"] if m.role == "tool"])

# %% [markdown]
# ### Exercise 2: a tool budget
#
# The four-round manager asks for both lookups, then one conversion per round. With `max_tool_calls=3` (and plenty of
# model steps), what is the `stop_reason`, and how many tool handlers ran (`tool_calls_made`)?

# %%
budget_reason = None  # your answer: "answered", "step limit", "tool budget" or "tool failed"
budget_tools = None   # your answer, e.g. 2


# %%
def check_budget(reason, tools):
    end = run_agent_graph(build_agent_graph(four_round_manager(), weather_registry(), SYSTEM_PROMPT,
                                            max_tool_calls=3), QUESTION)
    if reason is None or tools is None:
        return "not answered yet"
    if reason == end["stop_reason"] and tools == end["tool_calls_made"]:
        return "correct: the budget is checked before a batch starts, so a batch that would exceed it never starts"
    return ("not quite, hint: count the slips per batch (2, 1, 1) and check the budget before each batch, "
            "not in the middle of one")


print(check_budget(budget_reason, budget_tools))

# %% [markdown]
# ### The active model
#
# The same graph with the model `MINGRAPH_LLM` names (scripted by default; with a live model, its answer will vary,
# so this cell's output is not compared):

# %%
# NBVAL_IGNORE_OUTPUT
from mingraph_lite import make_llm

llm = make_llm()
live = run_agent_graph(build_agent_graph(llm, weather_registry(), SYSTEM_PROMPT, max_model_steps=6), QUESTION)
print("model:", getattr(llm, "name", type(llm).__name__))
print("stop_reason:", live["stop_reason"], "| answer:", live["answer"])

# %% [markdown]
# ## What is still open
#
# - **The state lives in this process.** Printing the worksheet doesn't save the run; a restart doesn't resume it.
#   Durable checkpoints (LangGraph has them) are the next layer, with their own questions about what may be replayed.
# - **Compile checks the map, not the driver.** A router that always picks `revise` passes every compile check; only
#   `max_steps` (and good business limits like `max_revisions`) stop it.
# - **The check is narrow on purpose.** Comparing rows and a fixed sentence works for structured page data. A free-text
#   answer from a model needs acceptance rules of its own; reaching END is not the same as being right.
# - **Copies are not a sandbox.** Nodes get copies, so they can't corrupt the state by accident, but a node that wrote a
#   file or sent a message has done it; a failed merge can't undo the outside world.
# - **One node at a time.** The engine has no parallel branches; LangGraph does, and its bound counts rounds of them.
