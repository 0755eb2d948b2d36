"""ToolRegistry: schemas from signatures, strict checks on the model's tool calls, nothing evaluated."""

import json
import math
import os
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mingraph_lite.errors import ToolArgsError
from mingraph_lite.messages import ToolCall, ToolMessage
from mingraph_lite.tools import Tool, ToolRegistry


def to_fahrenheit(celsius: float) -> int:
    """Convert Celsius to Fahrenheit.

    Args:
        celsius: The temperature in degrees Celsius.
    """
    return round(celsius * 9 / 5 + 32)


def repeat(word: str, times: int = 2, style: Literal["plain", "loud"] = "plain") -> str:
    """Repeat a word.

    Longer description on a second line.

    Args:
        word: The word to repeat.
        times (int): How many times.
    """
    text = " ".join([word] * times)
    return text.upper() if style == "loud" else text


def make_registry() -> ToolRegistry:
    registry = ToolRegistry()
    registry.add(to_fahrenheit)
    registry.add(repeat)
    return registry


def call(name, arguments, id="call_1") -> ToolCall:
    return ToolCall(id=id, name=name, arguments=arguments)


# --- the schema -----------------------------------------------------------------------------------------

def test_schema_from_signature_hints_and_docstring():
    specs = {s["function"]["name"]: s for s in make_registry().tools}
    assert set(specs) == {"to_fahrenheit", "repeat"}
    spec = specs["to_fahrenheit"]
    assert spec["type"] == "function"
    fn = spec["function"]
    assert fn["description"] == "Convert Celsius to Fahrenheit."
    params = fn["parameters"]
    assert params["type"] == "object"
    assert params["required"] == ["celsius"]
    assert params["properties"]["celsius"]["type"] == "number"
    assert params["properties"]["celsius"]["description"] == "The temperature in degrees Celsius."
    assert params.get("additionalProperties") is False
    json.dumps(specs)  # providers take these as JSON


def test_schema_defaults_are_optional_and_literal_is_an_enum():
    spec = next(s for s in make_registry().tools if s["function"]["name"] == "repeat")["function"]
    assert spec["description"] == "Repeat a word. Longer description on a second line."
    props = spec["parameters"]["properties"]
    assert spec["parameters"]["required"] == ["word"]
    assert props["word"] == {"type": "string", "description": "The word to repeat."}
    assert props["times"]["type"] == "integer" and props["times"]["default"] == 2
    assert props["times"]["description"] == "How many times."
    assert props["style"]["enum"] == ["plain", "loud"]
    assert all("title" not in p for p in props.values())


def test_registry_names_order_and_membership():
    registry = make_registry()
    assert registry.names == ["to_fahrenheit", "repeat"]
    assert "repeat" in registry and "eval" not in registry
    assert len(registry) == 2
    assert "to_fahrenheit" in repr(registry)


def test_decorator_use_keeps_the_function():
    registry = ToolRegistry()

    @registry.add
    def shout(text: str) -> str:
        """Shout it."""
        return text.upper()

    @registry.add(name="whisper")
    def quiet(text: str) -> str:
        """Whisper it."""
        return text.lower()

    assert shout("a") == "A" and quiet("B") == "b"  # the decorator returns the plain function
    assert registry.names == ["shout", "whisper"]
    assert registry.run(call("whisper", {"text": "HI"})).content == "hi"


def test_registration_mistakes_name_the_fix():
    registry = make_registry()
    with pytest.raises(ValueError, match="already registered"):
        registry.add(to_fahrenheit)

    def no_doc(x: int) -> int:
        return x

    with pytest.raises(ValueError, match="docstring"):
        registry.add(no_doc)

    def no_hint(x) -> int:
        """Has no hint."""
        return x

    with pytest.raises(TypeError, match="type hint"):
        registry.add(no_hint)

    def star(*values: int) -> int:
        """Star args."""
        return 0

    with pytest.raises(TypeError, match=r"\*args"):
        registry.add(star)
    with pytest.raises(TypeError):
        Tool.from_function("not a function")


# --- running and checking tool calls ---------------------------------------------------------------------------

def test_run_returns_an_answer_slip_with_the_same_ticket():
    result = make_registry().run(call("to_fahrenheit", {"celsius": 18}, id="call-7"))
    assert result == ToolMessage("64", tool_call_id="call-7", name="to_fahrenheit")


def test_non_string_results_are_json():
    registry = ToolRegistry()

    @registry.add
    def info(city: str) -> dict:
        """Everything about a city."""
        return {"city": city, "celsius": 18, "sunny": True}

    assert json.loads(registry.run(call("info", {"city": "Paris"})).content) == {
        "city": "Paris", "celsius": 18, "sunny": True}


def test_raw_json_text_arguments_are_parsed():
    assert make_registry().run(call("to_fahrenheit", '{"celsius": 24}')).content == "75"
    assert make_registry().validate(call("repeat", '{"word": "hi", "style": "loud"}')) == {
        "word": "hi", "times": 2, "style": "loud"}


def test_int_is_accepted_where_a_float_is_due():
    assert make_registry().validate(call("to_fahrenheit", {"celsius": 18})) == {"celsius": 18}


@pytest.mark.parametrize("value", ["18", "eighteen", True, False, None, [18], {"c": 18}])
def test_string_bool_or_other_where_a_number_is_due_is_refused(value):
    with pytest.raises(ToolArgsError) as info:
        make_registry().run(call("to_fahrenheit", {"celsius": value}))
    text = str(info.value)
    assert "celsius" in text and "number" in text


@pytest.mark.parametrize("value", [True, 2.5, "3"])
def test_bool_float_or_string_where_an_int_is_due_is_refused(value):
    with pytest.raises(ToolArgsError, match="times"):
        make_registry().run(call("repeat", {"word": "a", "times": value}))


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_non_finite_floats_are_refused(value):
    with pytest.raises(ToolArgsError, match="finite"):
        make_registry().run(call("to_fahrenheit", {"celsius": value}))


@pytest.mark.parametrize("text", ['{"celsius": NaN}', '{"celsius": Infinity}', '{"celsius": -Infinity}',
                                  '{"celsius": 1e999}'])
def test_non_finite_numbers_in_json_text_are_refused(text):
    with pytest.raises(ToolArgsError, match="finite"):
        make_registry().run(call("to_fahrenheit", text))


def test_non_finite_inside_a_list_is_refused():
    registry = ToolRegistry()

    @registry.add
    def total(values: list[float]) -> float:
        """Add numbers."""
        return sum(values)

    assert registry.run(call("total", {"values": [1, 2.5]})).content == "3.5"
    with pytest.raises(ToolArgsError, match="finite"):
        registry.run(call("total", '{"values": [1, NaN]}'))


@pytest.mark.parametrize("text", ['{"celsius": 18', "celsius=18", "{'celsius': 18}", "18)"])
def test_malformed_json_names_the_problem_and_shows_the_shape(text):
    with pytest.raises(ToolArgsError) as info:
        make_registry().run(call("to_fahrenheit", text))
    message = str(info.value)
    assert "not valid JSON" in message and '"celsius"' in message


@pytest.mark.parametrize("text", ["[18]", "18", '"celsius"', "null"])
def test_json_that_is_not_an_object_is_refused(text):
    with pytest.raises(ToolArgsError, match="JSON object"):
        make_registry().run(call("to_fahrenheit", text))


def test_missing_argument_is_named():
    with pytest.raises(ToolArgsError, match="missing argument 'celsius'"):
        make_registry().run(call("to_fahrenheit", {}))


def test_extra_argument_is_named():
    with pytest.raises(ToolArgsError, match="unexpected argument 'unit'"):
        make_registry().run(call("to_fahrenheit", {"celsius": 18, "unit": "C"}))


def test_literal_outside_its_choices_is_refused():
    with pytest.raises(ToolArgsError, match="style"):
        make_registry().run(call("repeat", {"word": "a", "style": "whisper"}))


def test_unknown_tool_names_the_valid_options():
    with pytest.raises(ToolArgsError) as info:
        make_registry().run(call("get_forecast", {"city": "Paris"}))
    assert "get_forecast" in str(info.value)
    assert "to_fahrenheit" in str(info.value) and "repeat" in str(info.value)


@pytest.mark.parametrize("name", ["__import__('os').system('touch PWNED')", "eval", "exec('x=1')",
                                  "to_fahrenheit()", "to_fahrenheit; repeat", "__class__", "run", "add"])
def test_names_from_the_model_are_looked_up_never_evaluated(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ToolArgsError, match="unknown tool"):
        make_registry().run(call(name, {}))
    assert os.listdir(tmp_path) == []


def test_argument_text_is_parsed_as_json_never_evaluated(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ToolArgsError):
        make_registry().run(call("to_fahrenheit", "{'celsius': __import__('os').mkdir('PWNED')}"))
    with pytest.raises(ToolArgsError):
        make_registry().run(call("to_fahrenheit", {"celsius": "__import__('os').mkdir('PWNED')"}))
    assert os.listdir(tmp_path) == []


def test_a_tools_own_exception_propagates_unchanged():
    failure = ZeroDivisionError("the tool itself broke")
    registry = ToolRegistry()

    @registry.add
    def fragile(x: int) -> int:
        """Always fails."""
        raise failure

    with pytest.raises(ZeroDivisionError) as info:
        registry.run(call("fragile", {"x": 1}))
    assert info.value is failure


def test_a_tool_may_raise_tool_args_error_itself():
    registry = ToolRegistry()

    @registry.add
    def pick(city: str) -> str:
        """Pick a city."""
        raise ToolArgsError(f"no data for {city!r}; known cities: Paris")

    with pytest.raises(ToolArgsError, match="known cities: Paris"):
        registry.run(call("pick", {"city": "Atlantis"}))


# --- properties ---------------------------------------------------------------------------------------------

@settings(deadline=None)  # a busy CI machine must not turn slowness into a failure
@given(st.integers(-10**6, 10**6) | st.floats(-1e6, 1e6, allow_nan=False))
def test_any_finite_number_is_accepted_and_converted(celsius):
    assert make_registry().run(call("to_fahrenheit", {"celsius": celsius})).content == str(
        round(celsius * 9 / 5 + 32))


@settings(deadline=None)  # a busy CI machine must not turn slowness into a failure
@given(st.text() | st.booleans() | st.none() | st.lists(st.integers(), max_size=2))
def test_nothing_but_a_number_is_accepted_for_a_number(value):
    with pytest.raises(ToolArgsError):
        make_registry().run(call("to_fahrenheit", {"celsius": value}))


@settings(deadline=None)  # a busy CI machine must not turn slowness into a failure
@given(st.text().filter(lambda name: name not in ("to_fahrenheit", "repeat")))
def test_any_other_name_is_unknown_and_lists_the_menu(name):
    with pytest.raises(ToolArgsError) as info:
        make_registry().run(call(name, {"celsius": 1}))
    assert "to_fahrenheit, repeat" in str(info.value)


@settings(deadline=None)  # a busy CI machine must not turn slowness into a failure
@given(st.text())
def test_any_argument_text_either_runs_or_is_a_tool_args_error(text):
    try:
        result = make_registry().run(call("to_fahrenheit", text))
    except ToolArgsError as e:
        assert str(e)
    else:
        assert float(result.content) == round(json.loads(text)["celsius"] * 9 / 5 + 32)


@settings(deadline=None)  # a busy CI machine must not turn slowness into a failure
@given(st.dictionaries(st.text(min_size=1).filter(lambda k: k != "celsius"), st.integers(), min_size=1))
def test_any_extra_argument_is_refused_by_name(extra):
    with pytest.raises(ToolArgsError, match="unexpected argument"):
        make_registry().run(call("to_fahrenheit", {"celsius": 1, **extra}))


def test_optional_argument_accepts_none():
    registry = ToolRegistry()

    @registry.add
    def greet(name: str | None = None) -> str:
        """Say hello."""
        return f"hello {name or 'you'}"

    assert registry.run(call("greet", {})).content == "hello you"
    assert registry.run(call("greet", {"name": None})).content == "hello you"
    assert registry.run(call("greet", {"name": "Ada"})).content == "hello Ada"
