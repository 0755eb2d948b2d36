"""The running example's tools, on fixed teaching data."""

import json
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mingraph_lite.course.weather import (
    WEATHER,
    get_weather,
    lookup,
    make_get_weather,
    to_fahrenheit,
    weather_registry,
)
from mingraph_lite.errors import ToolArgsError
from mingraph_lite.messages import ToolCall


def test_the_teaching_data():
    assert WEATHER["Paris"] == {"celsius": 18, "conditions": "partly cloudy"}
    assert WEATHER["Tokyo"]["celsius"] == 24
    assert len(WEATHER) >= 4
    assert all(isinstance(r["celsius"], int) and r["conditions"] for r in WEATHER.values())
    data = resources.files("mingraph_lite.course").joinpath("data/weather.json")
    on_disk = json.loads(data.read_text("utf-8"))
    assert on_disk["cities"] == WEATHER


def test_both_result_styles():
    assert get_weather("Paris") == "18"
    assert get_weather("Tokyo") == "24"
    assert make_get_weather(unit_in_result=True)("Paris") == "18°C"
    assert make_get_weather(unit_in_result=True)("Tokyo") == "24°C"
    assert make_get_weather()("Tokyo") == "24"


def test_city_names_are_matched_loosely():
    assert get_weather("  paris ") == "18"
    assert lookup("NEW YORK") == {"city": "New York", **WEATHER["New York"]}


def test_unknown_city_is_a_tool_args_error_listing_the_cities():
    with pytest.raises(ToolArgsError) as info:
        get_weather("Atlantis")
    assert "Atlantis" in str(info.value)
    assert all(city in str(info.value) for city in WEATHER)


@pytest.mark.parametrize("celsius, fahrenheit", [(18, 64), (24, 75), (0, 32), (100, 212), (-40, -40),
                                                 (37, 99)])
def test_to_fahrenheit(celsius, fahrenheit):
    assert to_fahrenheit(celsius) == fahrenheit


@settings(deadline=None)  # a busy CI machine must not turn slowness into a failure
@given(st.integers(-273, 1000))
def test_to_fahrenheit_is_a_whole_degree_within_half_of_the_exact_value(celsius):
    result = to_fahrenheit(celsius)
    assert isinstance(result, int) and abs(result - (celsius * 9 / 5 + 32)) <= 0.5


def test_registry_in_both_styles():
    for unit, paris in ((False, "18"), (True, "18°C")):
        registry = weather_registry(unit_in_result=unit)
        assert registry.names == ["get_weather", "to_fahrenheit"]
        assert registry.run(ToolCall("1", "get_weather", {"city": "Paris"})).content == paris
        assert registry.run(ToolCall("2", "to_fahrenheit", {"celsius": 18})).content == "64"
    spec = {s["function"]["name"]: s["function"] for s in weather_registry().tools}
    assert "Celsius" in spec["get_weather"]["description"]  # the unit is described either way
    assert spec["to_fahrenheit"]["parameters"]["properties"]["celsius"]["type"] == "number"
    with pytest.raises(ToolArgsError, match="known cities"):
        weather_registry().run(ToolCall("3", "get_weather", {"city": "Gotham"}))
    with pytest.raises(ToolArgsError):
        weather_registry().run(ToolCall("4", "to_fahrenheit", {"celsius": "18°C"}))


@pytest.mark.parametrize("celsius", [-300, 1e308, -1e308, 10_001])
def test_an_impossible_temperature_is_a_slip_the_model_can_fix(celsius):
    with pytest.raises(ToolArgsError, match="absolute zero"):
        weather_registry().run(ToolCall("t1", "to_fahrenheit", {"celsius": celsius}))
