"""The first-wrong-line classifier on hand-made traces and real agent runs, and the modelled managers."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from mingraph_lite import Agent, EventRecorder
from mingraph_lite.course.classify import OUTCOMES, classify, stated_fahrenheit
from mingraph_lite.course.modelled import MODELLED, REPORTED, modelled_manager
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, wrong_tokyo_manager
from mingraph_lite.course.weather import weather_registry

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


def test_modelled_frequencies_approach_the_report_over_many_draws():
    rng = random.Random(1)
    bare = Counter(modelled_manager("18", rng)[0] for _ in range(800))
    unit = Counter(modelled_manager("18°C", rng)[0] for _ in range(800))
    assert abs(bare["celsius as fahrenheit"] / 800 - REPORTED[0].celsius_as_fahrenheit / 8) < 0.05
    right = unit["right, with to_fahrenheit"] + unit["right, own arithmetic"]
    assert abs(right / 800 - REPORTED[1].right_numbers / 8) < 0.05
    assert sum(MODELLED["18"].values()) == sum(MODELLED["18°C"].values()) == 8
    assert len(OUTCOMES) == 5


def test_converting_a_converted_number_is_a_wrong_slip_that_says_so():
    events = [*LOOKUPS, *CONVERTS, reply("", slip("e", "to_fahrenheit", celsius=64)),
              call("e", "to_fahrenheit", celsius=64)]
    verdict = classify(events)
    assert (verdict.outcome, verdict.line) == ("wrong slip", len(events))
    assert "Fahrenheit already" in verdict.why and "made it up" not in verdict.why
