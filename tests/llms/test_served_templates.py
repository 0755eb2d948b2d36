"""The chat templates ``serve`` ships (package data), rendered without a model: what each turn shows.

Rendered here with ``jinja2``, the engine these templates are written for; llama.cpp's own Jinja reads the
same text (the loopback tests in test_local_server.py check that end to end).
"""

from __future__ import annotations

import json

import pytest

from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.llms.local import SERVED_TEMPLATES, served_template

jinja2 = pytest.importorskip("jinja2")

CALL = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
CONVERSATION = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": QUESTION},
                {"role": "assistant", "content": None, "tool_calls": [CALL]},
                {"role": "tool", "tool_call_id": "call_1", "content": "18"}]


def render(model: str, messages=CONVERSATION, tools=None) -> str:
    env = jinja2.Environment()
    env.filters["tojson"] = lambda value: json.dumps(value)
    tools = weather_registry().tools if tools is None else tools
    return env.from_string(served_template(model)).render(messages=messages, tools=tools, bos_token="<bos>",
                                                          add_generation_prompt=True)


@pytest.mark.parametrize("model", sorted(SERVED_TEMPLATES))
def test_the_menu_lists_every_tool_in_tools_tags_with_one_example_call(model):
    prompt = render(model)
    menu = prompt[prompt.index("<tools>"):prompt.index("</tools>")]
    assert [json.loads(line)["function"]["name"] for line in menu.splitlines()[1:]] == ["get_weather", "to_fahrenheit"]
    example = prompt[prompt.index("</tools>"):].split("<tool_call>")[2].split("</tool_call>")[0]
    assert json.loads(example) == {"name": "time_in", "arguments": {"place": "Oslo"}}  # other inputs, other tool


@pytest.mark.parametrize("model", sorted(SERVED_TEMPLATES))
def test_a_call_is_written_as_hermes_json_and_its_result_names_the_tool(model):
    prompt = render(model)
    assert '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>' in prompt
    assert "<tool_response>\nget_weather returned: 18\n</tool_response>" in prompt


@pytest.mark.parametrize("model", sorted(SERVED_TEMPLATES))
def test_the_template_knows_no_answer(model):
    text = served_template(model)
    assert not {"Paris", "Tokyo", "18", "64", "75", "get_weather"} & set(text.replace('"', " ").split())


def test_each_model_writes_its_own_turns():
    chatml, gemma = render("smollm2-135m"), render("gemma3-270m")
    assert chatml.startswith("<|im_start|>system\n" + SYSTEM_PROMPT) and chatml.endswith("<|im_start|>assistant\n")
    assert "<start_of_turn>" not in chatml and "<|im_start|>" not in gemma
    # Gemma has no system role; placed first, the menu is what Gemma echoes, so the question comes first.
    assert gemma.startswith(f"<bos><start_of_turn>user\n{QUESTION}\n\n{SYSTEM_PROMPT}")
    assert gemma.endswith("<start_of_turn>model\n") and gemma.count("<end_of_turn>") == 3


def test_without_tools_no_menu_is_shown():
    for model in SERVED_TEMPLATES:
        assert "<tools>" not in render(model, CONVERSATION[:2], tools=[])
