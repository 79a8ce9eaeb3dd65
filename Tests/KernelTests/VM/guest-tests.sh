#!/usr/bin/env bash
# Runs in the kernel-test VM. Finds the simulated devices, tells the tests where they are through
# HEADWAY_KERNEL_* variables and runs the test bundles. On amd64 the guest's root is the host's
# (read-only; /tmp and /run are the guest's own) and the bundle is the host's build against
# libgpiod 1.6; on arm64 it is an arm64 Debian 13 holding the aarch64 build (libgpiod 2.x) and
# Debian's arm64 Swift runtime at /opt/headway, so each of the GPIO shim's two paths meets a real
# kernel. Phases (the VM is booted once per phase):
#   main    every kernel test, and the permission checks as an unprivileged user
#   bufsiz  booted with spidev.bufsiz=131072: the large SPI frame is accepted
set -uo pipefail
phase=${1:-main}
case "$(uname -m)" in
aarch64)
    bundle=/opt/headway/HeadwayPackageTests.xctest
    export LD_LIBRARY_PATH=/opt/headway/swift
    export HEADWAY_KERNEL_BINARIES=/opt/headway
    export HEADWAY_EXPECT_GPIOD_API=2
    ;;
*)
    repo="$(cd "$(dirname "$0")/../../.." && pwd)"
    triple=$(uname -m)-unknown-linux-gnu
    bundle="$repo/.build/$triple/debug/HeadwayPackageTests.xctest"
    export HEADWAY_KERNEL_BINARIES="$repo/.build/$triple/debug"
    ;;
esac

adapter_named() {
    local adapter
    # /sys/class/i2c-adapter exists only with CONFIG_I2C_COMPAT (not in Debian 13's arm64 kernel).
    for adapter in /sys/bus/i2c/devices/i2c-*; do
        [ "$(cat "$adapter/name")" = "$1" ] && { echo "/dev/$(basename "$adapter")"; return; }
    done
}

# A display line whose level the SPI recorder logs (its parameter, which /init sets): the offset,
# when it is a line of the test bank.
recorder_line() {
    local parameters=/sys/module/headway_spi_recorder/parameters line
    [ "$(cat "$parameters/gpio_label" 2>/dev/null)" = "$HEADWAY_KERNEL_GPIO_LABEL" ] || return
    line=$(cat "$parameters/$1" 2>/dev/null)
    [ "${line:--1}" -ge 0 ] && [ -e "$HEADWAY_KERNEL_GPIO_SYSFS/sim_gpio$line" ] && echo "$line"
}

sim=/sys/kernel/config/gpio-sim/headway
export HEADWAY_KERNEL_GPIO_LABEL=headway-test-bank
export HEADWAY_KERNEL_GPIO_SYSFS="/sys/devices/platform/$(cat "$sim/dev_name")/$(cat "$sim/bank0/chip_name")"
export HEADWAY_KERNEL_I2C_RECORDER=$(adapter_named headway-i2c-recorder)
export HEADWAY_KERNEL_I2C_RECORDER_LOG=/sys/kernel/debug/headway-i2c-recorder/log
export HEADWAY_KERNEL_I2C_RECORDER_NACK=/sys/module/headway_i2c_recorder/parameters/nack
export HEADWAY_KERNEL_I2C_STUB=$(adapter_named "SMBus stub driver")
export HEADWAY_KERNEL_SPIDEV=/dev/spidev0.0
export HEADWAY_KERNEL_SPI_LOG=/sys/kernel/debug/headway-spi-recorder/log
export HEADWAY_KERNEL_SPIDEV_BUFSIZ=$(cat /sys/module/spidev/parameters/bufsiz)
export HEADWAY_KERNEL_SPI_DC_LINE=$(recorder_line dc_line)
export HEADWAY_KERNEL_SPI_RESET_LINE=$(recorder_line reset_line)

echo "== guest: Linux $(uname -r) on $(uname -m), $(getconf PAGESIZE)-byte pages, phase $phase"
echo "   gpio-sim:     $HEADWAY_KERNEL_GPIO_LABEL at $HEADWAY_KERNEL_GPIO_SYSFS"
echo "   I2C recorder: $HEADWAY_KERNEL_I2C_RECORDER; i2c-stub: $HEADWAY_KERNEL_I2C_STUB"
echo "   SPI recorder: $HEADWAY_KERNEL_SPIDEV (spidev bufsiz $HEADWAY_KERNEL_SPIDEV_BUFSIZ), D/C line $HEADWAY_KERNEL_SPI_DC_LINE, reset line $HEADWAY_KERNEL_SPI_RESET_LINE"
# The tests skip themselves where a device is missing; here that is a failure, not a pass.
for variable in HEADWAY_KERNEL_GPIO_LABEL HEADWAY_KERNEL_GPIO_SYSFS HEADWAY_KERNEL_I2C_RECORDER HEADWAY_KERNEL_I2C_STUB \
    HEADWAY_KERNEL_SPIDEV HEADWAY_KERNEL_SPIDEV_BUFSIZ HEADWAY_KERNEL_SPI_DC_LINE HEADWAY_KERNEL_SPI_RESET_LINE; do
    path=${!variable}
    case $variable in
        HEADWAY_KERNEL_GPIO_LABEL | HEADWAY_KERNEL_SPIDEV_BUFSIZ | HEADWAY_KERNEL_SPI_*_LINE) is_path=false ;;
        *) is_path=true ;;
    esac
    [ -n "$path" ] && { [ $is_path = false ] || [ -e "$path" ]; } || {
        echo "== a simulated device is missing: $variable is '$path'"
        exit 1
    }
done

status=0
run() {  # title, command…
    local title=$1 started=$SECONDS
    shift
    echo "== $title"
    # Each check's result stays; the "started" lines would double the listing.
    if "$@" 2>&1 | grep -v '^◇ .* started\.$'; then
        echo "== $title: passed ($((SECONDS - started)) s)"
    else
        echo "== $title: FAILED ($((SECONDS - started)) s)"
        status=1
    fi
}

case "$phase-$(uname -m)" in
main-aarch64)
    run "kernel tests and the GPIO backend's, libgpiod 2.x" \
        "$bundle" --testing-library swift-testing --filter "KernelTests|GpiodChipTests" --skip "Kernel/Permission/|Kernel/SPIBufsiz/"
    run "permission errors and doctor, as user nobody" \
        setpriv --reuid=65534 --regid=65534 --clear-groups env HEADWAY_KERNEL_UNPRIVILEGED=1 \
        "$bundle" --testing-library swift-testing --filter "KernelTests.Kernel/Permission/|KernelTests.Kernel/Doctor/"
    ;;
main-*)
    run "kernel tests, libgpiod 1.6" \
        "$bundle" --testing-library swift-testing --filter KernelTests --skip "Kernel/Permission/|Kernel/SPIBufsiz/"
    run "permission errors and doctor, as user nobody" \
        setpriv --reuid=65534 --regid=65534 --clear-groups env HEADWAY_KERNEL_UNPRIVILEGED=1 \
        "$bundle" --testing-library swift-testing --filter "KernelTests.Kernel/Permission/|KernelTests.Kernel/Doctor/"
    ;;
bufsiz-*)
    run "SPI with spidev.bufsiz raised" \
        "$bundle" --testing-library swift-testing --filter "KernelTests.Kernel/SPIBufsiz/"
    ;;
*)
    echo "unknown phase $phase"
    status=2
    ;;
esac
exit $status
