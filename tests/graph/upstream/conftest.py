"""Every test in this folder runs twice: on LangGraph (the control) and on our engine."""

from __future__ import annotations

import pytest

from .engines import langgraph_engine, our_engine


@pytest.fixture(params=["langgraph", "ours"])
def engine(request):
    return langgraph_engine() if request.param == "langgraph" else our_engine()
