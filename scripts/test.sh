#!/usr/bin/env bash
# Set up a fresh machine and run every test: CPython, the MicroPython unix port,
# mpy-cross, mpremote against a stand-in device, and headless Chromium.
# Usage: scripts/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's Chromium drives the browser tests (no browser is downloaded).
if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "== installing Debian's chromium for the browser tests"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "== chromium not found and not root: the browser tests will fail;" \
             "install Debian's chromium (apt-get install chromium) or run this as root"
    fi
fi

# systemd-analyze checks the units `senet-board kiosk` writes; without it that
# test fails and says what to install.
if ! command -v systemd-analyze >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "== installing Debian's systemd for systemd-analyze (the kiosk units' test)"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd \
            >/dev/null; } || echo "== systemd could not be installed: the kiosk units' check will fail"
    else
        echo "== systemd-analyze not found and not root: the kiosk units' check will fail;" \
             "install Debian's systemd or run this as root"
    fi
fi

# Debian's Mosquitto is the broker the remote-play tests start on a free local
# port (tests/mqtt_broker.py); without it they fail and say what to install.
if [ ! -x /usr/sbin/mosquitto ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "== installing Debian's mosquitto for the remote-play tests"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto \
            >/dev/null; } || echo "== mosquitto could not be installed: the remote-play tests will fail"
    else
        echo "== mosquitto not found and not root: the remote-play tests will fail;" \
             "install Debian's mosquitto (apt-get install mosquitto) or run this as root"
    fi
fi

# Debian's gdb counts the MicroPython collector's mark-stack overflows in a
# real run of the board loop (tests/firmware_tests/test_gc_overflow.py);
# without it that test fails and says what to install.
if ! command -v gdb >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "== installing Debian's gdb for the collector's overflow test"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gdb \
            >/dev/null; } || echo "== gdb could not be installed: the collector's overflow test will fail"
    else
        echo "== gdb not found and not root: the collector's overflow test will fail;" \
             "install Debian's gdb (apt-get install gdb) or run this as root"
    fi
fi

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
