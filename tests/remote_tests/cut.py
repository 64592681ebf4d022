"""A wire between a board and the broker that a test can cut: a small TCP
relay on a free local port. ``cut()`` drops every connection at once, as a
pulled network cable or a power cut does (the broker then sends the board's
last will), and refuses new ones until ``mend()``."""

import socket
import threading

from mqtt_broker import free_port


class Wire:
    def __init__(self, broker_port):
        self.broker_port = broker_port
        self.port = free_port()
        self._open = True
        self._pairs = []
        self._lock = threading.Lock()
        self._server = socket.socket()
        self._server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._server.bind(("127.0.0.1", self.port))
        self._server.listen(8)
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            if not self._open:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.broker_port), 5)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._pairs.append((client, upstream))
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client), daemon=True).start()

    @staticmethod
    def _pump(src, dst):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self):
        self._open = False
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            for s in pair:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    def mend(self):
        self._open = True

    def close(self):
        self.cut()
        self._server.close()
