"""Real time for `senet-board sim`: a thread that steps the virtual board.

On the Pico the main loop scans and steps the App every 10 ms; here a thread
does the same to a Sim (host_tools/sim/board.py), catching up after a late
tick by stepping to the time it is now. Tests use the Sim's manual clock
(``advance``) instead and never start one.
"""

import threading
import time


class Clock:
    """Steps a Sim in real time, every ``sim.tick_ms``, in a thread."""

    def __init__(self, sim):
        self.sim = sim
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sim-clock", daemon=True)
        self.error = None

    def start(self):
        self._thread.start()
        return self

    def _run(self):
        start = time.monotonic() - self.sim.now_ms / 1000.0
        tick = self.sim.tick_ms / 1000.0
        while not self._stop.is_set():
            began = time.monotonic()
            try:
                self.sim.step_to(int((began - start) * 1000))
            except Exception as exc:        # keep the page alive; show what broke
                self.error = exc
                self.sim.report_error(exc)
                self._stop.wait(1.0)
            spent = time.monotonic() - began
            self._stop.wait(max(0.0, tick - spent))

    def stop(self):
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(2.0)
