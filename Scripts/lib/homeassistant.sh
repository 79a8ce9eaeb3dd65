# Sourced by the scripts in Scripts/ (after packages.sh and debian13.sh). A real Home Assistant for
# headway-ci's Home Assistant tests (Tests/Home/README.md), once per machine:
#   ensure_homeassistant            makes it when missing or out of date; a no-op when present
#   homeassistant_installed         whether it is there, at the pinned version
#   homeassistant_exec CONFIG_DIR   becomes Home Assistant (exec) on the configuration folder
#                                   CONFIG_DIR, a path inside the root (Tests/Home/serve.py runs it)
# Home Assistant needs Python >= 3.13.2 (2026.3 and later: 3.14.2), which Debian 12 lacks; Debian
# 13 has 3.13.5. So it lives in a small Debian 13 chroot of its own under .build-homeassistant/root
# (debootstrap's minimal set, Python and a C compiler: about a minute to make), not the build
# chroot, which is much larger and made later in CI: the tests that follow Home Assistant run on
# the host, in Scripts/test. The chroot shares the host's network, so Home Assistant listens on the
# host's loopback. Its virtual environment is /opt/homeassistant inside the root.
homeassistant_version=2026.2.3
homeassistant_root="$PWD/.build-homeassistant/root"
# python3-dev and gcc: lru-dict 1.3.0, which this Home Assistant pins, has no wheel for Python 3.13.
homeassistant_debian_packages="python3 python3-venv python3-dev gcc tzdata"

homeassistant_installed() {
    [ "$(cat "$homeassistant_root/opt/homeassistant/.installed" 2>/dev/null)" = "$homeassistant_version $(homeassistant_config_hash)" ]
}

# The configuration template's hash: the integrations it names decide what else is installed.
homeassistant_config_hash() {
    sha256sum "$PWD/Tests/Home/config/configuration.yaml" | cut -c1-16
}

ensure_homeassistant() {
    local root="$homeassistant_root" venv=/opt/homeassistant log="$PWD/.build-homeassistant/install.log"
    homeassistant_installed && return 0
    mkdir -p "$(dirname "$root")" && : >"$log"
    echo "$(basename "$0"): installing Home Assistant $homeassistant_version into .build-homeassistant (once per machine)"
    ensure_packages debootstrap
    debian13_bootstrap amd64 "$root" || return 1
    if [ "$(cat "$root/.packages" 2>/dev/null)" != "$homeassistant_debian_packages" ]; then
        debian13_run "$root" bash -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $homeassistant_debian_packages >/dev/null" >>"$log" 2>&1 ||
            { tail -20 "$log" >&2; return 1; }
        echo "$homeassistant_debian_packages" >"$root/.packages"
    fi
    # pip inside the chroot trusts the host's certificate authorities (the host may reach PyPI
    # through a proxy that only the host's store knows).
    cp /etc/ssl/certs/ca-certificates.crt "$root/opt/host-ca-certificates.crt"
    local pip="$venv/bin/pip install -q --disable-pip-version-check --no-cache-dir --cert /opt/host-ca-certificates.crt"
    local constraints="$venv/lib/python3*/site-packages/homeassistant/package_constraints.txt"
    # Home Assistant first, without its dependencies, for the constraints file it ships (the
    # versions its own builds use); then it and its dependencies under those constraints.
    if [ "$(cat "$root$venv/.version" 2>/dev/null)" != "$homeassistant_version" ]; then
        debian13_run "$root" bash -c "
            set -e
            rm -rf $venv
            python3 -m venv $venv
            $pip --no-deps homeassistant==$homeassistant_version
            $pip -c $constraints homeassistant==$homeassistant_version
            " >>"$log" 2>&1 || { tail -20 "$log" >&2; return 1; }
        echo "$homeassistant_version" >"$root$venv/.version"
    fi
    # Then what the integrations of Tests/Home/config need (Tests/Home/integration_requirements.py).
    debian13_run "$root" bash -c "
        set -e
        $pip -c $constraints \$($venv/bin/python3 /src/Tests/Home/integration_requirements.py /src/Tests/Home/config/configuration.yaml)
        " >>"$log" 2>&1 || { tail -20 "$log" >&2; return 1; }
    echo "$homeassistant_version $(homeassistant_config_hash)" >"$root$venv/.installed"
}

# --skip-pip: Home Assistant installs nothing while it runs (ensure_homeassistant did).
homeassistant_exec() {
    debian13_exec "$homeassistant_root" /opt/homeassistant/bin/python3 -m homeassistant --config "$1" --skip-pip
}
