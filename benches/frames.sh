#!/usr/bin/env bash
# The frame-time benchmark: renders each scene of the release game in one Xvfb server at
# 1280x720 with Mesa's software Vulkan, for a fixed number of frames after a warm-up, and prints
# one line per scene: `<scene> <ms per frame> <ratio to bare>`. `bare` is a window with the
# game's own camera and egui and nothing else; every ratio is to the bare window measured in the
# same run with the same settings. Every scene is measured twice: with the game's defaults, and
# then with anti-aliasing on (`-aa`, beside a bare window with it on too). `runner` is the chase
# view on autopilot, `runner-topdown` the same run seen from above, `maze-hard` a 31 x 31 maze
# on Hard: torchlight, the dim map and nine guardians.
#
# Usage: benches/frames.sh            (WARMUP and FRAMES in the environment change the counts,
#                                      SCENES the scenes measured: a space-separated list)
# Needs: xvfb, mesa-vulkan-drivers; builds the release game with cargo first.
set -euo pipefail
cd "$(dirname "$0")/.."

warmup="${WARMUP:-120}"
frames="${FRAMES:-300}"
# shellcheck source=benches/release_window.sh
source benches/release_window.sh

# The mean milliseconds per frame of one scene: its own empty data folder with `settings` as its
# settings.json, then the game's arguments.
frame_ms() {
    local scene=$1 settings=$2
    shift 2
    mkdir -p "$work/$scene"
    printf '%s\n' "$settings" >"$work/$scene/settings.json"
    TEMPLE_TRAILS_HOME="$work/$scene" "$game" "$@" --frames "$warmup" --measure-frames "$frames" \
        2>"$work/$scene.log" | awk '$1 == "frame_ms" { print $2 }'
}

bare=""
report() {
    local scene=$1 ms
    ms="$(frame_ms "$@")"
    if [ -z "$ms" ]; then
        echo "$scene: no measurement; its log follows" >&2
        cat "$work/$scene.log" >&2
        exit 1
    fi
    if [ -z "$bare" ]; then bare=$ms; fi
    awk -v scene="$scene" -v ms="$ms" -v bare="$bare" \
        'BEGIN { printf "%s %.2f %.2f\n", scene, ms, ms / bare }'
}

# The settings of a scene: anti-aliasing as `$1` says, and the scene's own sections.
settings() { printf '{"antialiasing": %s%s}' "$1" "${2:+, $2}"; }
crowd() { printf '"wanderers": {"count": %d}' "$1"; }
wanted="${SCENES:-bare title runner runner-topdown maze maze-hard wanderers-2000 wanderers-20000}"
scene() { [[ " $wanted " == *" $1 "* ]]; }
for aa in false true; do
    suffix=""
    if [ "$aa" = true ]; then suffix="-aa"; fi
    bare=""
    report "bare$suffix" "$(settings $aa)" --bare
    if scene title; then
        report "title$suffix" "$(settings $aa)"
    fi
    if scene runner; then
        report "runner$suffix" "$(settings $aa)" --mode runner --autoplay --seed 42
    fi
    if scene runner-topdown; then
        report "runner-topdown$suffix" \
            "$(settings $aa '"runner": {"view": "top_down"}')" --mode runner --autoplay --seed 42
    fi
    if scene maze; then
        report "maze$suffix" "$(settings $aa)" --mode maze --autoplay --seed 42
    fi
    if scene maze-hard; then
        report "maze-hard$suffix" "$(settings $aa '"maze": {"size": "medium"}')" \
            --mode maze --autoplay --seed 42 --difficulty hard
    fi
    if scene wanderers-2000; then
        report "wanderers-2000$suffix" "$(settings $aa "$(crowd 2000)")" \
            --mode wanderers --seed 42
    fi
    if scene wanderers-20000; then
        report "wanderers-20000$suffix" "$(settings $aa "$(crowd 20000)")" \
            --mode wanderers --seed 42
    fi
done
