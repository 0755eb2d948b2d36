"""The two tools of the running example, on fixed teaching data; ``get_weather`` returns ``"18"`` or ``"18°C"``."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources

from ..errors import ToolArgsError
from ..tools import ToolRegistry


def _load() -> dict[str, dict[str, object]]:
    text = resources.files(__package__).joinpath("data/weather.json").read_text(encoding="utf-8")
    return json.loads(text)["cities"]


#: city -> {"celsius": int, "conditions": str}; fixed, so every run and notebook prints the same.
WEATHER: dict[str, dict[str, object]] = _load()


def lookup(city: str) -> dict[str, object]:
    """The teaching record for ``city`` (case-insensitive), or ``ToolArgsError`` naming the known cities."""
    for name, record in WEATHER.items():
        if name.lower() == city.strip().lower():
            return {"city": name, **record}
    raise ToolArgsError(f"no weather data for {city!r}; known cities: {', '.join(WEATHER)}")


def make_get_weather(unit_in_result: bool = False) -> Callable[[str], str]:
    """Build ``get_weather``, returning ``"18"`` (bare) or ``"18°C"`` (``unit_in_result=True``)."""

    def get_weather(city: str) -> str:
        """Get the current temperature for a city, in degrees Celsius (fixed teaching data).

        Args:
            city: The city name, for example "Paris".
        """
        celsius = lookup(city)["celsius"]
        return f"{celsius}°C" if unit_in_result else str(celsius)

    return get_weather


get_weather = make_get_weather(unit_in_result=False)


def celsius_to_fahrenheit(celsius: float) -> float:
    """The one place the course writes the formula (unrounded)."""
    return celsius * 9 / 5 + 32


def to_fahrenheit(celsius: float) -> float | int:
    """Convert a temperature from degrees Celsius to degrees Fahrenheit, rounded to a whole degree.

    Args:
        celsius: The temperature in degrees Celsius, at or above absolute zero (-273.15).
    """
    if not -273.15 <= celsius <= 10_000:  # a mistake the model can fix, not a tool failure
        raise ToolArgsError(f"celsius must be between -273.15 (absolute zero) and 10000, got {celsius!r}")
    return round(celsius_to_fahrenheit(celsius))


def weather_registry(unit_in_result: bool = False) -> ToolRegistry:
    """The tools of the running example: ``get_weather`` and ``to_fahrenheit``."""
    registry = ToolRegistry()
    registry.add(make_get_weather(unit_in_result))
    registry.add(to_fahrenheit)
    return registry
