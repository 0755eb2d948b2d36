"""Shared test configuration: default runs are scripted and offline.

Real model requests are refused by the guard (``MINGRAPH_REAL_MODELS=off``) unless a test is marked
``live``; notebook kernels started by nbval inherit this environment, so they run scripted too.
"""

import os
import sys
from pathlib import Path

import pytest

# The notebooks' own helpers (``lessons``) sit beside the notebooks, outside the installed package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "notebooks"))
os.environ["MINGRAPH_REAL_MODELS"] = "off"
os.environ["MINGRAPH_LLM"] = "scripted"


@pytest.fixture(autouse=True)
def _real_models_only_when_live(request, monkeypatch):
    if request.node.get_closest_marker("live"):
        monkeypatch.setenv("MINGRAPH_REAL_MODELS", "on")
    else:
        monkeypatch.setenv("MINGRAPH_REAL_MODELS", "off")
