"""``import mingraph_lite`` stays light: no optional dependency is imported until it is used."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import mingraph_lite

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ["ollama", "openai", "ipywidgets", "matplotlib", "tqdm", "langgraph", "xllamacpp", "llama_cpp"]
LAZY = sorted(mingraph_lite._LAZY)


def fresh_python(code: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_import_pulls_in_no_optional_dependency():
    seen = fresh_python(f"""
import json, sys
import mingraph_lite
print(json.dumps({{"heavy": [m for m in {HEAVY!r} if m in sys.modules],
                  "lazy_loaded": [n for n in {LAZY!r} if n in vars(mingraph_lite)]}}))
""")
    assert seen == {"heavy": [], "lazy_loaded": []}


def test_lazy_names_load_on_access_without_their_libraries():
    seen = fresh_python(f"""
import json, sys
import mingraph_lite
loaded = {{name: getattr(mingraph_lite, name).__name__ for name in {LAZY!r}}}
print(json.dumps({{"loaded": loaded, "heavy": [m for m in {HEAVY!r} if m in sys.modules],
                  "cached": [n for n in {LAZY!r} if n in vars(mingraph_lite)]}}))
""")
    assert seen["loaded"] == {name: name for name in LAZY}
    assert seen["cached"] == LAZY
    assert seen["heavy"] == []  # building an adapter or a widget loads its library, naming it does not


def test_public_api():
    assert sorted(set(mingraph_lite.__all__)) == sorted(mingraph_lite.__all__)
    assert [name for name in mingraph_lite.__all__ if not hasattr(mingraph_lite, name)] == []
    assert set(mingraph_lite.__all__) <= set(dir(mingraph_lite))
    assert set(mingraph_lite._LAZY) <= set(mingraph_lite.__all__)
    assert mingraph_lite.__version__
    with pytest.raises(AttributeError, match="NoSuchThing"):
        mingraph_lite.NoSuchThing  # noqa: B018

