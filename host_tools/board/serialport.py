"""The board's serial port: found, opened and read the same way by every tool.

``deploy``, ``monitor`` and ``check`` take the same ``--port`` option
(:func:`add_port_argument`) and open the port through :func:`connect`, so a
missing, busy or wrong port gets the same one-sentence answer everywhere
(host_tools/board/messages.py).
"""

import json
import os
import stat
import time

from host_tools.board.messages import (BUSY, DENIED, NO_BOARD, NO_PORT, NOT_SERIAL,
                                       SEVERAL, DeployError)

PICO_VID = 0x2E8A              # Raspberry Pi (the Pico's USB vendor id)
ADAFRUIT_VID = 0x239A          # CircuitPython's, on the Pico too (PID 0x80F4)
BAUD = 115200                  # ignored by USB CDC, but pyserial wants one


def add_port_argument(parser):
    """The one ``--port`` option of every tool that talks to a board."""
    parser.add_argument("--port", metavar="P", help="serial port (default: find the Pico)")


def find_port(port=None):
    """The serial port of the one Pico plugged in (or ``port``, checked)."""
    if port:
        if port.upper().startswith("COM"):
            return port
        if not os.path.exists(port):
            raise DeployError(NO_PORT % port)
        if not stat.S_ISCHR(os.stat(port).st_mode):
            raise DeployError(NOT_SERIAL % port)   # a file or a folder, not a device
        return port
    from serial.tools import list_ports
    ports = list(list_ports.comports())
    picos = [p.device for p in ports if p.vid in (PICO_VID, ADAFRUIT_VID)]
    if not picos:
        picos = [p.device for p in ports
                 if "micropython" in ("%s %s" % (p.manufacturer, p.product)).lower()]
    if not picos:
        raise DeployError(NO_BOARD)
    if len(picos) > 1:
        raise DeployError(SEVERAL % ", ".join(sorted(picos)))
    return picos[0]


def never_a_board(port):
    """The sentence for a ``port`` that can never become a board's serial
    port (a file, a folder, /dev/null), else None. A port that is missing or
    busy may yet be the board, plugged in or let go later; `show` waits."""
    if not port or port.upper().startswith("COM") or not os.path.exists(port):
        return None
    if not stat.S_ISCHR(os.stat(port).st_mode):
        return NOT_SERIAL % port
    try:
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return None                   # busy or not ours: the opener will say why
    try:
        return None if os.isatty(fd) else NOT_SERIAL % port
    finally:
        os.close(fd)


def open_port(port, timeout=0.05):
    """The port opened exclusively with pyserial, or the sentence for why not."""
    import serial
    try:
        return serial.Serial(port, BAUD, timeout=timeout, exclusive=True)
    except serial.SerialException as e:
        raise DeployError(open_failure(port, str(e)))


def open_failure(port, text):
    """The sentence for pyserial's complaint ``text`` about opening ``port``."""
    if "ermission denied" in text or "rrno 13]" in text:
        return DENIED % port
    if "No such file" in text or "rrno 2]" in text:
        return NO_PORT % port
    if "nappropriate ioctl" in text or "rrno 25]" in text:
        return NOT_SERIAL % port                  # /dev/null and the like
    return BUSY % port


def connect(port=None, timeout=0.05):
    """Find the board (or check ``port``) and open it: (port name, open Serial)."""
    port = find_port(port)
    return port, open_port(port, timeout)


def read_for(ser, seconds, until=None):
    """Bytes read from ``ser`` for ``seconds``, or until ``until`` arrives."""
    data = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        chunk = ser.read(256)
        if chunk:
            data += chunk
            if until is not None and until in data:
                break
    return data


def parse_event(line):
    """The event dict on a serial line, or None for anything else."""
    if isinstance(line, bytes):
        line = line.decode("utf-8", "replace")
    line = line.strip()
    if not line.startswith("{"):
        return None
    try:
        event = json.loads(line)
    except ValueError:
        return None
    if isinstance(event, dict) and isinstance(event.get("event"), str):
        return event
    return None
