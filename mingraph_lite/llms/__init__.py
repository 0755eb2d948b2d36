"""The models an agent can talk to, all behind one method: ``generate(messages, tools)``.

Importing this package imports no client library: each adapter imports its own (``ollama``,
``openai``, ``llama_cpp``) when it is first built, and says which extra to install if it is missing.
"""

from __future__ import annotations

from mingraph_lite.llms import guard
from mingraph_lite.llms.base import LLM, LLMResponse
from mingraph_lite.llms.factory import make_llm
from mingraph_lite.llms.local import LocalLLM
from mingraph_lite.llms.ollama import OllamaLLM
from mingraph_lite.llms.openai import OpenAILLM
from mingraph_lite.llms.replay import ReplayLLM
from mingraph_lite.llms.scripted import ScriptedLLM

__all__ = ["LLM", "LLMResponse", "LocalLLM", "OllamaLLM", "OpenAILLM", "ReplayLLM", "ScriptedLLM", "guard",
           "make_llm"]
