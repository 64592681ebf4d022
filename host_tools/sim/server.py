"""The simulator's web server: the page, a JSON API and a live stream.

Standard library only (``http.server``), loopback only. One ``Sim`` is shared
by every request thread and the clock thread; the Sim's lock keeps them apart.

    GET  /                  the page (host_tools/sim/web/index.html, sim.js, sim.css)
    GET  /i18n/<lang>.json  its words (host_tools/words/i18n/)
    GET  /api/state?since=N the whole board state, with log entries after seq N
    GET  /api/stream        the same state as Server-Sent Events, pushed on change
    GET  /api/record        the game on the board as a record file (engine/record.py),
                            named with the date
    GET  /api/replay        the game `senet-board replay FILE` opened, as POST /api/load gives it
    POST /api/<action>      a JSON object in, {"ok": true, "result": ..., "state": ...} out;
                            bad input: 400 {"error": "..."} and nothing changed

Page actions (they read a game and change nothing, so `show` answers them too):
    load      {"files": [{"name": "game.json", "text": ...}, ...]}: a record file, or a
              board's game.json with its game.log; the game to replay (record text,
              headers, ruleset, start, plies, result)
    analyse   {"record": text} (default: the game on the board): host_tools/analysis

Actions (body fields):
    lift      {"square": 1..30}
    place     {"square": 1..30 | "off", "piece": id (default: the piece lifted last)}
    knock     {"square": 1..30 (default: a random piece)}
    button    {"down": true | false}
    press     {"ms": 1..60000 (default 100)}
    chatter   {"on": true | false, "ms": duration (default: until switched off)}
    power_cut {}
    new       {"ruleset": name, "mode": "two_players" | "computer", "side": "B" | "W",
               "level": n}  (the opponent fields are optional; the App checks them)
    command   {"command": {...}} or {"line": "<a serial line>"}
    arrange   {"position": position text (default: the App's position)}
    tick      {"ms": n}  (manual clock only)
"""

import json
import os
import posixpath
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from host_tools.sim import gamefiles
from host_tools.sim.checks import SimError
from host_tools.words import I18N_DIR, LANGUAGES

WEB_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "web")
MAX_BODY = 64 * 1024
STREAM_MIN_S = 0.015     # at most ~60 pushes a second per page
STREAM_PING_S = 15.0

TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".png": "image/png", ".svg": "image/svg+xml",
         ".json": "application/json; charset=utf-8"}


def _args(body, allowed):
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise SimError("unknown field %s; this action takes: %s" % (
            ", ".join('"%s"' % k for k in unknown), ", ".join(allowed) or "nothing"))
    return body


PAGE_ACTIONS = ("load", "analyse")
ACTIONS = ("lift", "place", "knock", "button", "press", "chatter", "power_cut", "new",
           "command", "arrange", "tick")


def _action(server, name, body):
    """Carry out one API action on the server's Sim; return its result."""
    sim = server.sim
    if name == "lift":
        _args(body, ("square",))
        if "square" not in body:
            raise SimError('lift needs "square"')
        return {"piece": sim.lift(body["square"])}
    if name == "place":
        _args(body, ("square", "piece"))
        if "square" not in body:
            raise SimError('place needs "square" (1..30 or "off")')
        return {"piece": sim.place(body["square"], body.get("piece"))}
    if name == "knock":
        _args(body, ("square",))
        return {"square": sim.knock(body.get("square"))}
    if name == "button":
        _args(body, ("down",))
        if "down" not in body:
            raise SimError('button needs "down" (true or false)')
        sim.set_button(body["down"])
        return None
    if name == "press":
        _args(body, ("ms",))
        sim.press(body.get("ms", 100))
        return None
    if name == "chatter":
        _args(body, ("on", "ms"))
        if "on" not in body:
            raise SimError('chatter needs "on" (true or false)')
        sim.set_chatter(body["on"], body.get("ms"))
        return None
    if name == "power_cut":
        _args(body, ())
        sim.power_cut()
        return None
    if name == "new":
        _args(body, ("ruleset", "mode", "side", "level"))
        if "ruleset" not in body:
            raise SimError('new needs "ruleset"')
        return {"events": sim.new_game(body["ruleset"], body.get("mode"), body.get("side"),
                                       body.get("level"))}
    if name == "command":
        _args(body, ("command", "line"))
        if ("command" in body) == ("line" in body):
            raise SimError('command needs exactly one of "command" (an object) or "line" (text)')
        if "line" in body:
            return {"events": sim.command_line(body["line"])}
        return {"events": sim.command(body["command"])}
    if name == "arrange":
        _args(body, ("position",))
        sim.arrange(body.get("position"))
        return None
    if name == "tick":
        _args(body, ("ms",))
        if server.clock is not None:
            raise SimError("the clock runs in real time; tick works only with a manual clock")
        if "ms" not in body:
            raise SimError('tick needs "ms"')
        return {"events": sim.advance(body["ms"])}
    raise SimError("no such action: %s" % name)


def legend():
    """Every light role as it looks, from the firmware's own table
    (firmware/lights.py), in its order: colour, blink pattern and
    brightness. A role added there (the museum's ``offer``) shows here by
    itself; the page's language files give its meaning ("role.<name>")."""
    from firmware.lights import PATTERNS, STYLES
    roles = []
    for role, (colour, pattern, level) in STYLES.items():
        if not role:                      # a dark LED
            continue
        kind, period, data = PATTERNS[pattern]
        roles.append({"role": role, "rgb": list(colour), "level": level,
                      "pattern": pattern, "kind": ("steady", "steps", "tri")[kind],
                      "period": period, "data": list(data) if isinstance(data, tuple) else data})
    return roles


class Handler(BaseHTTPRequestHandler):
    server_version = "senet-board-sim"
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True        # headers and body go out at once, no 40 ms wait

    def log_message(self, fmt, *args):    # the terminal stays quiet
        if self.server.verbose:
            BaseHTTPRequestHandler.log_message(self, fmt, *args)

    # -- replies ------------------------------------------------------------------

    def _send(self, status, body, ctype):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status, obj):
        self._send(status, json.dumps(obj, separators=(",", ":")).encode(), "application/json")

    def _error(self, status, message):
        self._json(status, {"error": message})

    # -- GET ------------------------------------------------------------------------

    def do_GET(self):
        url = urlsplit(self.path)
        path = url.path
        if path == "/api/state":
            since = self._since(url.query)
            if since is None:
                return self._error(HTTPStatus.BAD_REQUEST, "since must be a whole number")
            return self._json(HTTPStatus.OK, self.server.sim.snapshot(since))
        if path == "/api/stream":
            since = self._since(url.query)
            return self._stream(since or 0)
        if path == "/api/page":
            return self._json(HTTPStatus.OK, self.server.page_options())
        if path == "/api/legend":
            return self._json(HTTPStatus.OK, legend())
        if path == "/api/record":
            return self._record()
        if path == "/api/replay":
            if self.server.replay is None:
                return self._error(HTTPStatus.NOT_FOUND, "no game was opened for replay")
            return self._json(HTTPStatus.OK, self.server.replay)
        if path == "/":
            path = "/index.html"
        name = posixpath.basename(path)
        folder = posixpath.dirname(path)
        if folder not in ("/", "/i18n") or name.startswith("."):
            return self._error(HTTPStatus.NOT_FOUND, "no such page: %s" % url.path)
        ext = os.path.splitext(name)[1]
        full = os.path.join(I18N_DIR if folder == "/i18n" else WEB_DIR, name)
        if ext not in TYPES or not os.path.isfile(full):
            return self._error(HTTPStatus.NOT_FOUND, "no such page: %s" % url.path)
        with open(full, "rb") as f:
            self._send(HTTPStatus.OK, f.read(), TYPES[ext])

    do_HEAD = do_GET

    def _record(self):
        """The record of the game on the board, as a file to keep."""
        when = gamefiles.now()
        sim = self.server.sim
        try:
            with sim.lock:                # the clock thread plays on meanwhile
                text = gamefiles.record_text(sim.record_game(), when)
        except SimError as exc:
            return self._error(HTTPStatus.CONFLICT, str(exc))
        body = text.encode("utf-8")
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Disposition",
                         'attachment; filename="%s"' % gamefiles.record_name(when))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    @staticmethod
    def _since(query):
        values = parse_qs(query).get("since", ["0"])
        try:
            since = int(values[0])
        except ValueError:
            return None
        return since if since >= 0 else None

    def _stream(self, since):
        """Server-Sent Events: the state each time it changes, at most ~60 a second."""
        sim = self.server.sim
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        seen = -1
        try:
            while not self.server.stopping.is_set():
                with sim.lock:
                    if sim.version == seen and not sim.closed:
                        sim.changed.wait(STREAM_PING_S)
                    if sim.closed or self.server.stopping.is_set():
                        break
                    if sim.version == seen:
                        data = None
                    else:
                        state = sim.snapshot(since)
                        seen = state["version"]
                        since = state["seq"]
                        data = json.dumps(state, separators=(",", ":"))
                if data is None:
                    self.wfile.write(b": ping\n\n")
                else:
                    self.wfile.write(b"data: " + data.encode() + b"\n\n")
                self.wfile.flush()
                self.server.stopping.wait(STREAM_MIN_S)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            pass

    # -- POST -----------------------------------------------------------------------

    def do_POST(self):
        url = urlsplit(self.path)
        if not url.path.startswith("/api/"):
            return self._error(HTTPStatus.NOT_FOUND, "no such action: %s" % url.path)
        name = url.path[len("/api/"):]
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            return self._error(HTTPStatus.BAD_REQUEST, "Content-Length must be a number")
        if length > (gamefiles.MAX_RECORD if name in PAGE_ACTIONS else MAX_BODY):
            return self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "request body too large")
        raw = self.rfile.read(length) if length else b"{}"
        try:
            body = json.loads(raw.decode("utf-8") or "{}")
        except (ValueError, UnicodeDecodeError) as exc:
            return self._error(HTTPStatus.BAD_REQUEST, "body must be a JSON object: %s" % exc)
        if not isinstance(body, dict):
            return self._error(HTTPStatus.BAD_REQUEST, "body must be a JSON object, got %s"
                               % type(body).__name__)
        since = body.pop("since", None)
        if since is not None and (isinstance(since, bool) or not isinstance(since, int)):
            return self._error(HTTPStatus.BAD_REQUEST, "since must be a whole number")
        if name in PAGE_ACTIONS:
            return self._page_action(name, body)
        if self.server.read_only:
            return self._error(HTTPStatus.FORBIDDEN, "this page mirrors a real board and "
                               "only shows it: play on the board itself")
        if name not in ACTIONS:
            return self._error(HTTPStatus.NOT_FOUND, "no such action: %s (there are: %s)"
                               % (name, ", ".join(ACTIONS)))
        try:
            result = _action(self.server, name, body)
        except SimError as exc:
            return self._error(HTTPStatus.BAD_REQUEST, str(exc))
        except Exception as exc:          # a fault in the App: say so, keep serving
            return self._error(HTTPStatus.INTERNAL_SERVER_ERROR, "%s: %s" % (
                type(exc).__name__, exc))
        self._json(HTTPStatus.OK, {"ok": True, "result": result,
                                   "state": self.server.sim.snapshot(since or 0)})


    def _page_action(self, name, body):
        """Read a game for the page (load, analyse): the board is not touched."""
        try:
            if name == "load":
                _args(body, ("files",))
                result = gamefiles.replay_data(gamefiles.load_files(body.get("files")))
            else:
                _args(body, ("record",))
                result = gamefiles.analysis(body.get("record"), self.server.sim)
        except SimError as exc:
            return self._error(HTTPStatus.BAD_REQUEST, str(exc))
        self._json(HTTPStatus.OK, {"ok": True, "result": result})


class SimServer(ThreadingHTTPServer):
    """The HTTP server around one Sim. ``clock`` is the real-time Clock, or
    None for a manual clock (advanced through /api/tick)."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, sim, host="127.0.0.1", port=0, clock=None, verbose=False,
                 lang=None, read_only=False, replay=None):
        self.sim = sim
        self.clock = clock
        self.verbose = verbose
        self.lang = lang                  # --lang: the page's language unless the URL names one
        self.read_only = read_only        # the mirror of a real board: no POST changes anything
        self.replay = replay              # `replay FILE`: the game the page opens with
        self.stopping = threading.Event()
        ThreadingHTTPServer.__init__(self, (host, port), Handler)

    def page_options(self):
        """What the page needs to know about this server before it draws."""
        return {"lang": self.lang, "languages": list(LANGUAGES),
                "mirror": self.read_only}

    @property
    def url(self):
        host, port = self.server_address[:2]
        return "http://%s:%d/" % (host, port)

    def stop(self):
        """End the streams, the clock and the server (call from another thread
        than serve_forever's, or after it returned)."""
        self.stopping.set()
        self.sim.close()
        if self.clock is not None:
            self.clock.stop()


def page_url(base, lang=None, view=None):
    """The page's address with its language and view, as the command asked."""
    query = []
    if view == "kiosk":
        query.append("view=kiosk")
    if lang:
        query.append("lang=" + lang)
    return base + ("?" + "&".join(query) if query else "")


def serve(server, title, lang=None, view=None, browser=True, on_stop=None):
    """Print the page's address (opening a browser on it) and serve until Ctrl-C."""
    import webbrowser
    url = page_url(server.url, lang, view)
    print("%s: %s  (Ctrl-C stops it)" % (title, url), flush=True)
    if browser:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        print("\nstopping", flush=True)
    finally:
        if on_stop is not None:
            on_stop()
        server.stop()
        server.server_close()
    return 0
