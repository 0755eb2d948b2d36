"""A notebook's own version of its exercises, for the cells after them: loaded from ``notebooks/solutions/`` by
path and never printed, so no answer appears in the notebook and no later cell depends on the learner's code."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SOLUTIONS = Path(__file__).resolve().parents[1] / "solutions"


def reference(stem: str) -> ModuleType:
    """The module ``notebooks/solutions/<stem>.py`` (for example ``reference("09_capstone").PriceAgent``)."""
    path = SOLUTIONS / f"{stem}.py"
    name = f"reference_{stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None or not path.is_file():
        raise FileNotFoundError(f"no reference answers at {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a TypedDict's annotations are resolved through its module
    spec.loader.exec_module(module)
    return module
