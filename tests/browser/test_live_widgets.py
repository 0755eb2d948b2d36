"""JupyterLab in headless Chromium: the live views draw the scripted Paris/Tokyo run as it happens.

The notebook (notebooks/live_run.ipynb) runs the four-round scripted manager, slowed to 0.4 s per
reply, with a ``LiveRun`` view. The page keeps its own log of every picture the views showed (a
MutationObserver, outside the kernel), so the test can prove the intermediate states reached the
browser while the cell was still running, not just the final picture.
"""

from __future__ import annotations

import json
import time

import pytest

pytestmark = pytest.mark.browser

FINAL_CARDS = ["calling model (step 1)", "running tools (step 1)", "calling model (step 2)",
               "running tools (step 2)", "calling model (step 3)", "running tools (step 3)",
               "calling model (step 4)", "finished (answered)"]
FINAL_ROLES = ["system", "user", "assistant", "tool", "tool", "assistant", "tool", "assistant", "tool",
               "assistant"]

# Record each distinct picture: folder size, the cards shown, the card in hand (null once finished).
INSTALL_LOG = """() => {
  window.__mgLog = [];
  const snap = () => {
    const folder = document.querySelector('.mg-folder');
    const timeline = document.querySelector('.mg-timeline');
    if (!folder || !timeline) return;
    const entry = {count: Number(folder.dataset.count),
                   cards: [...timeline.querySelectorAll('.mg-card .mg-label')].map(e => e.textContent),
                   current: timeline.querySelector('.mg-current .mg-label')?.textContent ?? null};
    const last = window.__mgLog[window.__mgLog.length - 1];
    if (!last || JSON.stringify(last) !== JSON.stringify(entry)) window.__mgLog.push(entry);
  };
  new MutationObserver(snap).observe(document.body,
      {subtree: true, childList: true, characterData: true, attributes: true});
}"""

MID_RUN = """() => {
  const folder = document.querySelector('.mg-folder');
  const timeline = document.querySelector('.mg-timeline');
  return folder && timeline && timeline.querySelector('.mg-card-running-tools')
      && !timeline.querySelector('.mg-card-finished') && Number(folder.dataset.count) < 10
      ? {count: Number(folder.dataset.count), current: timeline.querySelector('.mg-current')?.textContent}
      : null;
}"""


def test_live_views_show_the_run_while_the_cell_runs(page, lab_url, artifacts_dir):
    started = time.monotonic()
    marks = {}
    page.set_viewport_size({"width": 1400, "height": 1400})  # the whole notebook fits
    page.goto(f"{lab_url}/lab/tree/live_run.ipynb")
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=60_000)
    page.wait_for_function(
        """() => { const w = window.jupyterapp.shell.currentWidget;
                   return w && w.sessionContext?.session?.kernel?.status === 'idle'; }""", timeout=60_000)
    marks["kernel idle"] = time.monotonic() - started
    page.evaluate(INSTALL_LOG)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")  # not awaited

    # While the cell runs: a running-tools card is on the timeline, the folder is not full, no finish yet.
    mid = page.wait_for_function(MID_RUN, timeout=60_000).json_value()
    marks["mid-run state seen"] = time.monotonic() - started
    assert 2 < mid["count"] < 10
    page.screenshot(path=str(artifacts_dir / "live_run_mid.png"), full_page=True)

    page.locator(".mg-card-finished", has_text="finished (answered)").wait_for(timeout=60_000)
    marks["finished card seen"] = time.monotonic() - started
    page.locator(".jp-RenderedText", has_text="Paris: 64°F, Tokyo: 75°F").wait_for(timeout=30_000)

    # The final picture: the right cards and rows.
    timeline, folder = page.locator(".mg-timeline"), page.locator(".mg-folder")
    assert timeline.locator(".mg-card .mg-label").all_text_contents() == FINAL_CARDS
    assert timeline.locator(".mg-current").count() == 0
    rows = folder.locator(".mg-row")
    roles = [cls.split("mg-role-")[1].split()[0] for cls in
             (rows.nth(i).get_attribute("class") for i in range(rows.count()))]
    assert roles == FINAL_ROLES
    assert folder.get_attribute("data-count") == "10"
    assert folder.locator(".mg-error").count() == 0
    slips = folder.locator(".mg-slip").all_text_contents()
    assert slips[0].startswith("#call_1_1 get_weather(city='Paris')") and slips[0].endswith("18")
    assert slips[1].startswith("#call_1_2 get_weather(city='Tokyo')") and slips[1].endswith("24")
    assert "(waiting)" not in " ".join(slips)
    page.screenshot(path=str(artifacts_dir / "live_run.png"), full_page=True)
    page.locator(".mg-live").screenshot(path=str(artifacts_dir / "live_run_views.png"))

    # What the browser saw on the way: the folder climbed through intermediate sizes, never down,
    # and the card in hand flipped between calling the model and running tools.
    log = page.evaluate("() => window.__mgLog")
    (artifacts_dir / "live_run_log.json").write_text(json.dumps(log, indent=1), encoding="utf-8")
    counts = [entry["count"] for entry in log]
    assert counts == sorted(counts), counts
    assert {5, 7, 9} <= set(counts), counts  # each held on screen for a 0.4 s model call
    in_hand = [entry["current"] for entry in log if entry["current"]]
    assert "calling model (step 2)" in in_hand and "calling model (step 4)" in in_hand, in_hand
    assert log[-1]["current"] is None and log[-1]["cards"] == FINAL_CARDS
    marks["test body"] = time.monotonic() - started
    (artifacts_dir / "timing.txt").write_text("".join(f"{k}: {v:.1f} s\n" for k, v in marks.items()),
                                              encoding="utf-8")
