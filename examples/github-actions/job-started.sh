#!/usr/bin/env bash
# GitHub Actions self-hosted runner hook: set ACTIONS_RUNNER_HOOK_JOB_STARTED to this file's
# absolute path (in the runner's .env file). The runner fails the job when a hook fails, so this
# one never does: without headway installed, or without a service, it exits 0.
# The runner's worker process runs the hook and lives as long as the job: with its id ($PPID) the
# service shows a job whose runner died as failed, within seconds, and never as stalled while it
# runs. The job's id and name (durations are learned per name) come from GITHUB_RUN_ID,
# GITHUB_JOB, GITHUB_REPOSITORY and GITHUB_WORKFLOW.
command -v headway >/dev/null 2>&1 || exit 0
headway begin --label "${GITHUB_REPOSITORY##*/} ${GITHUB_JOB}" --pid "$PPID"
