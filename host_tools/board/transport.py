"""Talking to a board for a deploy: the serial checks before it, mpremote
during it, the first event after it.

mpremote does all the copying: :func:`mpremote` runs it as
``python -m mpremote`` and turns its failures into the sentences of
host_tools/board/messages.py. The probe's program and its reading are in
host_tools/board/plan.py.
"""

import os
import subprocess
import sys
import time

from host_tools.board.messages import (BUSY, FLASH_FULL, MPREMOTE_FAILED,
                                       NOT_MICROPYTHON, NOT_STARTED, RESTARTED, WATCHDOG,
                                       DeployError)
from host_tools.board.plan import PROBE, Flash
from host_tools.board.serialport import open_port, parse_event, read_for

RAW_BANNER = b"raw REPL; CTRL-B to exit"
START_TIMEOUT = 15.0           # seconds for the new firmware to say hello


def precheck(port):
    """Is it free, is it MicroPython, is it safe to stop? Return the running
    firmware's hello event, if it answered one."""
    ser = open_port(port)
    try:
        ser.write(b'\r\n{"cmd": "hello"}\r\n')
        answer = read_for(ser, 0.4, b'"version"')
        hello = None
        for line in answer.splitlines():
            event = parse_event(line)
            if event and event.get("event") == "hello":
                hello = event
        if hello and hello.get("watchdog"):
            raise DeployError(WATCHDOG)
        ser.write(b"\r\x03\x03")
        read_for(ser, 0.1)
        ser.write(b"\r\x01")
        answer = read_for(ser, 2.0, RAW_BANNER)
        if RAW_BANNER not in answer:
            raise DeployError(NOT_MICROPYTHON % port)
        ser.write(b"\r\x02")
        read_for(ser, 0.05)
        return hello
    finally:
        ser.close()


def mpremote_failure(port, lines, returncode):
    """The sentence for a failed mpremote run, from its output ``lines``."""
    text = "\n".join(lines)
    if "could not enter raw repl" in text:
        return NOT_MICROPYTHON % port
    if "failed to access" in text or "in use" in text:
        return BUSY % port
    if "ENOSPC" in text or "Errno 28" in text:
        return FLASH_FULL % (0, 0)
    if ("returned no data" in text or "Input/output error" in text
            or "device disconnected" in text.lower()):
        return RESTARTED
    last = [line for line in lines if line.strip()]
    return MPREMOTE_FAILED % (last[-1].strip() if last else "exit code %d" % returncode)


def mpremote(port, args, on_line=None):
    """Run ``python -m mpremote connect PORT ARGS``; return its output lines.

    Failures become DeployErrors with the matching sentence."""
    cmd = [sys.executable, "-m", "mpremote", "connect", port] + list(args)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, errors="replace")
    lines = []
    for line in proc.stdout:
        line = line.rstrip("\r\n")
        lines.append(line)
        if on_line:
            on_line(line)
    proc.wait()
    if proc.returncode != 0:
        raise DeployError(mpremote_failure(port, lines, proc.returncode))
    return lines


def probe(port):
    """What the board is and what its flash holds."""
    flash = Flash.parse(mpremote(port, ["exec", PROBE]))
    if flash.name != "micropython":
        raise DeployError(NOT_MICROPYTHON % port)
    return flash


def copy_args(built, todo):
    """mpremote's arguments for the plan: remove, make folders, copy (main.py
    last), then print the firmware version the board now imports."""
    args = []
    for path, is_dir in todo.remove:
        args += ["fs", "rm"] + (["-r"] if is_dir else []) + [":" + path, "+"]
    for d in todo.mkdirs:
        args += ["fs", "mkdir", ":" + d, "+"]
    for path in todo.copy:
        args += ["fs", "cp", os.path.join(built.out, *path.split("/")), ":" + path, "+"]
    return args + ["exec", "try:\n from firmware.version import VERSION\n"
                   "except Exception as e:\n VERSION = '(none: %r)' % e\n"
                   "print('SENET-VERSION', VERSION)"]


def apply(port, built, todo, say, image=None):
    """Remove, make folders, copy, and read the version back, in one mpremote run;
    first, given a ROMFS ``image``, write it into the board's partition
    (``mpremote romfs deploy``) and soft-reset, so that MicroPython mounts it."""
    state = {"step": 0, "version": None}

    def on_line(line):
        if line.startswith("cp "):
            state["step"] += 1
            dest = line.rsplit(":", 1)[-1]
            size = built.size(dest) if dest in built.files else 0
            say("  [%d/%d] copy %s (%.1f KB)" % (state["step"], len(todo.copy), dest,
                                                   size / 1024))
        elif line.startswith("rm "):
            say("  remove stale %s" % line[3:].replace("-r ", "").lstrip(":"))
        elif line.startswith("SENET-VERSION "):
            state["version"] = line.split(" ", 1)[1].strip()
        elif line.endswith("ROMFS image deployed"):
            say("  wrote the ROMFS image")

    first = []
    if image:
        say("  writing the ROMFS image (%.1f KB)" % (os.path.getsize(image) / 1024))
        first = ["romfs", "deploy", image, "+", "soft-reset", "+"]
    mpremote(port, first + copy_args(built, todo), on_line)
    return state["version"]


def first_event(ser, timeout, wanted=("hello", "maintenance"), seen=None):
    """(the first event named in ``wanted``, the config notes right after it)
    from a board's serial line: by default the hello (or maintenance) of a
    board starting up. Every event read on the way, the wanted one included,
    is appended to ``seen``. When none comes within ``timeout`` s, or the
    board stops at its prompt with an error, DeployError says what it
    printed last."""
    other = []
    buf = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        buf += ser.read(256)
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            event = parse_event(line)
            if event and seen is not None:
                seen.append(event)
            if event and event["event"] in wanted:
                extra = read_for(ser, 0.3)
                notes = [parse_event(l) for l in (buf + extra).splitlines()]
                return event, [n for n in notes if n and n["event"] == "config"]
            text = line.decode("utf-8", "replace").strip()
            if text and "soft reboot" not in text:
                other.append(text)
        if buf.endswith(b">>> ") and any("Error" in t for t in other):
            break
    reason = other[-1] if other else "no answer within %d s" % timeout
    raise DeployError(NOT_STARTED % reason)


def start(port, timeout=START_TIMEOUT):
    """Soft-reset into main.py from the friendly REPL; return the first event."""
    ser = open_port(port, timeout=0.05)
    try:
        ser.write(b"\r\x03\x03")
        read_for(ser, 0.1)
        ser.write(b"\r\x02")
        read_for(ser, 0.3, b">>> ")
        ser.write(b"\x04")                  # soft reboot: runs main.py
        return first_event(ser, timeout)
    finally:
        ser.close()
