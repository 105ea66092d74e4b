"""Chromium for the tests that use JupyterLab as people do (test_browser.py, test_hub.py).

Debian's Chromium, driven by Playwright; no browser is ever downloaded. `make test` installs
it first when it is missing and it may (`make browser`); where it cannot, those tests are
skipped and say why.
"""

from __future__ import annotations

import os
import shutil

import pytest
from conftest import REPO
from playwright.sync_api import expect

ARTIFACTS = REPO / "test-artifacts"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium() -> str:
    """The system's Chromium, or a skip that says why there is none."""
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not os.access(path, os.X_OK):
        log = ARTIFACTS / "apt-chromium.log"
        pytest.skip(
            f"no Chromium at {path}: `make test` installs Debian's chromium package only when "
            "it runs as root or with passwordless sudo and apt-get works"
            + (f" (what apt said: {log})" if log.exists() else "")
            + "; install it (or set CHROMIUM=/path/to/chromium) to run the browser test"
        )
    return path


def validate(page, outcome: str, screenshot: str, show=None) -> str:
    """Press Validate (it saves, then runs the notebook on the server), wait for
    its dialog to show ``outcome`` ("success" or "failed"), save a screenshot (with
    ``show`` scrolled to the bottom of the notebook's view, below the dialog), close it."""
    # The button of the notebook on screen (every open notebook has one).
    current = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")
    page.locator(f"[id='{current.get_attribute('data-id')}'] .validate-button").click()
    dialog = page.locator(".jp-Dialog")
    expect(dialog).to_contain_text("Validation Results")
    expect(dialog.locator(f".validation-{outcome}")).to_be_visible()
    text = dialog.inner_text()  # what is on screen
    assert "The following cell failed" not in text, text  # nbgrader's line, for one cell
    if show is not None:
        show.evaluate("node => node.scrollIntoView({block: 'end'})")
    page.screenshot(path=ARTIFACTS / screenshot)
    dialog.get_by_role("button", name="Ok").click()
    expect(dialog).to_have_count(0)
    return text
