# Run by Scripts/test-package inside a Debian 13 chroot (the repository at /src):
#   bash check-install.sh VERSION deb PATH    installs the .deb with apt, as a Pi owner would
#   bash check-install.sh VERSION source      builds and installs with Scripts/install, the
#                                             from-source command of docs/raspberry-pi.md (in the build chroot)
# then checks what it put where and how large it is, runs every program README's commands use from
# a folder of no importance (headwayd, headway-sim and headway-mqtt through their links to the one
# multi-call program), walks the apt journey when HEADWAY_APT_JOURNEY names the demo repository's
# server (Scripts/lib/apt-journey.sh), purges it and checks that nothing of it is left. HEADWAY_EMULATED=1 (arm64
# under qemu-user) leaves out the daemon's memory and the client's start time, which emulation
# would distort; both are printed, not enforced.
set -euo pipefail
version="$1" mode="$2" deb="${3:-}"
# The targets of docs/performance.md.
max_deb_bytes=12000000 max_installed_kib=40960 max_idle_rss_kib=12288
fail() { echo "check-install: FAILED: $*" >&2; exit 1; }
say() { echo "check-install: $*"; }
export DEBIAN_FRONTEND=noninteractive

apt-get update -qq
if [ "$mode" = deb ]; then
    # What the package depends on is installed first (the first of each set of alternatives), so
    # that the file list taken next holds everything but the package's own files.
    depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/ //g' | grep -v '^$')
    apt-get install -y -qq --no-install-recommends $depends >/dev/null
fi
# What the system holds outside the folders that are not the package's to touch (/srv: the build
# chroot's other builds, which .ci/run makes beside this check).
snapshot() {
    find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /src -o -path /tmp -o -path /root \
        -o -path /var/cache -o -path /var/lib/apt -o -path /var/lib/dpkg -o -path /var/log -o -path /run \
        -o -path /opt/swift-packages -o -path /srv \) -prune -o -print | sort
}
snapshot >/tmp/before

if [ "$mode" = deb ]; then
    say "installing $(basename "$deb") with apt"
    apt-get install -y -qq --no-install-recommends "$deb" >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; fail "apt-get install"; }
else
    say "building and installing with Scripts/install"
    (cd /src && bash Scripts/install) >/tmp/install.log 2>&1 || { tail -40 /tmp/install.log; fail "Scripts/install"; }
fi

say "the headway user and the gpio, i2c and spi groups"
getent passwd headway >/dev/null || fail "no headway user"
for group in gpio i2c spi; do
    getent group "$group" >/dev/null || fail "no $group group"
    id -nG headway | tr ' ' '\n' | grep -qx "$group" || fail "headway is not in $group"
done
getent group headway >/dev/null || fail "no headway group"

say "files in place"
for file in /usr/bin/headway /usr/bin/headwayd /usr/bin/headway-sim /usr/bin/headway-mqtt /usr/bin/headway-ci /etc/headway/config.yaml \
    /usr/share/headway/boards/boards/raspberry-pi-5.yaml /usr/share/headway/boards/hats/pimoroni-blinkt.yaml \
    /usr/lib/systemd/system/headway.service /usr/lib/systemd/system/headway.socket /usr/lib/systemd/system/headway-mqtt.service \
    /usr/lib/systemd/system/headway-ci.service /usr/share/man/man1/headway-ci.1.gz /usr/share/doc/headway/ci.md.gz \
    /usr/lib/sysusers.d/headway.conf /usr/lib/udev/rules.d/60-headway.rules \
    /usr/share/man/man1/headway.1.gz /usr/share/man/man1/headwayd.1.gz /usr/share/man/man1/headway-sim.1.gz /usr/share/man/man1/headway-mqtt.1.gz \
    /usr/share/bash-completion/completions/headway /usr/share/zsh/vendor-completions/_headway \
    /usr/share/fish/vendor_completions.d/headway.fish \
    /usr/share/bash-completion/completions/headwayd /usr/share/zsh/vendor-completions/_headwayd \
    /usr/share/fish/vendor_completions.d/headwayd.fish \
    /usr/share/doc/headway/configuration.md.gz /usr/share/doc/headway/examples/gitlab/pre_build_script.sh; do
    [ -e "$file" ] || fail "$file is missing"
done
# Every document a program's --help, a man page or the README names (docs/NAME.md) is installed,
# and so is every example folder the README names.
for name in $( (for tool in headway headwayd headway-sim headway-mqtt headway-ci; do "$tool" --help 2>&1; done
        zcat /usr/share/man/man1/headway*.gz; zcat /usr/share/doc/headway/README.md.gz) | grep -o 'docs/[a-z0-9-]*\.md' | sort -u); do
    # dh_compress leaves documents under 4 KB as they are.
    [ -e "/usr/share/doc/headway/$(basename "$name").gz" ] || [ -e "/usr/share/doc/headway/$(basename "$name")" ] ||
        fail "$name is named but /usr/share/doc/headway/$(basename "$name")[.gz] is not installed"
done
for name in $(zcat /usr/share/doc/headway/README.md.gz | grep -o 'examples/[a-z-]*/' | sort -u); do
    [ "$name" = examples/swift-package/ ] || [ -d "/usr/share/doc/headway/$name" ] || fail "$name is named in the README but not installed"
done
[ -e /usr/share/doc/headway/examples/ci/ci.yaml ] || fail "no sample ci.yaml"
# headwayd without arguments reads /etc/headway/config.yaml, as doctor does.
# (Its check fails here, without the hardware: what it names is what counts.)
checked=$(headwayd --check 2>&1 || true)
grep -q "/etc/headway/config.yaml" <<<"$checked" || fail "headwayd --check does not read /etc/headway/config.yaml by itself: $checked"
grep -qx /etc/headway/config.yaml /var/lib/dpkg/info/headway.conffiles || fail "/etc/headway/config.yaml is not a conffile"
[ -L /etc/systemd/system/sockets.target.wants/headway.socket ] || fail "the socket is not enabled"

say "the units as systemd reads them"
# --man=no: minbase has no man-db to look the Documentation= page up with (its file is checked above).
systemd-analyze verify --man=no /usr/lib/systemd/system/headway.socket /usr/lib/systemd/system/headway.service /usr/lib/systemd/system/headway-mqtt.service \
    /usr/lib/systemd/system/headway-ci.service ||
    fail "systemd-analyze verify"
grep -q '^ExecStart=/usr/bin/headwayd --config /etc/headway/config.yaml$' /usr/lib/systemd/system/headway.service ||
    fail "the unit does not start the daemon with the installed configuration"

say "sizes"
installed=$(dpkg-query -W -f '${Installed-Size}' headway)
used=$(dpkg -L headway | while read -r path; do if [ -f "$path" ] && [ ! -L "$path" ]; then echo "$path"; fi; done | xargs du -ck | tail -1 | cut -f1)
say "  Installed-Size $installed KiB, du $used KiB (at most $max_installed_kib)"
[ "$installed" -le "$max_installed_kib" ] && [ "$used" -le "$max_installed_kib" ] || fail "installed size over $max_installed_kib KiB"
if [ "$mode" = deb ]; then
    bytes=$(stat -c %s "$deb")
    say "  $(basename "$deb") $bytes bytes (at most $max_deb_bytes)"
    [ "$bytes" -le "$max_deb_bytes" ] || fail "the package is over $max_deb_bytes bytes"
fi
[ "$(readlink -f /usr/bin/headway-sim)" = /usr/bin/headwayd ] && [ "$(readlink -f /usr/bin/headway-mqtt)" = /usr/bin/headwayd ] &&
    [ "$(readlink -f /usr/bin/headway-ci)" = /usr/bin/headwayd ] || fail "headway-sim, headway-mqtt and headway-ci are not links to headwayd"

say "every program's --version"
for program in headway headwayd headway-sim headway-ci; do
    grep -qF "$version" <<<"$("$program" --version)" || fail "$program --version does not say $version: $("$program" --version)"
done

say "headwayd --check with the shipped configuration"
if output=$(headwayd --check --config /etc/headway/config.yaml 2>&1); then fail "--check passed without devices: $output"; fi
echo "$output" | grep -q "/dev/spidev0.0 does not exist: enable SPI" || fail "unexpected --check advice: $output"

say "headwayd doctor with presets"
if output=$(headwayd doctor --board raspberry-pi-5 --hat pimoroni-blinkt 2>&1); then fail "doctor found nothing to fix here: $output"; fi
echo "$output" | grep -q "    fix: " && echo "$output" | grep -q "to fix" || fail "unexpected doctor output: $output"

say "headway-sim render and demo from any folder"
mkdir -p /tmp/elsewhere && cd /tmp/elsewhere
headway-sim render --device ring24 --value 0.4 --out /tmp/elsewhere >/dev/null
[ -s /tmp/elsewhere/ring.ppm ] || fail "headway-sim render wrote nothing"
output=$(headway-sim demo --headless --speed 30 2>&1) || fail "headway-sim demo: $output"
echo "$output" | grep -q "protocol or timing errors: 0" || fail "unexpected demo output: $output"

say "headway-mqtt --help"
grep -q "USAGE: headway-mqtt" <<<"$(headway-mqtt --help)" || fail "headway-mqtt --help"

say "headway-ci --help, and a configuration it refuses with its line"
# Read whole before it is searched: grep -q leaving early would break the program's pipe (pipefail).
grep -q "USAGE: headway-ci" <<<"$(headway-ci --help)" || fail "headway-ci --help: $(headway-ci --help 2>&1 | head -3)"
grep -q "OWNER/REPO" <<<"$(headway-ci github --help)" || fail "headway-ci github --help"
printf 'sources:\n  - github: acme\n' >/tmp/elsewhere/ci.yaml
if output=$(headway-ci --config /tmp/elsewhere/ci.yaml 2>&1); then fail "headway-ci took a broken configuration"; fi
echo "$output" | grep -q "line 2: github: \"acme\" is not OWNER/REPO" || fail "unexpected headway-ci refusal: $output"

say "a job from headway to headwayd"
# The daemon as installed, driving a Pi 5 ring whose /dev/leds0 is a plain file here.
: >/tmp/elsewhere/leds0
cat >/tmp/elsewhere/config.yaml <<CONFIG
outputs:
  - name: ring
    driver: leds0
    path: /tmp/elsewhere/leds0
    count: 24
state-directory: /tmp/elsewhere/state
CONFIG
export HEADWAY_SOCKET=/tmp/elsewhere/headway.sock
headwayd --config /tmp/elsewhere/config.yaml 2>/tmp/headwayd.log &
daemon=$!
for _ in $(seq 100); do [ -S "$HEADWAY_SOCKET" ] && break; sleep 0.1; done
[ -S "$HEADWAY_SOCKET" ] || fail "headwayd did not listen: $(cat /tmp/headwayd.log)"
if [ -z "${HEADWAY_EMULATED:-}" ]; then
    sleep 2
    # Reported, not enforced: how much of the program a fault maps depends on the kernel and its
    # page cache, not only on the program (docs/performance.md).
    say "  headwayd idle: $(awk '/^(VmRSS|RssAnon|RssFile)/ { printf "%s %s KiB ", $1, $2 }' "/proc/$daemon/status")(target: RSS at most $max_idle_rss_kib KiB)"
fi
headway --strict --job install-check begin --label "Install check" --total 10 || fail "headway begin"
if [ -z "${HEADWAY_EMULATED:-}" ]; then
    # A hook's whole run: process start, connect, one request and reply, exit.
    started=$EPOCHREALTIME
    for _ in $(seq 1000); do headway --strict --job install-check set 5; done
    # Seconds for 1000 runs are milliseconds a run.
    say "  headway set, start to exit: $(awk -v from="$started" -v to="$EPOCHREALTIME" 'BEGIN { printf "%.2f", to - from }') ms a run over 1000 runs"
fi
headway --strict --job install-check set 5 || fail "headway set"
grep -q "Install check" <<<"$(headway status)" || fail "headway status does not list the job: $(headway status)"
headway --strict --job install-check done || fail "headway done"
[ -s /tmp/elsewhere/leds0 ] || fail "headwayd drew nothing on the ring"
kill -TERM "$daemon" && wait "$daemon" || true
unset HEADWAY_SOCKET
cd /

if [ -n "${HEADWAY_APT_JOURNEY:-}" ]; then
    say "the apt journey: headway run -- apt-get install, update, upgrade and a failing install"
    source /src/Scripts/lib/apt-journey.sh
    apt_journey "$HEADWAY_APT_JOURNEY" || fail "the apt journey"
fi

say "purging"
apt-get purge -y -qq headway >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; fail "apt-get purge"; }
snapshot >/tmp/after
# The user and its groups stay (Debian's policy: files may still belong to them), and so do the
# packages apt installed for headway (Scripts/install installs the libraries it loads): their
# files are theirs.
left=$(comm -13 /tmp/before /tmp/after | grep -vE '^/etc/(passwd|group|shadow|gshadow)-?$' \
    | while read -r path; do dpkg -S "$path" >/dev/null 2>&1 || echo "$path"; done || true)
[ -z "$left" ] || fail "purge left: $left"
say "passed"
