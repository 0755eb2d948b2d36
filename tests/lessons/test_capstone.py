"""The capstone's task (tools, scripted manager, held-out cases), its recorded real runs, and its checks."""

import ast
import importlib.util
import re
import runpy
from pathlib import Path

import pytest

from lessons import capstone
from lessons.capstone import (
    HELD_OUT,
    PRICES,
    QUESTION,
    SYSTEM_PROMPT,
    USD_PER_UNIT,
    broken_tools,
    get_price,
    price_manager,
    price_tools,
    question_for,
    show_tries,
    to_usd,
)
from lessons.exercises import verdict
from lessons.exercises.nb12_route import q1_options, q2_runs, q3_squares
from lessons.exercises.nb14 import first_wrong_call, right_call
from mingraph_lite import (
    Agent,
    AssistantMessage,
    EventRecorder,
    ReplayLLM,
    StepLimitReached,
    ToolArgsError,
    ToolCall,
    ToolMessage,
    ToolRegistry,
    UserMessage,
    read_trace,
)

ROOT = Path(__file__).resolve().parents[2]
PIECES_NOTEBOOK = ROOT / "notebooks" / "12_capstone_pieces.py"
NOTEBOOK = ROOT / "notebooks" / "13_capstone_agent.py"
RUNS_NOTEBOOK = ROOT / "notebooks" / "14_capstone.py"
RUNS = ROOT / "data" / "runs"
PIECES = runpy.run_path(str(ROOT / "notebooks" / "solutions" / "12_capstone_pieces.py"), run_name="solutions_11")
SOLVED = runpy.run_path(str(ROOT / "notebooks" / "solutions" / "13_capstone_agent.py"), run_name="solutions_13")
REPLAYS = runpy.run_path(str(ROOT / "notebooks" / "solutions" / "14_capstone.py"), run_name="solutions_14")


def test_get_price_reads_the_table_whatever_the_case_and_names_what_it_knows():
    assert get_price("Coffee", " osaka ") == f"Osaka coffee: {PRICES['coffee']['Osaka'][0]:g} JPY"
    with pytest.raises(ToolArgsError, match="known: Rome, Osaka"):
        get_price("coffee", "Kyoto")
    with pytest.raises(ToolArgsError, match="no item 'cake'"):
        get_price("cake", "Rome")


def test_every_price_has_a_rate_and_every_item_the_same_cities():
    cities = {item: set(table) for item, table in PRICES.items()}
    assert len({frozenset(c) for c in cities.values()}) == 1
    assert {currency for table in PRICES.values() for _, currency in table.values()} <= set(USD_PER_UNIT)


def test_to_usd_rounds_to_the_cent_and_refuses_what_it_cannot_convert():
    assert to_usd(450, "JPY") == f"450 JPY = {450 * USD_PER_UNIT['JPY']:.2f} USD"
    assert to_usd(2.5, "eur") == f"2.5 EUR = {2.5 * USD_PER_UNIT['EUR']:.2f} USD"
    with pytest.raises(ToolArgsError, match="rate for currency 'XYZ'"):
        to_usd(1, "XYZ")
    with pytest.raises(ToolArgsError, match="0 or more"):
        to_usd(-1, "EUR")


def test_the_schemas_ask_for_every_argument():
    specs = {s["function"]["name"]: s["function"]["parameters"] for s in price_tools().tools}
    assert specs["get_price"]["required"] == ["item", "city"]
    assert specs["to_usd"]["properties"]["amount"]["type"] == "number"


def _expected(item, cities):
    found = []
    for city in cities:
        try:
            amount, currency = get_price(item, city).split()[-2:]
            found.append(f"{city}: {to_usd(float(amount), currency).split(' = ')[1]}")
        except ToolArgsError:
            found.append(f"{city}: no price found")
    return ", ".join(found)


@pytest.mark.parametrize("item, cities", [("coffee", ("Rome", "Osaka")), *HELD_OUT,
                                          ("tea", ("Rome", "Osaka", "Lima", "Oslo", "Nairobi"))])
def test_the_scripted_manager_needs_three_calls_whatever_the_cities(item, cities):
    llm = price_manager(item, cities)
    answer = Agent(llm, price_tools(), SYSTEM_PROMPT).run({"question": question_for(item, cities)})["answer"]
    assert answer == _expected(item, cities)
    assert len(llm.calls) == 3 and "scripted" in llm.name


def test_the_manager_says_so_when_every_price_is_missing():
    answer = Agent(price_manager("tea", ("Atlantis",)), price_tools(), SYSTEM_PROMPT).run({"question": "Tea?"})
    assert answer["answer"] == "I could not find any of those prices."


def test_the_prompt_carries_one_worked_example_on_other_items_answered_by_the_tools():
    example = SYSTEM_PROMPT.split("Example. ")[1]
    assert get_price("tea", "Lima") in example and to_usd(35, "NOK") in example
    lima, oslo = (to_usd(*args).split(" = ")[1] for args in ((6, "PEN"), (35, "NOK")))
    assert example.endswith(f"message:\nLima: {lima}, Oslo: {oslo}") and get_price("tea", "Oslo").endswith("35 NOK")
    assert not any(word in example for word in ("coffee", "Rome", "Osaka"))  # nothing of the question itself


def test_the_broken_tools_fail_on_conversion_only():
    tools = broken_tools()
    assert tools.run(ToolCall("a", "get_price", {"item": "tea", "city": "Oslo"})).content == get_price("tea", "Oslo")
    with pytest.raises(ConnectionError):
        tools.run(ToolCall("b", "to_usd", {"amount": 1, "currency": "EUR"}))
    assert tools.tools == price_tools().tools  # the model cannot tell them apart


def test_the_notebooks_never_show_a_held_out_question():
    text = "".join(n.read_text(encoding="utf-8") for n in (PIECES_NOTEBOOK, NOTEBOOK, RUNS_NOTEBOOK))
    for item, cities in HELD_OUT:
        assert question_for(item, cities) not in text
    assert "Atlantis" not in text and "bread" not in text


def test_q1_choice_a_is_what_the_notebook_prints():
    assert q1_options()["A"] in PIECES_NOTEBOOK.read_text(encoding="utf-8")


def test_the_pieces_questions_are_answered_by_runs():
    """Backs 12.Q2 and 12.Q3: the errand on the flaky service; a branch that raises, or a node after the join."""
    runs, answers = q2_runs()
    assert runs == PIECES["SOLUTIONS"]["12.Q2"]
    assert answers[0] == "Error: tool failed twice: the rate service did not answer"
    assert q3_squares(4) == q3_squares(1) == []
    assert q3_squares(None, audit_fails=True) == [9, 1, 16]  # the squares' superstep merged before audit raised


def test_gemmas_first_wrong_step_is_its_second_conversion_of_osakas_price():
    """Backs 14.2: Gemma asked for both prices, then converted 450 JPY twice and 1.3 EUR never."""
    events = read_trace(RUNS / "capstone-gemma3-270m.jsonl")
    calls = [e for e in events if e["event"] == "tool_call"]
    assert [c["name"] for c in calls] == ["get_price", "get_price", "to_usd", "to_usd"]
    assert calls[2]["arguments"] == calls[3]["arguments"] == {"amount": 450, "currency": "JPY"}
    assert first_wrong_call(RUNS / "capstone-gemma3-270m.jsonl") == calls[3]["id"]
    assert right_call(RUNS / "capstone-gemma3-270m.jsonl") == REPLAYS["SOLUTIONS"]["14.2"]
    assert REPLAYS["SOLUTIONS"]["14.2"] == ("to_usd", {"amount": 1.3, "currency": "EUR"})  # Rome's, never converted
    assert {"name": "get_price", "content": "Rome coffee: 1.3 EUR"}.items() <= next(
        e for e in events if e["event"] == "tool_return" and "Rome" in e["content"]).items()
    smol = read_trace(RUNS / "capstone-smollm2-135m.jsonl")
    first_smol = next(e["id"] for e in smol if e["event"] == "tool_call")
    assert first_wrong_call(RUNS / "capstone-smollm2-135m.jsonl") == first_smol


def test_stop_repeats_ends_smollm2s_replay_at_its_first_repeat():
    replay = ReplayLLM.from_trace(RUNS / "capstone-smollm2-135m.jsonl")
    result = REPLAYS["StopRepeats"](replay, price_tools(), SYSTEM_PROMPT).run({"question": QUESTION})
    assert result == {"answer": None, "reason": "repeated"} and len(replay.calls) == 2


def test_the_task_file_imports_only_the_package_and_the_standard_library():
    tree = ast.parse(Path(capstone.__file__).read_text(encoding="utf-8"))
    roots = {(n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    roots |= {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert roots <= {"__future__", "re", "collections", "mingraph_lite"}, roots
    spec = importlib.util.spec_from_file_location("task_by_path", capstone.__file__)
    task = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(task)
    assert task.QUESTION == QUESTION and task.TOOLS.names == ["get_price", "to_usd"]
    assert "price manager" in task.SCRIPTED().name


def test_the_recorded_runs_are_what_the_readme_says():
    smol, gemma = read_trace(RUNS / "capstone-smollm2-135m.jsonl"), read_trace(RUNS / "capstone-gemma3-270m.jsonl")
    for events in (smol, gemma):
        assert [m["content"] for m in events[0]["messages"]] == [SYSTEM_PROMPT, QUESTION]
        assert len({e["run_id"] for e in events}) == 1
    calls = [(e["name"], e["arguments"]) for e in smol if e["event"] == "tool_call"]
    assert calls == [("to_usd", {"amount": 6, "currency": "PEN"})] * 6  # the worked example's conversion
    assert '{"amount": 6, "currency": "PEN"}' in SYSTEM_PROMPT
    assert smol[-1]["reason"] == "step limit" and smol[-1]["answer"] is None
    assert [e["model"] for e in smol if e["event"] == "model_reply"] == ["smollm2-135m"] * 6
    gemma_calls = [(e["name"], e["arguments"]) for e in gemma if e["event"] == "tool_call"]
    assert gemma_calls == [("get_price", {"item": "coffee", "city": "Rome"}),
                           ("get_price", {"item": "coffee", "city": "Osaka"}),
                           *[("to_usd", {"amount": 450, "currency": "JPY"})] * 2]
    assert gemma[-1]["reason"] == "answered"
    assert gemma[-1]["answer"].startswith("<your answer>") and gemma[2]["model"] == "gemma3-270m"
    readme = (RUNS / "README.md").read_text(encoding="utf-8")
    for name in ("capstone-smollm2-135m.jsonl", "capstone-gemma3-270m.jsonl", "--task notebooks/lessons/capstone.py"):
        assert name in readme


def test_the_package_agent_reproduces_the_smollm2_recording():
    with pytest.raises(StepLimitReached):
        Agent(ReplayLLM.from_trace(RUNS / "capstone-smollm2-135m.jsonl"), price_tools(), SYSTEM_PROMPT,
              max_steps=6).run({"question": QUESTION})


@pytest.mark.parametrize("window", [1, 2, 6])
def test_a_whole_exchange_window_of_any_size_passes_the_replay(window):
    """Backs the answer to Q6: after the first call, a replay compares only the newest exchange."""
    replay = ReplayLLM.from_trace(RUNS / "capstone-smollm2-135m.jsonl")
    recorder = EventRecorder()
    result = SOLVED["PriceAgent"](replay, price_tools(), SYSTEM_PROMPT, observers=[recorder], max_steps=6,
                               window=window).run({"question": QUESTION})
    assert result == {"answer": None, "reason": "step limit"} and len(replay.calls) == 6
    assert max(len(messages) for messages, _ in replay.calls) <= 2 + max(window, 2)


def test_the_replay_cannot_see_a_window_that_drops_the_question_after_the_first_call():
    """Backs the rest of Q6's answer: only the first call is compared in full."""

    class Forgetful(SOLVED["PriceAgent"]):
        def model(self, state):
            messages = state["messages"] if state["model_calls"] == 0 else state["messages"][-2:]
            return super().model({**state, "messages": messages})

    replay = ReplayLLM.from_trace(RUNS / "capstone-smollm2-135m.jsonl")
    result = Forgetful(replay, price_tools(), SYSTEM_PROMPT, max_steps=6).run({"question": QUESTION})
    assert result["reason"] == "step limit" and len(replay.calls) == 6
    assert all(QUESTION not in [m.content for m in messages] for messages, _ in replay.calls[1:])


def test_five_cities_spend_the_capstone_agents_call_budget_after_two_calls():
    """Backs Q2: the notebook's agent stops at its call budget; the package's Agent, which has none, answers."""
    cities = ("Rome", "Osaka", "Lima", "Oslo", "Nairobi")
    ours, package = price_manager("coffee", cities), price_manager("coffee", cities)
    result = SOLVED["PriceAgent"](ours, price_tools(), SYSTEM_PROMPT).run({"question": question_for("coffee", cities)})
    Agent(package, price_tools(), SYSTEM_PROMPT).run({"question": question_for("coffee", cities)})
    assert result == {"answer": None, "reason": "call budget"} and len(ours.calls) == 2 and len(package.calls) == 3


def test_the_errand_retries_a_broken_tool_once_and_a_bad_slip_never():
    tries = []

    def to_usd(amount: float, currency: str) -> str:
        """Convert an amount of money into US dollars."""
        tries.append(currency)
        raise TimeoutError("down")

    registry = ToolRegistry()
    registry.add(get_price)
    registry.add(to_usd)
    failed = PIECES["errand"](registry, ToolCall("a", "to_usd", {"amount": 1, "currency": "EUR"}))
    bad = PIECES["errand"](registry, ToolCall("b", "get_price", {"item": "tea", "city": "Atlantis"}))
    assert failed.content == "Error: tool failed twice: down" and failed.is_error and len(tries) == 2
    assert bad.is_error and "Atlantis" in bad.content and bad.content.endswith("Please fix your mistakes.")


def test_the_reference_graph_fans_out_one_branch_per_slip():
    agent = SOLVED["PriceAgent"](price_manager("tea", ("Rome", "Osaka", "Lima")), price_tools(), SYSTEM_PROMPT)
    graph = agent.graph()
    graph.invoke({"messages": [UserMessage(QUESTION)], "failed": [], "model_calls": 0, "calls_left": 8,
                  "stopped": None})
    assert graph.steps == (("model",), ("errand",) * 3, ("model",), ("errand",) * 3, ("model",))


@pytest.mark.parametrize("ex", [*sorted(PIECES["SOLUTIONS"]), *sorted(SOLVED["SOLUTIONS"]),
                                *sorted(REPLAYS["SOLUTIONS"])])
def test_every_capstone_solution_passes_and_every_wrong_answer_gets_its_hint(ex):
    solved = {"12": PIECES, "13": SOLVED, "14": REPLAYS}[ex[:2]]
    assert verdict(ex, solved["SOLUTIONS"][ex]).passed, str(verdict(ex, solved["SOLUTIONS"][ex]))
    for answer, hint in solved["WRONG"][ex]:
        result = verdict(ex, answer)
        assert result.status == "not yet" and hint in result.message, (getattr(answer, "__name__", answer), result)


def test_every_question_has_an_answer_and_three_are_checked():
    for number, notebook, solved in (("12", PIECES_NOTEBOOK, PIECES), ("13", NOTEBOOK, SOLVED),
                                     ("14", RUNS_NOTEBOOK, REPLAYS)):
        _questions_answered_and_checked(number, notebook, solved)


def _questions_answered_and_checked(number, notebook, solved):
    text = notebook.read_text(encoding="utf-8")
    questions = text[text.index("# ## Questions"):]
    asked = {f"{number}.Q{n}" for n in re.findall(r"^# (\d+)\. ", questions, flags=re.M)}
    assert asked == set(solved["QUESTIONS"]) and 5 <= len(asked) <= 10
    assert sum(f'check("{q}"' in text for q in asked) >= 3
    assert all(isinstance(answer, str) and answer.strip() for answer in solved["QUESTIONS"].values())


def test_the_cheat_sheet_names_the_real_signatures():
    import dataclasses
    import inspect

    from mingraph_lite import Observer, ToolMessage
    from mingraph_lite.graph import StateGraph

    text = PIECES_NOTEBOOK.read_text(encoding="utf-8")
    sheet = text[text.index("### Pieces you will need"):text.index("## Piece 1")]
    for hook in ("on_run_start", "on_step_start", "on_model_reply", "on_tool_call", "on_tool_return", "on_finish"):
        params = ", ".join(list(inspect.signature(getattr(Observer, hook)).parameters)[1:])
        assert f"`{hook}({params})`" in sheet, hook
    fields = [f.name for f in dataclasses.fields(ToolMessage)]
    assert fields[:4] == ["content", "tool_call_id", "name", "is_error"]
    assert "ToolMessage(content, tool_call_id, name=None, is_error=False)" in sheet
    assert "max_steps" in inspect.signature(StateGraph.compile).parameters and ".compile(max_steps=N)" in sheet


def test_13_judges_behaviour_so_another_design_passes():
    # Other choices than the reference's: failure spotted from is_error plus the tool's own exception text, the
    # stops tested in the other order, other words for a refused call, and far more room in the compiled graph.
    from lessons.exercises.nb13 import check_agent, check_limits, check_loop
    from mingraph_lite import ToolMessage

    class OtherDesign(SOLVED["PriceAgent"]):
        def model(self, state):
            if state["model_calls"] >= self.max_steps:
                return {"stopped": "step limit"}
            return super().model(state)

        def run_errand(self, packet):
            update = super().run_errand(packet)
            broken = update["messages"][0].is_error and "twice" in update["messages"][0].content
            return {"messages": update["messages"], "failed": ["a tool"] if broken else []}

        def give_up(self, state):
            answers = [ToolMessage("Refused: the budget for tool calls is used up.", c.id, name=c.name, is_error=True)
                       for c in state["messages"][-1].tool_calls]
            for answer in answers:
                self.tell("on_tool_return", answer)
            return {"messages": answers, "stopped": "call budget"}

        def graph(self):
            graph = super().graph()
            graph.max_steps = 1_000
            return graph

    assert "recorded real runs" in check_agent(OtherDesign)
    assert "unseen questions" in check_loop(OtherDesign) and "broken tool" in check_limits(OtherDesign)


def test_a_learner_stuck_on_13_may_subclass_the_notebooks_agent_for_14_1():
    """14.1 may use 13.3's own version (and 12's pieces inside it): a subclass of reference("13.3") passes, while
    the reference itself, or a subclass that only inherits it, does not."""
    from lessons.reference import reference

    class Mine(reference("13.3")):
        def model(self, state):
            update = super().model(state)
            before = [m for m in state["messages"] if getattr(m, "tool_calls", None)]
            new = update.get("messages", [])
            if new and new[-1].tool_calls and before and asks(new[-1]) == asks(before[-1]):
                return {**update, "stopped": "repeated"}
            return update

    def asks(reply):
        return [(call.name, call.arguments) for call in reply.tool_calls]

    assert verdict("14.1", Mine).passed, str(verdict("14.1", Mine))
    assert not verdict("14.1", reference("13.3")).passed
    assert not verdict("14.1", type("Bare", (reference("13.3"),), {})).passed


def test_show_messages_prints_one_line_a_message_naming_each_toolcall_and_its_answer(capsys):
    call = ToolCall("c1", "get_price", {"item": "tea", "city": "Oslo"})
    capstone.show_messages([UserMessage("q?"), AssistantMessage("", tool_calls=[call]),
                            ToolMessage("Oslo tea: 35 NOK", "c1", name="get_price")])
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["  user      q?", "  assistant asks for get_price{'item': 'tea', 'city': 'Oslo'} [c1]",
                     "  tool      ToolMessage for [c1]: Oslo tea: 35 NOK"]


def test_every_tool_message_in_12_3s_runs_carries_its_tools_name():
    """Notebook 12.3's spec says so: a listener may read the name off every ToolMessage, error answers included."""
    import contextlib

    from lessons.exercises.nb12 import _log_runs
    from mingraph_lite import Observer

    class Names(Observer):
        def __init__(self):
            self.heard = []

        def on_tool_return(self, result):
            self.heard.append((result.name, result.is_error))

    names = Names()
    for llm, registry, question, ceiling in _log_runs():
        with contextlib.suppress(StepLimitReached, ConnectionError):
            Agent(llm, registry, SYSTEM_PROMPT, observers=[names], max_steps=ceiling, strict=True).run(
                {"question": question})
    assert any(error for _, error in names.heard) and all(name for name, _ in names.heard)


def test_show_tries_prints_each_answer_or_the_exception_and_raises_nothing(capsys):
    show_tries(price_tools(), ToolCall("k1", "get_price", {"item": "coffee", "city": "Kyoto"}))
    show_tries(broken_tools(), ToolCall("k2", "to_usd", {"amount": 1.3, "currency": "EUR"}), tries=2)
    show_tries(price_tools(), ToolCall("k3", "to_usd", {"amount": 450, "currency": "JPY"}))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("ToolArgsError: ") and "Kyoto" in lines[0]
    assert lines[1:3] == ["try 1: ConnectionError: the exchange-rate service is down",
                          "try 2: ConnectionError: the exchange-rate service is down"]
    assert lines[3] == "450 JPY = 2.97 USD"
