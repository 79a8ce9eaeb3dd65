#!/usr/bin/env bash
# GitLab Runner: in config.toml under [[runners]]: post_build_script = "/etc/headway/post_build_script.sh"
# CI_JOB_STATUS says how the job went (success, failed, canceled) where the runner provides it.
case "${CI_JOB_STATUS:-}" in
    success) headway done ;;
    canceled) headway cancel ;;
    failed) headway fail ;;
    *) headway done ;;
esac
