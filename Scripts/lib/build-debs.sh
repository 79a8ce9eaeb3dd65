# Builds Headway's Debian packages with the Swift found on PATH:
#   bash Scripts/lib/build-debs.sh VERSION DATE ARCH…
# Run by Scripts/package in the Debian 13 build chroot (amd64 and a cross-compiled arm64) and by
# Scripts/install on the machine itself (its own architecture). Per ARCH: two release binaries,
# the client `headway` and `headway-suite` (headwayd, headway-sim, headway-mqtt and headway-ci in one,
# installed as /usr/bin/headwayd with the other names linked to it), with the Swift standard library linked statically (arm64 on amd64 is cross-compiled against the
# multiarch arm64 libraries and Debian's aarch64 Swift in /opt/swift-arm64); man pages and shell
# completions from the build that runs here; everything laid out for packaging/debian,
# dpkg-buildpackage, and lintian where it is installed. The .debs go to .build-package/ in the
# checkout. Work files: $HEADWAY_PACKAGE_WORK (default ~/.cache/headway-package), kept so that a
# second build is quick.
set -euo pipefail
version="$1" date="$2"
shift 2
checkout=$(cd "$(dirname "$0")/../.." && pwd)
work="${HEADWAY_PACKAGE_WORK:-$HOME/.cache/headway-package}"
here=$(dpkg --print-architecture)
mkdir -p "$work" "$checkout/.build-package"
# A copy of the tree, always at the same place, so the build caches stay valid.
rsync -a --delete --exclude ".build*" --exclude Package.resolved --exclude .git "$checkout/" "$work/src/"
cd "$work/src"
export SOURCE_DATE_EPOCH="$(date -d "$date" +%s)"

# Builds PRODUCT for ARCH (with more `swift build` arguments, if given) and prints the folder of
# the binaries.
build() {
    local arch="$1" flags=(--product "$2" "${@:3}")
    if [ "$arch" != "$here" ]; then
        [ "$here" = amd64 ] && [ "$arch" = arm64 ] || { echo "package: cannot build $arch on $here" >&2; return 1; }
        # swift_static is a whole resource folder (modules and .a files): with it the standard
        # library and Dispatch are linked in and the Pi needs no Swift runtime.
        flags+=(--triple aarch64-unknown-linux-gnu
            -Xswiftc -resource-dir -Xswiftc /opt/swift-arm64/usr/libexec/swift/lib/swift_static)
    fi
    # lld (the cross link needs it), with full RELRO as Debian's hardening asks. Relative
    # relocations packed (DT_RELR, glibc 2.36) and no dynamic symbol table of the program's own
    # symbols: the loader then reads a tenth of the 1.5 MB it would at start, pages the idle
    # daemon would keep resident (docs/performance.md).
    flags+=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now
        -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic)
    flags+=(-c release --static-swift-stdlib --scratch-path "$work/build-$arch" -Xcc "-DHEADWAY_VERSION=\"$version\"")
    echo "package: building $2 for $arch" >&2
    swift build "${flags[@]}" >"$work/build-$arch.log" 2>&1 || { tail -40 "$work/build-$arch.log" >&2; return 1; }
    swift build "${flags[@]}" --show-bin-path
}

# Builds ARCH's two programs and prints their folder.
build_programs() {
    build "$1" headway-suite >/dev/null && build "$1" headway
}

# The architecture-independent parts, made with the programs built for this machine (each of the
# suite's programs through a link of its name, as installed).
common="$work/common"
native=$(build_programs "$here")
build "$here" generate-manual >/dev/null
manual="$native/generate-manual"
[ -x "$manual" ] || manual="$native/generate-manual-tool"  # its name in Swift 6.3
rm -rf "$common" && mkdir -p "$common"/{man,completions/bash,completions/zsh,completions/fish,doc,examples,boards/boards,boards/hats,links}
for tool in headwayd headway-sim headway-mqtt headway-ci; do
    ln -s "$native/headway-suite" "$common/links/$tool"
    "$manual" "$common/links/$tool" --output-directory "$common/man" --date "$(date -d "$date" +%F)" \
        --authors "Headway developers"
    "$common/links/$tool" --generate-completion-script bash >"$common/completions/bash/$tool"
    "$common/links/$tool" --generate-completion-script zsh >"$common/completions/zsh/_$tool"
    "$common/links/$tool" --generate-completion-script fish >"$common/completions/fish/$tool.fish"
done
rm -r "$common/links"
# The client's are written by hand (it keeps its own argument reader to start fast).
cp packaging/man/headway.1 "$common/man/"
cp packaging/completions/headway.bash "$common/completions/bash/headway"
cp packaging/completions/_headway "$common/completions/zsh/"
cp packaging/completions/headway.fish "$common/completions/fish/"
cp packaging/config.yaml "$common/config.yaml"
cp Boards/*.yaml Boards/README.md "$common/boards/"
cp Boards/boards/*.yaml "$common/boards/boards/"
cp Boards/hats/*.yaml "$common/boards/hats/"
# Every document the programs, the man pages and the README name (docs/X.md is installed as
# /usr/share/doc/headway/X.md.gz).
cp README.md docs/*.md "$common/doc/"
cp -r examples/README.md examples/buildkite examples/gitlab examples/github-actions examples/cron examples/systemd examples/tools examples/ci "$common/examples/"
commit=$(git -C "$checkout" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)

for arch in "$@"; do
    if [ "$arch" = "$here" ]; then bin="$native"; else bin=$(build_programs "$arch"); fi
    tree="$work/deb/$arch"
    rm -rf "$work/deb" && mkdir -p "$tree/stage/bin"
    cp -r packaging/debian "$tree/debian"
    cp packaging/systemd/headway.service packaging/systemd/headway.socket packaging/systemd/headway-mqtt.service packaging/systemd/headway-ci.service "$tree/debian/"
    cp -r "$common"/* "$tree/stage/"
    cp "$bin/headway" "$tree/stage/bin/"
    cp "$bin/headway-suite" "$tree/stage/bin/headwayd"
    cat >"$tree/debian/changelog" <<CHANGELOG
headway ($version) unstable; urgency=medium

  * Built from commit $commit.

 -- Headway developers <headway@users.noreply.github.com>  $date
CHANGELOG
    echo "package: making headway_${version}_$arch.deb"
    (cd "$tree" && dpkg-buildpackage -b -a"$arch" -d --no-sign >"$tree.log" 2>&1) ||
        { tail -40 "$tree.log"; exit 1; }
    deb="$work/deb/headway_${version}_$arch.deb"
    if command -v lintian >/dev/null; then lintian --fail-on error "$deb"; fi
    cp "$deb" "$checkout/.build-package/"
done
