#!/usr/bin/env bash
# GitLab Runner (shell executor): in config.toml under [[runners]]:
#   post_build_script = "/etc/headway/post_build_script.sh"
# The runner runs it in the job's build shell right after the job's own script, and that shell
# stops at the first command that fails: reaching this hook means the script succeeded. (Here
# CI_JOB_STATUS still reads "running": it is meant for after_script, gitlab-runner#28144.) A job
# that fails never gets here; its build shell exits, and the service, watching it since
# pre_build_script.sh, shows the job failed. Whatever else CI_JOB_STATUS says is believed; without
# it (runners before 13.5, or not under GitLab at all) or with an unknown word, the job ends
# neutral ("ended"): never shown as a success it may not be.
command -v headway >/dev/null 2>&1 || exit 0
case "${CI_JOB_STATUS:-}" in
    running|success) headway done ;;
    canceled) headway cancel ;;
    failed) headway fail ;;
    *) headway end ;;
esac
