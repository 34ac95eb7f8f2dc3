"""The HTML report in a real headless Chromium (Debian's package, driven by Playwright):
no console errors or network requests, every section there, nothing wider than 1280 px,
no chart label overlapping another label or a bar; a screenshot under build/screenshots/."""

from __future__ import annotations

import importlib.util
import shutil
import tempfile

import pytest

from curator.report import write_report
from curator.report.page import SECTIONS
from tests.conftest import REPO

WIDTH = 1280
SCREENSHOT = REPO / "build" / "screenshots" / "report.png"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Every text box of every chart: inside its chart (not cut off), clear of every other text
# box and every bar and dot. The boxes are the browser's own: fonts are measured, not guessed.
OVERLAPS = """() => {
  const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const found = [];
  const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
    && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  document.querySelectorAll('svg.chart').forEach((chart) => {
    const name = chart.getAttribute('aria-label');
    const frame = chart.getBoundingClientRect();
    const texts = [...chart.querySelectorAll('text')]
      .map((t) => [t.textContent, t.getBoundingClientRect()]);
    texts.forEach(([label, box]) => {
      if (!inside(box, frame)) found.push(`${name}: "${label}" cut off at the edge`);
    });
    const shapes = [...chart.querySelectorAll('rect:not(.frame), circle')]
      .map((s) => s.getBoundingClientRect());
    texts.forEach(([label, box], i) => {
      texts.slice(i + 1).forEach(([other, box2]) => {
        if (hit(box, box2)) found.push(`${name}: "${label}" on "${other}"`);
      });
      shapes.forEach((shape) => {
        if (hit(box, shape)) found.push(`${name}: "${label}" on a bar`);
      });
    });
  });
  return found;
}"""

WIDER_THAN_PAGE = """(width) => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > width + 0.5)
  .map((e) => e.tagName + (e.id ? '#' + e.id : '') + ' ' + (e.textContent || '').slice(0, 40))"""


def _browser():
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip(
            "Debian's chromium is not installed and `make test` could not install it (apt-get "
            "install chromium)"
        )
    if importlib.util.find_spec("playwright") is None:
        pytest.skip("the playwright package is not installed (pip install -e '.[dev]')")
    return chromium


def test_report_in_headless_chromium(sample_runs, tmp_path):
    chromium = _browser()
    from playwright.sync_api import sync_playwright

    page_file = write_report(
        sample_runs["bundle"],
        tmp_path / "report.html",
        gate=sample_runs["gate_regressed"],
        runs=[sample_runs["evals_good"], sample_runs["evals_regressed"]],
    )
    url = page_file.path.resolve().as_uri()
    with sync_playwright() as driver, tempfile.TemporaryDirectory() as profile:
        browser = driver.chromium.launch_persistent_context(
            profile,
            executable_path=chromium,
            headless=True,
            args=FLAGS,
            viewport={"width": WIDTH, "height": 900},
        )
        try:
            page = browser.new_page()
            problems: list[str] = []
            requests: list[str] = []
            page.on(
                "console",
                lambda m: (
                    problems.append(f"{m.type}: {m.text}")
                    if m.type in ("error", "warning")
                    else None
                ),
            )
            page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
            page.on(
                "request",
                lambda request: requests.append(request.url) if request.url != url else None,
            )
            page.goto(url, wait_until="load")

            assert problems == [] and requests == []
            for anchor, title, _ in SECTIONS:
                heading = page.locator(f"section#{anchor} > h2")
                assert heading.is_visible() and heading.inner_text().startswith(title), anchor
            assert page.locator("svg.chart").count() >= 8
            assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
            assert page.evaluate(WIDER_THAN_PAGE, WIDTH) == []
            assert page.evaluate(OVERLAPS) == []
            # Open every failure: long values and ids still fit the page width.
            page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
            assert page.evaluate(WIDER_THAN_PAGE, WIDTH) == []
            page.evaluate(
                "document.querySelectorAll('details').forEach((d, i) => { d.open = i === 0; })"
            )
            SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOT), full_page=True)
        finally:
            browser.close()
    assert SCREENSHOT.read_bytes().startswith(b"\x89PNG")
