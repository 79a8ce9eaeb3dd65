#!/usr/bin/env bash
# GitLab Runner (shell executor): in config.toml under [[runners]]:
#   pre_build_script = "/etc/headway/pre_build_script.sh"
# The runner runs it in the job's build shell, which then runs the job's script and
# post_build_script.sh: with that shell's id ($PPID) the service shows a job whose script failed or
# was cancelled — the build shell exits without reaching post_build_script.sh — as failed, within
# seconds. The job's id and name come from CI_JOB_ID, CI_PROJECT_PATH and CI_JOB_NAME.
command -v headway >/dev/null 2>&1 || exit 0
headway begin --label "${CI_PROJECT_NAME} ${CI_JOB_NAME}" --pid "$PPID"
