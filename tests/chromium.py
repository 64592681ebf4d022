"""Debian's headless Chromium driven by Playwright, for the tests that play
the simulator's page or the mirror of a real board in a browser. No browser
is downloaded: scripts/test.sh installs Debian's package. A test module
imports ``browser`` to get a Chromium of its own (the fixture is per module),
and ``page`` for a fresh desktop-sized tab that fails the test on any
JavaScript error the page throws.
"""

import os

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright; the test fails, saying what to
    install, if either is missing (never a silent skip)."""
    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian's chromium is not installed at %s: run scripts/test.sh as root, "
                    "or apt-get install chromium" % CHROMIUM)
    try:
        from playwright import sync_api
    except ImportError:
        pytest.fail("playwright is not installed: run scripts/test.sh, or "
                    "pip install -e '.[test]'")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A new tab, 1400x950 (a laptop's window); a script error on the page fails
    the test after it, so no test passes over a page that threw."""
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors
