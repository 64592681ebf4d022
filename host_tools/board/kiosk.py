"""`senet-board kiosk`: the files a museum PC needs to start the screen by itself.

Two systemd user units and one desktop autostart entry, written for the
Python, the board and the browser of the PC the command runs on:

- ``senet-board-show.service`` runs ``senet-board show --view kiosk`` on the
  board's udev name under /dev/serial/by-id (the same Pico, whichever ttyACM
  number it gets after a reboot), or with no ``--port`` when no Pico is
  plugged in yet, so `show` finds the one Pico itself. It starts with the
  user's session (default.target) and comes back whenever it ends.
- ``senet-board-browser.service`` opens Chromium full screen on show's page
  once the page answers, keeps the X11 screen from blanking, and comes back
  when the browser is closed or crashes.
- ``senet-board-kiosk.desktop`` (~/.config/autostart) hands the desktop's
  DISPLAY/WAYLAND_DISPLAY to the user's systemd and starts the browser unit:
  Raspberry Pi OS's labwc and wayfire never start graphical-session.target,
  so without it the browser unit would wait for a session that never comes.

Blanking on Wayland (labwc, wayfire) is the desktop's own setting, not an X
one; the command says how to switch it off (docs/museum.md).
"""

import os
import shutil
import sys
import time

SHOW = "senet-board-show.service"
BROWSER = "senet-board-browser.service"
AUTOSTART = "senet-board-kiosk.desktop"
BY_ID = "/dev/serial/by-id"
BROWSERS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")   # Debian, Raspberry Pi OS
USAGE_CSV = "%h/senet-usage.csv"   # the visitors' figures, a row a day (docs/museum.md)
RESTART_S = 5                 # a crashed show or browser is back this soon
WAIT_TRY_S = 0.5              # how often the browser unit asks whether the page answers

# Chromium as a kiosk: full screen, no dialogs, bars or "restore pages?" after
# a power cut, and a profile of its own so the desktop's browser is untouched.
CHROMIUM_FLAGS = ("--kiosk", "--noerrdialogs", "--disable-infobars", "--no-first-run",
                  "--disable-session-crashed-bubble", "--password-store=basic",
                  "--user-data-dir=%h/.cache/senet-board-kiosk")

WAYLAND_BLANKING = ("On Raspberry Pi OS's Wayland desktop (labwc or wayfire) switch screen "
                    "blanking off once: sudo raspi-config nonint do_blanking 1 (or Preferences > "
                    "Control Centre > Display > Screen Blanking: off), then reboot.")


class KioskError(Exception):
    """Bad input for the kiosk files: one sentence, nothing written."""


def add_arguments(parser):
    from host_tools.board.serialport import add_port_argument
    from host_tools.words import LANGUAGES
    add_port_argument(parser)
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--print", action="store_true",
                      help="write the files to stdout, or into the folder --out")
    what.add_argument("--install", action="store_true",
                      help="write them into ~/.config/systemd/user and ~/.config/autostart")
    what.add_argument("--wait-for", metavar="URL",
                      help="wait until URL answers (the browser unit's first step)")
    parser.add_argument("--out", metavar="DIR", help="with --print: the folder to write into")
    parser.add_argument("--http-port", type=int, default=8738, metavar="P",
                        help="the page's port on 127.0.0.1 (default 8738)")
    parser.add_argument("--lang", choices=LANGUAGES, help="the exhibit's default language")
    parser.add_argument("--browser", metavar="PATH",
                        help="the browser (default: Debian's or Raspberry Pi OS's chromium)")


def run(args):
    try:
        if args.wait_for:
            if not args.wait_for.startswith(("http://", "https://")):
                raise KioskError("--wait-for wants the page's address, http://..., not %s"
                                 % args.wait_for)
            return wait_for(args.wait_for)
        if args.out and not args.print:
            raise KioskError("--out goes with --print (--install writes into ~/.config)")
        files = kiosk_files(board_port(args.port), pick_browser(args.browser),
                            check_http_port(args.http_port), args.lang)
        if args.install:
            return install(files, config_home())
        return print_files(files, args.out)
    except KioskError as exc:
        print("senet-board kiosk: %s" % exc, file=sys.stderr)
        return 1


# -- what goes in the files ----------------------------------------------------------

def board_port(port=None):
    """The board's udev name to put in the show unit, or None when no Pico is
    plugged in now (show then finds the one Pico itself each time it starts)."""
    from host_tools.board.messages import NO_PORT, DeployError
    from host_tools.board.serialport import find_port, never_a_board
    if port:
        if not os.path.exists(port):
            raise KioskError(NO_PORT % port)
        problem = never_a_board(port)
        if problem:
            raise KioskError(problem)
        return stable_port(port)
    try:
        found = find_port()
    except DeployError:
        return None
    return stable_port(found)


def stable_port(device, folder=BY_ID):
    """The /dev/serial/by-id name of ``device`` (named after the Pico's USB id
    and serial number, so it survives reboots and other USB devices), else
    ``device`` itself."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return device
    target = os.path.realpath(device)
    for name in names:
        path = os.path.join(folder, name)
        if os.path.realpath(path) == target:
            return path
    return device


def pick_browser(path=None):
    """The browser to run full screen: ``path``, else Debian's or Raspberry Pi
    OS's Chromium."""
    if path:
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise KioskError("no browser at %s (give --browser the path of chromium)" % path)
        return os.path.abspath(path)
    for candidate in BROWSERS:
        if os.access(candidate, os.X_OK):
            return candidate
    raise KioskError("no Chromium found (apt install chromium, or give --browser PATH)")


def check_http_port(port):
    if not 1 <= port <= 65535:
        raise KioskError("--http-port must be between 1 and 65535, not %d" % port)
    return port


def senet_board():
    """How this installation's `senet-board` is started: its script beside
    this Python (a venv or pipx), else this Python running the command line."""
    script = os.path.join(os.path.dirname(sys.executable), "senet-board")
    if os.access(script, os.X_OK):
        return [os.path.abspath(script)]
    return [sys.executable, "-m", "host_tools.cli"]


def quote(word):
    """``word`` as one systemd command-line word (systemd.syntax(7))."""
    word = word.replace("%", "%%").replace("$", "$$")
    if word and not any(c in word for c in " \t\"'\\;"):
        return word
    return '"%s"' % word.replace("\\", "\\\\").replace('"', '\\"')


def command(words, raw=()):
    """A command line for a unit; ``raw`` words keep their systemd specifiers."""
    return " ".join([quote(w) for w in words] + list(raw))


def page_address(http_port, lang=None):
    from host_tools.sim.server import page_url
    return page_url("http://127.0.0.1:%d/" % http_port, lang, "kiosk")


def show_unit(port, http_port, lang=None):
    """The unit that mirrors the board on the page."""
    words = senet_board() + ["show", "--view", "kiosk", "--no-browser",
                             "--http-port", str(http_port)]
    if port:
        words += ["--port", port]
    if lang:
        words += ["--lang", lang]
    where = port or "the one Pico plugged in"
    usage = ["--usage", USAGE_CSV]         # %h: systemd puts the user's home there
    return "\n".join([
        "[Unit]",
        "Description=Senet board: the kiosk page of the board on %s" % where.replace("%", "%%"),
        "",
        "[Service]",
        "Environment=PYTHONUNBUFFERED=1",      # its lines reach journalctl at once
        "ExecStart=" + command(words, usage),
        "Restart=always",
        "RestartSec=%d" % RESTART_S,
        "",
        "[Install]",
        "WantedBy=default.target",
        ""])


def browser_unit(browser, http_port, lang=None):
    """The unit that shows the page full screen, after show answers."""
    url = page_address(http_port, lang)
    base = "http://127.0.0.1:%d/" % http_port
    return "\n".join([
        "[Unit]",
        "Description=Senet board: Chromium full screen on the kiosk page",
        "Wants=%s" % SHOW,
        "After=%s graphical-session.target" % SHOW,
        "PartOf=graphical-session.target",
        "",
        "[Service]",
        # X11 only: no screen saver, no power-off of the monitor (harmless on Wayland).
        'ExecStartPre=-/bin/sh -c "xset s off -dpms s noblank || true"',
        "ExecStartPre=" + command(senet_board() + ["kiosk", "--wait-for", base]),
        "ExecStart=" + command([browser] + [w for w in CHROMIUM_FLAGS if "%h" not in w],
                               [w for w in CHROMIUM_FLAGS if "%h" in w] + [quote(url)]),
        "TimeoutStartSec=infinity",
        "Restart=always",
        "RestartSec=%d" % RESTART_S,
        "",
        "[Install]",
        "WantedBy=graphical-session.target",
        ""])


def autostart_entry():
    """The desktop's login hook: give systemd the display, start the browser."""
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Name=Senet board kiosk",
        "Comment=Starts the Senet board's kiosk screen (systemd user units)",
        'Exec=sh -c "systemctl --user import-environment DISPLAY WAYLAND_DISPLAY XAUTHORITY;'
        ' systemctl --user start %s"' % BROWSER,
        "X-GNOME-Autostart-enabled=true",
        ""])


def kiosk_files(port, browser, http_port, lang=None):
    """{path relative to ~/.config: text} of everything a museum PC needs."""
    return {
        os.path.join("systemd", "user", SHOW): show_unit(port, http_port, lang),
        os.path.join("systemd", "user", BROWSER): browser_unit(browser, http_port, lang),
        os.path.join("autostart", AUTOSTART): autostart_entry(),
    }


# -- writing them --------------------------------------------------------------------

def config_home():
    return os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")


def print_files(files, out=None):
    """The files on stdout, each under its ~/.config path, or into ``out``."""
    if out is None:
        for rel in sorted(files):
            print("# ~/.config/%s\n%s" % (rel, files[rel]))
        print("# " + WAYLAND_BLANKING)
        return 0
    if os.path.exists(out) and not os.path.isdir(out):
        raise KioskError("--out %s is a file, not a folder" % out)
    os.makedirs(out, exist_ok=True)
    for rel in sorted(files):
        write(os.path.join(out, os.path.basename(rel)), files[rel])
    print("wrote %s into %s" % (", ".join(sorted(os.path.basename(r) for r in files)), out))
    return 0


def install(files, home):
    """The files in the user's ~/.config, and the two commands that enable them."""
    for rel in sorted(files):
        path = os.path.join(home, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write(path, files[rel])
        print("wrote %s" % path)
    print("Enable them (they start at the next login):\n"
          "  systemctl --user daemon-reload\n"
          "  systemctl --user enable %s %s" % (SHOW, BROWSER))
    print(WAYLAND_BLANKING)
    return 0


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


# -- the browser unit's first step ---------------------------------------------------

def wait_for(url, sleep=time.sleep, opener=None):
    """Return 0 once ``url`` answers over HTTP; until then ask again. Chromium
    opened before show listens would show an error page and stay on it."""
    import urllib.request
    opener = opener or (lambda u: urllib.request.urlopen(u, timeout=5).close())
    told = False
    while True:
        try:
            opener(url)
            return 0
        except OSError as exc:
            if not told:
                print("waiting for the page at %s (%s)" % (url, exc), flush=True)
                told = True
        sleep(WAIT_TRY_S)
