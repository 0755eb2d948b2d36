"""Plan-and-execute on the graph engine: plan once, one agent per step, finish or stop."""

import pytest

from lessons.plan_execute import (
    DEFAULT_PLAN,
    build_plan_execute_graph,
    compare_reads,
    dropping_replanner,
    executor_llm,
    initial_plan_state,
    parse_plan,
    path_hint,
    planner_llm,
    run_plan_execute,
    show_run,
    step_question,
)
from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import graph_context
from mingraph_lite.llms.scripted import ScriptedLLM, word_count
from mingraph_lite.messages import AssistantMessage, UserMessage
from mingraph_lite.observers.recorder import EventRecorder


def test_parse_plan_strips_numbering_and_blank_lines():
    assert parse_plan("1. a\n\n2) b\n- c\n* d\nplain") == ["a", "b", "c", "d", "plain"]
    assert len(parse_plan(DEFAULT_PLAN)) == 4
    assert parse_plan("Plan:\n3.5 degrees") == ["Plan:", "degrees"]  # naive on purpose: a preamble stays a step


def test_the_dropping_replanner_answers_the_steps_after_the_one_it_cannot_do_whatever_it_is_sent():
    replanner = dropping_replanner("1. Look up Paris.\n2. Look up Atlantis.\n3. Look up Tokyo.\n4. Answer.", "Atlantis")
    for sent in ("Steps after it:\n1. Look up Tokyo.", "no such wording at all"):
        reply = replanner.generate([UserMessage(sent)], []).message.content
        assert parse_plan(reply) == ["Look up Tokyo.", "Answer."] and reply.startswith("1. ")
    assert replanner.name.startswith("scripted")


def test_the_default_run_plans_once_then_runs_every_step_and_finishes():
    graph = build_plan_execute_graph()
    final = run_plan_execute(graph, QUESTION)
    assert graph.path == ("plan", "execute", "execute", "execute", "execute", "finish")
    assert final["status"] == "finished"
    assert final["answer"] == "Paris: 64°F, Tokyo: 75°F"
    assert final["results"][:2] == ["Paris is 18°C.", "Tokyo is 24°C."]
    assert final["done"] == 4 and final["failed"] is None


def test_each_step_agent_reads_only_its_step_and_the_results_so_far():
    executor = executor_llm()
    run_plan_execute(build_plan_execute_graph(executor=executor), QUESTION)
    firsts = [folder for folder, _ in executor.calls if len(folder) == 2]  # system + the step question
    assert len(firsts) == 4  # one fresh folder per step
    third = firsts[2][1]
    assert isinstance(third, UserMessage)
    assert "Your step (3 of 4): Convert both temperatures to Fahrenheit." in third.content
    assert "Paris is 18°C." in third.content and "Tokyo is 24°C." in third.content


def test_model_calls_add_up_planner_once_executor_per_step():
    planner, executor = planner_llm(), executor_llm()
    run_plan_execute(build_plan_execute_graph(planner, executor), QUESTION)
    assert len(planner.calls) == 1
    assert len(executor.calls) == 7  # lookups 2+2, conversion 2, answer 1


def test_the_results_follow_the_data_not_the_script():
    plan = ("1. Look up the temperature in Cairo.\n2. Convert both temperatures to Fahrenheit.\n"
            "3. Write the answer.")
    final = run_plan_execute(build_plan_execute_graph(planner_llm(plan)), "Cairo in Fahrenheit?")
    assert final["answer"] == "Cairo: 88°F"


def test_a_step_that_cannot_be_done_stops_the_plan_without_an_answer():
    plan = "1. Look up the temperature in Atlantis.\n2. Write the answer."
    graph = build_plan_execute_graph(planner_llm(plan), max_steps_per_step=3)
    final = run_plan_execute(graph, "Atlantis?")
    assert graph.path == ("plan", "execute", "stop")
    assert final["status"] == "needs_attention" and final["answer"] is None
    assert final["done"] == 0 and final["results"] == []
    assert final["failed"].startswith("step 1 stopped without a result")


def test_a_plan_longer_than_allowed_fails_in_the_plan_node():
    plan = "\n".join(f"{i}. Look up the temperature in Paris." for i in range(1, 5))
    with pytest.raises(ValueError, match="max_plan_steps is 3") as info:  # the node's own error, as itself
        run_plan_execute(build_plan_execute_graph(planner_llm(plan), max_plan_steps=3), "x")
    where = graph_context(info.value)
    assert where.node == "plan" and where.completed == ()


def test_an_empty_plan_is_an_error_not_an_empty_answer():
    with pytest.raises(ValueError, match="no steps"):
        run_plan_execute(build_plan_execute_graph(ScriptedLLM(["   "])), "x")


def test_step_question_lists_earlier_results():
    state = {**initial_plan_state("T"), "plan": ["a", "b"], "done": 1, "results": ["A"]}
    assert step_question(state) == "Task: T\nResults so far:\n1. a -> A\nYour step (2 of 2): b"


def test_initial_state_rejects_an_empty_task():
    with pytest.raises(ValueError, match="non-empty task"):
        initial_plan_state(" ")


def test_listeners_hear_the_nodes_and_each_steps_agent():
    recorder = EventRecorder()
    run_plan_execute(build_plan_execute_graph(observers=[recorder]), QUESTION)
    names = recorder.names()
    assert [e["node"] for e in recorder.of("node_start")] == ["plan", "execute", "execute", "execute",
                                                             "execute", "finish"]
    assert names.count("run_start") == 5 and names.count("model_reply") == 7  # the graph run and its 4 agents


def test_compare_reads_returns_and_prints_each_calls_input_words_loop_first(capsys):
    loop = four_round_manager()
    Agent(loop, weather_registry(), SYSTEM_PROMPT).run({"question": QUESTION})
    planner, executor = planner_llm(), executor_llm()
    run_plan_execute(build_plan_execute_graph(planner, executor), QUESTION)
    loop_reads, plan_reads = compare_reads(loop, planner, executor)
    words = [word_count(messages, AssistantMessage(""))[0] for messages, _ in planner.calls + executor.calls]
    assert plan_reads == words and len(loop_reads) == len(loop.calls) == 4
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("loop (ReAct)") and f"all reads {sum(plan_reads):>4}" in out[1]


def test_show_run_prints_what_the_replanner_read_each_step_the_path_and_the_status(capsys):
    replanner = dropping_replanner(DEFAULT_PLAN, "Tokyo")
    replanner.generate([UserMessage("the failed step was Tokyo")], [])
    state = {"plan": ["Look up Paris.", "Answer."], "results": ["Paris is 18°C.", "Paris: 64°F"], "status": "finished",
             "replans": 1, "answer": "Paris: 64°F"}
    show_run(state, ["plan", "execute", "finish"], replanner)
    out = capsys.readouterr().out
    assert out.startswith("what the re-planner was read:\nthe failed step was Tokyo\n")
    assert "step 2: Answer." in out and "-> Paris: 64°F" in out and "plan -> execute -> finish" in out
    assert "status: finished | replans: 1 | answer: Paris: 64°F" in out
    show_run(state, ["plan"])
    assert "re-planner" not in capsys.readouterr().out


def test_path_hint_names_where_a_guess_first_leaves_the_path_and_keeps_the_rest_hidden():
    path = ["plan", "execute", "execute", "stop"]
    assert "node 3 ('replan')" in path_hint(["plan", "execute", "replan", "execute"], path)
    assert "no re-plan node" in path_hint(["plan", "execute", "replan"], path)
    assert "did not end after your 2" in path_hint(["plan", "execute"], path)
    assert "before your node 5" in path_hint([*path, "finish"], path)
    assert all("stop" not in path_hint(guess, path).split(":")[0] for guess in (["plan"], ["plan", "finish"]))
