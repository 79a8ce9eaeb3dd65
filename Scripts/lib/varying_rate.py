"""Bytes at a rate that changes, for the estimate corpus (Scripts/lib/record-estimates.sh): real
links and disks do not move at one speed, and an estimate is only tested by a run that does not.

    python3 varying_rate.py stream SIZE SCHEDULE    SIZE bytes to stdout
    python3 varying_rate.py serve                   an HTTP server on 127.0.0.1 (its port printed):
                                                    GET /SIZE?rates=SCHEDULE sends SIZE bytes

SCHEDULE is RATE:SECONDS[,RATE:SECONDS…] (bytes a second, for so long), repeated until SIZE bytes
have gone; the bytes are pseudo-random (incompressible, as a backup's or a download's are)."""
import http.server
import os
import sys
import time
import urllib.parse

PIECE = 8192


def schedule(text):
    segments = []
    for part in text.split(","):
        rate, seconds = part.split(":")
        segments.append((float(rate), float(seconds)))
    return segments


def pieces(size, segments):
    """Yields (bytes, seconds to wait after them) until size bytes have been given."""
    block = os.urandom(1 << 20)
    sent, index, segment_start = 0, 0, time.monotonic()
    while sent < size:
        rate, length = segments[index % len(segments)]
        if time.monotonic() - segment_start >= length:
            index, segment_start = index + 1, time.monotonic()
            continue
        count = min(PIECE, size - sent)
        offset = sent % (len(block) - PIECE)
        yield block[offset:offset + count], count / rate
        sent += count


def stream(size, text):
    out = sys.stdout.buffer
    try:
        for data, wait in pieces(size, schedule(text)):
            out.write(data)
            out.flush()
            time.sleep(wait)
    except BrokenPipeError:
        # The reader took what it wanted (dd's count=) and left: that is its right.
        sys.stderr.close()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        parts = urllib.parse.urlsplit(self.path)
        try:
            size = int(parts.path.strip("/").split("/")[0])
            segments = schedule(urllib.parse.parse_qs(parts.query)["rates"][0])
        except (ValueError, KeyError, IndexError):
            self.send_error(400, "GET /SIZE?rates=RATE:SECONDS,...")
            return
        self.send_response(200)
        self.send_header("Content-Length", str(size))
        self.send_header("Content-Type", "application/octet-stream")
        self.end_headers()
        try:
            for data, wait in pieces(size, segments):
                self.wfile.write(data)
                self.wfile.flush()
                time.sleep(wait)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *arguments):
        pass


if __name__ == "__main__":
    if sys.argv[1:2] == ["stream"] and len(sys.argv) == 4:
        stream(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1:] == ["serve"]:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
    else:
        sys.exit(__doc__)
