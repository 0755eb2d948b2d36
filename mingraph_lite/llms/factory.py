"""Pick a model from one short spec, so the notebooks never change when the model does.

``make_llm()`` reads ``MINGRAPH_LLM`` (default ``scripted``). Every adapter is imported only when
its spec is asked for, so the default needs no client library, server, key or network.
"""

from __future__ import annotations

import os
from typing import Any

ENV = "MINGRAPH_LLM"
FORMS = ("scripted", "ollama:MODEL", "openai:MODEL", "local[:MODEL]", "replay:PATH")


def make_llm(spec: str | None = None) -> Any:
    """Build the model named by ``spec``, or by ``$MINGRAPH_LLM``, or the scripted manager."""
    source = "make_llm" if spec is not None else f"${ENV}"
    spec = (spec if spec is not None else os.environ.get(ENV, "")).strip() or "scripted"
    kind, _, rest = spec.partition(":")
    kind = kind.lower()
    if kind == "scripted" and not rest:
        from mingraph_lite.course.scripts import four_round_manager
        return four_round_manager()
    if kind == "ollama" and rest:
        from mingraph_lite.llms.ollama import OllamaLLM
        return OllamaLLM(rest)
    if kind == "openai" and rest:
        from mingraph_lite.llms.openai import OpenAILLM
        return OpenAILLM(rest)
    if kind == "local":
        from mingraph_lite.llms.local import LocalLLM
        return LocalLLM(rest) if rest else LocalLLM()
    if kind == "replay" and rest:
        from mingraph_lite.llms.replay import ReplayLLM
        return ReplayLLM.from_trace(rest)
    raise ValueError(f"unknown model spec {spec!r} (given to {source}); "
                     f"valid forms: {', '.join(FORMS)}, e.g. ollama:qwen3:0.6b or local:smollm2-135m")
