"""What an adapter checks before it reaches a real model: the ``MINGRAPH_REAL_MODELS`` switch and its client."""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from typing import Any

from ..errors import LLMUnavailable

ENV = "MINGRAPH_REAL_MODELS"
_OFF = {"off", "0", "false", "no"}


def real_models_allowed(env: Mapping[str, str] | None = None) -> bool:
    """True unless ``MINGRAPH_REAL_MODELS`` (in ``env``, default ``os.environ``) says off; unset is on."""
    return (os.environ if env is None else env).get(ENV, "on").strip().lower() not in _OFF


def check(provider: str) -> None:
    """Raise ``LLMUnavailable`` if real requests to ``provider`` are switched off."""
    if not real_models_allowed():
        raise LLMUnavailable(
            f"refusing a real {provider} request: {ENV}={os.environ.get(ENV)!r} (set by tests/conftest.py). "
            f"A test that means to call a real model must be marked @pytest.mark.live; "
            f"otherwise pass client=... with an httpx.MockTransport, or use ScriptedLLM/ReplayLLM.")


def client_library(module: str, extra: str) -> Any:
    """``import module``, or one ``LLMUnavailable`` sentence naming the extra that brings it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise LLMUnavailable(f"{module} is not installed: pip install 'mingraph-lite[{extra}]'") from exc
