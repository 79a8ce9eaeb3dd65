# Sourced by Scripts/bench-run (on this machine, and in the Debian 13 chroot under arm64
# emulation). `bench_run HEADWAY CAT SCALE ROUNDS` makes four kinds of output in a temporary folder
# (SCALE 1: about 200 MB each) and prints, for each, how fast it passes through
# `HEADWAY run -- CAT FILE > /dev/null` and through `CAT FILE | CAT > /dev/null`: the best of ROUNDS
# rounds, the two taking turns, so that a busy machine slows both alike.
bench_seconds() {
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    echo $(((end - start) / 1000))
}

bench_run() {
    local headway="$1" cat="$2" scale="$3" rounds="$4" work kind file bytes lines best_run best_cat round took
    work=$(mktemp -d)
    # No service listens: what is read is dropped (with one, an update goes at most every 0.1 s).
    export HEADWAY_SOCKET="$work/none.sock"
    head -c $((200000000 / scale)) /dev/urandom >"$work/bytes"
    seq 1 $((24000000 / scale)) >"$work/short-lines"
    awk -v n=$((3200000 / scale)) 'BEGIN { for (i = 1; i <= n; i++) printf "cc -O2 -Wall -c src/module%d/file%d.c -o build/file%d.o\n", i % 97, i, i }' >"$work/build-log"
    awk -v n=$((5000000 / scale)) 'BEGIN { for (i = 1; i <= n; i++) printf "[%d/%d] Compiling file%d.c\n", i, n, i }' >"$work/progress-lines"
    printf '%-15s %10s %12s %14s %14s %8s\n' output size lines "headway run" "cat | cat" ratio
    for kind in bytes short-lines build-log progress-lines; do
        file="$work/$kind"
        bytes=$(stat -c %s "$file")
        lines=$(wc -l <"$file")
        best_run=0 best_cat=0
        for round in $(seq "$rounds"); do
            took=$(bench_seconds sh -c '"$0" --job bench run -- "$1" "$2" >/dev/null 2>&1' "$headway" "$cat" "$file")
            [ "$best_run" -eq 0 ] || [ "$took" -lt "$best_run" ] && best_run=$took
            took=$(bench_seconds sh -c '"$0" "$1" | "$0" >/dev/null' "$cat" "$file")
            [ "$best_cat" -eq 0 ] || [ "$took" -lt "$best_cat" ] && best_cat=$took
        done
        awk -v kind="$kind" -v bytes="$bytes" -v lines="$lines" -v run="$best_run" -v cat="$best_cat" 'BEGIN {
            size = sprintf("%.0f MB", bytes / 1e6)
            count = kind == "bytes" ? "-" : sprintf("%.1f M", lines / 1e6)
            if (kind == "bytes") { r = sprintf("%.0f MB/s", bytes / run); c = sprintf("%.0f MB/s", bytes / cat) }
            else { r = sprintf("%.1f M lines/s", lines / run); c = sprintf("%.1f M lines/s", lines / cat) }
            printf "%-15s %10s %12s %14s %14s %7.2fx\n", kind, size, count, r, c, run / cat
        }'
    done
    rm -rf "$work"
}
