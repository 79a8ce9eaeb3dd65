# Sourced by the apt journey (Scripts/lib/check-install.sh). `apt_demo_repository FOLDER` makes a
# local apt repository in FOLDER with two small packages, headway-demo-tools and headway-demo-data
# (the first depends on the second; each postinst takes a second, so the installation shows), and
# lists it in /etc/apt/sources.list.d as a trusted `copy:` source (apt copies each package, so the
# download phase shows too). Needs dpkg-deb and apt-ftparchive (apt-utils).
apt_demo_repository() {
    local folder="$1" name version=1.0
    rm -rf "$folder" && mkdir -p "$folder/pool"
    for name in headway-demo-data headway-demo-tools; do
        local build="$folder/build/$name"
        mkdir -p "$build/DEBIAN" "$build/usr/share/$name"
        head -c 400000 /dev/urandom >"$build/usr/share/$name/payload"
        local depends=""
        [ "$name" = headway-demo-tools ] && depends="Depends: headway-demo-data"
        printf 'Package: %s\nVersion: %s\nArchitecture: all\nMaintainer: Headway tests <tests@headway.invalid>\n%s\nDescription: a package the apt journey installs\n' \
            "$name" "$version" "$depends" | grep -v '^$' >"$build/DEBIAN/control"
        printf '#!/bin/sh\nsleep 1\n' >"$build/DEBIAN/postinst"
        chmod 755 "$build/DEBIAN/postinst"
        dpkg-deb --build --root-owner-group "$build" "$folder/pool/${name}_${version}_all.deb" >/dev/null
    done
    rm -rf "$folder/build"
    (cd "$folder" && apt-ftparchive packages pool >Packages && apt-ftparchive release . >Release)
    echo "deb [trusted=yes] copy:$folder ./" >/etc/apt/sources.list.d/headway-demo.list
}
