#!/bin/bash
# Runs as a unit of the Debian 13 that Scripts/kernel-test systemd boots with systemd, the amd64
# package installed with apt: docs/raspberry-pi.md's commands as the Pi's user `pi` types
# them (sudo, and in the gpio, i2c and spi groups as on Raspberry Pi OS), then a GitLab job as
# the runner's user: the example hooks through the socket systemd holds, the daemon started by
# the first client in its sandbox, a reload in the middle. The devices are the kernel-test VM's:
# the SPI and I2C recorders (whose logs show what the daemon sent) and gpio-sim.
set -uo pipefail
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
results=$(sed -n 's/.*headway\.results=\([^ ]*\).*/\1/p' /proc/cmdline)
mkdir -p /run/results
mount -t 9p -o trans=virtio,version=9p2000.L results /run/results || { echo "cannot mount the results share"; systemctl poweroff; exit 1; }
status=0
failed=()
check() {  # what, command…
    local what=$1
    shift
    # Each line ends with the seconds since the unit began: where a slow walk spends its time.
    if "$@"; then echo "✔ $what ($SECONDS s)"; else echo "✘ $what ($SECONDS s)"; status=1; failed+=("$what ($SECONDS s)"); fi
}
as_pi() { runuser -u pi -- "$@"; }
export -f as_pi
as_runner() {
    runuser -u gitlab-runner -- env CI_JOB_ID=4711 CI_PROJECT_PATH=acme/widgets CI_PROJECT_NAME=widgets CI_JOB_NAME=build "$@"
}
export -f as_runner
job_phase() { as_runner headway status | awk '$1 == "gl-4711" { print $2 }'; }
spi_frames() { grep -c 'len=' /sys/kernel/debug/headway-spi-recorder/log; }
i2c_messages() { grep -c '^w ' /sys/kernel/debug/headway-i2c-recorder/log; }
export -f job_phase spi_frames i2c_messages
eventually() {  # seconds, command…: true once the command is, within the time
    local until=$((SECONDS + $1))
    shift
    until "$@"; do [ $SECONDS -lt $until ] || return 1; sleep 0.2; done
}

echo "== booted in $(cut -d" " -f1 /proc/uptime) s: Linux $(uname -r), systemd $(systemctl --version | awk 'NR == 1 { print $2 }'), $(headway --version)"
check "headway.socket is listening, enabled by the package" systemctl is-active --quiet headway.socket
check "the daemon is not started before a client needs it" bash -c '! systemctl is-active --quiet headway.service'

echo "== docs/raspberry-pi.md: headwayd doctor, sudoedit, headwayd doctor, headwayd --check, systemctl reload-or-restart, usermod"
# docs/raspberry-pi.md's first set-up command asks whether this machine is ready for a Pi 5 with a Blinkt!: the
# VM is no Pi and has no pinctrl-rp1 chip, and doctor says so, naming the chip it has.
doctor_first=$(as_pi headwayd doctor --board raspberry-pi-5 --hat pimoroni-blinkt)
first_status=$?
check "headwayd doctor --board raspberry-pi-5 --hat pimoroni-blinkt (as pi) exits 1" [ $first_status -eq 1 ]
check "it finds no pinctrl-rp1 and names the VM's chip" \
    grep -q '✘ no GPIO chip labelled or named pinctrl-rp1 (here: .*\[headway-test-bank\]' <<< "$doctor_first"
check "sudoedit /etc/headway/config.yaml (as pi)" as_pi env SUDO_EDITOR=/opt/headway-checks/edit-config sudoedit /etc/headway/config.yaml
check "the edit is in the file" grep -q "chip: headway-test-bank" /etc/headway/config.yaml
doctor_file=$(as_pi headwayd doctor)
file_status=$?
check "headwayd doctor (as pi): nothing to fix" [ $file_status -eq 0 ]
check "doctor checked the devices as the service's user" grep -q "device access checked as headway (the user of headway.service)" <<< "$doctor_file"
check "doctor found the button's line free" grep -q "headway-test-bank is gpiochip.*; line 7 free" <<< "$doctor_file"
check "doctor found the OLED answering" grep -q "✔ oled (ssd1306 128x64): a device answers at 0x3C on /dev/i2c-1" <<< "$doctor_file"
[ $status -eq 0 ] || echo "$doctor_first" "$doctor_file"
check "headwayd --check --config /etc/headway/config.yaml (as pi) opens every device" \
    as_pi headwayd --check --config /etc/headway/config.yaml
check "sudo systemctl reload-or-restart headway (as pi)" as_pi sudo systemctl reload-or-restart headway
check "the daemon is active" systemctl is-active --quiet headway.service
pid=$(systemctl show -P MainPID headway.service)
check "it runs as user headway, in groups gpio, i2c, spi" bash -c \
    "[ \"\$(stat -c %U /proc/$pid)\" = headway ] && grep -q '^Groups:.*' /proc/$pid/status && [ \$(awk '/^Groups:/ { print NF - 1 }' /proc/$pid/status) -ge 3 ]"
check "sudo usermod -aG headway gitlab-runner (as pi)" as_pi sudo usermod -aG headway gitlab-runner

echo "== a GitLab job through the example hooks, as gitlab-runner"
hooks=/usr/share/doc/headway/examples/gitlab
frames_before=$(spi_frames)
i2c_before=$(i2c_messages)
# Every job's events, from now on (outside a job's environment — a runner's variables, or a
# systemd service's INVOCATION_ID as these checks have — `headway watch` follows them all): an
# outcome is shown for 3 s only, too short to catch with `headway status` in an emulated machine
# on a busy host.
# `headway watch` ends when the service goes away (the restarts below): it is started again.
( while true; do runuser -u gitlab-runner -- env -u INVOCATION_ID headway watch; sleep 0.2; done ) >/run/events 2>/run/events.err &
# A line of `headway watch`: the time, the job, what happened (an outcome when it ended), …
finished() { awk -v job="$1" -v outcome="$2" '$2 == job && $3 == outcome { found = 1 } END { exit !found }' /run/events; }
# How many times `headway watch` said the job ended, however it ended (lost included).
ends() { awk -v job="$1" '$2 == job && $3 ~ /^(succeeded|failed|cancelled|ended|lost)$/ { n++ } END { print n + 0 }' /run/events; }
export -f finished ends
# The build shell: the pre-build hook, the job's script (which reports progress), the post-build hook.
as_runner bash -c "bash $hooks/pre_build_script.sh && headway set 3/10 && sleep 30 && CI_JOB_STATUS=success bash $hooks/post_build_script.sh" &
build_shell=$!
check "the job is active" eventually 10 bash -c '[ "$(job_phase)" = active ]'
check "its progress reached the service" eventually 5 bash -c 'as_runner headway status | grep -q "^gl-4711 .* 30%"'
check "the ring's frames went out on SPI" eventually 10 bash -c "[ \$(spi_frames) -gt $frames_before ]"
check "the OLED was drawn on I2C" eventually 10 bash -c "[ \$(i2c_messages) -gt $i2c_before ]"
check "sudo systemctl reload headway in the middle (as pi)" as_pi sudo systemctl reload headway
check "the job is still there after the reload" bash -c '[ "$(job_phase)" = active ]'
wait "$build_shell"
check "the build shell (hooks included) exited 0" [ $? -eq 0 ]
check "the job succeeded" eventually 10 finished gl-4711 succeeded
finished gl-4711 succeeded || { echo "   headway watch wrote:"; sed 's/^/     /' /run/events /run/events.err | tail -20; }

echo "== a restart in the middle of jobs: systemctl restart, then kill -9"
# A 20-minute job from a hook (its total the seconds it takes), a headway run job, and the ring's
# frames timed as they go out: the jobs come back with their values and elapsed time, nothing a
# client sends is refused, and the glass shows the job again soon after the daemon is back.
hookjob() { as_runner env CI_JOB_ID=5150 headway "$@"; }
export -f hookjob
check "a 20-minute job begun by a hook" hookjob begin --label "Nightly build" --total 1200
check "at 100 s of 1200" hookjob set 100 --strict
as_runner headway run --job copy --label "Copy" -- sh -c 'i=0; while [ $i -lt 200 ]; do i=$((i+1)); echo "$i/200"; sleep 0.2; done' >/run/run.out 2>/run/run.err &
run_pid=$!
check "both jobs are shown" eventually 10 bash -c 'as_runner headway status | grep -q "^gl-5150 " && as_runner headway status | grep -q "^copy "'
# Every change of the SPI recorder's frame count, with its time: the gaps in the glass.
( last=0; while true; do n=$(spi_frames); [ "$n" != "$last" ] && echo "$(date +%s.%N) $n"; last=$n; sleep 0.05; done ) > /run/frames &
frame_sampler=$!
sleep 2
restart_at=$(date +%s.%N)
as_runner env CI_JOB_ID=5150 bash -c 'sleep 0.3; headway set 110 --strict' > /run/set-during.out 2>&1 &
set_during=$!
check "sudo systemctl restart headway (as pi)" as_pi sudo systemctl restart headway
wait $set_during
check "a hook's set during the restart was not refused (it waited on the socket systemd holds)" bash -c "[ \$(grep -c . /run/set-during.out) -eq 0 ]" || cat /run/set-during.out
check "the hook's job came back at 110 of 1200" eventually 10 bash -c 'as_runner headway status | grep -Eq "^gl-5150 +active .*9% \(110/1200\)"'
check "headway run's job is still there" bash -c 'as_runner headway status | grep -q "^copy "'
pid=$(systemctl show -P MainPID headway.service)
kill_at=$(date +%s.%N)
check "kill -9 headwayd ($pid)" kill -9 "$pid"
back() { local now; now=$(systemctl show -P MainPID headway.service); [ "$now" != "$1" ] && [ "$now" != 0 ] && systemctl is-active --quiet headway.service; }
export -f back
check "systemd brings it back (Restart=on-failure)" eventually 15 back "$pid"
back "$pid" || { systemctl status headway.service --no-pager; journalctl -u headway.service -n 40 --no-pager; }
back_at=$(date +%s.%N)
check "the hook's next set lands on the kept job" hookjob set 130 --strict
check "it reads 130 of 1200" eventually 10 bash -c 'as_runner headway status | grep -Eq "^gl-5150 +active .*10% \(130/1200\)"'
check "headway run's job came back after the kill and goes on" eventually 10 bash -c 'as_runner headway status | grep -Eq "^copy +active"'
sleep 2
kill $frame_sampler
# The glass's gaps: the longest pause in the ring's frames after each event, and how long after
# the daemon was back the first frame went out.
gap_after() { awk -v t="$1" '$1 > t { if (prev && !done) { print $1 - prev; done = 1 } } { prev = $1 }' /run/frames; }
first_after() { awk -v t="$1" '$1 > t { print $1 - t; exit }' /run/frames; }
echo "   restart: last frame before to first after: $(gap_after "$restart_at") s"
echo "   kill -9: last frame before to first after: $(gap_after "$kill_at") s; first frame $(first_after "$back_at") s after the daemon was back"
check "the glass showed the job again within a second of the daemon's return" awk -v s="$(first_after "$back_at")" 'BEGIN { exit !(s != "" && s < 1.0) }'
check "the hook ends its job" hookjob done
wait "$run_pid"
check "headway run ended 0 through both" [ $? -eq 0 ]
check "and was not told its progress went unshown for good (a warning is followed by \"answers again\")" \
    awk '/progress not shown/ { w = 1 } /answers again/ { w = 0 } END { exit w }' /run/run.err
echo "   headway run's standard error:"; sed 's/^/     /' /run/run.err | tail -10
# The state file's write rate under a job updated as fast as a hook can: at most one write a second.
# Hooks are processes, slow in an emulated machine: as many as 20 s allows, at most 400, on a
# job of their own that is live throughout.
check "a hook begins the flooded job" hookjob begin --label "Flood" --total 1200
( until=$((SECONDS + 20)); i=0; while [ $i -lt 400 ] && [ $SECONDS -lt $until ]; do i=$((i + 1)); hookjob set $((i * 3)) >/dev/null 2>&1; echo $i > /run/flood-count; done ) &
flood=$!
( last=""; while kill -0 $flood 2>/dev/null; do m=$(stat -c %y /var/lib/headway/jobs.json 2>/dev/null); [ "$m" != "$last" ] && echo "$(date +%s.%N) $m"; last=$m; sleep 0.05; done ) > /run/writes
wait $flood
writes=$(grep -c . /run/writes)
span=$(awk 'NR == 1 { a = $1 } { b = $1 } END { print b - a }' /run/writes)
echo "   jobs.json: $writes writes in $span s while a hook sent $(cat /run/flood-count) updates"
# The service hands the writer the jobs at most once a second; the file's time marks when each
# write ended, which a loaded machine (CI runs this walk beside other steps) delays by up to a
# couple of seconds: writes − 1 intervals within the span and those seconds.
check "jobs.json is written, at most about once a second" awk -v w="$writes" -v s="$span" 'BEGIN { exit !(w >= 2 && w - 1 <= s + 2) }'
check "the flooded job took the last update" eventually 5 bash -c "as_runner headway status | grep -Eq \"^gl-5150 +active .*\\(\$(( $(cat /run/flood-count) * 3 ))/1200\\)\""
check "the hook ends the flooded job" hookjob done

echo "== README: runners on other machines, headway-mqtt.service beside the daemon"
# The runner is "elsewhere": its hooks reach this Pi only through the broker (mosquitto, which
# Debian starts listening on localhost).
check "mosquitto is running" eventually 10 systemctl is-active --quiet mosquitto
check "the broker's settings in /etc/headway/mqtt.env (as pi)" as_pi bash -c \
    'printf "HEADWAY_BROKER=mqtt://localhost\nHEADWAY_MQTT_OPTIONS=--name pi-desk --home-assistant\n" | sudo tee /etc/headway/mqtt.env >/dev/null'
check "sudo systemctl enable --now headway-mqtt (as pi)" as_pi sudo systemctl enable --now headway-mqtt
check "headway-mqtt is active" eventually 10 systemctl is-active --quiet headway-mqtt
mqtt_pid=$(systemctl show -P MainPID headway-mqtt.service)
check "it runs as a user of its own, in group headway, without the devices" bash -c \
    "[ \"\$(stat -c %U /proc/$mqtt_pid)\" != root ] && [ \"\$(stat -c %U /proc/$mqtt_pid)\" != headway ] && test -e /dev/i2c-1 && nsenter -t $mqtt_pid -m test ! -e /dev/i2c-1"
check "the display is online at the broker" bash -c \
    '[ "$(mosquitto_sub -h localhost -t headway/v1/displays/pi-desk/availability -C 1 -W 5)" = online ]'
remote() { as_runner env HEADWAY_SOCKET=/nonexistent HEADWAY_BROKER=mqtt://localhost headway --job remote-7 "$@"; }
check "a runner elsewhere begins a job on the broker" remote begin --label "Remote build" --total 10
check "and reports progress" remote set 6
check "this Pi's daemon shows it" eventually 10 bash -c 'as_runner headway status | grep -q "^acme/widgets/remote-7 .*60%"'
check "Home Assistant reads it from the display's state" eventually 10 bash -c \
    'mosquitto_sub -h localhost -t headway/v1/displays/pi-desk/state -C 1 -W 5 | grep -q "\"job\":\"acme/widgets/remote-7\".*\"percent\":60"'
check "Home Assistant's progress sensor is announced" bash -c \
    'mosquitto_sub -h localhost -t homeassistant/sensor/headway_pi-desk/progress/config -C 1 -W 5 | grep -q "\"unique_id\":\"headway_pi-desk_progress\""'
check "the runner's done ends it here" remote done
check "the job succeeded on this Pi" eventually 10 finished acme/widgets/remote-7 succeeded

echo "== README: systemd units watched, a restic backup under a timer"
# The Pi's owner installs the packaged example (a restic backup of /home every night at 02:00)
# and makes it also run 8 s after the timer starts, a unit that fails, a unit that reports no
# progress, and watches them all (and a unit that does not exist).
examples=/usr/share/doc/headway/examples/systemd
status_of() { as_pi headway status | awk -v job="$1" '$1 == job'; }
phase_of() { status_of "$1" | awk '{ print $2 }'; }
export -f status_of phase_of
since_watch=$(date '+%Y-%m-%d %H:%M:%S')
check "the example backup unit and timer installed (as pi)" as_pi bash -c "
    sudo cp $examples/backup.service $examples/backup.timer /etc/systemd/system/ &&
    sudo mkdir -p /etc/systemd/system/backup.timer.d /etc/restic &&
    printf '[Timer]\nOnActiveSec=8s\n' | sudo tee /etc/systemd/system/backup.timer.d/soon.conf >/dev/null &&
    echo vm-secret | sudo tee /etc/restic/password >/dev/null &&
    sudo env RESTIC_PASSWORD_FILE=/etc/restic/password restic init --repo /srv/backup >/dev/null &&
    mkdir -p ~/Documents && for i in \$(seq 1 20); do head -c 1000000 /dev/urandom > ~/Documents/scan-\$i.pdf; done"
check "a unit that fails and one that reports no progress (as pi)" as_pi bash -c "
    printf '[Unit]\nDescription=Nightly encode\n[Service]\nType=oneshot\nExecStart=/bin/sh -c \"sleep 3; exit 3\"\n' | sudo tee /etc/systemd/system/nightly-encode.service >/dev/null &&
    printf '[Unit]\nDescription=Weekly report\n[Service]\nType=oneshot\nExecStart=/bin/sleep 6\n' | sudo tee /etc/systemd/system/report.service >/dev/null &&
    sudo systemctl daemon-reload"
# An outcome shown for 15 s rather than 3: `headway status` takes a second or two in the emulated
# machine, and the samples below must not fall on either side of the failing unit's outcome.
check "watch: units added to /etc/headway/config.yaml (as pi)" as_pi bash -c \
    'printf "\nwatch:\n  units: [backup.service, nightly-encode.service, report.service, no-such.service]\ntimings:\n  linger: 15\n" | sudo tee -a /etc/headway/config.yaml >/dev/null'
check "sudo usermod -aG headway pi: pi may ask headway status" as_pi sudo usermod -aG headway pi
check "sudo systemctl reload headway (as pi) applies it" as_pi sudo systemctl reload headway
check "one clear warning for the unit that does not exist" eventually 15 bash -c \
    "[ \$(journalctl --no-pager -u headway.service --since '$since_watch' | grep -c 'watched unit no-such.service does not exist') -eq 1 ]"
# headway status every 0.5 s from here on: what a person watching would have seen.
timeline=/run/status-timeline
( while true; do as_pi headway status | sed "s/^/$(date +%T.%N | cut -c1-10) /"; sleep 0.5; done ) > $timeline 2>&1 &
sampler=$!
seen() { grep -Eq "$1" $timeline; }
export -f seen
export timeline
check "sudo systemctl enable --now backup.timer (as pi)" as_pi sudo systemctl enable --now backup.timer
check "headway status shows the timer's next elapse" eventually 10 seen "backup.timer  next [0-9]{2}:[0-9]{2} \(in [0-9]+s\), starts backup.service"
check "the failing unit and the report start (as pi)" as_pi sudo systemctl start --no-block nightly-encode.service report.service
check "the timer starts the backup: a job labelled by its Description" eventually 30 seen " backup.service +(pending|active) .*Nightly backup"
check "headway run inside it reports restic's progress into the unit's job" eventually 40 seen " backup.service +active +[0-9]+% \([0-9.]+/[0-9.]+ [KMGT]?i?B\)"
check "sudo systemctl reload headway in the middle of the backup (as pi)" as_pi sudo systemctl reload headway
check "the failing unit shows failed, with systemd's reason" eventually 30 seen " nightly-encode.service +failed .*Nightly encode \(exit status 3\)"
check "the backup ends succeeded when the unit does, named by its Description again" eventually 60 seen " backup.service +succeeded .*Nightly backup"
check "the reload kept the backup's job: it ended once, as succeeded, and was never lost" bash -c \
    '[ $(ends backup.service) -eq 1 ] && finished backup.service succeeded'
sleep 1
kill $sampler
check "one job for the unit at every moment: no duplicate" bash -c \
    "[ \$(awk '\$2 == \"backup.service\" { print \$1 }' $timeline | sort | uniq -d | wc -l) -eq 0 ]"
echo "   backup.service and nightly-encode.service in headway status over their runs (every 0.5 s, repeats left out):"
grep -E " (backup|nightly-encode).service " $timeline | uniq -f1 | sed 's/^/     /'
echo "   backup.timer in headway status until it started the backup (the first lines):"
grep -E " backup.timer " $timeline | uniq -f1 | head -4 | sed 's/^/     /'
check "systemd agrees: the backup's Result is success, restic saved a snapshot" bash -c \
    '[ "$(systemctl show -P Result backup.service)" = success ] && journalctl --no-pager -u backup.service | grep -q "snapshot .* saved"'
doctor_units=$(as_pi headwayd doctor)
grep -E "system bus|\.service|\.timer" <<< "$doctor_units" | sed 's/^/   doctor: /'
check "doctor: systemd answers on the system bus, open to headway" grep -q "✔ systemd answers on the system bus (/run/dbus/system_bus_socket, open to headway)" <<< "$doctor_units"
check "doctor: backup.service exists, started by backup.timer (next at 02:00)" grep -q '✔ backup.service ("Nightly backup", Type=oneshot), started by backup.timer (next 02:00' <<< "$doctor_units"
check "doctor: nightly-encode.service and report.service exist" bash -c \
    'grep -q "✔ nightly-encode.service (\"Nightly encode\", Type=oneshot): each run shows as a job" <<< "$1" && grep -q "✔ report.service" <<< "$1"' _ "$doctor_units"
check "doctor: no-such.service does not exist, with the fix" grep -q "✘ no-such.service does not exist" <<< "$doctor_units"
check "the report's second run is shown as an estimate from its first" bash -c \
    'until [ "$(systemctl show -P ActiveState report.service)" = inactive ]; do sleep 0.5; done; sleep 1
     sudo systemctl start --no-block report.service
     eventually() { local until=$((SECONDS + $1)); shift; until "$@"; do [ $SECONDS -lt $until ] || return 1; sleep 0.3; done; }
     eventually 10 bash -c "as_pi headway status | grep -Eq \"^report.service +active +~[0-9]+%\""' 
check "durations learned per unit, kept in /var/lib/headway" bash -c 'grep -q "backup.service" /var/lib/headway/durations && grep -q "report.service" /var/lib/headway/durations'
check "the journal says how each unit ended" bash -c \
    "journalctl --no-pager -u headway.service --since '$since_watch' | grep -q 'backup.service succeeded after' &&
     journalctl --no-pager -u headway.service --since '$since_watch' | grep -q 'nightly-encode.service failed after .*: exit status 3'"

echo "== the timer disabled, dropped by systemd, then enabled again"
# Disabled and stopped, the timer is nobody's dependency: systemd may drop it, and the service
# (reloaded) no longer follows it. Enabled again, its next elapse shows again.
check "sudo systemctl disable --now backup.timer, then daemon-reload (as pi)" as_pi bash -c \
    'sudo systemctl disable --now backup.timer 2>/dev/null && sudo systemctl daemon-reload'
check "sudo systemctl reload headway (as pi)" as_pi timeout 60 sudo systemctl reload headway
sleep 2
echo "   before: $(as_pi timeout 10 headway status | grep '^backup.timer' || echo 'backup.timer not in headway status')"
check "headwayd is idle meanwhile (under 20 % of a CPU over 3 s)" bash -c \
    'pid=$(systemctl show -P MainPID headway.service); t0=$(awk "{ print \$14 + \$15 }" /proc/$pid/stat); sleep 3;
     t1=$(awk "{ print \$14 + \$15 }" /proc/$pid/stat); echo "   headwayd: $((t1 - t0)) ticks of $((3 * $(getconf CLK_TCK))) in 3 s"; [ $((t1 - t0)) -lt $((3 * $(getconf CLK_TCK) / 5)) ]'
check "sudo systemctl enable --now backup.timer again (as pi)" as_pi bash -c 'timeout 60 sudo systemctl enable --now backup.timer 2>/dev/null'
check "headway status shows its next elapse again" eventually 10 bash -c \
    'as_pi headway status | grep -Eq "^backup.timer +next [0-9]{2}:[0-9]{2} \(in [0-9hms]+\), starts backup.service"'

if [ $status -ne 0 ]; then
    as_runner headway status
    echo "the service's events:" && cat /run/events /run/events.err
    journalctl --no-pager -u headway.service -u headway.socket -u headway-mqtt.service -u mosquitto.service -u backup.service | tail -80
    # Last, where a shortened log (CI shows its tail) still has them.
    printf '✘ failed: %s\n' "${failed[@]}"
fi
echo "$status" > /run/results/exit-status
sync
# Without logind systemctl says it cannot ask it, then powers off directly.
systemctl poweroff --no-block 2>/dev/null
