"""What notebook 03's errands meet, scripted: a person at the desk, a weather service that goes down, and the
scripted managers whose slips lead there. Every manager here is a ScriptedLLM and says so in its name."""

from __future__ import annotations

from mingraph_lite.course.scripts import number, results
from mingraph_lite.course.weather import get_weather, to_fahrenheit
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.tools import ToolRegistry


class ScriptedHuman:
    """A person at the desk, scripted: answers a city's temperature in °C from notes, and lists whom it was asked."""

    def __init__(self, notes: dict[str, str]) -> None:
        self.notes, self.asked = dict(notes), []

    def __call__(self, city: str) -> str:
        self.asked.append(city)
        return self.notes.get(city, "I don't know that one")


def _looks_up(*cities: str):
    return lambda messages, tools: [("get_weather", {"city": city}) for city in cities]


def _converts_last_two(messages, tools):
    # the last two good lookups: a failed run's error slips are not results
    return [("to_fahrenheit", {"celsius": number(r)}) for r in results(messages, "get_weather")[-2:]]


def _reports(first: str, second: str):
    def report(messages, tools):
        a, b = (number(r) for r in results(messages, "to_fahrenheit")[-2:])
        return f"{first}: {a}°F, {second}: {b}°F"
    return report


def two_city_manager(first: str, second: str, *, runs: int = 1) -> ScriptedLLM:
    """Looks both cities up, converts the two readings, reports them. ``runs=2``: one extra lookup round first,
    for a run that fails there (the same agent is then asked again)."""
    lookup = _looks_up(first, second)
    return ScriptedLLM([lookup] * (runs - 1) + [lookup, _converts_last_two, _reports(first, second)],
                       name=f"scripted: {first} and {second}" + (f", {runs} questions" if runs > 1 else ""))


def flaky_weather() -> tuple[dict[str, bool], ToolRegistry]:
    """A menu whose get_weather raises ConnectionError while ``service["up"]`` is False (it starts down)."""
    service = {"up": False}

    def flaky_get_weather(city: str) -> str:
        """Get the current temperature for a city, in degrees Celsius (fixed teaching data).

        Args:
            city: The city name, for example "Paris".
        """
        if not service["up"]:
            raise ConnectionError("weather service down")
        return get_weather(city)

    menu = ToolRegistry()
    menu.add(flaky_get_weather, name="get_weather")
    menu.add(to_fahrenheit)
    return service, menu


__all__ = ["ScriptedHuman", "flaky_weather", "two_city_manager"]
