"""Asking `headway-sim serve` over its socket, for the benchmark scripts: a request line and its
reply, and the simulator's `glass` operation (when each output's last frame was drawn, on
CLOCK_MONOTONIC — Python's time.monotonic — and the value of each job in it)."""
import json, socket


def ask(sock, line):
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(sock)
        s.sendall(line.encode() + b"\n")
        data = b""
        while not data.endswith(b"\n"):
            data += s.recv(65536)
    return json.loads(data)


def glass(sock, job):
    """{output: (seconds its last frame was drawn at, the value of `job` in it)}."""
    frames = {}
    for output in ask(sock, '{"v":1,"op":"glass"}')["outputs"]:
        for shown in output["jobs"]:
            if shown["job"] == job:
                frames[output["output"]] = (output["at"], shown["value"])
    return frames


def percentiles(values):
    values = sorted(values)
    return values[len(values) // 2], values[int(len(values) * 0.99)], values[-1]
