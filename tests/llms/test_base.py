"""The model contract: ``LLM`` (a name and generate) and the ``LLMResponse`` envelope."""

from __future__ import annotations

import json

from mingraph_lite.llms.base import LLM, LLMResponse
from mingraph_lite.messages import AssistantMessage, ToolCall


class Named:
    name = "a model"

    def generate(self, messages, tools):
        return LLMResponse(AssistantMessage("hi"))


class Nameless:
    def generate(self, messages, tools):
        return LLMResponse(AssistantMessage("hi"))


class WithProperty(Nameless):
    @property
    def name(self) -> str:
        return "computed"


def test_the_contract_is_a_name_and_generate():
    assert isinstance(Named(), LLM) and isinstance(WithProperty(), LLM)
    assert not isinstance(Nameless(), LLM)  # a model that cannot say who answers breaks the contract
    assert not isinstance(object(), LLM)


def test_the_envelope_round_trips_through_json():
    response = LLMResponse(AssistantMessage("", (ToolCall("c1", "get_weather", {"city": "Paris"}),)),
                           input_tokens=12, output_tokens=None, reasoning="look it up", reasoning_tokens=4,
                           model="ollama:qwen3:0.6b")
    assert LLMResponse.from_dict(json.loads(json.dumps(response.to_dict()))) == response


def test_an_envelope_from_an_older_trace_fills_what_it_lacks_with_none():
    old = LLMResponse.from_dict({"message": {"content": "Paris: 64°F"}})
    assert old == LLMResponse(AssistantMessage("Paris: 64°F"))
