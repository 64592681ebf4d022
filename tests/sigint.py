"""Ctrl-C for a program a test starts.

A shell that runs a job in the background without job control (a CI runner,
``nohup cmd &`` in a script) starts it with SIGINT ignored, and every child
inherits that: Python then never turns SIGINT into KeyboardInterrupt, and a
test that presses Ctrl-C on a command would wait for nothing. The tests that
press it start the command with SIGINT at its default, as a terminal would.
"""

import signal


def as_from_a_terminal():
    """``preexec_fn`` for subprocess.Popen: SIGINT back to its default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
