# Sourced by Scripts/bench-run (on this machine, and in the Debian 13 chroot under arm64
# emulation). `bench_run HEADWAY CAT SCALE ROUNDS` makes four kinds of output in a temporary folder
# (SCALE 1: about 200 MB each) and prints, for each, how fast it passes through
# `HEADWAY run -- CAT FILE > /dev/null` and through `CAT FILE | CAT > /dev/null`: bytes or lines
# a second once started, that is the file's size over the time the pipeline took beyond the time
# it takes with an empty file (its start-up, printed first). Each time is the best of ROUNDS
# rounds, the two pipelines taking turns, so that a busy machine slows both alike.
bench_microseconds() {
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    echo $(((end - start) / 1000))
}

# The best of ROUNDS times of the two pipelines on FILE: "HEADWAY_US CAT_US".
bench_best() {
    local headway="$1" cat="$2" file="$3" rounds="$4" round took best_run=0 best_cat=0
    for round in $(seq "$rounds"); do
        took=$(bench_microseconds sh -c '"$0" --job bench run -- "$1" "$2" >/dev/null 2>&1' "$headway" "$cat" "$file")
        if [ "$best_run" -eq 0 ] || [ "$took" -lt "$best_run" ]; then best_run=$took; fi
        took=$(bench_microseconds sh -c '"$0" "$1" | "$0" >/dev/null' "$cat" "$file")
        if [ "$best_cat" -eq 0 ] || [ "$took" -lt "$best_cat" ]; then best_cat=$took; fi
    done
    echo "$best_run $best_cat"
}

bench_run() {
    local headway="$1" cat="$2" scale="$3" rounds="$4" work kind file bytes lines start run cat_time
    work=$(mktemp -d)
    # No service listens: what is read is dropped (with one, an update goes at most every 0.1 s).
    export HEADWAY_SOCKET="$work/none.sock"
    : >"$work/empty"
    head -c $((200000000 / scale)) /dev/urandom >"$work/bytes"
    seq 1 $((24000000 / scale)) >"$work/short-lines"
    awk -v n=$((3200000 / scale)) 'BEGIN { for (i = 1; i <= n; i++) printf "cc -O2 -Wall -c src/module%d/file%d.c -o build/file%d.o\n", i % 97, i, i }' >"$work/build-log"
    awk -v n=$((5000000 / scale)) 'BEGIN { for (i = 1; i <= n; i++) printf "[%d/%d] Compiling file%d.c\n", i, n, i }' >"$work/progress-lines"
    start=$(bench_best "$headway" "$cat" "$work/empty" "$rounds")
    awk -v times="$start" 'BEGIN { split(times, t, " "); printf "start-up (empty output): headway run %.1f ms, cat | cat %.1f ms\n", t[1] / 1000, t[2] / 1000 }'
    printf '%-15s %8s %8s %16s %16s %6s\n' output size lines "headway run" "cat | cat" ratio
    for kind in bytes short-lines build-log progress-lines; do
        file="$work/$kind"
        bytes=$(stat -c %s "$file")
        lines=$(wc -l <"$file")
        read -r run cat_time <<<"$(bench_best "$headway" "$cat" "$file" "$rounds")"
        awk -v kind="$kind" -v bytes="$bytes" -v lines="$lines" -v run="$run" -v cat="$cat_time" -v start="$start" 'BEGIN {
            split(start, s, " ")
            r = run - s[1]; c = cat - s[2]
            if (r < 1) r = 1
            if (c < 1) c = 1
            size = sprintf("%.0f MB", bytes / 1e6)
            count = kind == "bytes" ? "-" : sprintf("%.1f M", lines / 1e6)
            if (kind == "bytes") { a = sprintf("%.0f MB/s", bytes / r); b = sprintf("%.0f MB/s", bytes / c) }
            else { a = sprintf("%.1f M lines/s", lines / r); b = sprintf("%.1f M lines/s", lines / c) }
            printf "%-15s %8s %8s %16s %16s %5.2fx\n", kind, size, count, a, b, r / c
        }'
    done
    rm -rf "$work"
}
