#!/usr/bin/env bash
# A nightly backup from cron, shown while it runs:
#   15 2 * * *  /usr/local/bin/backup.sh
# rsync's --info=progress2 prints an overall percentage, which `headway run` picks up; the
# script's exit status is rsync's, and the backup runs all the same where headway is not installed.
# Set SOURCE and TARGET (defaults for the example).
set -euo pipefail
SOURCE="${SOURCE:-/home/}"
TARGET="${TARGET:-/mnt/backup/home/}"
backup=(rsync -a --delete --info=progress2 "$SOURCE" "$TARGET")
command -v headway >/dev/null 2>&1 || exec "${backup[@]}"
exec headway --job "backup-$(date +%F)" run --label "Nightly backup" -- "${backup[@]}"
