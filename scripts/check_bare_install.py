"""`pip install .` with no extras, in a fresh venv: only pydantic comes along, and every core name imports.

Run from the project folder: python3 scripts/check_bare_install.py (needs the package registry). Exit 0 when
the bare install holds only the project, pydantic and pydantic's own dependencies; 1 otherwise.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# pydantic's own dependencies (and the venv's installer); tomli comes on Python 3.10 only, by a marker.
ALLOWED = {"mingraph-lite", "pydantic", "pydantic-core", "annotated-types", "typing-extensions",
           "typing-inspection", "pip", "setuptools", "tomli"}
CORE = """
import sys
import mingraph_lite
from mingraph_lite import (Agent, AssistantMessage, ConsoleLogger, EventRecorder, KeepAll, LastN, Message,
                           ReplayLLM, ScriptedLLM, Summarise, SystemMessage, ToolCall, ToolMessage, ToolRegistry,
                           TraceRecorder, UserMessage, read_trace)
from mingraph_lite.graph import END, START, StateGraph
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import weather_registry

reply = Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT).run({"question": QUESTION})
heavy = [m for m in ("ollama", "openai", "ipywidgets", "matplotlib", "tqdm", "langgraph") if m in sys.modules]
assert not heavy, heavy
print("core names import; the scripted demo run returns:", str(reply)[:90])

# Package data an installed copy needs: the served chat templates (read without the local runtime).
from mingraph_lite.llms.local import SERVED_TEMPLATES, served_template
assert all("<tools>" in served_template(model) for model in SERVED_TEMPLATES)
print("served templates found:", ", ".join(sorted(SERVED_TEMPLATES)))
"""


def run(*command: str, cwd: str | None = None) -> str:
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    if done.returncode:
        raise SystemExit(f"FAIL: {' '.join(command)[:80]}...\n{done.stderr}")
    return done.stdout


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="bare-install-") as tmp:
        venv.create(tmp, with_pip=True)
        python = str(Path(tmp) / "bin" / "python")
        # Built from a copy of what a wheel holds, so no build/ or egg-info is left in the checkout.
        source = Path(tmp) / "src"
        shutil.copytree(ROOT / "mingraph_lite", source / "mingraph_lite",
                        ignore=shutil.ignore_patterns("__pycache__"))
        for name in ("pyproject.toml", "README.md"):
            shutil.copy(ROOT / name, source / name)
        run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(source))
        listed = run(python, "-c", "import importlib.metadata as m; "
                                   "print('\\n'.join(sorted(d.metadata['Name'] for d in m.distributions())))")
        names = {line.strip().lower().replace("_", "-") for line in listed.splitlines() if line.strip()}
        print("installed:", ", ".join(sorted(names)))
        extra = sorted(names - ALLOWED)
        if extra:
            print(f"FAIL: a bare install brings more than pydantic: {extra}", file=sys.stderr)
            return 1
        # From the temp folder, so the installed copy is imported, not this checkout.
        print(run(python, "-c", CORE, cwd=tmp), end="")
        demo = run(python, "-m", "mingraph_lite", "demo", cwd=tmp).strip().splitlines()
        print("python -m mingraph_lite demo, last line:", demo[-1])
        # A shipped definition found by name in the installed copy, run without tqdm or matplotlib.
        out = str(Path(tmp) / "unit-run")
        lab = run(python, "-m", "mingraph_lite", "experiment", "run", "unit", "--runs", "1", "--seed", "0",
                  "--no-progress", "--out", out, cwd=tmp).strip().splitlines()
        print("python -m mingraph_lite experiment run unit, last line:", lab[-1])
    print("bare install: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
