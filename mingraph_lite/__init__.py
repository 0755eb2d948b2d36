"""mingraph-lite: the agent loop, taken apart. Public names: ``__all__`` here, in ``mingraph_lite.graph`` and in each
``mingraph_lite.course`` module. Adapters, widgets and plots load their extras when first used (``_LAZY``)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .agents import Agent
from .errors import (
    GraphError,
    GraphExecutionError,
    GraphStepLimit,
    GraphValidationError,
    LLMUnavailable,
    MingraphError,
    ReplayError,
    ReplayMismatch,
    ScriptExhausted,
    StepLimitReached,
    ToolArgsError,
)
from .llms.base import LLM, LLMResponse
from .llms.scripted import ScriptedLLM, word_count
from .memory import KeepAll, LastN, Memory, Summarise
from .messages import AssistantMessage, Message, SystemMessage, ToolCall, ToolMessage, UserMessage
from .observers.base import HOOKS, Observer
from .observers.console import ConsoleLogger
from .observers.recorder import EventRecorder
from .observers.trace import TraceRecorder, read_trace
from .steps import CallModel, RunTools, Sequence, State, Step
from .subagents import SubagentTool, subagent_tool
from .tools import Tool, ToolRegistry

__version__ = "0.1.0"

# name -> module, imported on first access
_LAZY = {"OllamaLLM": ".llms.ollama", "OpenAILLM": ".llms.openai", "LocalLLM": ".llms.local",
         "ReplayLLM": ".llms.replay", "FolderView": ".observers.widgets", "CardTimeline": ".observers.widgets",
         "LiveRun": ".observers.widgets", "plot_run": ".plots", "plot_tokens": ".plots"}

__all__ = [
    "Agent", "AssistantMessage", "CallModel", "CardTimeline", "ConsoleLogger", "EventRecorder", "FolderView",
    "GraphError", "GraphExecutionError", "GraphStepLimit", "GraphValidationError", "HOOKS", "KeepAll", "LLM",
    "LLMResponse", "LLMUnavailable", "LastN", "LiveRun", "LocalLLM", "Memory", "Message", "MingraphError",
    "Observer", "OllamaLLM", "OpenAILLM", "ReplayError", "ReplayLLM", "ReplayMismatch", "RunTools",
    "ScriptExhausted", "ScriptedLLM", "Sequence", "State", "Step", "StepLimitReached", "SubagentTool", "Summarise",
    "SystemMessage", "Tool", "ToolArgsError", "ToolCall", "ToolMessage", "ToolRegistry", "TraceRecorder",
    "UserMessage", "plot_run", "plot_tokens", "read_trace", "subagent_tool", "word_count",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'mingraph_lite' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
