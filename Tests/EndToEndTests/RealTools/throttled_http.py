"""A local HTTP server for the real-tool tests: serves the files under a folder on 127.0.0.1, each at
most RATE bytes a second (in 16 KiB pieces), so that curl, wget and apt take long enough to show
their progress. Prints the port it listens on, then serves until killed.
    python3 throttled_http.py FOLDER RATE"""
import http.server
import os
import sys
import time
import urllib.parse

folder, rate = os.path.realpath(sys.argv[1]), float(sys.argv[2])


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        relative = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path).lstrip("/")
        path = os.path.realpath(os.path.join(folder, relative))
        if not path.startswith(folder + os.sep) or not os.path.isfile(path):
            self.send_error(404)
            return
        size = os.path.getsize(path)
        self.send_response(200)
        self.send_header("Content-Length", str(size))
        self.send_header("Content-Type", "application/octet-stream")
        self.end_headers()
        piece = 16384
        with open(path, "rb") as source:
            while chunk := source.read(piece):
                self.wfile.write(chunk)
                self.wfile.flush()
                time.sleep(len(chunk) / rate)

    def log_message(self, *arguments):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
