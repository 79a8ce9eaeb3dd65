# Sourced by Scripts/kernel-test for amd64 and systemd: the kernel this machine's Debian installs
# today (linux-image-amd64) for qemu-system-x86_64, with gpio-sim and the recorders built for it.

ensure_packages qemu-system-x86 busybox-static kmod cpio xz-utils gcc make gpiod i2c-tools libi2c-dev libgpiod-dev \
    || infrastructure_failure "installing the Debian packages failed"

image=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
if [ -z "$image" ]; then
    as_root apt-get update -qq || infrastructure_failure "apt-get update failed"
    image=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
fi
[ -n "$image" ] || infrastructure_failure "cannot tell which kernel linux-image-amd64 depends on"
abi=${image#linux-image-}
version=$(apt-cache show --no-all-versions "$image" | awk '/^Version:/ { print $2; exit }')
series=$(echo "$abi" | cut -d. -f1,2)
ensure_packages "linux-headers-$abi" || infrastructure_failure "installing linux-headers-$abi failed"
step "kernel $abi ($version)"

kernel="$cache/kernel-$abi-$version"
debs="$cache/debs"
# A new kernel version replaces the old one's cached tree, modules and initramfs.
for old in "$cache"/kernel-*; do
    [ -d "$old" ] && [ "$old" != "$kernel" ] && rm -rf "$old"
done
mkdir -p "$kernel" "$debs"
if [ ! -f "$kernel/vmlinux" ]; then
    step "fetching linux-image-$abi and linux-source-$series $version"
    for package in "$image" "linux-source-$series"; do
        ls "$debs/${package}_${version}_"*.deb >/dev/null 2>&1 && continue
        # As root, apt warns that its sandbox user cannot write here; the download works.
        (cd "$debs" && apt-get download -q "$package=$version" 2>&1 | grep -v "couldn't be accessed by user '_apt'"; exit "${PIPESTATUS[0]}") \
            || infrastructure_failure "apt-get download $package=$version failed"
    done
    rm -rf "$kernel/tree" "$kernel/source"
    dpkg -x "$debs/${image}_${version}_amd64.deb" "$kernel/tree" || infrastructure_failure "unpacking the kernel failed"
    extract_sources "$debs/linux-source-${series}_${version}_all.deb" "$kernel/source" \
        drivers/gpio/gpio-sim.c drivers/gpio/gpiolib.h kernel/irq/irq_sim.c \
        || infrastructure_failure "extracting gpio-sim from linux-source failed"
    depmod -b "$kernel/tree" "$abi" || infrastructure_failure "depmod failed"
    # QEMU boots the uncompressed kernel directly (PVH); decompressing xz under TCG costs ~5 s a boot.
    offset=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$kernel/tree/boot/vmlinuz-$abi" | head -1 | cut -d: -f1)
    [ -n "$offset" ] || infrastructure_failure "no xz stream in vmlinuz-$abi"
    tail -c +$((offset + 1)) "$kernel/tree/boot/vmlinuz-$abi" > "$kernel/vmlinux.xz"
    xz -dc --single-stream "$kernel/vmlinux.xz" > "$kernel/vmlinux.partial" 2>/dev/null
    [ -s "$kernel/vmlinux.partial" ] || infrastructure_failure "carving vmlinux out of vmlinuz failed"
    mv "$kernel/vmlinux.partial" "$kernel/vmlinux"
    rm -f "$kernel/vmlinux.xz" "$debs"/*.deb
fi

# gpio-sim (not built by Debian) and the two recorders, rebuilt when their sources change.
sources_hash=$(cat Tests/KernelTests/VM/modules/* | sha256sum | cut -d' ' -f1)
if [ "$(cat "$kernel/modules/.sources" 2>/dev/null)" != "$sources_hash" ]; then
    step "building gpio-sim and the recorders"
    stage_module_sources "$kernel/source" "$kernel/modules"
    make -s -C "/lib/modules/$abi/build" M="$kernel/modules" modules 2>&1 | grep -v "Skipping BTF"
    for module in gpio-sim headway-i2c-recorder headway-spi-recorder; do
        [ -f "$kernel/modules/$module.ko" ] || infrastructure_failure "building $module.ko failed"
    done
    echo "$sources_hash" > "$kernel/modules/.sources"
fi

busybox=/bin/busybox
kernel_image="$kernel/vmlinux"
kernel_modules="configfs i2c-dev virtio_pci 9pnet_virtio 9p i2c-stub:chip_addr=0x3c,0x3d at24"
own_modules="gpio-sim.ko
headway-i2c-recorder.ko
headway-spi-recorder.ko"
qemu="qemu-system-x86_64 -accel tcg,thread=multi -cpu max -smp 2 -m 1024"
