"""A tiny SMTP server for the fault probe (bench/probe_faults.py): it keeps every message it
accepts, and refuses every connection (421 and close, as a server going down does) while
`refusing` is set. Enough of RFC 5321 for Django's SMTP backend (EHLO/HELO, MAIL, RCPT, DATA,
RSET, NOOP, QUIT); no TLS, no authentication. Loopback only.

    sink = SmtpSink()  # listens on a free port: sink.port
    sink.refusing.set(); ...; sink.refusing.clear()
    sink.messages  # email.message.EmailMessage, in the order received
    sink.close()
"""

from __future__ import annotations

import email
import email.policy
import socketserver
import threading
from email.message import EmailMessage


class _Handler(socketserver.StreamRequestHandler):
    server: _Server

    def reply(self, line: str) -> None:
        self.wfile.write(line.encode("ascii") + b"\r\n")
        self.wfile.flush()

    def handle(self) -> None:
        sink = self.server.sink
        if sink.refusing.is_set():
            sink.count("refused")
            self.reply("421 4.3.2 probe: service not available, closing channel")
            return
        self.reply("220 probe-sink ESMTP")
        while True:
            raw = self.rfile.readline()
            if not raw:
                return
            verb = raw.decode("ascii", "replace").strip().split(" ", 1)[0].upper()
            if verb == "EHLO":
                self.reply("250-probe-sink")
                self.reply("250 8BITMIME")
            elif verb in ("HELO", "MAIL", "RCPT", "RSET", "NOOP"):
                self.reply("250 OK")
            elif verb == "DATA":
                self.reply("354 end with <CRLF>.<CRLF>")
                lines: list[bytes] = []
                while (line := self.rfile.readline()) not in (b".\r\n", b".\n", b""):
                    lines.append(line[1:] if line.startswith(b"..") else line)
                # policy.default parses into an EmailMessage (get_body, get_content)
                sink.keep(email.message_from_bytes(b"".join(lines), policy=email.policy.default))
                self.reply("250 OK queued")
            elif verb == "QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("502 5.5.2 command not implemented")


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    sink: SmtpSink


class SmtpSink:
    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.refusing = threading.Event()
        self.messages: list[EmailMessage] = []
        self.counts: dict[str, int] = {}
        self._lock = threading.Lock()
        self._server = _Server((host, port), _Handler)
        self._server.sink = self
        self.port = int(self._server.server_address[1])
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def keep(self, message: EmailMessage) -> None:
        with self._lock:
            self.messages.append(message)

    def count(self, what: str) -> None:
        with self._lock:
            self.counts[what] = self.counts.get(what, 0) + 1

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
