# Sourced by Scripts/kernel-test for `systemd`, after kernel-amd64.sh: the amd64 package installed
# with apt into a Debian 13 that boots with systemd as PID 1 (its root shared read-write over
# 9p), on the same kernel and simulated devices as the kernel tests. A unit of that system runs
# Tests/KernelTests/VM/systemd/checks.sh: docs/raspberry-pi.md's commands, then a GitLab job
# through the example hooks, with the daemon socket-activated in its sandbox.

source Scripts/lib/debian13.sh
ensure_packages debootstrap rsync || infrastructure_failure "installing debootstrap failed"
deb=$(ls -t .build-package/headway_*_amd64.deb 2>/dev/null | head -1)
[ -n "$deb" ] || infrastructure_failure "no .build-package/headway_*_amd64.deb: run Scripts/package amd64 first"
step "the package: $(basename "$deb")"

# A Debian 13 that boots: the bare one with systemd as init, udev (which applies the package's
# rules to the device nodes), sudo, a broker for README's "Runners on other machines" (mosquitto
# and its clients, to read what the display publishes), and for watched units the system bus
# (dbus) and a real backup to watch (restic); made once per machine.
base="$root/.build-debian13/systemd-amd64"
base_packages="systemd-sysv udev sudo mosquitto mosquitto-clients dbus restic"
if [ "$(cat "$base/.packages" 2>/dev/null)" != "$base_packages" ]; then
    step "making a bootable Debian 13 (once per machine)"
    bare=$(debian13_bare_root amd64) || infrastructure_failure "making the bare Debian 13 failed"
    rm -rf "$base" && cp -a "$bare" "$base"
    debian13_run "$base" bash -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $base_packages >/dev/null" \
        || infrastructure_failure "installing $base_packages failed"
    ln -sf /usr/lib/systemd/system/multi-user.target "$base/etc/systemd/system/default.target"
    echo headway-vm > "$base/etc/hostname"
    echo "$base_packages" > "$base/.packages"
fi

# Each run: a fresh copy, the package installed as on a Pi, the users a Pi and a runner have.
step "installing the package into a fresh copy"
guest_root="$cache/systemd-root"
rm -rf "$guest_root" && cp -a "$base" "$guest_root"
cp "$deb" "$guest_root/tmp/headway.deb"
debian13_run "$guest_root" bash -c '
    set -e
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/headway.deb >/dev/null
    rm /tmp/headway.deb
    # Raspberry Pi OS makes its user a sudoer in the gpio, i2c and spi groups.
    useradd --create-home --shell /bin/bash --groups sudo,gpio,i2c,spi pi
    echo "pi ALL=(ALL) NOPASSWD: ALL" > /etc/sudoers.d/pi
    useradd --create-home --shell /bin/bash gitlab-runner
    # What an installed system (Raspberry Pi OS, Debian'"'"'s installer) has and debootstrap leaves out.
    printf "127.0.0.1 localhost\n::1 localhost ip6-localhost ip6-loopback\n127.0.1.1 headway-vm\n" >> /etc/hosts
' || infrastructure_failure "installing the package failed"
mkdir -p "$guest_root/opt/headway-checks"
cp Tests/KernelTests/VM/systemd/checks.sh Tests/KernelTests/VM/systemd/edit-config "$guest_root/opt/headway-checks/"
cp Tests/KernelTests/VM/systemd/headway-checks.service "$guest_root/etc/systemd/system/"
ln -sf ../headway-checks.service "$guest_root/etc/systemd/system/multi-user.target.wants/headway-checks.service"
# The console is the checks' output: no login prompt on it.
ln -sf /dev/null "$guest_root/etc/systemd/system/serial-getty@ttyS0.service"

build_initramfs
guest_checkout=/
guest_script=/opt/headway-checks/checks.sh
# Read-write, and QEMU runs as root: owners and modes are the guest's own.
guest_root_share="security_model=passthrough"
status=0
# A whole booted system under emulation, its checks and the watched units' runs: about 6 minutes
# on an idle machine, longer beside other steps (.ci/run runs it beside three), so the limit that
# catches a hung VM is 15 minutes (HEADWAY_KERNEL_TEST_TIMEOUT still decides when set).
export HEADWAY_KERNEL_TEST_TIMEOUT=${HEADWAY_KERNEL_TEST_TIMEOUT:-900}
run_vm systemd "headway.boot=systemd systemd.show_status=false" ttyS0 || status=1
if [ $status -eq 0 ]; then step "the installed package PASSED its checks"; else step "the installed package FAILED (the checks above say which)"; fi
exit $status
