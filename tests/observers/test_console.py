"""ConsoleLogger: the step-by-step print a person reads along with."""

import io

import pytest

from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import (
    QUESTION,
    SYSTEM_PROMPT,
    four_round_manager,
    looping_manager,
    wrong_tokyo_manager,
)
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import StepLimitReached
from mingraph_lite.llms.base import LLMResponse
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.messages import AssistantMessage
from mingraph_lite.observers.console import ConsoleLogger

FOUR_ROUNDS = """\
[step 1]
  reply: (asks for get_weather, get_weather)   tokens in=? out=? thinking=?   [scripted]
  call get_weather {'city': 'Paris'}
  returned: 18
  call get_weather {'city': 'Tokyo'}
  returned: 24
[step 2]
  reply: (asks for to_fahrenheit)   tokens in=? out=? thinking=?   [scripted]
  call to_fahrenheit {'celsius': 18}
  returned: 64
[step 3]
  reply: (asks for to_fahrenheit)   tokens in=? out=? thinking=?   [scripted]
  call to_fahrenheit {'celsius': 24}
  returned: 75
[step 4]
  reply: 'Paris: 64°F, Tokyo: 75°F'   tokens in=? out=? thinking=?   [scripted]
[finish: answered] 'Paris: 64°F, Tokyo: 75°F'
"""


def run(llm, logger=None, **kwargs):
    return Agent(llm, weather_registry(), SYSTEM_PROMPT, observers=[logger or ConsoleLogger()], **kwargs).run(
        {"question": QUESTION})


def test_a_scripted_run_prints_step_by_step(capsys):
    run(four_round_manager())
    out = capsys.readouterr()
    assert out.out == FOUR_ROUNDS
    assert out.err == ""


def test_the_stream_is_looked_up_at_print_time(capsys):
    logger = ConsoleLogger()  # built before capture started printing: still prints to the current stdout
    capsys.readouterr()
    run(four_round_manager(), logger)
    assert capsys.readouterr().out == FOUR_ROUNDS


def test_an_explicit_stream(capsys):
    stream = io.StringIO()
    run(four_round_manager(), ConsoleLogger(stream))
    assert stream.getvalue() == FOUR_ROUNDS
    assert capsys.readouterr().out == ""


def test_thinking_and_tokens_are_shown_when_reported(capsys):
    run(wrong_tokyo_manager())
    out = capsys.readouterr().out
    assert "  thinking: Paris returned 18 and Tokyo returned 24. Tokyo is already in Fahrenheit" in out
    assert "[scripted: wrong Tokyo]" in out
    assert out.endswith("[finish: answered] 'Paris: 64°F, Tokyo: 24°F'\n")
    reply = LLMResponse(AssistantMessage("Done."), input_tokens=120, output_tokens=7, reasoning_tokens=40,
                        model="qwen3")
    run(ScriptedLLM([reply]))
    assert "  reply: 'Done.'   tokens in=120 out=7 thinking=40   [qwen3]\n" in capsys.readouterr().out


def test_long_text_is_shortened_to_the_width():
    stream = io.StringIO()
    run(ScriptedLLM(["word " * 100]), ConsoleLogger(stream, width=30))
    reply_line = stream.getvalue().splitlines()[1]
    assert reply_line.startswith("  reply: 'word word") and "...'" in reply_line
    assert len(reply_line.split("'")[1]) == 30


def test_step_limit_and_tool_failure_are_printed(capsys):
    with pytest.raises(StepLimitReached):
        run(looping_manager(), max_steps=2)
    assert capsys.readouterr().out.endswith("[finish: step limit]\n")

    registry = weather_registry()

    @registry.add
    def broken(city: str) -> str:
        """Always fails."""
        raise OSError("disk full")

    agent = Agent(ScriptedLLM([[("broken", {"city": "Paris"})]]), registry, SYSTEM_PROMPT,
                  observers=[ConsoleLogger()])
    with pytest.raises(OSError):
        agent.run({"question": QUESTION})
    out = capsys.readouterr().out
    assert "  tool failed: broken: OSError: disk full\n" in out
    assert "  returned: Error: tool failed: disk full\n" in out
    assert out.endswith("[finish: tool failed]\n")


def test_graph_nodes_are_printed(capsys):
    logger = ConsoleLogger(show_state=True)
    logger.on_node_start("fetch", {"city": "Paris"})
    logger.on_node_end("fetch", {"celsius": 18})
    assert capsys.readouterr().out == "[node fetch] state={'city': 'Paris'}\n  update: {'celsius': 18}\n"


def test_secrets_never_reach_the_console(monkeypatch):
    key = "sk-ant-api03-pastedKEY42"
    monkeypatch.setenv("ANTHROPIC_API_KEY", key)
    stream = io.StringIO()
    llm = ScriptedLLM([[("get_weather", {"city": key})], f"Your key {key} is safe with me; proxy http://u:pw1234@p:1"])
    run(llm, ConsoleLogger(stream))
    out = stream.getvalue()
    assert key not in out and "pw1234" not in out
    assert "  call get_weather {'city': '***'}\n" in out and "Your key *** is safe" in out and "http://***@p:1" in out


class ClosedPipe(io.StringIO):
    writes = 0

    def write(self, text):
        ClosedPipe.writes += 1
        raise BrokenPipeError(32, "Broken pipe")


def test_a_reader_that_went_away_ends_the_printing_quietly(caplog):
    logger = ConsoleLogger(ClosedPipe())
    assert run(four_round_manager(), logger)["answer"] == "Paris: 64°F, Tokyo: 75°F"  # the run goes on
    assert logger.closed and ClosedPipe.writes == 1  # one failed try, then silence
    assert "failed" not in caplog.text                # no listener failure logged
