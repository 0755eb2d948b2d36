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


def test_no_caller_asks_a_model_for_more_than_the_contract():
    """``getattr(llm, "name", ...)`` and friends hide a model that breaks the contract: read ``llm.name``."""
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parents[2] / "mingraph_lite"
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("getattr", "hasattr") and node.args
                    and ast.unparse(node.args[0]).split(".")[-1] in ("llm", "model", "manager")):
                found.append(f"{path.relative_to(package)}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "read the model through the LLM protocol instead: " + "; ".join(found)
