"""A TCP relay on 127.0.0.1 that a test can stall (a Wi-Fi that drops but leaves connections open) or cut."""

from __future__ import annotations

import socket
import threading


class Relay:
    """Forwards every connection to `target_port`; `stall()` holds bytes back both ways, `cut()` closes them all."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.flowing = threading.Event()
        self.flowing.set()
        self.refusing = False
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.refusing:
                client.close()
                continue
            try:
                server = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            with self.lock:
                self.sockets += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                self.flowing.wait()
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def stall(self) -> None:
        """Nothing gets through, and nothing says so: open connections stay open and silent."""
        self.flowing.clear()

    def resume(self) -> None:
        self.refusing = False
        self.flowing.set()

    def cut(self, refuse: bool = True) -> None:
        """Close every open connection (and refuse new ones until `resume`)."""
        self.refusing = refuse
        with self.lock:
            for end in self.sockets:
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            self.sockets.clear()

    def close(self) -> None:
        self.closed = True
        self.flowing.set()
        self.cut()
        self.listener.close()
