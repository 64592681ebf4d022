"""A real MQTT broker for the tests: Debian's Mosquitto on a free local
port, with a config file of its own in a temporary folder.

    with Broker(tmp_path) as broker:          # or the ``broker`` fixture
        broker.port, broker.restart(), broker.stop()
    Broker(tmp_path, tls=True)                # TLS with a certificate made here

No mock: when /usr/sbin/mosquitto is missing the test fails, saying to
install it (scripts/test.sh does, as root: apt-get install mosquitto).
"""

import getpass
import os
import socket
import subprocess
import time

import pytest

MOSQUITTO = "/usr/sbin/mosquitto"
INSTALL = ("Debian's mosquitto is not installed (%s missing): run scripts/test.sh "
           "as root, or apt-get install mosquitto" % MOSQUITTO)
_READY_S = 60        # a broker that does not listen by then is hung, not slow


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_cert(folder):
    """A self-made CA and a server certificate for 127.0.0.1, made with the
    ``openssl`` command; returns (ca, cert, key) paths."""
    ca, ca_key = os.path.join(folder, "ca.pem"), os.path.join(folder, "ca.key")
    cert, key = os.path.join(folder, "server.pem"), os.path.join(folder, "server.key")
    csr, ext = os.path.join(folder, "server.csr"), os.path.join(folder, "ext.cnf")
    with open(ext, "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    run = lambda *a: subprocess.run(a, check=True, capture_output=True)  # noqa: E731
    run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
        "-subj", "/CN=senet test CA", "-keyout", ca_key, "-out", ca)
    run("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
        "-keyout", key, "-out", csr)
    run("openssl", "x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key,
        "-CAcreateserial", "-days", "2", "-extfile", ext, "-out", cert)
    return ca, cert, key


class Broker:
    """One Mosquitto process; ``restart`` keeps the port and the retained
    messages (persistence on), as a broker restarted by its keeper would."""

    def __init__(self, folder, tls=False):
        if not os.path.exists(MOSQUITTO):
            pytest.fail(INSTALL, pytrace=False)
        self.folder = str(folder)
        self.port = free_port()
        self.ca = None
        self.proc = None
        # Started by root, Mosquitto drops to the user "mosquitto", who
        # cannot read the test's private folder: it stays the test's user.
        lines = ["user " + getpass.getuser(),
                 "listener %d 127.0.0.1" % self.port, "allow_anonymous true",
                 "persistence true", "persistence_location %s/" % self.folder,
                 "log_dest file %s" % os.path.join(self.folder, "mosquitto.log")]
        if tls:
            self.ca, cert, key = make_cert(self.folder)
            lines += ["cafile " + self.ca, "certfile " + cert, "keyfile " + key]
        self.conf = os.path.join(self.folder, "mosquitto.conf")
        with open(self.conf, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.start()

    def start(self):
        self.proc = subprocess.Popen([MOSQUITTO, "-c", self.conf],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + _READY_S
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError("mosquitto stopped at once: %s" % (
                    self.proc.stderr.read().decode(errors="replace"),))
            try:
                socket.create_connection(("127.0.0.1", self.port), 1).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("mosquitto did not listen on port %d" % self.port)
                time.sleep(0.05)

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()        # SIGTERM: retained messages are saved
            self.proc.wait(_READY_S)
        self.proc = None

    def restart(self):
        self.stop()
        self.start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


@pytest.fixture
def broker(tmp_path):
    """A Mosquitto broker of this test's own, stopped afterwards."""
    folder = tmp_path / "broker"
    folder.mkdir()
    with Broker(folder) as b:
        yield b
