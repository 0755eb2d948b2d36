"""Reading a folder (the message list) one line per message, and finding its unanswered slips."""

from __future__ import annotations

from collections.abc import Iterable

from mingraph_lite.messages import Message


def describe(message: Message) -> str:
    """One line per message in the folder, the way a person would read it."""
    if getattr(message, "tool_calls", ()):
        slips = ", ".join(f"[{c.id}] {c.name}({c.arguments})" for c in message.tool_calls)
        return f"{message.role:<9} slips: {slips}"
    if message.role == "tool":
        return f"{message.role:<9} answer to [{message.tool_call_id}]: {' '.join(message.content.split())}"
    text = " ".join(message.content.split())
    return f"{message.role:<9} {text[:70] + '...' if len(text) > 70 else text}"


def show_folder(messages: Iterable[Message]) -> None:
    """Print a folder, one indented line per message."""
    for message in messages:
        print(" ", describe(message))


def unanswered(folder: Iterable[Message]) -> list[str]:
    """Ticket numbers of slips in the folder with no answer slip: a provider rejects such a folder."""
    folder = list(folder)
    asked = [c.id for m in folder for c in getattr(m, "tool_calls", ())]
    answered = {m.tool_call_id for m in folder if m.role == "tool"}
    return [ticket for ticket in asked if ticket not in answered]


__all__ = ["describe", "show_folder", "unanswered"]
