"""Sentences of notebooks 05 (and 04) about the shipped real runs, checked on their traces (issue 21: every claim
backed by a cell or a test that would fail). Each test's docstring quotes the sentence it backs. The claims about
the `unit` experiment's runs are made by data/experiments/README.md and tested in test_experiments_readme_claims.py.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from mingraph_lite import Agent, EventRecorder, KeepAll, ReplayLLM, read_trace
from mingraph_lite.course.classify import classify
from mingraph_lite.course.definition import load
from mingraph_lite.course.scripts import QUESTION
from mingraph_lite.course.weather import lookup

EXPERIMENTS = Path(__file__).resolve().parents[2] / "data" / "experiments"


def _rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "results.csv").open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_the_only_finish_right_runs_wrong_first_at_the_final_reply_are_four_gemma_runs_with_the_example():
    """05: "No `finish-right` run is right ... The only `finish-right` runs whose first wrong line is the final reply
    are four of Gemma's, all with the worked example in the folder." 04: "No run of definition `finish-right`
    answers right."
    """
    case_3 = []
    for model in ("smollm2-135m", "gemma3-270m"):
        with (EXPERIMENTS / "finish-right" / model / "results.csv").open(encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        assert not any(row["outcome"] == "right" for row in rows)
        case_3 += [(model, row["variant"]) for row in rows
                   if classify(read_trace(EXPERIMENTS / "finish-right" / model / row["trace"])).case == 3]
    assert len(case_3) == 4 and {model for model, _ in case_3} == {"gemma3-270m"}
    assert {variant for _, variant in case_3} <= {"worked example", "both"}  # both = the example and units


def test_no_recorded_reply_holds_thinking_text_or_a_thinking_token_count():
    """05: "Neither has a thinking channel", and the envelope cell's count of the replies they recorded."""
    replies = [e for trace in sorted(EXPERIMENTS.rglob("traces/*.jsonl")) for e in read_trace(trace)
               if e["event"] == "model_reply"]
    assert len(replies) == 1214  # the figure 05's cell prints
    assert all(e["reasoning"] is None and e["reasoning_tokens"] is None for e in replies)


def _replay_gemma_run_10():
    finish = EXPERIMENTS / "finish-right" / "gemma3-270m"
    row = next(r for r in _rows(finish) if r["variant"] == "worked example" and r["index"] == "10")
    worked = next(v for v in load("finish-right").variants if v.name == row["variant"])
    folder = KeepAll(worked.system_prompt)
    for message in worked.messages:
        folder.add(message)
    recorder = EventRecorder()
    Agent(ReplayLLM.from_trace(finish / row["trace"]), worked.registry(), worked.system_prompt, memory=folder,
          observers=[recorder], max_steps=6).run({"question": load("finish-right").question})
    return row, finish / row["trace"], recorder.events


def test_gemma_run_10_reads_the_example_then_the_question():
    """05: the run's settings ("at most 6 model calls") and the worked example "placed before the question"."""
    row, trace, _ = _replay_gemma_run_10()
    assert json.loads(row["settings"])["max_steps"] == 6 and row["model"] == "gemma3-270m"
    first = read_trace(trace)[0]
    assert [m["content"] for m in first["messages"] if m["role"] == "user"][-1] == QUESTION
    assert "example" not in first["messages"][-1] and all("example" in m for m in first["messages"][1:-1])


def test_gemma_run_10_looks_up_right_never_converts_and_writes_celsius_as_fahrenheit_at_line_9():
    """05: "Lines 1 to 8 are right ... No slip asks for `to_fahrenheit`. Line 9, the final reply, starts with
    `Tokyo: 24°F, Paris: 18°F` ... case 3"; 04: "It looked up both cities and asked for no conversion."
    """
    row, trace, events = _replay_gemma_run_10()
    verdict = classify(events)
    returns = {e["content"] for e in events if e["event"] == "tool_return" and e["name"] == "get_weather"}
    assert returns == {str(lookup(city)["celsius"]) for city in ("Paris", "Tokyo")}
    assert not any(e["name"] == "to_fahrenheit" for e in events if e["event"] == "tool_call")
    assert (verdict.line, verdict.case, verdict.celsius_as_fahrenheit) == (9, 3, True)
    assert events[8]["message"]["content"].startswith("Tokyo: 24°F, Paris: 18°F")
    assert (verdict.line, verdict.case) == (int(row["line"]), int(row["case"]))  # as the harness recorded it
    assert verdict == classify(read_trace(trace))  # the replay equals the recording


def _runs(experiment: str) -> list[list[dict]]:
    return [read_trace(folder / row["trace"]) for folder in sorted((EXPERIMENTS / experiment).iterdir())
            if (folder / "results.csv").is_file() for row in _rows(folder)]


def _looked_up_both(events: list[dict]) -> bool:
    return {"paris", "tokyo"} <= {str(e["arguments"].get("city", "")).lower() for e in events
                                  if e["event"] == "tool_call" and e["name"] == "get_weather"
                                  and isinstance(e["arguments"], dict)}


def test_nine_of_the_128_finish_right_runs_looked_up_both_cities_and_gemma_run_10_is_one_of_them():
    """05: "Nine of its 128 runs looked up both cities. One of the nine, replayed" (Gemma's run #10)."""
    runs = _runs("finish-right")
    assert len(runs) == 128 and sum(map(_looked_up_both, runs)) == 9
    _, trace, _ = _replay_gemma_run_10()
    assert _looked_up_both(read_trace(trace))


def test_the_05_3_check_holds_out_the_224_runs_of_finish_right_2_and_3():
    """05: "then on the 224 recorded runs of two experiments this notebook never shows (`finish-right-2` and
    `finish-right-3`)", counted as the check counts them."""
    from lessons.exercises.nb05 import recorded_runs

    assert len(_runs("finish-right-2")) + len(_runs("finish-right-3")) == 224
    assert len(recorded_runs("finish-right-2")) + len(recorded_runs("finish-right-3")) == 224


def test_the_article_line_gave_celsius_as_fahrenheit_and_its_thinking_names_the_bare_answer_slip():
    """05: the 0.8b run "gave the Celsius numbers as °F"; its `reasoning_tokens` is None; the prediction's right
    reading: the phrase names the tool's response format, the line two up is a bare "18", the fix the unit."""
    from lessons.exercises.nb05_thinking import ARTICLE_LINE, ARTICLE_RETURN, FIXES, POINTS_AT, _why_hint
    from mingraph_lite.course.classify import stated_fahrenheit
    from mingraph_lite.course.weather import WEATHER

    stated = stated_fahrenheit(ARTICLE_LINE["message"]["content"])
    assert stated == {c: float(WEATHER[c]["celsius"]) for c in ("Paris", "Tokyo")}
    assert ARTICLE_LINE["reasoning_tokens"] is None
    assert "response format" in ARTICLE_LINE["reasoning"] and ARTICLE_RETURN["content"] == "18"
    assert '"content": "18"' in POINTS_AT["C"] and "18°C" in FIXES["X"]
    from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT
    from mingraph_lite.course.weather import weather_registry

    menu = {t["function"]["name"]: t["function"]["description"] for t in weather_registry().tools}
    assert QUESTION.endswith(POINTS_AT["A"].split('"... ')[1].rstrip('"'))  # the labelled choices quote the run
    assert "never do the arithmetic yourself" in SYSTEM_PROMPT and "in degrees Celsius" in menu["get_weather"]
    assert _why_hint(("based on the tool's response format", "C", "X")) == ""
    assert _why_hint(("already Fahrenheit temperatures", "c", "x")) == ""


def test_the_scripted_reenactment_reads_the_number_on_its_answer_slips_and_ignores_the_unit():
    """05.Q2's feedback: "the script reads only the number on each answer slip and ignores the unit": a tool that
    answers other numbers changes its reply, "18°C" for "18" does not."""
    from lessons.exercises.nb05 import doubling_registry, recorded
    from mingraph_lite.course.scripts import wrong_tokyo_manager

    def final(events):
        return [e["message"]["content"] for e in events if e["event"] == "model_reply"][-1]

    bare, unit = recorded(wrong_tokyo_manager()), recorded(wrong_tokyo_manager(), True)
    assert final(bare) == final(unit) == "Paris: 64°F, Tokyo: 24°F"
    assert "24°C" in [e["content"] for e in unit if e["event"] == "tool_return"]
    assert (classify(bare).outcome, classify(bare).line) == (classify(unit).outcome, classify(unit).line)
    assert final(recorded(wrong_tokyo_manager(), tools=doubling_registry())) == "Paris: 97°F, Tokyo: 48°F"


def test_05_3_calls_a_number_sent_as_text_made_up_as_classify_and_the_tool_do():
    """05.3: "A `celsius` written as text (`"18"`) is not a number: that slip is made up too", as `classify` judges
    it and as the tool refuses it."""
    import pytest

    from lessons.exercises.nb05 import _LOOKUPS, recorded
    from lessons.reference import reference
    from mingraph_lite import ToolCall
    from mingraph_lite.course.weather import weather_registry
    from mingraph_lite.errors import ToolArgsError
    from mingraph_lite.llms.scripted import ScriptedLLM

    events = recorded(ScriptedLLM([_LOOKUPS, [("to_fahrenheit", {"celsius": "18"})], "Paris: 64°F, Tokyo: 75°F"]))
    assert reference("05.3")([("A", events)]) == {"A": 1}
    assert classify(events).outcome == "wrong slip" and "'18'" in classify(events).why
    with pytest.raises(ToolArgsError):
        weather_registry().run(ToolCall("t1", "to_fahrenheit", {"celsius": "18"}))


def test_classify_case_3_catches_celsius_written_as_fahrenheit_so_05_1_need_not():
    """05: "Its case 3 also catches Celsius written as °F (`celsius_as_fahrenheit`)": on the re-enactment and on
    Gemma's run #10; 05.1's second list is the thinking nobody counted (the article's line: line 1)."""
    from lessons.exercises.nb05 import recorded
    from lessons.exercises.nb05_thinking import ARTICLE_LINE
    from lessons.reference import reference
    from mingraph_lite.course.scripts import wrong_tokyo_manager

    _, _, gemma = _replay_gemma_run_10()
    for events in (recorded(wrong_tokyo_manager()), gemma):
        verdict = classify(events)
        assert verdict.case == 3 and verdict.celsius_as_fahrenheit
    assert reference("05.1")([ARTICLE_LINE]) == ({1: None}, [1])


def test_05_3_judges_a_conversion_in_its_lookups_reply_by_line_as_classify_does():
    """05.3: judged by line, as `classify` judges: a `to_fahrenheit(18)` after the line where get_weather returned
    18, in the same reply, is not made up."""
    from lessons.exercises.nb05 import _LOOKUPS, recorded
    from lessons.reference import reference
    from mingraph_lite.llms.scripted import ScriptedLLM

    events = recorded(ScriptedLLM([[*_LOOKUPS, ("to_fahrenheit", {"celsius": 18})],
                                   [("to_fahrenheit", {"celsius": 24})], "Paris: 64°F, Tokyo: 75°F"]))
    assert reference("05.3")([("A", events)]) == {"A": 0}
    assert classify(events).outcome == "right"


def _first_counted_line(count, events):
    """The first line at which the 05.3 answer's count for a run goes above 0 (its prefix ending there), or None."""
    return next((line for line in range(1, len(events) + 1) if count([("r", events[:line])])["r"]), None)


def test_05_3_and_classify_agree_on_the_first_made_up_conversion_of_every_run_the_check_reads():
    """05.3 and classify share one meaning of "made up": on every run the 05.3 check reads (its scripted traps and
    the 224 held-out recorded runs), when classify names a made-up to_fahrenheit slip, that is the first line 05.3
    counts; and 05.3 never counts a line before classify stops (classify would have stopped there)."""
    from lessons.exercises.nb05 import _made_up_groups
    from lessons.reference import reference

    count, tied = reference("05.3"), 0
    for _, events in [run for _, runs, _ in _made_up_groups() for run in runs]:
        verdict, first = classify(events), _first_counted_line(count, events)
        made_up = (verdict.outcome == "wrong slip" and events[verdict.line - 1]["event"] == "tool_call"
                   and events[verdict.line - 1]["name"] == "to_fahrenheit")
        if made_up:
            assert first == verdict.line, (verdict, first)
            tied += 1
        if first is not None:
            assert verdict.line is not None and verdict.line <= first, (verdict, first)
    assert tied > 0  # the tie is tested on real made-up conversions, not only on runs with none


def test_the_lessons_printers_show_the_four_cases_and_gate_their_answers(capsys):
    """The notebook's print-only cells now in lessons: one run per case, run #10's input, and two reveals whose
    explanations print only after a right guess."""
    from lessons.exercises.nb05 import reveal_run_10, show_one_run_per_case, show_run_10_input
    from lessons.exercises.nb05_thinking import reveal_why

    assert [v.case for v in show_one_run_per_case()] == [1, 2, 3, 4]
    row, trace = show_run_10_input()
    assert (row.variant, row.index) == ("worked example", 10) and trace.is_file()
    _, _, gemma = _replay_gemma_run_10()
    capsys.readouterr()
    reveal_run_10((1, 9), gemma, row)
    reveal_why(("response format", "B", "X"))
    wrong = capsys.readouterr().out
    assert "Lines 1 to 8" not in wrong and "(3, 9)" not in wrong and "6 / 8" not in wrong and "  C  " in wrong
    reveal_run_10((3, 9), gemma, row)
    reveal_why(("response format", "C", "X"))
    right = capsys.readouterr().out
    assert "Lines 1 to 8 are right" in right and "four of Gemma's" in right
    assert "The State and Observer Patterns" in right and "0 / 8          6 / 8" in right and "Notebook 06" in right


def test_the_two_predictions_give_a_targeted_hint_and_take_tuples(capsys):
    """Run #10: a 'never finished' guess is told the finish line; the reading of the article's thinking names the
    part that is wrong: a phrase that gives no reason, a phrase not quoted, a fix that leaves the bare number."""
    from lessons.exercises.nb05 import reveal_run_10, show_run_10_input
    from lessons.exercises.nb05_thinking import reveal_why

    row, _ = show_run_10_input()
    _, _, gemma = _replay_gemma_run_10()
    end = len(gemma) - [e["event"] for e in gemma][::-1].index("finish")
    capsys.readouterr()
    reveal_run_10((4, 10), gemma, row)
    assert f"it finished: line {end} is its finish line ('answered')" in capsys.readouterr().out
    reveal_run_10((3, end), gemma, row)
    assert "case 3's wrong line is the final reply itself" in capsys.readouterr().out
    reveal_why(("Paris returned 18", "C", "X"))
    assert "not why the model took it for Fahrenheit" in capsys.readouterr().out
    reveal_why(("a phrase not in it", "C", "X"))
    assert "exactly as printed" in capsys.readouterr().out
    reveal_why(("already Fahrenheit", "C", "W"))
    assert "the other three leave the bare number" in capsys.readouterr().out


def test_the_notebook_never_names_the_05_2_trace_path():
    """05.2's stored run is reachable only through a private name the notebook does not import."""
    from lessons.exercises import nb05

    source = (Path(__file__).resolve().parents[2] / "notebooks" / "05_reasoning_capture.py").read_text()
    assert not hasattr(nb05, "SCRIPTED_05_2") and "SCRIPTED_05_2" not in source


def test_run_10s_settings_hold_no_verdict_before_the_guess(capsys):
    """Round 16's reader printed the row the notebook held and read case 3, line 9 before predicting."""
    from lessons.exercises.nb05 import show_run_10_input

    settings, _ = show_run_10_input()
    assert not hasattr(settings, "case") and not hasattr(settings, "line") and settings.index == 10
    assert "case" not in repr(settings)


def test_a_final_reply_before_both_lookups_is_case_1_at_that_reply():
    """05's rules: a final reply before both lookups is case 1, and its wrong line is that reply."""
    from lessons.exercises.nb05 import recorded
    from mingraph_lite import ScriptedLLM
    from mingraph_lite.course.classify import classify

    events = recorded(ScriptedLLM(["Paris: 64°F, Tokyo: 75°F"], name="scripted: answers at once"))
    verdict = classify(events)
    assert verdict.case == 1 and events[verdict.line - 1]["event"] == "model_reply"


def test_05_3_accepts_parsing_text_arguments_with_json_loads_because_such_text_never_parses():
    """05.3: "arguments that stayed text (their JSON did not parse: `json.loads` fails on them too) count as made
    up"."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "notebooks"))
    from importlib import import_module

    from lessons.exercises.nb05 import check_made_up_counts
    solution = import_module("solutions.05_reasoning_capture")

    def with_json_loads(runs):
        def text_parsed(e):
            if e["event"] != "tool_call" or isinstance(e["arguments"], dict):
                return e
            try:
                return dict(e, arguments=json.loads(e["arguments"]))
            except json.JSONDecodeError:
                return e
        return solution.made_up_counts([(v, [text_parsed(e) for e in events]) for v, events in runs])

    assert check_made_up_counts(with_json_loads)


def test_run_10s_trace_prints_only_once_a_guess_is_written(capsys):
    """Round 19: the trace under the guess cell showed the first wrong line before the learner had guessed."""
    from lessons.exercises.nb05 import reveal_run_10, show_run_10_input

    row, _ = show_run_10_input()
    _, _, gemma = _replay_gemma_run_10()
    capsys.readouterr()
    reveal_run_10(..., gemma, row)
    unguessed = capsys.readouterr().out
    assert "write your guess" in unguessed and "to_fahrenheit" not in unguessed and "get_weather" not in unguessed
    reveal_run_10((1, 9), gemma, row)
    assert "get_weather" in capsys.readouterr().out  # any guess shows the trace, a wrong one to check it against
