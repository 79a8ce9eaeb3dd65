#!/usr/bin/env bash
# GitHub Actions self-hosted runner hook: set ACTIONS_RUNNER_HOOK_JOB_STARTED to this file's
# absolute path (in the runner's .env file). The runner fails the job if a hook fails, so the
# client never does: without a daemon it warns and exits 0. The job id comes from GITHUB_RUN_ID
# and GITHUB_JOB.
headway begin --label "${GITHUB_REPOSITORY##*/} ${GITHUB_JOB}"
