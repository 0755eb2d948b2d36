"""compare(): folders pooled by model and settings, Wilson intervals, one table, one figure."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from mingraph_lite import Agent, KeepAll, LLMResponse, ReplayLLM, read_trace
from mingraph_lite.cli import main
from mingraph_lite.course.classify import classify
from mingraph_lite.course.compare import Z95, compare, reported_table, wilson
from mingraph_lite.course.experiments import run_experiment
from mingraph_lite.course.results_folder import read_results
from mingraph_lite.course.scripts import QUESTION
from mingraph_lite.messages import AssistantMessage


def test_wilson_matches_the_textbook_formula_and_stays_in_bounds():
    low, high = wilson(6, 8)
    # Wilson (1927): centre (p + z²/2n) / (1 + z²/n), half-width z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n)
    assert low == pytest.approx(0.4093, abs=1e-3) and high == pytest.approx(0.9285, abs=1e-3)
    assert wilson(0, 8)[0] == 0 and wilson(8, 8)[1] == 1 and 0 < wilson(0, 8)[1] < 0.4
    assert all(wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0 for n in range(1, 300))  # exact, not 5.5e-17
    assert wilson(30, 240)[1] - wilson(30, 240)[0] < wilson(1, 8)[1] - wilson(1, 8)[0]  # more runs, narrower
    assert Z95 == pytest.approx(1.96, abs=1e-3)
    with pytest.raises(ValueError):
        wilson(3, 0)


def test_folders_of_one_model_and_settings_are_pooled_and_repeated_seeds_refused(tmp_path):
    run_experiment(out=tmp_path / "alice", runs=3, seed=0, progress=False)
    run_experiment(out=tmp_path / "bob", runs=3, seed=100, progress=False)
    pooled = compare([tmp_path / "alice", tmp_path / "bob"])
    assert [(g.variant, g.runs, len(g.shares)) for g in pooled.groups] == [("18", 6, 2), ("18°C", 6, 2)]
    assert pooled.groups[0].shares == ((str(tmp_path / "alice"), 3), (str(tmp_path / "bob"), 3))
    assert not pooled.notes
    run_experiment(out=tmp_path / "copycat", runs=3, seed=2, progress=False)
    with pytest.raises(ValueError, match=r"variant '18' with seed 2, the same run twice"):
        compare([tmp_path / "alice", tmp_path / "copycat"])


def test_table_rows_and_figure(tmp_path):
    run_experiment(out=tmp_path / "a", runs=4, seed=2, progress=False)
    comparison = compare([tmp_path / "a"])
    rows = comparison.rows()
    assert len(rows) == 2 * 5 and all(r["low"] <= r["share"] <= r["high"] for r in rows)
    assert sum(r["runs"] for r in rows if r["variant"] == "18") == 4
    assert "Wilson" in comparison.table()
    fig = comparison.figure()
    assert len(fig.axes) == 5 and "Wilson" in fig._supxlabel.get_text()
    assert fig.axes[0].get_yticklabels()[0].get_text().startswith("scripted (modelled)")


def test_compare_command_and_its_errors(tmp_path, capsys):
    run_experiment(out=tmp_path / "a", runs=2, progress=False)
    figure = tmp_path / "all.png"
    assert main(["experiment", "compare", str(tmp_path / "a"), "--figure", str(figure)]) == 0
    assert figure.stat().st_size > 1000 and "Wilson" in capsys.readouterr().out
    assert main(["experiment", "compare", str(tmp_path / "empty"), "--out", str(tmp_path)]) == 2
    assert "no recorded runs" in capsys.readouterr().err


def test_the_reported_figures_stay_quoted_as_theirs():
    text = reported_table()
    assert "qwen3.5:0.8b" in text and "0 / 8" in text and "6 / 8" in text
    assert "The State and Observer Patterns" in text


SHIPPED = Path(__file__).resolve().parents[2] / "data" / "experiments"


@pytest.mark.parametrize("model", ["smollm2-135m", "gemma3-270m"])
def test_the_shipped_folders_are_whole_sampled_and_replayable(model):
    folder = SHIPPED / model
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    assert summary["model"] == f"local:{model}" and summary["complete"] and summary["live"]
    runs = read_results(folder)
    assert sorted(r.key for r in runs) == sorted((v, i) for v in ("18", "18°C") for i in range(8))
    assert {r.temperature for r in runs} == {0.7} and all(r.seed == r.index for r in runs)
    for r in runs:  # each trace holds its one run, and replaying it asks what the recording asked
        events = read_trace(folder / r.trace)
        assert {e["run_id"] for e in events} == {r.run_id}
        assert classify(events).outcome == r.outcome
        ReplayLLM.from_trace(folder / r.trace)


@pytest.mark.parametrize("model", ["smollm2-135m", "gemma3-270m"])
def test_the_finish_right_recordings_are_whole_and_say_what_the_readme_says(model):
    folder = SHIPPED / "finish-right" / model
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    assert summary["model"] == f"local:{model}" and summary["complete"] and summary["live"]
    runs = read_results(folder)
    variants = ("zero-shot", "worked example", "units everywhere", "both")
    assert sorted(r.key for r in runs) == sorted((v, i) for v in variants for i in range(16))
    assert {r.temperature for r in runs} == {0.7} and all(r.seed == 100 + r.index for r in runs)
    for r in runs:
        events = read_trace(folder / r.trace)
        assert classify(events).outcome == r.outcome
        examples = [m for m in events[0]["messages"] if m.get("example")]
        assert bool(examples) == (r.variant in ("worked example", "both"))  # the example only where defined
    outcomes = Counter(r.outcome for r in runs)
    assert outcomes["right"] == 0
    if model == "smollm2-135m":
        assert outcomes == {"wrong slip": 64}
    else:
        assert outcomes == {"wrong slip": 58, "never finished": 2, "wrong final reasoning": 4}
        case3 = [r for r in runs if r.outcome == "wrong final reasoning"]
        assert sorted(r.variant for r in case3) == ["both", "both", "worked example", "worked example"]
        assert sum(r.celsius_as_fahrenheit for r in case3) == 3
    comparison = compare([SHIPPED / "finish-right" / "smollm2-135m", SHIPPED / "finish-right" / "gemma3-270m"])
    assert (SHIPPED / "finish-right" / "comparison.txt").read_text(encoding="utf-8").startswith(comparison.table())



SEARCH = ("two examples", "three examples", "three examples, chatml", "three examples, T=0.7")
#: Outcomes per variant of data/experiments/finish-right-2 as its README section states them.
SEARCH_OUTCOMES = {
    "gemma3-270m": {"two examples": {"wrong final reasoning": 16}, "three examples": {"wrong final reasoning": 16},
                    "three examples, chatml": {"wrong final reasoning": 14, "wrong slip": 2},
                    "three examples, T=0.7": {"wrong final reasoning": 16}},
    "smollm2-135m": {"two examples": {"wrong slip": 16},
                     "three examples": {"wrong final reasoning": 15, "wrong slip": 1},
                     "three examples, chatml": {"wrong final reasoning": 13, "wrong slip": 3},
                     "three examples, T=0.7": {"wrong final reasoning": 4, "wrong slip": 12}},
}


@pytest.mark.parametrize("model", sorted(SEARCH_OUTCOMES))
def test_the_finish_right_2_search_is_whole_and_says_what_the_readme_says(model):
    from mingraph_lite.course.definition import load

    folder = SHIPPED / "finish-right-2" / model
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    assert summary["model"] == f"local:{model}" and summary["complete"] and summary["live"]
    assert summary["definition"]["digest"] == load(SHIPPED / "finish-right-2.toml").digest  # the file as recorded
    runs = read_results(folder)
    assert sorted(r.key for r in runs) == sorted((v, i) for v in SEARCH for i in range(16))
    assert all(r.seed == 200 + r.index and r.temperature == (0.7 if "0.7" in r.variant else 0.3) for r in runs)
    found: dict[str, Counter] = {v: Counter() for v in SEARCH}
    for r in runs:
        events = read_trace(folder / r.trace)
        assert classify(events).outcome == r.outcome
        examples = [m for m in events[0]["messages"] if m.get("example")]
        assert examples and not any(c in json.dumps(examples) for c in ("Paris", "Tokyo"))
        found[r.variant][r.outcome] += 1
    assert found == SEARCH_OUTCOMES[model]
    folders = [SHIPPED / "finish-right-2" / m for m in sorted(SEARCH_OUTCOMES)]
    table = compare(folders).table()
    assert (SHIPPED / "finish-right-2" / "comparison.txt").read_text(encoding="utf-8").startswith(table)
    assert table in (SHIPPED / "README.md").read_text(encoding="utf-8")

NAMED = ("named", "named, T=0.1", "named, copy")
#: Outcomes per variant of data/experiments/finish-right-3 as its README section states them.
NAMED_OUTCOMES = {
    "gemma3-270m": {"named": {"wrong final reasoning": 16}, "named, T=0.1": {"wrong final reasoning": 16},
                    "named, copy": {"right": 13, "wrong final reasoning": 3}},
    "smollm2-135m": {"named": {"right": 9, "wrong slip": 4, "wrong final reasoning": 3},
                     "named, T=0.1": {"right": 14, "wrong slip": 2},
                     "named, copy": {"right": 1, "wrong slip": 13, "wrong final reasoning": 2}},
}
#: The run the README names as the best one to replay: (model, variant, seed), right, in one clean line.
BEST = ("smollm2-135m", "named, T=0.1", 300)


@pytest.mark.parametrize("model", sorted(NAMED_OUTCOMES))
def test_the_finish_right_3_recording_is_whole_and_says_what_the_readme_says(model):
    from mingraph_lite.course.definition import load

    folder = SHIPPED / "finish-right-3" / model
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    assert summary["model"] == f"local:{model}" and summary["complete"] and summary["live"]
    assert summary["definition"]["digest"] == load(SHIPPED / "finish-right-3.toml").digest  # the file as recorded
    runs = read_results(folder)
    assert sorted(r.key for r in runs) == sorted((v, i) for v in NAMED for i in range(16))
    assert all(r.seed == 300 + r.index and r.temperature == (0.1 if "0.1" in r.variant else 0.3) for r in runs)
    found: dict[str, Counter] = {v: Counter() for v in NAMED}
    for r in runs:
        events = read_trace(folder / r.trace)
        assert classify(events).outcome == r.outcome
        returned = [e["content"] for e in events if e["event"] == "tool_return"]
        assert "Paris: 18°C" in returned or r.outcome == "wrong slip"  # the runs saw results naming their input
        examples = [m for m in events[0]["messages"] if m.get("example")]
        assert "14°C = 57°F" in json.dumps(examples, ensure_ascii=False)  # and so did the worked examples
        assert not any(c in json.dumps(examples) for c in ("Paris", "Tokyo"))
        found[r.variant][r.outcome] += 1
    assert found == NAMED_OUTCOMES[model]
    table = compare([SHIPPED / "finish-right-3" / m for m in sorted(NAMED_OUTCOMES)]).table()
    assert (SHIPPED / "finish-right-3" / "comparison.txt").read_text(encoding="utf-8").startswith(table)
    assert table in (SHIPPED / "README.md").read_text(encoding="utf-8")
    if model == BEST[0]:
        [best] = [r for r in runs if (r.variant, r.seed) == BEST[1:]]
        assert best.outcome == "right" and best.answer == "Paris: 64°F, Tokyo: 75°F"
        variant = {v.name: v for v in load(SHIPPED / "finish-right-3.toml").variants}[best.variant]
        memory = KeepAll(variant.system_prompt)
        for message in variant.messages:
            memory.add(message)
        replayed = Agent(ReplayLLM.from_trace(folder / best.trace), variant.registry(), variant.system_prompt,
                         memory=memory).run({"question": QUESTION})
        assert replayed["answer"] == best.answer  # the course can replay it, without the model


def test_the_shipped_comparison_is_what_compare_prints_now():
    comparison = compare([SHIPPED / "smollm2-135m", SHIPPED / "gemma3-270m"])
    assert (SHIPPED / "comparison.txt").read_text(encoding="utf-8").startswith(comparison.table())
    assert comparison.table() in (SHIPPED / "README.md").read_text(encoding="utf-8")


# --------------------------------------------------------------------- pooling a class

def test_folders_of_different_definitions_or_settings_are_refused_in_one_sentence(tmp_path, capsys):
    run_experiment(out=tmp_path / "unit", runs=1, seed=0, progress=False)
    run_experiment(out=tmp_path / "example", experiment="worked-example", runs=1, seed=50, progress=False)
    run_experiment(out=tmp_path / "short", runs=1, seed=100, max_steps=2, progress=False)
    with pytest.raises(ValueError, match=r"different definitions \('unit' .*'worked-example'"):
        compare([tmp_path / "unit", tmp_path / "example"])
    assert main(["experiment", "compare", str(tmp_path / "unit"), str(tmp_path / "short")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "variant '18' ran with max_steps 6 in one and 2 in the other" in err


def test_an_empty_or_half_made_folder_is_skipped_with_a_warning(tmp_path):
    run_experiment(out=tmp_path / "ana", runs=2, seed=0, progress=False)
    (tmp_path / "ben" / "traces").mkdir(parents=True)  # a student whose key was missing: nothing recorded
    pooled = compare([tmp_path / "ana", tmp_path / "ben"])
    assert [g.runs for g in pooled.groups] == [2, 2]
    assert any("skipped" in n and "ben" in n for n in pooled.notes)


@pytest.mark.parametrize("name, content, why", [
    ("summary.json", b"[1, 2", "not a summary this command wrote (JSONDecodeError"),
    ("summary.json", b"[1, 2]", "a JSON list, not an object"),
    ("results.csv", b"variant,index\n\xff\xfe,1\n", "not a results file this command wrote (UnicodeDecodeError"),
    ("results.csv", b"variant,index\nx,notanumber\n", "not a results file this command wrote (ValueError"),
])
def test_a_folder_with_a_broken_file_is_skipped_naming_the_file_and_a_resume_refuses_it(tmp_path, capsys,
                                                                                         name, content, why):
    run_experiment(out=tmp_path / "ana", runs=1, seed=0, progress=False)
    run_experiment(out=tmp_path / "ben", runs=1, seed=1, progress=False)
    (tmp_path / "ben" / name).write_bytes(content)  # a hand edit, a bad copy: one student's folder, not the class's
    pooled = compare([tmp_path / "ana", tmp_path / "ben"])
    assert [g.runs for g in pooled.groups] == [1, 1]
    (note,) = [n for n in pooled.notes if "ben" in n]
    assert f"skipped {tmp_path / 'ben'}: {tmp_path / 'ben' / name}: " in note and why in note
    assert main(["experiment", "run", "unit", "--runs", "1", "--seed", "1", "--no-progress",
                 "--out", str(tmp_path / "ben")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {tmp_path / 'ben' / name}: ") and why in err


def test_runs_at_temperature_0_that_repeat_each_other_are_warned_about(tmp_path, monkeypatch):
    class Greedy:
        name, seed, temperature = "greedy", 0, 0.0

        def generate(self, messages, tools):
            return LLMResponse(AssistantMessage("Paris 64°F, Tokyo 75°F"), model="greedy")

    monkeypatch.setattr("mingraph_lite.llms.local.LocalLLM", lambda *a, **kw: Greedy())
    with pytest.warns(UserWarning):
        run_experiment("local", out=tmp_path / "g", runs=3, seed=0, temperature=0, progress=False)
    pooled = compare([tmp_path / "g"])
    assert any("2 of 3 runs at temperature 0 repeat" in n for n in pooled.notes)
    assert not compare([tmp_path / "g"]).groups[0].temperature  # the row says what ran: T=0


def test_the_tested_models_table_command(tmp_path, capsys):
    run_experiment(out=tmp_path / "a", runs=2, seed=0, progress=False)
    target = tmp_path / "models.md"
    assert main(["experiment", "table", str(tmp_path / "a"), str(SHIPPED / "smollm2-135m"), "--out", str(target)]) == 0
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# Tested models") and "| model | variant | right | runs | date | commit |" in text
    assert '| local:smollm2-135m | 18 | 0/8 = 0% [0-32%] | 8 | 2026-12-01 |' in text
    row = next(line for line in text.splitlines() if line.startswith("| scripted (modelled) | 18 |"))
    assert row.split("|")[4].strip() == "2"  # runs


def test_the_committed_models_table_is_what_the_command_writes_now(tmp_path):
    committed = (SHIPPED.parent.parent / "docs" / "models.md").read_text(encoding="utf-8")
    command = committed.split("`")[1].split()
    assert command[:4] == ["python", "-m", "mingraph_lite", "experiment"]
    target = tmp_path / "models.md"
    folders = [str(SHIPPED.parent.parent / f) for f in command[5:-2]]
    assert main(["experiment", "table", *folders, "--out", str(target)]) == 0
    def rows(text):  # without the commit column: a copy outside git has none to tell
        return [line.rsplit("|", 2)[0] for line in text.split("\n\n", 2)[2].splitlines()]
    assert rows(target.read_text(encoding="utf-8")) == rows(committed)
