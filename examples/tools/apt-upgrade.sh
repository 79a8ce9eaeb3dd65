#!/bin/sh
# An unattended upgrade with a light: one job through download and installation. Headway adds
# -o APT::Status-Fd=N to apt-get, reads apt's status from that descriptor (the download is the
# first half of the scale, the installation the second) and leaves apt's output as it was; the
# label names the step ("apt: downloading", "apt: unpacking nginx", "apt: configuring nginx").
set -e
headway --job apt-update run --label "apt: updating lists" -- apt-get update
headway --job apt-upgrade run -- apt-get -y upgrade
