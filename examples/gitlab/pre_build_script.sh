#!/usr/bin/env bash
# GitLab Runner: in config.toml under [[runners]]: pre_build_script = "/etc/headway/pre_build_script.sh"
# The job id comes from CI_JOB_ID.
headway begin --label "${CI_PROJECT_NAME} ${CI_JOB_NAME}"
