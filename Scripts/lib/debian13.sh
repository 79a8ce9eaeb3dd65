# Sourced by the scripts in Scripts/. A Debian 13 (trixie) chroot for ARCH under .build-debian13/,
# made once per machine with debootstrap and then reused: the Swift that Debian 13 ships
# (swiftlang 6.0.3, what a Pi owner can apt install), its libgpiod 2.x and libi2c.
#   debian13_root ARCH              makes the chroot when missing; prints its path
#   debian13_run ROOT COMMAND…      runs COMMAND in it, the repository at /src, in a private mount
#                                   namespace (the mounts go when the command ends)

debian13_packages="swiftlang libc6-dev libstdc++-14-dev libgpiod-dev libi2c-dev git rsync pkg-config ca-certificates python3"

debian13_root() {
    local arch="$1" root="$PWD/.build-debian13/$1"
    if [ ! -f "$root/.debootstrapped" ]; then
        echo "debian13: making a Debian 13 $arch chroot in $root (once per machine)" >&2
        rm -rf "$root"
        mkdir -p "$root"
        debootstrap --variant=minbase --arch="$arch" trixie "$root" http://deb.debian.org/debian >"$root.log" 2>&1 ||
            { tail -20 "$root.log" >&2; return 1; }
        touch "$root/.debootstrapped"
    fi
    # The packages it holds, installed again when the list changes.
    if [ "$(cat "$root/.packages" 2>/dev/null)" != "$debian13_packages" ]; then
        debian13_run "$root" bash -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $debian13_packages >/dev/null" >&2
        echo "$debian13_packages" >"$root/.packages"
    fi
    echo "$root"
}

debian13_run() {
    local root="$1"
    shift
    # The host's Swift package mirror and the git setting that points github.com at it.
    mkdir -p "$root/opt/swift-packages" "$root/src"
    cp /etc/gitconfig "$root/etc/gitconfig"
    cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
    unshare --mount --propagation private bash -c '
        set -e
        root="$1"; shift
        mount --rbind /dev "$root/dev"
        mount -t proc proc "$root/proc"
        mount -t sysfs sys "$root/sys"
        mount --bind /opt/swift-packages "$root/opt/swift-packages"
        mount --bind "$PWD" "$root/src"
        exec chroot "$root" env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 TERM="${TERM:-dumb}" CI="${CI:-}" "$@"
    ' debian13 "$root" "$@"
}
