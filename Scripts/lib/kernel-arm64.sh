# Sourced by Scripts/kernel-test for arm64, the Pi's architecture: Debian 13's arm64 kernel built
# for 16 KiB pages (the page size of the Pi 5's kernel) for qemu-system-aarch64 -M virt on a
# Cortex-A76 (the Pi 5's core), with gpio-sim, i2c-stub and the recorders built for it. Downloads
# and builds happen in the Debian 13 build chroot (Scripts/lib/debian13.sh): its apt knows
# trixie's arm64 packages, its cross compiler is the kernel's.

source Scripts/lib/debian13.sh
ensure_packages qemu-system-arm kmod cpio xz-utils debootstrap rsync qemu-user-static binfmt-support \
    || infrastructure_failure "installing the Debian packages failed"
build_root=$(debian13_root amd64) || infrastructure_failure "making the Debian 13 build chroot failed"
swift=$(debian13_arm64_swift "$build_root") || infrastructure_failure "unpacking Debian 13's arm64 Swift failed"
in_build_root() { debian13_run "$build_root" "$@"; }

flavour=arm64-16k
in_build_root apt-get update -qq || infrastructure_failure "apt-get update in the build chroot failed"
image=$(in_build_root apt-cache depends "linux-image-$flavour:arm64" | awk '/Depends: linux-image-[0-9]/ { sub(/:arm64$/, "", $2); print $2; exit }')
[ -n "$image" ] || infrastructure_failure "cannot tell which kernel linux-image-$flavour depends on"
abi=${image#linux-image-}
base=${abi%-"$flavour"}
series=$(echo "$abi" | cut -d. -f1,2)
version=$(in_build_root apt-cache show --no-all-versions "$image:arm64" | awk '/^Version:/ { print $2; exit }')
step "kernel $abi ($version)"

kernel="$cache/arm64/kernel-$abi-$version"
for old in "$cache"/arm64/kernel-*; do
    [ -d "$old" ] && [ "$old" != "$kernel" ] && rm -rf "$old"
done
debs="$kernel/debs"
headers="$kernel/headers/usr/src/linux-headers-$abi"
if [ ! -f "$kernel/Image" ]; then
    step "fetching $image, its headers, linux-source-$series and busybox for arm64"
    rm -rf "$debs" && mkdir -p "$debs"
    in_build_root bash -c "cd /src/${debs#"$root"/} && apt-get download -q $image:arm64=$version linux-headers-$abi:arm64=$version \
        linux-headers-$base-common=$version linux-kbuild-$base=$version linux-source-$series=$version busybox-static:arm64 \
        2>&1 | grep -v \"couldn't be accessed by user '_apt'\"; exit \${PIPESTATUS[0]}" \
        || infrastructure_failure "downloading the arm64 kernel's packages failed"
    rm -rf "$kernel/tree" "$kernel/headers" "$kernel/source" "$kernel/busybox"
    dpkg -x "$debs/${image}_${version}_arm64.deb" "$kernel/tree" || infrastructure_failure "unpacking the kernel failed"
    for deb in "$debs"/linux-headers-*.deb "$debs"/linux-kbuild-*.deb; do
        dpkg -x "$deb" "$kernel/headers" || infrastructure_failure "unpacking $(basename "$deb") failed"
    done
    # The headers include the common part by its installed path; here it lies beside them, at
    # /src/… in the build chroot, where the modules are built.
    sed -i "s|^include /usr/src/|include /src/${kernel#"$root"/}/headers/usr/src/|" "$headers/Makefile"
    extract_sources "$debs/linux-source-${series}_${version}_all.deb" "$kernel/source" \
        drivers/gpio/gpio-sim.c drivers/gpio/gpiolib.h kernel/irq/irq_sim.c drivers/i2c/i2c-stub.c \
        || infrastructure_failure "extracting gpio-sim and i2c-stub from linux-source failed"
    dpkg -x "$debs"/busybox-static_*_arm64.deb "$kernel/busybox" || infrastructure_failure "unpacking busybox failed"
    # kmod looks for modules under lib/; Debian 13 keeps them under usr/lib/.
    [ -e "$kernel/tree/lib" ] || ln -s usr/lib "$kernel/tree/lib"
    depmod -b "$kernel/tree" "$abi" || infrastructure_failure "depmod failed"
    # Debian's arm64 vmlinuz is the plain Image QEMU boots (gzip-compressed on some kernels).
    if gzip -t "$kernel/tree/boot/vmlinuz-$abi" 2>/dev/null; then
        gzip -dc "$kernel/tree/boot/vmlinuz-$abi" > "$kernel/Image.partial"
    else
        cp "$kernel/tree/boot/vmlinuz-$abi" "$kernel/Image.partial"
    fi
    mv "$kernel/Image.partial" "$kernel/Image"
    rm -rf "$debs"
fi

# gpio-sim, i2c-stub (this kernel builds neither) and the two recorders, cross-compiled with the
# kernel's own compiler (gcc-14 for aarch64), rebuilt when their sources change.
sources_hash=$(cat Tests/KernelTests/VM/modules/* | sha256sum | cut -d' ' -f1)
if [ "$(cat "$kernel/modules/.sources" 2>/dev/null)" != "$sources_hash" ]; then
    step "building gpio-sim, i2c-stub and the recorders for arm64"
    stage_module_sources "$kernel/source" "$kernel/modules"
    # Without BTF for them: it would need pahole, and the tests do not trace the modules.
    in_build_root make -s -C "/src/${headers#"$root"/}" M="/src/${kernel#"$root"/}/modules" CONFIG_DEBUG_INFO_BTF_MODULES= modules
    for module in gpio-sim i2c-stub headway-i2c-recorder headway-spi-recorder; do
        [ -f "$kernel/modules/$module.ko" ] || infrastructure_failure "building $module.ko failed"
    done
    echo "$sources_hash" > "$kernel/modules/.sources"
fi

busybox="$kernel/busybox/usr/bin/busybox"
kernel_image="$kernel/Image"
kernel_modules="configfs i2c-dev 9pnet_virtio 9p at24"
own_modules="gpio-sim.ko
i2c-stub.ko chip_addr=0x3c,0x3d
headway-i2c-recorder.ko
headway-spi-recorder.ko"
qemu="qemu-system-aarch64 -machine virt -cpu cortex-a76 -accel tcg,thread=multi -smp 2 -m 1024"
