"""Headless Chromium for the tests of the HTML sheets' script (Debian's ``chromium`` package driven
by Playwright; browser downloads are impossible on the test machines).

Locally the browser tests are skipped, with the reason, when Chromium is missing; in CI (the
environment variable ``CI`` set, as ``.ci/run`` does) they fail instead, so they always run there.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("EXACTODDS_CHROMIUM", "/usr/bin/chromium"))
"""The Chromium binary (``EXACTODDS_CHROMIUM`` overrides Debian's path)."""

ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)

PRINTABLE_A4 = 688
"""CSS pixels across an A4 page less the sheet's 14 mm margins (182 mm at 96 px per inch)."""


def require_chromium() -> None:
    """Skip the test without Chromium, or fail in CI."""
    if CHROMIUM.is_file():
        return
    message = f"headless Chromium not found at {CHROMIUM} (apt-get install chromium)"
    if os.environ.get("CI"):
        pytest.fail(f"{message}: CI must run the browser tests")
    pytest.skip(message)


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium browser (Playwright's ``Browser``)."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(ARGS))
        try:
            yield browser
        finally:
            browser.close()


class Pages:
    """Opens pages from HTML text through ``file://`` URLs, recording every console error or
    warning, uncaught exception and Content-Security-Policy violation in :attr:`problems`."""

    def __init__(self, browser: Any, folder: Path) -> None:
        self.browser = browser
        self.folder = folder
        self.problems: list[str] = []
        self._contexts: list[Any] = []
        self._count = 0

    def open(self, html: str, *, width: int = 1280, javascript: bool = True) -> Any:
        """A page showing ``html``, loaded from a file."""
        context = self.browser.new_context(
            viewport={"width": width, "height": 900},
            java_script_enabled=javascript,
            accept_downloads=True,
        )
        self._contexts.append(context)
        page = context.new_page()
        page.add_init_script(
            "document.addEventListener('securitypolicyviolation', (e) => "
            "console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));"
        )
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self._count += 1
        path = self.folder / f"sheet-{self._count}.html"
        path.write_text(html, encoding="utf-8")
        page.goto(path.as_uri())
        return page

    def _console(self, message: Any) -> None:
        if message.type in ("error", "warning"):
            self.problems.append(f"console {message.type}: {message.text}")

    def close(self) -> None:
        for context in self._contexts:
            context.close()
        self._contexts.clear()
