"""A bare install works, and a missing extra is one sentence naming the extra to install.

Each test hides an optional library (``sys.modules[name] = None`` makes ``import name`` fail) and uses
the part that needs it through its public path.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mingraph_lite import (
    Agent,
    CardTimeline,
    EventRecorder,
    FolderView,
    LLMUnavailable,
    OllamaLLM,
    OpenAILLM,
    UserMessage,
    plot_run,
)
from mingraph_lite.course.experiment_cli import experiment_main
from mingraph_lite.course.experiments import run_experiment
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import weather_registry


def hide(monkeypatch, *names: str) -> None:
    for name in names:
        for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            monkeypatch.delitem(sys.modules, loaded)
        monkeypatch.setitem(sys.modules, name, None)


def test_ollama_without_its_client_names_the_extra(monkeypatch):
    hide(monkeypatch, "ollama")
    monkeypatch.setenv("MINGRAPH_REAL_MODELS", "on")  # the import fails before any connection
    with pytest.raises(LLMUnavailable, match=r"pip install 'mingraph-lite\[ollama\]'"):
        OllamaLLM("qwen3:0.6b").generate([UserMessage("hi")], [])


def test_openai_without_its_client_names_the_extra(monkeypatch):
    hide(monkeypatch, "openai")
    monkeypatch.setenv("MINGRAPH_REAL_MODELS", "on")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with pytest.raises(LLMUnavailable, match=r"pip install 'mingraph-lite\[openai\]'"):
        OpenAILLM("gpt-5-mini").generate([UserMessage("hi")], [])


def test_the_local_model_without_its_runtime_names_the_extra(monkeypatch):
    from mingraph_lite.llms.local import start_runtime

    hide(monkeypatch, "xllamacpp")
    with pytest.raises(LLMUnavailable, match=r"pip install 'mingraph-lite\[local\]'"):
        start_runtime(Path("model.gguf"), n_ctx=512, n_parallel=1, n_threads=None)


def test_a_widget_view_without_ipywidgets_names_the_extra(monkeypatch):
    hide(monkeypatch, "ipywidgets")
    with pytest.raises(ImportError, match=r"pip install 'mingraph-lite\[widgets\]'"):
        FolderView(widget=True)


def _recorded() -> EventRecorder:
    recorder = EventRecorder()
    Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
    return recorder


def test_a_plot_without_matplotlib_names_the_extra(monkeypatch):
    recorder = _recorded()
    hide(monkeypatch, "matplotlib")
    with pytest.raises(ImportError, match=r"pip install 'mingraph-lite\[plots\]'"):
        plot_run(recorder)


def test_a_timeline_snapshot_without_matplotlib_names_the_extra(monkeypatch):
    view = CardTimeline(widget=False)
    Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[view]).run({"question": QUESTION})
    hide(monkeypatch, "matplotlib")
    with pytest.raises(ImportError, match=r"pip install 'mingraph-lite\[plots\]'"):
        view.snapshot(png=True)


def test_an_experiment_without_tqdm_prints_plain_progress_lines(monkeypatch, tmp_path, capsys):
    hide(monkeypatch, "tqdm")
    run_experiment("scripted", out=tmp_path / "unit", runs=1, progress=True)
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("unit experiment: ")]
    assert [line.split(";")[0] for line in lines] == ["unit experiment: 1/2 runs", "unit experiment: 2/2 runs"]


def test_an_experiment_without_matplotlib_writes_its_table_and_csv_and_names_the_extra(monkeypatch, tmp_path, capsys):
    hide(monkeypatch, "matplotlib", "tqdm")
    out = tmp_path / "unit"
    assert experiment_main(["unit", "--runs", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert (out / "results.csv").is_file() and not (out / "outcomes.png").exists()
    assert printed.splitlines()[1].startswith("variant  runs  right")  # the table
    assert printed.splitlines()[-1] == "figure: not drawn, matplotlib is missing: pip install 'mingraph-lite[plots]'"
    assert experiment_main(["compare", str(out), "--figure", str(tmp_path / "c.png")]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("pip install 'mingraph-lite[plots]'")
