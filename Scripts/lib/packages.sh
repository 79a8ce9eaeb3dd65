# Sourced by the scripts in Scripts/. `ensure_packages NAME…` installs the Debian packages that
# are not installed yet (after an apt-get update), and does nothing when all are there.

# Runs a command as root (through sudo unless already root).
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

ensure_packages() {
    local missing=() package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "$(basename "$0"): installing ${missing[*]}"
    # One apt at a time: .ci/run's lanes may each ask for packages at once.
    as_root flock /tmp/headway-ensure-packages.lock sh -c \
        'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null' ensure_packages "${missing[@]}"
}
