# Sourced by Scripts/lib/check-install.sh in the Debian 13 system the package was installed into.
# `apt_journey URL` walks examples/tools/apt-upgrade.sh's journey with the installed programs
# against `headway-sim serve --headless`: `headway run -- apt-get install` from the demo
# repository at URL/1.0 (Scripts/lib/apt-repository.sh, served by Scripts/test-package at about
# 300 kB/s), then from URL/2.0 the lists (`apt-get update`, under a label of the user's) and an
# upgrade, then an installation whose configuration fails. `headway status`, read every 50 ms,
# must show the install and the upgrade determinate through both of apt's phases (the download,
# then the installation) on one scale that never goes back, labels naming each step, and every
# job ending as apt's exit status says. What it installs is purged after; each timeline is printed.
apt_journey() {
    local url="$1" work=/tmp/apt-journey failed=0 sim
    rm -rf "$work" && mkdir -p "$work"
    export HEADWAY_SOCKET="$work/headway.sock"
    STATE_DIRECTORY="$work/state" headway-sim serve --headless --socket "$HEADWAY_SOCKET" 2>"$work/sim.log" &
    sim=$!
    for _ in $(seq 100); do [ -S "$HEADWAY_SOCKET" ] && break; sleep 0.05; done
    [ -S "$HEADWAY_SOCKET" ] || { echo "apt journey: headway-sim serve did not listen: $(cat "$work/sim.log")"; return 1; }

    echo "deb [trusted=yes] $url/1.0 ./" >/etc/apt/sources.list.d/headway-demo.list
    apt-get update -qq
    apt_journey_run install 0 apt-get install -y headway-demo-tools || failed=1
    apt_journey_phases install "headway-demo-data" || failed=1

    echo "deb [trusted=yes] $url/2.0 ./" >/etc/apt/sources.list.d/headway-demo.list
    apt_journey_run update 0 --label "apt: updating lists" -- apt-get update || failed=1
    grep -q "apt: updating lists" "$work/update.timeline" || { echo "apt journey: update: the user's label did not show"; failed=1; }
    # The upgrade of the demo packages alone: the system's own may have updates waiting too.
    apt_journey_run upgrade 0 apt-get -y upgrade headway-demo-tools headway-demo-data || failed=1
    apt_journey_phases upgrade "headway-demo-data" || failed=1
    dpkg-query -W -f '${Version}' headway-demo-tools | grep -qx 2.0 || { echo "apt journey: upgrade: headway-demo-tools is not 2.0"; failed=1; }

    apt_journey_run broken 100 apt-get install -y headway-demo-broken || failed=1

    kill "$sim" && wait "$sim" 2>/dev/null
    dpkg --purge headway-demo-broken headway-demo-tools headway-demo-data >/dev/null 2>&1
    rm -f /etc/apt/sources.list.d/headway-demo.list
    unset HEADWAY_SOCKET
    return $failed
}

# `apt_journey_run JOB STATUS ARGUMENTS…`: `headway --job JOB run ARGUMENTS` (a command after --,
# or the command alone) with `headway status` sampled into $work/JOB.timeline (each line the time
# and the job's row: job, phase, progress, ETA, label); checks apt's exit status and the outcome
# (succeeded, or hidden when it ended within the grace delay; failed for a failure) and that the
# shown percentage never went back.
apt_journey_run() {
    local job="$1" expected="$2" sampler code started phase
    shift 2
    [ "$1" = --label ] || set -- -- "$@"
    ( while :; do
        headway status 2>/dev/null | awk -v job="$job" -v t="$(date +%s.%N)" '$1 == job { print t, $0 }'
        sleep 0.05
    done ) >"$work/$job.timeline" &
    sampler=$!
    started=$(date +%s.%N)
    headway --job "$job" run "$@" >"$work/$job.out" 2>&1
    code=$?
    # The outcome is read before the sampler stops.
    for _ in $(seq 40); do
        phase=$(headway status | awk -v job="$job" '$1 == job { print $2 }')
        case "$phase" in succeeded | failed | hidden) break ;; esac
        sleep 0.05
    done
    sleep 0.1
    kill "$sampler" && wait "$sampler" 2>/dev/null
    echo "apt journey: $job: apt-get exited $code after $(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s; headway status showed:"
    # The timeline, each change once: seconds since the start, phase, progress, label.
    awk -v t0="$started" '{ row = $3 " " $4; for (i = 6; i <= NF; i++) row = row " " $i } row != last { printf "  %5.2f  %s\n", $1 - t0, row; last = row }' "$work/$job.timeline"
    [ "$code" -eq "$expected" ] || { echo "apt journey: $job: exit status $code, not $expected"; cat "$work/$job.out"; return 1; }
    if [ "$expected" -eq 0 ]; then
        [ "$phase" = succeeded ] || [ "$phase" = hidden ] || { echo "apt journey: $job: ended $phase, not succeeded"; return 1; }
    else
        [ "$phase" = failed ] || { echo "apt journey: $job: ended $phase, not failed"; return 1; }
    fi
    awk '{ p = $4; sub(/^~/, "", p); sub(/%$/, "", p) } p ~ /^[0-9]+$/ { if (p + 0 < last) { print "apt journey: the percentage went back: " $0; bad = 1 } last = p + 0 } END { exit bad }' \
        "$work/$job.timeline"
}

# `apt_journey_phases JOB PACKAGE`: the job was determinate while apt downloaded and while it
# installed (a percentage beside "apt: downloading", and beside a step of dpkg's on PACKAGE:
# "apt: unpacking PACKAGE", "apt: configuring PACKAGE", …), the download before the installation;
# and no time left was shown while it downloaded (a stage whose pace says nothing of the next).
apt_journey_phases() {
    local job="$1" package="$2" file="$work/$1.timeline"
    awk -v package="$package" '
        $3 ~ /^(pending|active)$/ && $4 ~ /%$/ {
            if ($0 ~ /apt: downloading/ && !installed) downloaded = 1
            if ($0 ~ "apt: [a-z ]+ " package) installed = 1
        }
        END { exit !(downloaded && installed) }' "$file" ||
        { echo "apt journey: $job: not determinate through the download and then the installation of $package"; return 1; }
    awk '/apt: downloading/ { for (i = 4; i <= NF; i++) if ($i ~ /^~?([0-9]+[dhms])+$/) { print "apt journey: a time left while downloading: " $0; bad = 1 } } END { exit bad }' "$file" ||
        { echo "apt journey: $job: the download's pace was read as the installation's"; return 1; }
}
