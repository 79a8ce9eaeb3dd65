# Sourced by Scripts/test: `ensure_moonraker` makes a virtual environment with Moonraker (Klipper's
# API server, published on PyPI) under .build-moonraker/venv, once per machine: a second run finds
# it and does nothing. Klipper itself is in neither PyPI nor Debian: the tests put Moonraker in
# front of Tests/Printers/klippy_standin.py, started together by Tests/Printers/serve.py
# (`printers_serve DIR --only moonraker` from Scripts/lib/octoprint.sh in a shell).
moonraker_version=0.11.0

ensure_moonraker() {
    local venv="$PWD/.build-moonraker/venv"
    if [ "$("$venv/bin/python3" -c 'import importlib.metadata as m; print(m.version("moonraker"))' 2>/dev/null)" = "$moonraker_version" ]; then
        return 0
    fi
    ensure_packages python3-venv
    echo "$(basename "$0"): installing Moonraker $moonraker_version into .build-moonraker/venv"
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "moonraker==$moonraker_version" \
        >"$PWD/.build-moonraker/pip.log" 2>&1 || { tail -20 "$PWD/.build-moonraker/pip.log" >&2; return 1; }
}
