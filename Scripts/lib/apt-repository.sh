# Sourced by Scripts/test-package for the apt journey (Scripts/lib/apt-journey.sh).
# `apt_demo_repository FOLDER VERSION` makes a flat apt repository in FOLDER with three small
# packages at VERSION: headway-demo-data, headway-demo-tools (which depends on it) and
# headway-demo-broken, whose configuration fails. The first two carry 150 kB each, so that their
# download from a throttled server shows, and configure in a second each, so that their
# installation shows. Needs dpkg-deb and apt-ftparchive (apt-utils).
apt_demo_repository() {
    local folder="$1" version="$2" name
    rm -rf "$folder" && mkdir -p "$folder/pool"
    for name in headway-demo-data headway-demo-tools headway-demo-broken; do
        local build="$folder/build/$name" depends="" postinst='sleep 1' size=150000
        [ "$name" = headway-demo-tools ] && depends="Depends: headway-demo-data"
        [ "$name" = headway-demo-broken ] && postinst='echo "headway-demo-broken: failing on purpose" >&2; exit 1' && size=1000
        mkdir -p "$build/DEBIAN" "$build/usr/share/$name"
        head -c "$size" /dev/urandom >"$build/usr/share/$name/payload"
        printf 'Package: %s\nVersion: %s\nArchitecture: all\nMaintainer: Headway tests <tests@headway.invalid>\n%s\nDescription: a package the apt journey installs\n' \
            "$name" "$version" "$depends" | grep -v '^$' >"$build/DEBIAN/control"
        printf '#!/bin/sh\n%s\n' "$postinst" >"$build/DEBIAN/postinst"
        chmod 755 "$build/DEBIAN/postinst"
        dpkg-deb --build --root-owner-group "$build" "$folder/pool/${name}_${version}_all.deb" >/dev/null
    done
    rm -rf "$folder/build"
    (cd "$folder" && apt-ftparchive packages pool >Packages && apt-ftparchive release . >Release)
}
