"""A throwaway JupyterLab and the system Chromium, for tests marked ``browser``.

Chromium is the Debian package (never a downloaded browser): ``CHROMIUM_PATH`` or ``chromium``
on PATH. Without it, or without playwright/jupyterlab, the browser tests are skipped with the
reason. JupyterLab serves a temporary copy of ``notebooks/`` (running the notebook must not
rewrite the one in the repository) with its own settings folders, on a free port.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

HERE = Path(__file__).parent
CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"


def pytest_collection_modifyitems(config, items):
    reasons = []
    if not os.path.exists(CHROMIUM):
        reasons.append(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)")
    for module in ("playwright", "pytest_playwright", "jupyterlab"):
        if importlib.util.find_spec(module) is None:
            reasons.append(f"{module} is not installed (pip install -e '.[dev]')")
    if reasons:
        skip = pytest.mark.skip(reason="; ".join(reasons))
        for item in items:
            if "browser" in item.keywords:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM,
            "args": ["--disable-gpu", "--disable-quic", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--no-first-run"]}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def lab_url(tmp_path_factory):
    base = tmp_path_factory.mktemp("lab")
    root = base / "notebooks"
    shutil.copytree(HERE / "notebooks", root)
    app_settings = base / "app-settings"
    app_settings.mkdir()
    shutil.copy(HERE / "overrides.json", app_settings / "overrides.json")
    port = _free_port()
    env = {**os.environ, "MINGRAPH_LLM": "scripted"}
    log_path = base / "lab.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "lab", "--config", str(HERE / "jupyter_server_test_config.py"),
             f"--ServerApp.port={port}", f"--ServerApp.root_dir={root}",
             f"--LabApp.app_settings_dir={app_settings}", f"--LabApp.workspaces_dir={base / 'workspaces'}",
             f"--LabApp.user_settings_dir={base / 'user-settings'}"],
            stdout=log, stderr=subprocess.STDOUT, env=env, cwd=root)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            if proc.poll() is not None:
                raise RuntimeError(f"jupyter lab exited with {proc.returncode}; see {log_path}")
            try:
                urllib.request.urlopen(url + "/lab", timeout=1)
                break
            except OSError:
                time.sleep(0.25)
        else:
            raise RuntimeError(f"jupyter lab did not start within 60 s; see {log_path}")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def artifacts_dir(pytestconfig) -> Path:
    path = pytestconfig.rootpath / "test-artifacts" / "browser"
    path.mkdir(parents=True, exist_ok=True)
    return path
