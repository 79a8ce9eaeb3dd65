# Sourced by Scripts/kernel-test: what both architectures' runs share. The architecture's own file
# (kernel-amd64.sh, kernel-arm64.sh) sets, before these are called:
#   kernel       the cache folder of this kernel version (its module tree under tree/)
#   abi          the kernel's release (uname -r), e.g. 6.12.117+deb13-arm64-16k
#   busybox      a static busybox for the guest's architecture
#   kernel_modules  the kernel's own modules the guest loads (with their dependencies), each
#                "name" or "name:parameters"
#   own_modules  "file.ko parameters" lines: the modules built here, loaded after those
#   guest_root   the root the guest mounts read-only over 9p and runs the tests in
#   guest_script the script the guest runs there (Tests/KernelTests/VM/guest-tests.sh)
#   guest_checkout  a folder of guest_root to keep visible though it lies under /tmp (the guest's own)
#   guest_root_share  how QEMU shares guest_root (default: read-only, ownership not mapped)
#   kernel_image the kernel QEMU boots
#   qemu         the QEMU command and machine, without the devices

infrastructure_failure() {
    echo "kernel-test: INFRASTRUCTURE FAILURE: $*" >&2
    exit 3
}
step() { echo "kernel-test: $* ($((SECONDS - started)) s)"; }

# The initramfs: busybox, /init, the kernel's modules with their dependencies, then ours.
build_initramfs() {
    local initramfs="$kernel/initramfs" path parameters module
    step "building the initramfs"
    rm -rf "$initramfs" && mkdir -p "$initramfs/bin" "$initramfs/modules"
    cp "$busybox" "$initramfs/bin/busybox"
    cp Tests/KernelTests/VM/init "$initramfs/init"
    for module in $kernel_modules; do
        modprobe -d "$kernel/tree" -S "$abi" --show-depends "${module%%:*}" \
            || infrastructure_failure "modprobe cannot resolve ${module%%:*} and its dependencies"
    done | awk '$1 == "insmod" { $1 = ""; print }' | awk '!seen[$1]++' > "$kernel/load-order.full"
    while read -r path parameters; do
        local name
        name=$(basename "$path" .xz)
        # Debian 13 compresses its modules; busybox's insmod takes them plain.
        case "$path" in
            *.xz) xz -dc "$path" > "$initramfs/modules/$name" ;;
            *) cp "$path" "$initramfs/modules/" ;;
        esac
        for module in $kernel_modules; do
            [ "${module%%:*}.ko" = "$name" ] && [ "$module" != "${module%%:*}" ] && parameters="$parameters ${module#*:}"
        done
        echo "$name $parameters"
    done < "$kernel/load-order.full" > "$initramfs/modules/load-order"
    rm "$kernel/load-order.full"
    while read -r module parameters; do
        cp "$kernel/modules/$module" "$initramfs/modules/"
        echo "$module $parameters"
    done <<< "$own_modules" >> "$initramfs/modules/load-order"
    (cd "$initramfs" && find . | cpio -o -H newc --quiet | gzip -1) > "$kernel/initramfs.cpio.gz"
}

# Boots the VM once: phase, extra kernel parameters, the kernel's console. Returns the tests'
# status; exits with 3 when no result came back.
run_vm() {
    local phase=$1 extra=$2 console=$3 results="$kernel/results"
    rm -rf "$results" && mkdir -p "$results" "$guest_root$results"
    step "booting the VM ($phase)"
    # shellcheck disable=SC2086
    timeout --kill-after=10 "${HEADWAY_KERNEL_TEST_TIMEOUT:-300}" $qemu \
        -nodefaults -no-user-config -display none -no-reboot -serial stdio \
        -kernel "$kernel_image" -initrd "$kernel/initramfs.cpio.gz" \
        -append "console=$console quiet panic=-1 headway.script=${HEADWAY_KERNEL_GUEST_SCRIPT:-$guest_script} headway.results=$results headway.checkout=$guest_checkout headway.phase=$phase $extra" \
        -virtfs "local,path=$guest_root,mount_tag=hostroot,${guest_root_share:-security_model=none,readonly=on},multidevs=remap" \
        -virtfs "local,path=$results,mount_tag=results,security_model=none,multidevs=remap" \
        < /dev/null | tee "$kernel/console-$phase.log"
    local vm_status=${PIPESTATUS[0]}
    if [ ! -f "$results/exit-status" ]; then
        [ "$vm_status" -eq 124 ] || [ "$vm_status" -eq 137 ] \
            && infrastructure_failure "the VM ($phase) timed out after ${HEADWAY_KERNEL_TEST_TIMEOUT:-300} s; console in $kernel/console-$phase.log"
        infrastructure_failure "the VM ($phase) stopped (QEMU status $vm_status) without a result; console in $kernel/console-$phase.log"
    fi
    return "$(cat "$results/exit-status")"
}

# Both boots: every test, then the one that needs a raised spidev.bufsiz.
run_phases() {
    local console=$1 status=0
    run_vm main "" "$console" || status=1
    [ -n "${HEADWAY_KERNEL_GUEST_SCRIPT:-}" ] || run_vm bufsiz "spidev.bufsiz=131072" "$console" || status=1
    if [ $status -eq 0 ]; then
        step "kernel tests PASSED"
    else
        step "kernel tests FAILED (the guest's output above says which)"
    fi
    return $status
}

# The kernel's sources this test builds as modules, out of the linux-source package: gpio-sim
# (with irq_sim, which it needs) and, where the kernel lacks it, i2c-stub. PACKAGE_DEB FOLDER FILE…
extract_sources() {
    local deb=$1 folder=$2
    shift 2
    mkdir -p "$folder"
    dpkg-deb --fsys-tarfile "$deb" \
        | tar -xO --wildcards '*/linux-source-*.tar.xz' \
        | tar -xJ -C "$folder" --strip-components=1 --wildcards "${@/#/*/}"
}

# Copies the sources Kbuild builds into FOLDER, with the one patch irq_sim needs out of tree.
stage_module_sources() {
    local source=$1 folder=$2
    rm -rf "$folder" && mkdir -p "$folder"
    cp Tests/KernelTests/VM/modules/* "$folder/"
    cp "$source/drivers/gpio/gpio-sim.c" "$folder/gpio-sim-core.c"
    cp "$source/drivers/gpio/gpiolib.h" "$source/kernel/irq/irq_sim.c" "$folder/"
    [ -f "$source/drivers/i2c/i2c-stub.c" ] && cp "$source/drivers/i2c/i2c-stub.c" "$folder/"
    # irq_to_desc is not exported to modules; generic_handle_irq does the same for this interrupt.
    sed -i 's/handle_simple_irq(irq_to_desc(irqnum))/generic_handle_irq(irqnum)/' "$folder/irq_sim.c"
    grep -q "generic_handle_irq(irqnum)" "$folder/irq_sim.c" || infrastructure_failure "irq_sim.c changed: patch it again"
}
