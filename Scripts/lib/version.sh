# Sourced by the scripts in Scripts/. `headway_version` prints the checkout's version, from
# `git describe`, in a form Debian's version comparison orders correctly:
#   at tag v1.2.0                 1.2.0
#   5 commits after it            1.2.0+git5.gabc1234
#   no tag yet                    0~git<commits>.gabc1234  (before any 0.x release)
#   uncommitted changes           … with +dirty / .dirty appended
# The programs show it in --version (CPlatform's HEADWAY_VERSION); without git, "development".
# `headway_commit_date` prints the commit's date (RFC 2822, as debian/changelog wants it), so a
# package built twice from one commit is the same.

headway_version() {
    local described count dirty=""
    git rev-parse --git-dir >/dev/null 2>&1 || { echo development; return; }
    git diff --quiet HEAD 2>/dev/null || dirty=dirty
    if described=$(git describe --tags --match 'v[0-9]*' --long 2>/dev/null); then
        # v1.2.0-5-gabc1234 → tag 1.2.0, 5 commits after it, commit abc1234
        local tag="${described%-*-g*}" rest="${described##*-[0-9]*-}"
        count="${described%-g*}"
        count="${count##*-}"
        tag="${tag#v}"
        if [ "$count" = 0 ]; then
            echo "$tag${dirty:++$dirty}"
        else
            echo "$tag+git$count.$rest${dirty:+.$dirty}"
        fi
    else
        count=$(git rev-list --count HEAD)
        echo "0~git$count.g$(git rev-parse --short=7 HEAD)${dirty:+.$dirty}"
    fi
}

headway_commit_date() {
    date -R -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)"
}
