# Sourced by Scripts/test: `ensure_buildbot` makes a virtual environment with Buildbot (master,
# worker and the web service that holds its REST API; Debian's package lacks that part) under
# .build-buildbot/venv, once per machine: a second run finds it and does nothing. The end-to-end
# tests of headway-ci's Buildbot source start a master and a worker from it on loopback ports.
buildbot_version=4.3.0

ensure_buildbot() {
    local venv="$PWD/.build-buildbot/venv"
    if "$venv/bin/buildbot" --version 2>/dev/null | grep -q "Buildbot version: $buildbot_version"; then return 0; fi
    ensure_packages python3-venv
    echo "$(basename "$0"): installing Buildbot $buildbot_version into .build-buildbot/venv"
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "buildbot[bundle]==$buildbot_version" "buildbot-worker==$buildbot_version" \
        >"$PWD/.build-buildbot/pip.log" 2>&1 || { tail -20 "$PWD/.build-buildbot/pip.log" >&2; return 1; }
}
