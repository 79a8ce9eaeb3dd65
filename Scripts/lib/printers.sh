# Sourced by scripts and shells that want the printer servers of the tests (OctoPrint, Moonraker and
# the Klippy stand-in; Tests/Printers/README.md) without writing Python:
#   printers_serve DIR [serve.py options: --only octoprint|moonraker, --timeline FILE, --speed F]
# starts Tests/Printers/serve.py in the background with its files in DIR/servers, waits for its ready line
# (DIR/ready.json, also printed) and leaves the launcher's pid in DIR/serve.pid;
#   printers_stop DIR
# stops it, and with it every daemon it started. Run both from the repository's root.

printers_serve() {
    local dir="$1"; shift
    mkdir -p "$dir"
    rm -f "$dir/ready.json"
    rm -rf "$dir/servers"
    python3 "$PWD/Tests/Printers/serve.py" --dir "$dir/servers" --keep --ready-file "$dir/ready.json" "$@" \
        >"$dir/serve.out" 2>"$dir/serve.err" </dev/null &
    echo $! >"$dir/serve.pid"
    local waited=0
    until [ -s "$dir/ready.json" ]; do
        if ! kill -0 "$(cat "$dir/serve.pid")" 2>/dev/null; then cat "$dir/serve.err" >&2; return 1; fi
        sleep 0.2
        waited=$((waited + 1))
        if [ "$waited" -gt 600 ]; then echo "printers_serve: not ready within 120 s" >&2; printers_stop "$dir"; return 1; fi
    done
    cat "$dir/ready.json"
}

printers_stop() {
    local dir="$1" pid
    pid=$(cat "$dir/serve.pid" 2>/dev/null) || return 0
    kill "$pid" 2>/dev/null || return 0
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    rm -f "$dir/serve.pid"
}
