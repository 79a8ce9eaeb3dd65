# Sourced by Scripts/test: `ensure_octoprint` makes a virtual environment with OctoPrint (a real
# print server; its bundled Virtual Printer plugin stands in for the printer) under
# .build-octoprint/venv, once per machine: a second run finds it and does nothing. The tests of the
# printer follower start it through Tests/Printers/serve.py, which makes a headless basedir (first
# run answered, a user with a fresh API key, the Virtual Printer connected, online checks off) and
# serves it on a free loopback port; `printers_serve DIR --only octoprint` and `printers_stop DIR`
# (Scripts/lib/printers.sh) do the same from a shell (Tests/Printers/README.md).
octoprint_version=1.11.8

ensure_octoprint() {
    local venv="$PWD/.build-octoprint/venv"
    if "$venv/bin/octoprint" --version 2>/dev/null | grep -qx "octoprint, version $octoprint_version"; then return 0; fi
    ensure_packages python3-venv
    echo "$(basename "$0"): installing OctoPrint $octoprint_version into .build-octoprint/venv"
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "octoprint==$octoprint_version" \
        >"$PWD/.build-octoprint/pip.log" 2>&1 || { tail -20 "$PWD/.build-octoprint/pip.log" >&2; return 1; }
}
