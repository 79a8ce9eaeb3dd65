#!/usr/bin/env bash
# GitHub Actions self-hosted runner hook: set ACTIONS_RUNNER_HOOK_JOB_COMPLETED to this file's
# absolute path. GitHub does not tell this hook whether the job passed, so a failing job should
# say so itself with a last step `if: failure()` running `headway fail`; a job that already ended
# that way keeps its outcome (the daemon refuses the second finish, and this hook still exits 0).
headway done
