# Sourced by the scripts in Scripts/. A Debian 13 (trixie) chroot for ARCH under .build-debian13/,
# made once per machine with debootstrap and then reused: the Swift that Debian 13 ships
# (swiftlang 6.0.3, what a Pi owner can apt install), its libgpiod 2.x and libi2c.
#   debian13_root ARCH              makes the chroot when missing; prints its path
#   debian13_bare_root ARCH         a second chroot with only debootstrap's minimal set; prints it
#   debian13_kernel_guest_root      the bare arm64 one with what the kernel tests' guest needs
#   debian13_run ROOT COMMAND…      runs COMMAND in it, the repository at /src, in a private mount
#                                   namespace (the mounts go when the command ends)
#   debian13_exec ROOT COMMAND…     the same, the shell replaced by it: its process id is the
#                                   command's, for a caller that signals it and waits for it

#   debian13_arm64_swift ROOT       unpacks Debian 13's aarch64 Swift (modules, runtime, static
#                                   libraries) at ROOT/opt/swift-arm64 for cross-compiling; prints it

# What the tests need (the real tools `headway run` reads among them, for the "Real tools" suites:
# restic … cargo), then what Scripts/package needs: debhelper and lintian (and systemd, which
# the package depends on, for the from-source install test), and arm64's C
# libraries beside amd64's (Debian's multiarch), so the cross-build links against them and
# dpkg-shlibdeps finds the packages that hold them (and libmosquitto and libcurl, which the aarch64
# suite of Scripts/test-arm64 loads for its MQTT and headway-ci tests); last, the cross compiler the arm64 kernel
# test builds its modules with.
debian13_packages="swiftlang libc6-dev libstdc++-14-dev libgpiod-dev libi2c-dev git rsync pkg-config ca-certificates python3 python3-yaml mosquitto tmux curl openssl tinyproxy \
restic borgbackup borgmatic rclone ffmpeg wget pv ninja-build cargo \
debhelper lintian binutils-aarch64-linux-gnu systemd \
libc6-dev:arm64 libstdc++-14-dev:arm64 libgcc-14-dev:arm64 libgpiod-dev:arm64 libi2c-dev:arm64 libmosquitto1:arm64 libcurl4t64:arm64 \
gcc-aarch64-linux-gnu make"

# Makes ROOT a minimal Debian 13 for ARCH unless it is there already: a copy of the one
# debootstrap made for ARCH on this checkout (.build-debian13/seed-ARCH, made once, under a lock,
# since the build chroot, the bare systems and Home Assistant's root are made at the same time in
# .ci/run), so that each Debian 13 of an architecture is downloaded and resolved once.
debian13_bootstrap() {
    local arch="$1" root="$2" seed="$PWD/.build-debian13/seed-$1"
    [ -f "$root/.debootstrapped" ] && return 0
    mkdir -p "$PWD/.build-debian13"
    (
        flock 9
        [ -f "$seed/.debootstrapped" ] && exit 0
        echo "debian13: making a Debian 13 $arch system in $seed (once per machine)" >&2
        [ "$arch" = amd64 ] || debian13_arm64_emulation
        rm -rf "$seed"
        mkdir -p "$seed"
        debootstrap --variant=minbase --arch="$arch" trixie "$seed" http://deb.debian.org/debian >"$seed.log" 2>&1 ||
            { tail -20 "$seed.log" >&2; exit 1; }
        touch "$seed/.debootstrapped"
    ) 9>"$seed.lock" || return 1
    rm -rf "$root"
    mkdir -p "$(dirname "$root")"
    cp -a "$seed" "$root"
}

# A bare Debian 13 for ARCH, nothing installed beyond debootstrap's minimal set: what a package is
# installed into by the tests (copied first; this one stays as it is).
debian13_bare_root() {
    local root="$PWD/.build-debian13/bare-$1"
    debian13_bootstrap "$1" "$root"
    echo "$root"
}

# The root of Scripts/kernel-test arm64's guest: a bare arm64 Debian 13 with the libraries the tests
# link and the tools they call (installed under qemu-user, about 2 minutes).
debian13_kernel_guest_root() {
    local root="$PWD/.build-debian13/kernel-arm64" packages="libgpiod3 libi2c0 i2c-tools" bare
    if [ "$(cat "$root/.packages" 2>/dev/null)" != "$packages" ]; then
        echo "debian13: making the arm64 kernel tests' guest root in $root (once per machine)" >&2
        bare=$(debian13_bare_root arm64) || return 1
        rm -rf "$root" && cp -a "$bare" "$root"
        debian13_run "$root" bash -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $packages >/dev/null" >&2 ||
            return 1
        echo "$packages" >"$root/.packages"
    fi
    echo "$root"
}

# arm64 programs run here through qemu-user: binfmt_misc with the F flag, so they run in chroots too.
debian13_arm64_emulation() {
    ensure_packages qemu-user-static binfmt-support
    [ -e /proc/sys/fs/binfmt_misc/register ] || as_root mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || as_root update-binfmts --enable qemu-aarch64
}

debian13_root() {
    local arch="$1" root="$PWD/.build-debian13/$1"
    debian13_bootstrap "$arch" "$root"
    # The packages it holds, installed again when the list changes.
    if [ "$(cat "$root/.packages" 2>/dev/null)" != "$debian13_packages" ]; then
        debian13_run "$root" bash -c "dpkg --add-architecture arm64 && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $debian13_packages >/dev/null" >&2
        echo "$debian13_packages" >"$root/.packages"
    fi
    echo "$root"
}

debian13_run() {
    (debian13_exec "$@")
}

debian13_exec() {
    local root="$1"
    shift
    # The host's Swift package mirror and the git setting that points github.com at it.
    mkdir -p "$root/opt/swift-packages" "$root/src"
    cp /etc/gitconfig "$root/etc/gitconfig"
    cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
    exec unshare --mount --propagation private bash -c '
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

debian13_arm64_swift() {
    local root="$1" folder=/opt/swift-arm64
    if [ ! -f "$root$folder/.unpacked" ]; then
        echo "debian13: unpacking Debian 13's arm64 Swift in $root$folder (once per machine)" >&2
        debian13_run "$root" bash -c "
            set -e
            rm -rf $folder /tmp/swift-arm64-debs && mkdir -p $folder /tmp/swift-arm64-debs && chown _apt /tmp/swift-arm64-debs && cd /tmp/swift-arm64-debs
            apt-get download -qq swiftlang:arm64 libswiftlang:arm64 >/dev/null
            for deb in *.deb; do dpkg-deb -x \"\$deb\" $folder; done
            rm -rf /tmp/swift-arm64-debs
            touch $folder/.unpacked" >&2
    fi
    echo "$folder"
}
