"""The page's server (host_tools/sim/server.py) as the tests run it: on a
free local port, answering in a thread of its own, for the simulator's board
or for show's mirror of a real one; and put away again whatever a test
leaves behind, so the port and the thread end with the test.
"""

import threading

from host_tools.sim.server import SimServer


def serve(board, read_only=False, **options):
    """The page of ``board`` served at ``server.url``; read-only as show
    serves a real board's mirror (the page plays nothing); ``options`` go to
    SimServer (``clock=None``: a manual clock)."""
    server = SimServer(board, "127.0.0.1", 0, read_only=read_only, **options)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    return server, thread


def stop(server, thread):
    """The server closed and its thread ended (a bounded wait: a thread that
    will not end is the daemon's to drop, not a reason to hang a test)."""
    server.shutdown()
    server.stop()
    server.server_close()
    thread.join(5)
