"""The page of `senet-board sim --room` (the white seat) as a person sees
it: served on a local port, opened in headless Chromium tabs in any of its
languages, its words read as they come. The page's Sim runs on the test's
manual clock; the only real-time waits are generous deadlines that catch a
hang and decide nothing else."""

import json
import os

from host_tools.words import I18N_DIR
from remote_tests.pair import Hang, PASSPHRASE
from remote_tests.test_room_page import SimHands, idle, page, page_acts
from served import serve, stop

WAIT_MS = 60000


def sentence(lang, key):
    """What the page says for ``key`` in ``lang``, from the words it is given."""
    with open(os.path.join(I18N_DIR, lang + ".json"), encoding="utf-8") as f:
        return json.load(f)["text"][key]


def open_page(browser, url, lang):
    """A laptop-sized tab on the page in ``lang``, with the script errors it throws."""
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(url + "?lang=" + lang)
    return context, pg, errors


def wait_text(pg, element, want):
    """Wait until ``element`` says ``want``; if it never does, say what it says."""
    try:
        pg.wait_for_function("([id, t]) => document.getElementById(id).textContent.includes(t)",
                             arg=[element, want], timeout=WAIT_MS)
    except Exception:
        raise AssertionError("%r never showed %r; it shows %r" % (
            element, want, pg.text_content("#" + element)))


class RoomPage:
    """The page in the room's white seat, served, with every tab opened on
    it; ``close`` puts it all away and fails on any script error a tab saw,
    so no test passes over a page that threw."""

    def __init__(self, browser, port):
        self.browser = browser
        self.sim, self.seat = page(port, {"SENET_ROOM_PASSPHRASE": PASSPHRASE})
        self.server, self._thread = serve(self.sim)
        self._tabs = []

    def open(self, lang):
        """A new tab on the page in ``lang``."""
        context, pg, errors = open_page(self.browser, self.server.url, lang)
        self._tabs.append((context, errors))
        return pg

    def play_until(self, board, done):
        """The page and ``board`` play until ``done()`` says what it waited for."""
        sim, hands = self.sim, SimHands(self.sim)
        hang = Hang("the page and the board")
        while True:
            found = done()
            if found:
                return found
            if board.act() | page_acts(sim, self.seat, hands):
                hang.moved()
                continue
            idle(board, sim, hang)

    def close(self):
        """The tabs, the server and the page's seat in the room closed."""
        for context, errors in self._tabs:
            context.close()
            assert not errors, errors
        stop(self.server, self._thread)
        self.seat.close()
