"""The scripted managers: the article's runs, each one saying it is scripted."""

import pytest

from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import (
    QUESTION,
    SYSTEM_PROMPT,
    WRONG_TOKYO_THINKING,
    four_round_manager,
    looping_manager,
    make_llm,
    number,
    results,
    three_round_manager,
    wrong_tokyo_manager,
)
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import StepLimitReached
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.messages import ToolMessage
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.tools import ToolRegistry

MANAGERS = [four_round_manager, three_round_manager, wrong_tokyo_manager, looping_manager]


def test_question_and_prompt():
    assert "Paris" in QUESTION and "Tokyo" in QUESTION and "Fahrenheit" in QUESTION
    assert "get_weather" in SYSTEM_PROMPT and "to_fahrenheit" in SYSTEM_PROMPT


def test_make_llm_passes_sampling_through(monkeypatch):
    monkeypatch.delenv("MINGRAPH_LLM", raising=False)
    assert make_llm(temperature=0.2).name == "scripted: four rounds"
    assert make_llm("ollama:qwen3", temperature=0.2, seed=3).options == {"temperature": 0.2, "seed": 3}


@pytest.mark.parametrize("manager", MANAGERS)
def test_every_manager_says_it_is_scripted(manager):
    llm = manager()
    assert isinstance(llm, ScriptedLLM)
    assert "scripted" in llm.name and "scripted" in repr(llm)
    recorder = EventRecorder()
    agent = Agent(llm, weather_registry(), SYSTEM_PROMPT, observers=[recorder], max_steps=5)
    if manager is looping_manager:
        with pytest.raises(StepLimitReached):
            agent.run({"question": QUESTION})
    else:
        agent.run({"question": QUESTION})
    replies = recorder.of("model_reply")
    assert replies and all("scripted" in r["model"] for r in replies)
    assert all(r["input_tokens"] is None and r["output_tokens"] is None for r in replies)


@pytest.mark.parametrize("manager, calls, answer", [
    (four_round_manager, 4, "Paris: 64°F, Tokyo: 75°F"),
    (three_round_manager, 3, "Paris: 64°F, Tokyo: 75°F"),
    (wrong_tokyo_manager, 3, "Paris: 64°F, Tokyo: 24°F"),
])
def test_runs_and_answers(manager, calls, answer):
    llm = manager()
    assert Agent(llm, weather_registry(), SYSTEM_PROMPT).run({"question": QUESTION}) == {"answer": answer}
    assert len(llm.calls) == calls and llm.remaining == 0


def test_unit_in_result_gives_the_same_answers():
    for manager in (four_round_manager, three_round_manager):
        agent = Agent(manager(), weather_registry(unit_in_result=True), SYSTEM_PROMPT)
        assert agent.run({"question": QUESTION}) == {"answer": "Paris: 64°F, Tokyo: 75°F"}


def test_the_managers_read_their_numbers_from_the_folder():
    """Only the shape of a run is scripted: change the tool and the answer follows."""
    registry = ToolRegistry()

    @registry.add
    def get_weather(city: str) -> str:
        """Made-up temperatures."""
        return {"Paris": "10", "Tokyo": "-5"}[city]

    @registry.add
    def to_fahrenheit(celsius: float) -> float:
        """Exact conversion."""
        return celsius * 9 / 5 + 32

    for manager in (four_round_manager, three_round_manager):
        assert Agent(manager(), registry, SYSTEM_PROMPT).run({"question": QUESTION}) == {
            "answer": "Paris: 50°F, Tokyo: 23°F"}
    assert Agent(wrong_tokyo_manager(), registry, SYSTEM_PROMPT).run({"question": QUESTION}) == {
        "answer": "Paris: 50°F, Tokyo: -5°F"}


def test_wrong_tokyo_carries_its_thinking():
    recorder = EventRecorder()
    agent = Agent(wrong_tokyo_manager(), weather_registry(), SYSTEM_PROMPT, observers=[recorder])
    agent.run({"question": QUESTION})
    assert recorder.of("model_reply")[-1]["reasoning"] == WRONG_TOKYO_THINKING
    assert all(r["reasoning"] is None for r in recorder.of("model_reply")[:-1])


def test_looping_manager_never_answers():
    llm = looping_manager(rounds=7)
    with pytest.raises(StepLimitReached):
        Agent(llm, weather_registry(), SYSTEM_PROMPT, max_steps=7).run({"question": QUESTION})
    assert len(llm.calls) == 7


@pytest.mark.parametrize("text, value", [("18", 18), ("18°C", 18), ("64.4", 64.4), ("-5", -5),
                                         ("it is 7 now", 7)])
def test_number(text, value):
    assert number(text) == value and type(number(text)) is type(value)


def test_number_without_one():
    with pytest.raises(ValueError, match="no number"):
        number("sunny")


def test_results_skips_errors_and_other_tools():
    folder = [ToolMessage("18", "a", name="get_weather"), ToolMessage("Error: bad", "b", name="get_weather",
                                                                      is_error=True),
              ToolMessage("64", "c", name="to_fahrenheit")]
    assert results(folder, "get_weather") == ["18"]
    assert results(folder, "to_fahrenheit") == ["64"]


def test_make_llm_defaults_to_the_four_round_manager(monkeypatch):
    monkeypatch.delenv("MINGRAPH_LLM", raising=False)
    llm = make_llm()
    assert isinstance(llm, ScriptedLLM) and llm.name == four_round_manager().name
    assert make_llm("scripted").name == llm.name


def test_make_llm_reads_the_environment_and_an_explicit_spec_wins(monkeypatch):
    monkeypatch.setenv("MINGRAPH_LLM", "ollama:qwen3:0.6b")
    assert make_llm().name == "ollama:qwen3:0.6b"
    assert make_llm("scripted").name == "scripted: four rounds"
    monkeypatch.setenv("MINGRAPH_LLM", "nonsense")
    with pytest.raises(ValueError, match=r"unknown model spec 'nonsense' \(given to \$MINGRAPH_LLM\)"):
        make_llm()


def test_make_llm_has_one_public_path_the_course_s():
    import mingraph_lite

    assert make_llm.__module__ == "mingraph_lite.course.scripts" and not hasattr(mingraph_lite, "make_llm")
