"""Experiment definitions: shipped ones run, bad ones are one sentence before any run, a variant's own
setting wins over the command line, worked examples reach (only) their variant's traces, seeds differ
per folder, and a teacher's two-variant definition goes from file to pooled table (issue 20)."""

from __future__ import annotations

import csv
import json
import textwrap
from pathlib import Path

import pytest

from mingraph_lite import LLMResponse, ReplayLLM, read_trace
from mingraph_lite.cli import main
from mingraph_lite.course.classify import classify
from mingraph_lite.course.definition import DefinitionError, load, parse, shipped_names
from mingraph_lite.course.experiments import run_experiment
from mingraph_lite.course.results_folder import read_results
from mingraph_lite.course.scripts import four_round_manager, wrong_tokyo_manager
from mingraph_lite.messages import AssistantMessage, ToolCall

GOOD = """
name = "{name}"

[[variant]]
name = "zero-shot"

[[variant]]
name = "a worked example"
examples = "london-oslo"
"""

INLINE = """
[[variant.examples]]
role = "user"
content = "How warm is Cairo in Fahrenheit?"
[[variant.examples]]
role = "assistant"
calls = [{ name = "get_weather", arguments = { city = "Cairo" } }]
"""


def write(folder: Path, text: str, name: str = "mine.toml") -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def summary(folder: Path) -> dict:
    return json.loads((folder / "summary.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ["unit", "worked-example", "units-everywhere", "finish-right"])
def test_each_shipped_definition_runs_on_the_scripted_model(tmp_path, name, capsys):
    definition = load(name)
    assert main(["experiment", "run", name, "--runs", "2", "--out", str(tmp_path), "--no-progress"]) == 0
    runs = read_results(tmp_path)
    assert sorted({r.variant for r in runs}) == sorted(v.name for v in definition.variants) and len(runs) == 2 * len(
        definition.variants)
    assert all(r.script for r in runs) and "not a real model" in capsys.readouterr().out  # labelled as modelled
    recorded = summary(tmp_path)["definition"]
    assert recorded["name"] == name and set(recorded["variants"]) == {v.name for v in definition.variants}


def test_shipped_names_and_unit_is_the_first_edition_experiment():
    assert {"unit", "worked-example", "units-everywhere", "finish-right"} <= set(shipped_names())
    unit = load("unit")
    assert [(v.name, v.weather_unit, v.messages) for v in unit.variants] == [("18", False, ()), ("18°C", True, ())]


@pytest.mark.parametrize("text, key", [
    ('name = "x"\ncolour = "red"\n[[variant]]\nname = "a"', "'colour'"),
    ('name = "x"\n[[variant]]\nname = "a"\nprompt = "hi"', "'variant[0].prompt'"),
    ('name = "x"\n[[variant]]\nname = "a"\nresults = { search_web = "18" }', "'variant[0].results.search_web'"),
    ('name = "x"\n[[variant]]\nname = "a"\nresults = { get_weather = "18 C" }', "'variant[0].results.get_weather'"),
    ('name = "x"\n[[variant]]\nname = "a"\nresults = { to_fahrenheit = "Paris: 64°F" }', "naming its input"),
    ('name = "x"\nvariant = []', "'variant'"),
    ('name = "x"', "'variant'"),
    ('name = "x"\n[[variant]]\nname = "a"\n[[variant]]\nname = "A"', "'variant[1].name'"),
    ('name = "x"\n[[variant]]\nname = "a"\nexamples = "paris-tokyo"', "'variant[0].examples'"),
    ('name = "x"\n[[variant]]\nname = "a"\nmax_steps = 0', "'variant[0].max_steps'"),
    ('name = "x"\n[[variant]]\nname = "a"\ntemperature = "warm"', "'variant[0].temperature'"),
    ('name = "x"\nquestion = "How warm is Oslo?"\n[[variant]]\nname = "a"', "'question'"),
    ('name = "x"\n[[variant]]\nname = "a"\nturn_format = "llama"', "'variant[0].turn_format'"),
    ('name = "x"\n[[variant]\n', "not valid TOML"),
])
def test_a_bad_definition_is_one_sentence_naming_file_and_key_before_any_run(tmp_path, capsys, text, key):
    path = write(tmp_path, text)
    out = tmp_path / "out"
    assert main(["experiment", "run", str(path), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err and key in err
    assert not out.exists()  # refused before any run: no folder made


@pytest.mark.parametrize("turns, why", [
    ([{"role": "tool", "content": "14"}], "no call before it"),
    ([{"role": "user", "content": "How warm is Cairo?"},
      {"role": "assistant", "calls": [{"name": "get_weather", "arguments": {"city": "Cairo"}}]},
      {"role": "assistant", "content": "Hot."}], "has no tool answer"),
    ([{"role": "user", "content": "How warm is Cairo?"},
      {"role": "assistant", "calls": [{"name": "get_weather", "arguments": {"city": "Cairo"}}]},
      {"role": "tool"}], "ends with the assistant's answer"),
    ([{"role": "user", "content": "How warm is Cairo?"},
      {"role": "assistant", "calls": [{"name": "search_web", "arguments": {"q": "Cairo"}}]}], "the task's tools"),
    ([{"role": "user", "content": "How warm is Cairo?"},
      {"role": "assistant", "calls": [{"name": "get_weather", "arguments": {"town": "Cairo"}}]},
      {"role": "tool"}, {"role": "assistant", "content": "31"}], "refused by the tool"),
    ([{"role": "user", "content": "How warm is Paris?"}, {"role": "assistant", "content": "64°F"}],
     "gives the question's answer away"),
    ([{"role": "narrator", "content": "Once"}], "needs a role"),
])
def test_a_worked_example_that_is_not_a_valid_conversation_is_refused(turns, why):
    text = 'name = "x"\n[[variant]]\nname = "a"\nexamples = ' + json.dumps(turns).replace('": ', '" = ')
    with pytest.raises(DefinitionError, match=why) as caught:
        parse(text, "class.toml")
    assert str(caught.value).startswith("class.toml: key 'variant[0].examples")


def test_an_inline_example_gets_the_variants_own_tool_answers():
    text = 'name = "x"\n[[variant]]\nname = "units"\nresults = { get_weather = "18°C" }\n' + INLINE + \
        '[[variant.examples]]\nrole = "tool"\n[[variant.examples]]\nrole = "assistant"\ncontent = "Cairo: 88°F"\n'
    [variant] = parse(text, "class.toml").variants
    assert variant.examples == "inline" and variant.messages[2].content == "31°C"


def test_a_worked_example_reaches_its_variants_traces_marked_and_no_other(tmp_path):
    run_experiment(out=tmp_path, experiment="worked-example", runs=1, seed=4, progress=False)
    by_variant = {r.variant: r for r in read_results(tmp_path)}
    first = read_trace(tmp_path / by_variant["worked example"].trace)[0]
    marked = [m for m in first["messages"] if m.get("example")]
    assert len(marked) == 8 and {m["example"] for m in marked} == {"london-oslo"}
    assert first["messages"][-1] == {"role": "user", "content": load("unit").question}  # the question, unmarked
    plain = read_trace(tmp_path / by_variant["zero-shot"].trace)[0]["messages"]
    assert [m["role"] for m in plain] == ["system", "user"]
    assert by_variant["worked example"].examples == "london-oslo" and by_variant["zero-shot"].examples == ""
    ReplayLLM.from_trace(tmp_path / by_variant["worked example"].trace)  # the marks do not stop a replay


def test_a_variants_own_setting_wins_over_the_command_line(tmp_path):
    path = write(tmp_path, 'name = "ceiling"\n[[variant]]\nname = "short"\nmax_steps = 2\n'
                           '[[variant]]\nname = "default"')
    out = tmp_path / "out"
    assert main(["experiment", "run", str(path), "--max-steps", "5", "--seed", "0", "--runs", "3", "--out", str(out),
                 "--no-progress"]) == 0
    with (out / "results.csv").open(encoding="utf-8") as handle:
        rows = {r["variant"]: json.loads(r["settings"]) for r in csv.DictReader(handle)}
    assert rows["short"]["max_steps"] == 2 and rows["default"]["max_steps"] == 5
    variants = summary(out)["definition"]["variants"]
    assert variants["short"]["max_steps"] == 2 and variants["default"]["system_prompt"].startswith("You answer")
    for r in read_results(out):  # the ceiling was applied, not just recorded
        steps = [e for e in read_trace(out / r.trace) if e["event"] == "step_start"]
        assert len(steps) <= (2 if r.variant == "short" else 5)


NAMED = 'results = { get_weather = "Paris: 18°C", to_fahrenheit = "18°C = 64.4°F" }\n'


def test_named_result_forms_answer_with_their_input_in_examples_and_runs():
    """Results that name their input: get_weather says which city, to_fahrenheit which Celsius number."""
    text = 'name = "x"\n[[variant]]\nname = "named"\n' + NAMED + 'examples = "london-oslo"\n'
    [variant] = parse(text, "class.toml").variants
    assert variant.results == {"get_weather": "Paris: 18°C", "to_fahrenheit": "18°C = 64.4°F"}
    assert [m.content for m in variant.messages if m.role == "tool"] == ["London: 14°C", "Oslo: 7°C", "14°C = 57°F",
                                                                          "7°C = 45°F"]  # the example shows them too
    tools = variant.registry()
    for name, args, answer in (("get_weather", {"city": "tokyo"}, "Tokyo: 24°C"),
                               ("to_fahrenheit", {"celsius": 18.0}, "18°C = 64°F")):
        assert tools.answer(ToolCall("c", name, args)).content == answer
    half = parse('name = "x"\n[[variant]]\nname = "h"\nresults = { to_fahrenheit = "18°C = 64.4°F" }', "c.toml")
    assert half.variants[0].registry().answer(ToolCall("c", "get_weather", {"city": "Paris"})).content == "18"
    assert load("finish-right").digest == "2917ae0929ee"  # the digest of a variant naming nothing is as recorded


@pytest.mark.parametrize("manager, outcome, why", [
    (four_round_manager, "right", "with to_fahrenheit"),
    (wrong_tokyo_manager, "wrong final reasoning", "Tokyo 24°F"),
])
def test_the_first_wrong_line_reads_named_results(tmp_path, manager, outcome, why):
    path = write(tmp_path, 'name = "x"\n[[variant]]\nname = "named"\n' + NAMED)
    with pytest.warns(UserWarning, match="its own settings"):
        [run] = run_experiment(manager(), out=tmp_path / "o", experiment=path, runs=1, seed=0, progress=False).runs
    returned = [e["content"] for e in read_trace(tmp_path / "o" / run.trace) if e["event"] == "tool_return"]
    assert "Paris: 18°C" in returned and "18°C = 64°F" in returned  # the run really saw the named forms
    assert run.outcome == outcome and why in run.why


def test_a_converted_number_read_from_a_named_result_is_still_caught():
    events = [{"event": "tool_call", "id": "a", "name": "get_weather", "arguments": {"city": "Paris"}},
              {"event": "tool_return", "tool_call_id": "a", "content": "Paris: 18°C"},
              {"event": "tool_call", "id": "b", "name": "to_fahrenheit", "arguments": {"celsius": 18}},
              {"event": "tool_return", "tool_call_id": "b", "content": "18°C = 64°F"},
              {"event": "tool_call", "id": "c", "name": "to_fahrenheit", "arguments": {"celsius": 64}}]
    verdict = classify(events)
    assert (verdict.outcome, verdict.line) == ("wrong slip", 5) and "Fahrenheit already" in verdict.why


@pytest.mark.parametrize("line, llm, words", [
    (NAMED, "scripted", "no reported run sets its named results"),
    ('system_prompt = "Be brief."', "scripted", "cannot model variant 'a': no reported run sets its system_prompt"),
    ("temperature = 0.2", "scripted", "sets its temperature"),
    ('turn_format = "gemma"', "ollama:qwen3:0.6b", "only a local model writes itself"),
])
def test_a_setting_the_model_cannot_honour_is_refused_before_any_run(tmp_path, capsys, line, llm, words):
    path = write(tmp_path, f'name = "x"\n[[variant]]\nname = "a"\n{line}')
    assert main(["experiment", "run", str(path), "--llm", llm, "--out", str(tmp_path / "o"), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1 and not (tmp_path / "o").exists()


def test_without_a_seed_each_folder_draws_its_own_and_keeps_it_on_resume(tmp_path):
    run_experiment(out=tmp_path / "a", runs=1, progress=False)
    run_experiment(out=tmp_path / "b", runs=1, progress=False)
    seeds = [summary(tmp_path / f)["settings"]["seed"] for f in "ab"]
    assert seeds[0] != seeds[1]
    more = run_experiment(out=tmp_path / "a", runs=3, progress=False)  # resumed: the recorded seed, not a new one
    assert {r.seed for r in more.runs} == {seeds[0], seeds[0] + 1, seeds[0] + 2}


def test_unit_stays_an_alias_of_run_unit(tmp_path):
    assert main(["experiment", "unit", "--runs", "1", "--seed", "3", "--out", str(tmp_path / "u"),
                 "--no-progress"]) == 0
    assert main(["experiment", "run", "unit", "--runs", "1", "--seed", "3", "--out", str(tmp_path / "r"),
                 "--no-progress"]) == 0
    strip = [[(r.variant, r.seed, r.outcome, r.script) for r in read_results(tmp_path / f)] for f in "ur"]
    assert strip[0] == strip[1] and summary(tmp_path / "u")["definition"]["name"] == "unit"


def test_a_teacher_writes_a_definition_runs_it_twice_and_pools_one_table(tmp_path, capsys, monkeypatch):
    """Issue 20's "done when": file -> two students' folders (two models) -> one table, CSV and figure."""
    class Local:  # stands in for the local model: no real model runs in tests
        seed = temperature = 0

        def generate(self, messages, tools):
            return LLMResponse(AssistantMessage("Paris 64°F, Tokyo 75°F"), model="smollm2-135m")

    monkeypatch.setattr("mingraph_lite.llms.local.LocalLLM", lambda *a, **kw: Local())
    path = write(tmp_path, GOOD.format(name="does-an-example-help"))
    monkeypatch.chdir(tmp_path)
    for student, llm in (("ana", "scripted"), ("ben", "local")):  # no --seed: each draws their own
        assert main(["experiment", "run", str(path), "--llm", llm, "--runs", "3", "--workers", "2", "--out",
                     f"class/{student}", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["experiment", "compare", "class/ana", "class/ben"]) == 0
    out = capsys.readouterr().out
    assert "Wilson" in out and "ana 3" in out and "ben 3" in out
    assert "table: class/comparison.csv" in out and str(tmp_path) not in out  # a saved printout names no home folder
    rows = list(csv.DictReader((tmp_path / "class" / "comparison.csv").open(encoding="utf-8")))
    assert {(r["model"], r["variant"], r["of"]) for r in rows} == {
        (model, variant, "3") for model in ("scripted (modelled)", "local:smollm2-135m")
        for variant in ("zero-shot", "a worked example")}
    assert (tmp_path / "class" / "comparison.png").stat().st_size > 1000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["class", "mine.toml"]  # nothing in the current folder


def test_a_variants_turn_format_temperature_prompt_and_window_reach_the_local_model(tmp_path, monkeypatch):
    from mingraph_lite.llms.local import CHATML, GEMMA

    seen = []

    class Local:  # stands in for LocalLLM: what each run's first call was given
        seed = temperature = 0
        turns = CHATML

        def generate(self, messages, tools):
            seen.append((self.turns, self.temperature, messages[0].content, len(messages)))
            return LLMResponse(AssistantMessage("Paris 64°F, Tokyo 75°F"), model="smollm2-135m")

    monkeypatch.setattr("mingraph_lite.llms.local.LocalLLM", lambda *a, **kw: Local())
    path = write(tmp_path, 'name = "t"\n[[variant]]\nname = "tuned"\nturn_format = "gemma"\ntemperature = 0.2\n'
                           'system_prompt = "Be brief."\n[[variant]]\nname = "windowed"\nexamples = "london-oslo"\n'
                           'last_n = 1\n')
    with pytest.warns(UserWarning, match="one run at a time"):
        run_experiment("local", out=tmp_path / "o", experiment=path, runs=1, seed=0, temperature=0.9, progress=False)
    assert seen == [(GEMMA, 0.2, "Be brief.", 2), (CHATML, 0.9, load("unit").variants[0].system_prompt, 2)]


@pytest.mark.parametrize("content, words", [
    (b"name = \"x\"\n\xcc\xff\n", "not UTF-8 text"),
    (b"name = \"x\"\n# " + b"a" * 1_000_001 + b"\n", "too large for a definition file"),
])
def test_a_file_that_is_not_a_definition_is_refused_naming_it_without_reading_it_whole(tmp_path, capsys, content,
                                                                                     words):
    path = tmp_path / "odd.toml"
    path.write_bytes(content)
    assert main(["experiment", "run", str(path), "--runs", "1", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: ") and words in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()  # refused before any run
