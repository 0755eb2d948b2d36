"""Notebook 02's sticky-note loop, without its printing: notebook 03 builds its cards and its costs on it."""

from __future__ import annotations

from mingraph_lite import StepLimitReached, SystemMessage, UserMessage
from mingraph_lite.course.scripts import SYSTEM_PROMPT


def sticky_note_loop(llm, registry, question, *, max_steps=10):
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    situation, step, answer = "waiting", 0, None            # the sticky note, and what it drags along
    while situation != "hung up":
        if situation == "waiting":
            if step == max_steps:
                situation = "hung up"
                continue
            step += 1
            response = llm.generate(folder, registry.tools)
            folder.append(response.message)
            if response.message.tool_calls:
                situation = "errands"
            else:
                answer, situation = response.message.content, "hung up"
        elif situation == "errands":
            for slip in folder[-1].tool_calls:
                folder.append(registry.run(slip))
            situation = "waiting"
    if answer is None:
        raise StepLimitReached(f"no answer after {max_steps} model calls", steps=step)
    return answer


__all__ = ["sticky_note_loop"]
