# Sourced by Scripts/bench-estimates record: records the estimate corpus anew. Each run is a real
# tool under `headway run --record`, on data and local servers made here, at rates that change
# while it runs (Scripts/lib/varying_rate.py: a link that slows and recovers, files of mixed sizes,
# an encode whose picture gets harder, builds of real sources with steps of uneven length), and
# long enough (half a minute to two) to be what a progress indicator is for. The recordings go to
# Tests/EstimateCorpus/NAME.jsonl.xz; the README there lists them. `sections` (downloads pipes
# copies backups encodes builds apt_runs followed, or restic_runs borg_runs make_runs cargo_runs
# buildbot_runs octoprint_runs moonraker_runs homeassistant_runs) records only those; the sections
# that wait on a link or a server (downloads pipes copies backups apt_runs and the followed ones)
# may run side by side, each in its own call, the builds and encodes alone.
set -euo pipefail
source Scripts/lib/packages.sh
ensure_packages restic borgbackup rsync rclone curl wget pv ffmpeg ninja-build make cmake g++ googletest \
    cargo librust-regex-dev librust-serde-json-dev librust-rayon-dev librust-rand-dev librust-env-logger-dev \
    librust-indexmap-dev xz-utils python3
swift build --product headway >/dev/null
headway="$(swift build --show-bin-path)/headway"
corpus="$PWD/Tests/EstimateCorpus"
work=$(mktemp -d /tmp/headway-estimates.XXXXXX)
server=""
trap '[ -z "$server" ] || kill "$server"; rm -rf "$work"' EXIT
mkdir -p "$corpus" "$work/runs"
# No service: the runs are read again later; what is recorded is what headway run reads.
export HEADWAY_SOCKET="$work/no-service.sock" HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime"
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
export RESTIC_PASSWORD=corpus BORG_PASSPHRASE=corpus BORG_UNKNOWN_UNENCRYPTED_REPO_ACCESS_IS_OK=yes
rate="python3 $PWD/Scripts/lib/varying_rate.py"

# record NAME FOLDER [--format TOOL] [--name JOB] CMD…: one run, its output left as the tool
# printed it; runs of one JOB are the same work done again (a build a CI runs on every push), for
# the durations the service learns.
record() {
    local name=$1 folder=$2 options=()
    shift 2
    [ "$1" != --format ] || { options=(--format "$2"); shift 2; }
    [ "$1" != --name ] || { options+=(--name "$2"); shift 2; }
    echo "record-estimates: $name"
    (cd "$folder" && "$headway" --timeout-ms 50 run --record "$work/runs/$name.jsonl" --label "$name" "${options[@]}" -- "$@" >/dev/null 2>"$work/$name.err") \
        || { echo "record-estimates: $name failed:" >&2; tail -5 "$work/$name.err" >&2; exit 1; }
    xz -9 -c "$work/runs/$name.jsonl" >"$corpus/$name.jsonl.xz"
}
# Files of mixed sizes: many small ones (where a per-file cost dominates) and a few large ones.
files() {
    local folder=$1 small=$2 large=$3 size=$4 i
    mkdir -p "$folder"
    for i in $(seq "$small"); do head -c $((RANDOM % 20000 + 1000)) /dev/urandom >"$folder/small-$i"; done
    for i in $(seq "$large"); do head -c "$size" /dev/urandom >"$folder/large-$i"; done
}

# Downloads from a local server whose rate changes (curl, wget: their own meters and ETAs).
downloads() {
$rate serve >"$work/port" &
server=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
schedules=("400000:3,100000:2" "150000:4,600000:2" "300000:2,300000:2,60000:3" "800000:2,200000:5"
    "250000:6,90000:3" "500000:1,120000:1" "200000:3,450000:3,80000:2")
sizes=(12000000 16000000 10000000 20000000 11000000 10400000 14000000)
for i in "${!schedules[@]}"; do
    record "curl-$((i + 1))" "$work" curl -o "$work/download" "http://127.0.0.1:$port/${sizes[$i]}?rates=${schedules[$i]}"
    record "wget-$((i + 1))" "$work" wget -O "$work/download" "http://127.0.0.1:$port/${sizes[$((6 - i))]}?rates=${schedules[$((6 - i))]}"
done

}

# A pipe at a changing rate into pv and dd (their totals given, as a person gives them).
pipes() {
local schedules=("400000:3,100000:2" "150000:4,600000:2" "300000:2,300000:2,60000:3" "800000:2,200000:5"
    "250000:6,90000:3" "500000:1,120000:1" "200000:3,450000:3,80000:2")
for i in 1 2 3 4; do
    size=$((8000000 + i * 2800000))
    $rate stream $size "${schedules[$i]}" | record "pv-$i" "$work" pv -s $size
    # dd counts whole blocks from a pipe with iflag=fullblock.
    $rate stream $((size / 65536 * 65536)) "${schedules[$((i + 2))]}" | record "dd-$i" "$work" dd of=/dev/null bs=65536 count=$((size / 65536)) iflag=fullblock status=progress
done

}

# Copies of mixed files, bandwidth-limited (rsync's and rclone's own ETAs).
copies() {
for i in 1 2 3 4 5 6; do
    rm -rf "$work/src" "$work/dst"
    files "$work/src" $((i * 40)) $((i % 3 + 1)) $((1200000 + i * 300000))
    record "rsync-$i" "$work" rsync -a --bwlimit=$((100 + i * 20)) src/ dst/
    rm -rf "$work/dst"
    record "rclone-$i" "$work" rclone copy --bwlimit $((120 + i * 16))k --transfers 1 --checkers 1 src dst
done

}

# Backups: restic with its upload limited, borg extracting into a slow reader.
backups() {
    restic_runs
    borg_runs
}
restic_runs() {
# Enough data (about 140 to 280 MB, uploaded at 3 to 5.5 MiB/s) that restic's buffers, whose
# reading it counts before the upload has caught up, are a small part of it, as in a backup of a
# home folder over a home uplink.
for i in 1 2 3 4 5 6 7 8; do
    rm -rf "$work/src" "$work/restic"
    files "$work/src" $((i * 30)) $((i % 3 + 3)) $((40000000 + i * 2000000))
    restic init --repo "$work/restic" >/dev/null
    record "restic-$i" "$work" restic --repo "$work/restic" backup -o local.connections=1 --pack-size 4 --limit-upload $((3000 + i * 300)) src
done
}
borg_runs() {
rm -rf "$work/borg" && borg init --encryption=none "$work/borg" >/dev/null
for i in 1 2 3 4; do
    rm -rf "$work/src" "$work/out"
    files "$work/src" $((i * 25)) 2 $((3000000 + i * 1000000))
    (cd "$work" && borg create "$work/borg::run-$i" src >/dev/null)
    mkdir -p "$work/out"
    # Extracting to stdout into a reader whose pace changes.
    record "borg-$i" "$work/out" --format borg sh -c "borg extract --progress --stdout '$work/borg::run-$i' | python3 -c '
import sys, time
speed = [300000, 900000, 150000]
n = 0
while True:
    data = sys.stdin.buffer.read(65536)
    if not data: break
    n += 1
    time.sleep(len(data) / speed[n // 12 % 3])
'"
done

}

# Encodes whose picture changes in difficulty as a film's scenes do: eight-second scenes of a
# still colour (quick to encode) and of noise that changes every frame (slow), by turns.
encodes() {
local i k inputs scenes
for i in 1 2 3 4; do
    inputs=() scenes=""
    for k in $(seq 0 $((7 + 2 * i))); do
        if [ $(((k + i) % 2)) = 0 ]; then
            inputs+=(-f lavfi -i "color=c=0x336699:s=960x540:r=25:d=8")
        else
            inputs+=(-f lavfi -i "nullsrc=s=960x540:r=25:d=8,geq=random(1)*255:128:128")
        fi
        scenes+="[$k:v]"
    done
    record "ffmpeg-$i" "$work" ffmpeg -y -v error "${inputs[@]}" \
        -filter_complex "${scenes}concat=n=$((8 + 2 * i)):v=1,format=yuv420p" -t $((64 + 16 * i)) -c:v libx264 -preset veryfast "$work/out-$i.mp4"
done

}

# Builds of real sources, each the same job four times over (as a CI builds every push):
# googletest with its samples and tests (Debian's copy of its sources) by CMake's make and ninja,
# and a program on Debian's packaged crates (regex, serde_json, rayon, rand, env_logger, indexmap)
# by Debian's cargo, offline.
builds() {
make_runs
cargo_runs
}
make_runs() {
for i in 1 2 3 4; do
    rm -rf "$work/gtest-make" "$work/gtest-ninja"
    cmake -S /usr/src/googletest -B "$work/gtest-make" -G "Unix Makefiles" -Dgtest_build_samples=ON -Dgtest_build_tests=ON >/dev/null
    record "make-$i" "$work/gtest-make" --name "make googletest" make -j2
    cmake -S /usr/src/googletest -B "$work/gtest-ninja" -G Ninja -Dgtest_build_samples=ON -Dgtest_build_tests=ON >/dev/null
    record "ninja-$i" "$work/gtest-ninja" --name "ninja googletest" ninja -j2
done
}
cargo_runs() {
mkdir -p "$work/app/src" "$work/app/.cargo"
printf '[source.crates-io]\nreplace-with = "debian"\n[source.debian]\ndirectory = "/usr/share/cargo/registry"\n' >"$work/app/.cargo/config.toml"
printf '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n[dependencies]\nregex = "1"\nserde_json = "1"\nrayon = "1"\nrand = "0.8"\nenv_logger = "0.9"\nindexmap = "1"\n' >"$work/app/Cargo.toml"
printf 'use rayon::prelude::*;\nfn main() { env_logger::init(); let r = regex::Regex::new("a+").unwrap(); let n: u64 = (1..100u64).into_par_iter().sum(); let mut m = indexmap::IndexMap::new(); m.insert(rand::random::<u8>(), n); println!("{} {} {:?}", r.is_match("aa"), serde_json::json!({"a": 1}), m); }\n' >"$work/app/src/main.rs"
for i in 1 2 3 4; do
    rm -rf "$work/app/target"
    record "cargo-$i" "$work/app" --name "cargo app" env PATH=/usr/bin:/bin cargo build --offline -j2
done

}

# apt installing packages it downloads first from Debian's mirror at a limited rate (Dl-Limit,
# KB/s), then unpacks and sets up. What a run installed is removed after it (exactly the packages
# that were not there before), and its archives with it, so the next run downloads anew. Needs
# root, as apt does.
apt_runs() {
[ "$(id -u)" = 0 ] || { echo "record-estimates: apt_runs installs packages: run it as root" >&2; exit 1; }
local sets=("imagemagick" "gnuplot-nox" "graphviz" "imagemagick texinfo") limits=(900 600 350 1200) i
apt-get update -qq
for i in 0 1 2 3; do
    rm -rf "$work/archives" && mkdir -p "$work/archives/partial"
    dpkg-query -W -f '${Package}\n' | sort >"$work/before"
    # shellcheck disable=SC2086 # a set is several packages
    record "apt-$((i + 1))" "$work" env DEBIAN_FRONTEND=noninteractive apt-get install -y -o Acquire::http::Dl-Limit=${limits[$i]} -o Dir::Cache::Archives="$work/archives" ${sets[$i]}
    dpkg-query -W -f '${Package}\n' | sort | comm -13 "$work/before" - | xargs -r env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq >/dev/null
done
}

# Jobs headway-ci follows on real servers, as the service hears them (Scripts/lib/record_followed.py):
# a Buildbot building googletest four times, prints on OctoPrint's Virtual Printer and on Moonraker
# with the Klippy stand-in, Home Assistant timers. They may run side by side, each in its own call.
followed() {
    buildbot_runs
    octoprint_runs
    moonraker_runs
    homeassistant_runs
}
buildbot_runs() { follow_runs buildbot ensure_buildbot; }
octoprint_runs() { follow_runs octoprint ensure_octoprint; }
moonraker_runs() { follow_runs moonraker ensure_moonraker; }
homeassistant_runs() { follow_runs homeassistant ensure_homeassistant; }
follow_runs() {
    source Scripts/lib/buildbot.sh
    source Scripts/lib/octoprint.sh
    source Scripts/lib/moonraker.sh
    source Scripts/lib/homeassistant.sh
    "$2"
    swift build --product headway-ci >/dev/null
    swift build --product headway-sim >/dev/null
    echo "record-estimates: $1"
    python3 Scripts/lib/record_followed.py "$1" "$corpus"
}

# The sections named (all by default).
for section in ${sections:-downloads pipes copies backups encodes builds apt_runs followed}; do "$section"; done
echo "record-estimates: $(ls "$work"/runs | wc -l) runs recorded into $corpus"
