"""The capstone's task: what an item costs in some cities, in US dollars, from fixed teaching prices.

Two tools whose calls chain (a price, then its conversion) and fan out (one price per city):
``get_price(item, city)`` -> ``"450 JPY"`` and ``to_usd(amount, currency)`` -> ``"2.97 USD"``.
Prices and rates are made up for teaching: fixed, so every run prints the same; not live data.

This file is also a task file for the demo command (``TOOLS``, ``SYSTEM_PROMPT``, ``QUESTION``, ``SCRIPTED``):
``python -m mingraph_lite demo --task notebooks/lessons/capstone.py --llm local:gemma3-270m --trace FILE``.
The command loads it by path, so it imports only ``mingraph_lite``, never the rest of ``lessons``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mingraph_lite import AssistantMessage, Message, ScriptedLLM, ToolArgsError, ToolMessage, ToolRegistry

#: item -> city -> (price, currency code); fixed teaching data, not live prices.
PRICES: dict[str, dict[str, tuple[float, str]]] = {
    "coffee": {"Rome": (1.3, "EUR"), "Osaka": (450, "JPY"), "Lima": (9, "PEN"), "Oslo": (42, "NOK"),
               "Nairobi": (250, "KES")},
    "tea": {"Rome": (2.5, "EUR"), "Osaka": (380, "JPY"), "Lima": (6, "PEN"), "Oslo": (35, "NOK"),
            "Nairobi": (120, "KES")},
    "bread": {"Rome": (3.2, "EUR"), "Osaka": (290, "JPY"), "Lima": (7.5, "PEN"), "Oslo": (48, "NOK"),
              "Nairobi": (90, "KES")},
}
#: US dollars for one unit of each currency; fixed teaching data, not today's rates.
USD_PER_UNIT: dict[str, float] = {"EUR": 1.08, "JPY": 0.0066, "PEN": 0.27, "NOK": 0.094, "KES": 0.0078, "USD": 1.0}

QUESTION = "What does a coffee cost in Rome and in Osaka, in US dollars?"
SYSTEM_PROMPT = ("You answer questions about prices. Use get_price for the local price of an item in a city and "
                 "to_usd to convert an amount into US dollars; never do the arithmetic yourself.")


def _known(name: str, options: Sequence[str], what: str) -> str:
    for option in options:
        if option.lower() == str(name).strip().lower():
            return option
    raise ToolArgsError(f"no {what} {name!r}; known: {', '.join(options)}")


def get_price(item: str, city: str) -> str:
    """Get the local price of an item in a city, with its currency code (fixed teaching data).

    Args:
        item: What to price, for example "coffee".
        city: The city, for example "Rome".
    """
    item = _known(item, list(PRICES), "item")
    amount, currency = PRICES[item][_known(city, list(PRICES[item]), f"price for {item} in")]
    return f"{amount:g} {currency}"


def to_usd(amount: float, currency: str) -> str:
    """Convert an amount of money into US dollars, rounded to the cent.

    Args:
        amount: How much money, in the currency given.
        currency: The three-letter currency code, for example "EUR".
    """
    code = _known(currency.upper(), list(USD_PER_UNIT), "rate for currency")
    if amount < 0:
        raise ToolArgsError(f"amount must be 0 or more, got {amount!r}")
    return f"{amount * USD_PER_UNIT[code]:.2f} USD"


def price_tools() -> ToolRegistry:
    """A fresh registry with the task's two tools."""
    registry = ToolRegistry()
    registry.add(get_price)
    registry.add(to_usd)
    return registry


TOOLS = price_tools()

# --- the scripted manager: it reads only what it is sent each round -------------------------------

_MONEY = re.compile(r"^(-?\d+(?:\.\d+)?) ([A-Z]{3})$")


def _exchanges(messages: Sequence[Message], tool: str) -> list[tuple[dict, ToolMessage]]:
    """(arguments, answer) for every call of ``tool`` that the messages hold with its answer."""
    asked = {c.id: c for m in messages if isinstance(m, AssistantMessage) for c in m.tool_calls if c.name == tool}
    return [(dict(asked[m.tool_call_id].arguments), m) for m in messages
            if isinstance(m, ToolMessage) and m.tool_call_id in asked]


def _ask_prices(item: str, cities: Sequence[str]):
    def reply(messages, tools):
        return [("get_price", {"item": item, "city": city}) for city in cities]
    return reply


def _convert(messages, tools):
    prices = [_MONEY.match(answer.content) for _, answer in _exchanges(messages, "get_price") if not answer.is_error]
    calls = [("to_usd", {"amount": float(m.group(1)), "currency": m.group(2)}) for m in prices if m]
    return calls or "I could not find any of those prices."


def _report(item: str):
    def reply(messages, tools):
        dollars = {(args["amount"], args["currency"]): answer.content
                   for args, answer in _exchanges(messages, "to_usd") if not answer.is_error}
        parts = []
        for args, answer in _exchanges(messages, "get_price"):
            money = _MONEY.match(answer.content)
            usd = dollars.get((float(money.group(1)), money.group(2))) if money else None
            parts.append(f"{args['city']} {usd.replace(' USD', '')}" if usd else f"{args['city']} no price found")
        return f"{item} in US dollars: " + ", ".join(parts) + "." if parts else "I lost track of the prices."
    return reply


def price_manager(item: str = "coffee", cities: Sequence[str] = ("Rome", "Osaka")) -> ScriptedLLM:
    """Three rounds: every price at once, every conversion at once, then the answer (scripted, labelled so)."""
    return ScriptedLLM([_ask_prices(item, cities), _convert, _report(item)], name="scripted: price manager")


# --- held-out cases: the capstone's checks use them; its notebook never shows them ----------------------

#: Other items, other cities, and a city with no prices.
HELD_OUT = (("bread", ("Lima", "Oslo", "Nairobi")), ("tea", ("Rome", "Atlantis")), ("coffee", ("Nairobi",)))


def question_for(item: str, cities: Sequence[str]) -> str:
    return f"What does {item} cost in {' and in '.join(cities)}, in US dollars?"


def broken_tools() -> ToolRegistry:
    """The task's tools, except that the exchange-rate service is down: ``to_usd`` raises ``ConnectionError``."""
    registry = ToolRegistry()
    registry.add(get_price)

    def to_usd(amount: float, currency: str) -> str:
        """Convert an amount of money into US dollars, rounded to the cent.

        Args:
            amount: How much money, in the currency given.
            currency: The three-letter currency code, for example "EUR".
        """
        raise ConnectionError("the exchange-rate service is down")

    registry.add(to_usd)
    return registry


def SCRIPTED() -> ScriptedLLM:
    """The scripted model the demo command uses for this task when the model spec is ``scripted``."""
    return price_manager()
