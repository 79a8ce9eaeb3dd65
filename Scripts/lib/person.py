#!/usr/bin/env python3
"""Stands in for the person who runs the tests: listens on every socket their environment would
name for Headway and counts the connections offered to it, so that .ci/run can prove that the
suite met none of what it did not start.

    person.py FOLDER    listens on FOLDER/named.sock (their HEADWAY_SOCKET), on
                        FOLDER/runtime/headway.sock (their XDG_RUNTIME_DIR's socket) and on
                        /tmp/headway-UID/headway.sock (the default one) unless something answers
                        there already; writes FOLDER/ready once listening. On SIGTERM it writes
                        each socket's count of connections to FOLDER/met, removes what it made,
                        and exits.
"""
import os
import selectors
import signal
import socket
import sys


def main():
    folder = os.path.abspath(sys.argv[1])
    runtime = os.path.join(folder, "runtime")
    os.makedirs(runtime, mode=0o700, exist_ok=True)
    default_folder = "/tmp/headway-%d" % os.getuid()
    made_default_folder = not os.path.isdir(default_folder)
    os.makedirs(default_folder, mode=0o700, exist_ok=True)
    paths = [os.path.join(folder, "named.sock"), os.path.join(runtime, "headway.sock")]
    default = os.path.join(default_folder, "headway.sock")
    probe = socket.socket(socket.AF_UNIX)
    try:
        probe.connect(default)
        print("person: a service answers on %s already; it is left alone" % default, file=sys.stderr)
    except OSError:
        paths.append(default)
    finally:
        probe.close()
    listeners = {}
    selector = selectors.DefaultSelector()
    for path in paths:
        if os.path.exists(path):
            os.unlink(path)
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(path)
        listener.listen(64)
        listeners[listener] = [path, 0]
        selector.register(listener, selectors.EVENT_READ)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    with open(os.path.join(folder, "ready"), "w") as ready:
        ready.write("\n".join(paths) + "\n")
    while not stopping:
        for key, _ in selector.select(timeout=0.5):
            connection, _ = key.fileobj.accept()
            connection.close()
            listeners[key.fileobj][1] += 1
    with open(os.path.join(folder, "met"), "w") as met:
        for listener, (path, count) in listeners.items():
            met.write("%d %s\n" % (count, path))
            listener.close()
            os.unlink(path)
    if made_default_folder:
        os.rmdir(default_folder)


if __name__ == "__main__":
    main()
