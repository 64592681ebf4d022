"""Serial command lines (firmware/board.py ``SerialLines``): whole lines
from a stream polled without blocking, over-long ones dropped whole, and on
MicroPython a pass that completes no line makes no garbage (the board loop
calls it every pass; a list a pass was two thirds of the loop's garbage
between two collections: docs/dev/firmware-modules.md)."""

import os
import subprocess
import sys
import time

import pytest

from mpyhelp import ROOT, compile_lib, tool

from firmware import board as board_loop

HANG_S = 120                     # only a hang takes this long


class Unbuffered:
    """A pipe's reading end read a byte at a time, as MicroPython's stdin
    is: CPython's text files read ahead of what the poll sees."""

    def __init__(self, fd):
        self.fd = fd

    def fileno(self):
        return self.fd

    def read(self, n):
        return os.read(self.fd, n).decode()


@pytest.fixture
def pipe():
    r, w = os.pipe()
    writer = os.fdopen(w, "w")
    yield Unbuffered(r), writer
    os.close(r)
    writer.close()


def test_lines_come_whole_and_only_once_complete(pipe):
    reader, writer = pipe
    serial = board_loop.SerialLines(reader)
    assert list(serial.lines()) == []
    writer.write('{"cmd": "hel')
    writer.flush()
    assert list(serial.lines()) == []                   # not complete yet
    writer.write('lo"}\r\n\n{"cmd": "health"}\n')        # CR, LF, an empty line
    writer.flush()
    assert serial.lines() == ['{"cmd": "hello"}', '{"cmd": "health"}']
    assert list(serial.lines()) == []


def test_a_line_longer_than_the_limit_is_dropped_whole_and_said_once(pipe):
    reader, writer = pipe
    serial = board_loop.SerialLines(reader)
    writer.write("x" * (board_loop.LINE_MAX + 1) + "\n" + "y" * board_loop.LINE_MAX + "\n")
    writer.flush()
    assert serial.lines() == [None, "y" * board_loop.LINE_MAX]


SCRIPT = """
import sys, gc
sys.path.insert(0, sys.argv[1])
from firmware.board import SerialLines


def garbage(serial, count):
    # bytes allocated by ``count`` passes that complete no line (locals
    # only, and no range object: the measure makes nothing of its own)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    i = 0
    while i < count:
        got = serial.lines()
        assert not got, got
        i += 1
    made = gc.mem_alloc() - before
    gc.enable()
    return made


serial = SerialLines()
assert serial._ipoll, "MicroPython's poll has ipoll"
garbage(serial, 50)             # the first passes make what ipoll keeps for good
print("NOTHING", garbage(serial, 500))
while True:
    got = serial.lines()
    if got:
        break
print("LINE", got[0])
print("AFTER", garbage(serial, 500))
"""


@pytest.mark.micropython
def test_on_micropython_a_pass_with_no_line_makes_no_garbage(tmp_path):
    lib = compile_lib(tmp_path / "lib")
    script = tmp_path / "serial.py"
    script.write_text(SCRIPT)
    proc = subprocess.Popen([tool("micropython"), "-X", "heapsize=480K", str(script), lib],
                            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        first = proc.stdout.readline()
        assert first.startswith("NOTHING"), first + proc.stdout.read()
        assert first.split()[1] == "0", (
            "500 passes with nothing on the serial line allocated %s bytes" % first.split()[1])
        proc.stdin.write('{"cmd": "hello"}\n')
        proc.stdin.flush()
        deadline = time.monotonic() + HANG_S
        out, _ = proc.communicate(timeout=max(1, deadline - time.monotonic()))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, out
    assert 'LINE {"cmd": "hello"}' in out, out
    assert "AFTER 0" in out, out
