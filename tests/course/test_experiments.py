"""The unit experiment harness: the first-wrong-line classifier on hand-made traces, and the runs."""

from __future__ import annotations

import csv
import random
from collections import Counter

import pytest

from mingraph_lite import Agent, EventRecorder, LLMResponse, LLMUnavailable, read_trace
from mingraph_lite.course.experiments import (
    MODELLED,
    OUTCOMES,
    REPORTED,
    VARIANTS,
    classify,
    is_live,
    modelled_manager,
    reported_table,
    run_experiment,
    stated_fahrenheit,
    versus_reported,
)
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, wrong_tokyo_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.messages import AssistantMessage, ToolCall

# --- hand-made traces: just the events classify reads ------------------------------------------

def call(ticket, name, **args):
    return {"event": "tool_call", "id": ticket, "name": name, "arguments": args}


def ret(ticket, name, content, is_error=False):
    return {"event": "tool_return", "tool_call_id": ticket, "name": name, "content": content,
            "is_error": is_error}


def reply(content="", *calls):
    return {"event": "model_reply", "message": {"role": "assistant", "content": content,
                                                "tool_calls": [c for c in calls]}}


def finish(answer, reason="answered"):
    return {"event": "finish", "answer": answer, "reason": reason}


def slip(ticket, name, **args):
    return {"id": ticket, "name": name, "arguments": args}


LOOKUPS = [reply("", slip("a", "get_weather", city="Paris"), slip("b", "get_weather", city="Tokyo")),
           call("a", "get_weather", city="Paris"), ret("a", "get_weather", "18"),
           call("b", "get_weather", city="Tokyo"), ret("b", "get_weather", "24°C")]
CONVERTS = [reply("", slip("c", "to_fahrenheit", celsius=18), slip("d", "to_fahrenheit", celsius=24)),
            call("c", "to_fahrenheit", celsius=18), ret("c", "to_fahrenheit", "64"),
            call("d", "to_fahrenheit", celsius=24), ret("d", "to_fahrenheit", "75")]


def test_right_with_the_tool():
    verdict = classify([*LOOKUPS, *CONVERTS, reply("Paris: 64°F, Tokyo: 75°F"), finish("...")])
    assert (verdict.outcome, verdict.line, verdict.case) == ("right", None, None)
    assert verdict.converted_with_tool and not verdict.celsius_as_fahrenheit


def test_right_numbers_by_own_arithmetic_are_right_but_noted():
    verdict = classify([*LOOKUPS, reply("Paris is 18°C (64.4°F); Tokyo is 24°C, about 75 F."), finish("...")])
    assert verdict.outcome == "right"
    assert not verdict.converted_with_tool


def test_case_1_a_city_nobody_asked_about():
    events = [reply("", slip("a", "get_weather", city="London")), call("a", "get_weather", city="London"),
              ret("a", "get_weather", "14"), reply("London: 57°F"), finish("London: 57°F")]
    verdict = classify(events)
    assert (verdict.outcome, verdict.case, verdict.line) == ("wrong slip", 1, 2)
    assert "London" in verdict.why


def test_case_1_a_made_up_number_for_to_fahrenheit():
    events = [reply("", slip("c", "to_fahrenheit", celsius=10)), call("c", "to_fahrenheit", celsius=10),
              ret("c", "to_fahrenheit", "50"), reply("Paris: 50°F, Tokyo: 41°F"), finish("...")]
    verdict = classify(events)
    assert (verdict.outcome, verdict.line) == ("wrong slip", 2)
    assert "made it up" in verdict.why


def test_case_1_answering_without_get_weather():
    verdict = classify([reply("Paris: 64°F, Tokyo: 75°F"), finish("Paris: 64°F, Tokyo: 75°F")])
    assert (verdict.outcome, verdict.line) == ("wrong slip", 1)
    assert "Paris, Tokyo" in verdict.why


def test_case_1_a_tool_not_on_the_menu_and_raw_json_arguments():
    events = [{"event": "tool_call", "id": "a", "name": "get_weather", "arguments": '{"city": "Paris"}'},
              ret("a", "get_weather", "18"), call("x", "search_web", q="Tokyo weather")]
    verdict = classify(events)
    assert (verdict.outcome, verdict.line) == ("wrong slip", 3)
    assert "search_web" in verdict.why


def test_case_2_a_tool_that_answers_wrong():
    events = [call("a", "get_weather", city="Paris"), ret("a", "get_weather", "81"), reply("Paris: 81°F"),
              finish("Paris: 81°F")]
    verdict = classify(events)
    assert (verdict.outcome, verdict.case, verdict.line) == ("wrong tool result", 2, 2)
    assert "expected 18" in verdict.why


def test_case_2_a_tool_that_fails():
    events = [call("a", "get_weather", city="Paris"),
              {"event": "tool_error", "call": slip("a", "get_weather", city="Paris"),
               "error_type": "TimeoutError", "error": "weather service down"},
              ret("a", "get_weather", "Error: tool failed: weather service down", is_error=True),
              finish(None, "tool failed")]
    verdict = classify(events)
    assert (verdict.outcome, verdict.line) == ("wrong tool result", 2)
    assert "TimeoutError" in verdict.why


def test_case_3_celsius_reported_as_fahrenheit():
    verdict = classify([*LOOKUPS, reply("- **Paris:** 18°F\n- **Tokyo:** 24°F"), finish("...")])
    assert (verdict.outcome, verdict.case, verdict.line) == ("wrong final reasoning", 3, 6)
    assert verdict.celsius_as_fahrenheit


def test_case_3_a_number_missing_is_not_called_celsius_as_fahrenheit():
    verdict = classify([*LOOKUPS, *CONVERTS, reply("Paris: 64°F. Tokyo: sunny."), finish("...")])
    assert verdict.outcome == "wrong final reasoning"
    assert not verdict.celsius_as_fahrenheit
    assert "Tokyo nothing" in verdict.why


def test_case_4_step_limit_and_a_cut_off_trace():
    looping = [*LOOKUPS, *LOOKUPS, finish(None, "step limit")]
    verdict = classify(looping)
    assert (verdict.outcome, verdict.case, verdict.line) == ("never finished", 4, len(looping))
    assert classify(LOOKUPS).outcome == "never finished"
    assert classify([]).line is None


def test_stated_fahrenheit_reads_numbers_after_each_city():
    assert stated_fahrenheit("Paris and Tokyo: Paris 64°F, Tokyo 75°F") == {"Paris": 64, "Tokyo": 75}
    assert stated_fahrenheit("Tokyo: 24°C. Paris: 18 C") == {"Paris": None, "Tokyo": None}
    assert stated_fahrenheit("paris 64 degrees Fahrenheit") == {"Paris": 64, "Tokyo": None}


# --- real agent runs, recorded, then classified --------------------------------------------------

def _recorded(llm, unit_in_result=False):
    recorder = EventRecorder()
    agent = Agent(llm, weather_registry(unit_in_result), SYSTEM_PROMPT, observers=[recorder])
    agent.run({"question": QUESTION})
    return recorder.events


def test_scripted_runs_classify_as_their_scripts_say():
    assert classify(_recorded(four_round_manager())).outcome == "right"
    events = _recorded(wrong_tokyo_manager())
    verdict = classify(events)
    assert verdict.outcome == "wrong final reasoning"
    assert events[verdict.line - 1]["reasoning"].startswith("Paris returned 18")


@pytest.mark.parametrize("behaviour, outcome", [
    ("celsius as fahrenheit", "wrong final reasoning"), ("right, with to_fahrenheit", "right"),
    ("right, own arithmetic", "right"), ("made up numbers", "wrong slip"),
    ("kept asking (not described)", "never finished")])
def test_each_modelled_behaviour_lands_in_its_class(behaviour, outcome):
    class Fixed(random.Random):
        def choices(self, population, weights=None, **kw):
            return [behaviour]

    name, llm = modelled_manager("18°C", Fixed())
    assert name == behaviour
    recorder = EventRecorder()
    agent = Agent(llm, weather_registry(True), SYSTEM_PROMPT, observers=[recorder], max_steps=4)
    try:
        agent.run({"question": QUESTION})
    except Exception:  # the looping one hits its step limit
        pass
    assert classify(recorder.events).outcome == outcome


# --- the harness ----------------------------------------------------------------------------------

def test_offline_experiment_is_deterministic_labelled_and_traced(tmp_path):
    first = run_experiment(trace_dir=tmp_path / "a", runs=8, seed=3, progress=False)
    again = run_experiment(trace_dir=tmp_path / "b", runs=8, seed=3, progress=False)
    strip = [(r.variant, r.outcome, r.script, r.answer) for r in first.runs]
    assert strip == [(r.variant, r.outcome, r.script, r.answer) for r in again.runs]
    assert "not a real model" in first.source and "not a real model" in first.table()
    counts = first.counts()
    assert list(counts) == ["18", "18°C"] and all(sum(c.values()) == 8 for c in counts.values())
    assert counts["18"]["right"] == 0  # the modelled bare variant is never right, as reported
    assert set(counts["18"]) == set(OUTCOMES)
    for variant in VARIANTS:
        ids = {e["run_id"] for e in read_trace(tmp_path / "a" / f"{variant.slug}.jsonl")}
        assert ids == {r.run_id for r in first.runs if r.variant == variant.name}


def test_a_rerun_starts_its_trace_files_afresh(tmp_path):
    run_experiment(trace_dir=tmp_path, runs=2, progress=False)
    again = run_experiment(trace_dir=tmp_path, runs=3, progress=False)
    assert len({e["run_id"] for e in read_trace(tmp_path / "bare.jsonl")}) == 3 == len(again.runs) // 2


def test_modelled_frequencies_approach_the_report_over_many_draws():
    rng = random.Random(1)
    bare = Counter(modelled_manager("18", rng)[0] for _ in range(800))
    unit = Counter(modelled_manager("18°C", rng)[0] for _ in range(800))
    assert abs(bare["celsius as fahrenheit"] / 800 - REPORTED[0].celsius_as_fahrenheit / 8) < 0.05
    right = unit["right, with to_fahrenheit"] + unit["right, own arithmetic"]
    assert abs(right / 800 - REPORTED[1].right_numbers / 8) < 0.05
    assert sum(MODELLED["18"].values()) == sum(MODELLED["18°C"].values()) == 8


def test_csv_has_one_row_per_run(tmp_path):
    results = run_experiment(trace_dir=tmp_path, runs=3, progress=False)
    path = results.to_csv(tmp_path / "out" / "results.csv")
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert len(rows) == 6
    assert [r["outcome"] for r in rows] == [r.outcome for r in results.runs]
    assert rows[0]["trace"] == "bare.jsonl"


class _FakeLive:
    """Not a ScriptedLLM, so the harness treats it as live: it answers from the folder, correctly."""

    name = model = "fake-live"

    def generate(self, messages, tools):
        done = {m.name for m in messages if getattr(m, "role", "") == "tool"}
        if "get_weather" not in done:
            cities = ("Paris", "Tokyo")
            calls = tuple(ToolCall(f"w{i}", "get_weather", {"city": c}) for i, c in enumerate(cities))
        elif "to_fahrenheit" not in done:
            temps = [int(m.content.rstrip("°C")) for m in messages if getattr(m, "name", "") == "get_weather"]
            calls = tuple(ToolCall(f"f{i}", "to_fahrenheit", {"celsius": t}) for i, t in enumerate(temps))
        else:
            return LLMResponse(AssistantMessage("Paris: 64°F, Tokyo: 75°F"), model=self.model)
        return LLMResponse(AssistantMessage("", calls), model=self.model)


def test_a_live_model_is_used_as_is_and_named(tmp_path):
    results = run_experiment(_FakeLive(), trace_dir=tmp_path, runs=2, progress=False)
    assert results.source.startswith("live model fake-live")
    assert {r.outcome for r in results.runs} == {"right"} and {r.script for r in results.runs} == {""}
    assert {r.model for r in results.runs} == {"fake-live"}
    assert is_live(_FakeLive()) and not is_live(four_round_manager()) and not is_live(None)


def test_an_unreachable_model_stops_the_experiment(tmp_path):
    class Down:
        name = "down"

        def generate(self, messages, tools):
            raise LLMUnavailable("no server: start ollama")

    with pytest.raises(LLMUnavailable):
        run_experiment(Down(), trace_dir=tmp_path, runs=2, progress=False)


def test_bad_run_count_and_the_reported_table(tmp_path):
    with pytest.raises(ValueError, match="runs per variant"):
        run_experiment(trace_dir=tmp_path, runs=0, progress=False)
    text = reported_table()
    assert "qwen3.5:0.8b" in text and "0 / 8" in text and "6 / 8" in text


def test_progress_bar_runs(tmp_path, capsys):
    pytest.importorskip("tqdm")
    run_experiment(trace_dir=tmp_path, runs=2, progress=True)
    assert "unit experiment" in capsys.readouterr().err


def test_versus_reported_puts_both_side_by_side(tmp_path):
    results = run_experiment(trace_dir=tmp_path, runs=4, seed=2, progress=False)
    text = versus_reported(results)
    bare = next(line for line in text.splitlines() if line.startswith('"18" '))
    assert "0 / 8" in bare and "0 / 4" in bare  # reported 0/8 right; the modelled bare runs are never right
    assert "not a real model" in text
