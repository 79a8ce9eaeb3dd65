#!/bin/sh
# An encode with a light: Headway adds -progress pipe:N to ffmpeg and reads the time encoded; the
# total is the input's Duration (on ffmpeg's stderr, which passes as it was), -t when given, or
# headway run --total SECONDS. Usage: ffmpeg-encode.sh INPUT OUTPUT
set -e
headway --job "encode-$(basename "$2")" run -- ffmpeg -hide_banner -i "$1" -c:v libx264 -preset veryfast -c:a copy "$2"
