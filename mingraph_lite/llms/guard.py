"""The switch that keeps tests from reaching a real model by accident (``MINGRAPH_REAL_MODELS=off``).

An adapter that would open its own connection calls ``check(provider)`` first; a client handed in
(``client=...``) is the caller's business. The local model has no network and is not guarded.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

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
