"""The capstone's task: what an item costs in some cities, in US dollars, from fixed teaching prices.

Two tools whose calls chain (a price, then its conversion) and fan out (one price per city):
``get_price(item, city)`` -> ``"Osaka coffee: 450 JPY"`` and ``to_usd(amount, currency)`` -> ``"450 JPY = 2.97 USD"``.
Each result names its input, as in notebook 02's right runs, so every number carries what it is about.
Prices and rates are made up for teaching: fixed, so every run prints the same; not live data.

This file is also a task file for the demo command (``TOOLS``, ``SYSTEM_PROMPT``, ``QUESTION``, ``SCRIPTED``):
``python -m mingraph_lite demo --task notebooks/lessons/capstone.py --llm local:gemma3-270m --trace FILE``.
The command loads it by path, so it imports only ``mingraph_lite``, never the rest of ``lessons``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mingraph_lite import AssistantMessage, Message, ScriptedLLM, ToolArgsError, ToolCall, ToolMessage, ToolRegistry

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
_MONEY = re.compile(r"(-?\d+(?:\.\d+)?) ([A-Z]{3})$")  # the amount a result ends with


def question_for(item: str, cities: Sequence[str]) -> str:
    return f"What does {item} cost in {' and in '.join(cities)}, in US dollars?"


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
    city = _known(city, list(PRICES[item]), f"price for {item} in")
    amount, currency = PRICES[item][city]
    return f"{city} {item}: {amount:g} {currency}"


def to_usd(amount: float, currency: str) -> str:
    """Convert an amount of money into US dollars, rounded to the cent.

    Args:
        amount: How much money, in the currency given.
        currency: The three-letter currency code, for example "EUR".
    """
    code = _known(currency.upper(), list(USD_PER_UNIT), "rate for currency")
    if amount < 0:
        raise ToolArgsError(f"amount must be 0 or more, got {amount!r}")
    return f"{amount:g} {code} = {amount * USD_PER_UNIT[code]:.2f} USD"


def price_tools() -> ToolRegistry:
    """A fresh registry with the task's two tools."""
    registry = ToolRegistry()
    registry.add(get_price)
    registry.add(to_usd)
    return registry


TOOLS = price_tools()


def _worked_example(item: str, cities: Sequence[str]) -> str:
    """One run on other items, in the reply format the local models are shown; its results come from the tools."""
    prices = [get_price(item, city) for city in cities]
    amounts = [_MONEY.search(price).groups() for price in prices]
    dollars = [to_usd(float(amount), code) for amount, code in amounts]
    lines = [f"Example. Question: {question_for(item, cities)}"]
    lines += [f'functions.get_price:\n{{"item": "{item}", "city": "{city}"}}' for city in cities]
    lines += [f"functions.get_price returned: {price}" for price in prices]
    lines += [f'functions.to_usd:\n{{"amount": {float(amount):g}, "currency": "{code}"}}' for amount, code in amounts]
    lines += [f"functions.to_usd returned: {usd}" for usd in dollars]
    return "\n".join(lines + ["message:", one_line_answer(cities, dollars)])


def one_line_answer(cities: Sequence[str], dollars: Sequence[str | None]) -> str:
    """The answer form: "Lima: 1.62 USD, Oslo: 3.29 USD" (a city with no price says so)."""
    return ", ".join(f"{city}: {usd.split(' = ')[-1] if usd else 'no price found'}" for city, usd in zip(cities, dollars))


SYSTEM_PROMPT = ("You answer questions about prices. First call get_price for each city in the question. Then call "
                 "to_usd on each amount that get_price returned. Then answer in one line, each city with its price "
                 "in US dollars. Never make up an amount.\n\n" + _worked_example("tea", ("Lima", "Oslo")))

# --- the scripted manager: it reads only what it is sent each round -------------------------------



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
    prices = [_MONEY.search(answer.content) for _, answer in _exchanges(messages, "get_price") if not answer.is_error]
    calls = [("to_usd", {"amount": float(m.group(1)), "currency": m.group(2)}) for m in prices if m]
    return calls or "I could not find any of those prices."


def _report(item: str):
    def reply(messages, tools):
        dollars = {(args["amount"], args["currency"]): answer.content
                   for args, answer in _exchanges(messages, "to_usd") if not answer.is_error}
        cities, found = [], []
        for args, answer in _exchanges(messages, "get_price"):
            money = _MONEY.search(answer.content)
            cities.append(args["city"])
            found.append(dollars.get((float(money.group(1)), money.group(2))) if money else None)
        return one_line_answer(cities, found) if cities else "I lost track of the prices."
    return reply


def price_manager(item: str = "coffee", cities: Sequence[str] = ("Rome", "Osaka")) -> ScriptedLLM:
    """Three rounds: every price at once, every conversion at once, then the answer (scripted, labelled so)."""
    return ScriptedLLM([_ask_prices(item, cities), _convert, _report(item)], name="scripted: price manager")


# --- held-out cases: the capstone's checks use them; notebooks 12 to 14 never show them ----------------

#: Other items, other cities, and a city with no prices.
HELD_OUT = (("bread", ("Lima", "Oslo", "Nairobi")), ("tea", ("Rome", "Atlantis")), ("coffee", ("Nairobi",)))


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


def show_messages(messages: Sequence[Message]) -> None:
    """Print a run one message a line: who speaks, then the ToolCalls asked for or the ToolCall a result answers."""
    for m in messages:
        if getattr(m, "tool_calls", None):
            text = "asks for " + ", ".join(f"{c.name}{c.arguments} [{c.id}]" for c in m.tool_calls)
        else:
            text = f"ToolMessage for [{m.tool_call_id}]: {m.content}" if isinstance(m, ToolMessage) else m.content
        print(f"  {m.role:<9} {text}")


def show_tries(registry: ToolRegistry, call: ToolCall, tries: int = 1) -> None:
    """Run ``call`` ``tries`` times, printing each answer's text or the exception it raised (never re-raising)."""
    for attempt in range(1, tries + 1):
        try:
            outcome = registry.run(call).content
        except Exception as error:  # showing what goes wrong is the point
            outcome = f"{type(error).__name__}: {error}"
        print(f"try {attempt}: {outcome}" if tries > 1 else outcome)


def SCRIPTED() -> ScriptedLLM:
    """The scripted model the demo command uses for this task when the model spec is ``scripted``."""
    return price_manager()
