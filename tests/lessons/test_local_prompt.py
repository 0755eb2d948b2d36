"""The course's view of a local model's prompt: the adapter's own text, in each model's turn format."""

from __future__ import annotations

import pytest

from lessons.local_prompt import local_prompt
from mingraph_lite import SystemMessage, UserMessage
from mingraph_lite.course.weather import weather_registry

FOLDER = [SystemMessage("You answer."), UserMessage("Paris?")]


def test_each_model_reads_the_menu_and_the_reply_format_in_its_own_turns():
    gemma = local_prompt(FOLDER, weather_registry().tools, "gemma3-270m")
    smol = local_prompt(FOLDER, weather_registry().tools, "smollm2-135m")
    assert gemma.startswith("<start_of_turn>user\nYou answer.") and gemma.endswith("<start_of_turn>model\n")
    assert smol.startswith("<|im_start|>system\nYou answer.") and smol.endswith("<|im_start|>assistant\n")
    for prompt in (gemma, smol):
        assert "functions.get_weather:" in prompt and "<your answer>" in prompt


def test_an_unknown_model_is_refused_with_the_known_names():
    with pytest.raises(ValueError, match="gemma3-270m"):
        local_prompt(FOLDER, [], "llama-7b")
