#!/usr/bin/env bash
# The frame-time benchmark: renders each scene of the release game in one Xvfb server at
# 1280x720 with Mesa's software Vulkan, for a fixed number of frames after a warm-up, and prints
# one line per scene: `<scene> <ms per frame> <ratio to bare> (<ratio in each round>)`. `bare` is
# a window with the game's own camera and egui and nothing else. The scenes are measured in
# rounds, each round a bare window first and then every scene, and a scene's ratio is the
# median over the rounds of its time over that round's bare window (its time the median too):
# the machine's load moves from minute to minute, and one round settles little. Every scene is
# measured twice: with the game's defaults, and then with anti-aliasing on (`-aa`, beside a
# bare window with it on too). `runner` is the chase view on autopilot, `runner-topdown` the
# same run seen from above, `maze-hard` a 31 x 31 maze on Hard: torchlight, the dim map and
# nine guardians.
#
# Usage: benches/frames.sh            (WARMUP and FRAMES in the environment change the counts,
#                                      ROUNDS the rounds (3), SCENES the scenes measured: a
#                                      space-separated list)
# Needs: xvfb, mesa-vulkan-drivers; builds the release game with cargo first.
set -euo pipefail
cd "$(dirname "$0")/.."

warmup="${WARMUP:-120}"
frames="${FRAMES:-300}"
rounds="${ROUNDS:-3}"
# shellcheck source=benches/frame_scenes.sh
source benches/frame_scenes.sh

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

# One measurement, or the scene's log and a stop when there is none.
measure() {
    local scene=$1 ms
    ms="$(frame_ms "$@")"
    if [ -z "$ms" ]; then
        echo "$scene: no measurement; its log follows" >&2
        cat "$work/$scene.log" >&2
        exit 1
    fi
    echo "$ms"
}

# The median of the numbers on standard input.
median() {
    sort -g | awk '{ v[NR] = $1 } END { m = (NR + 1) / 2; print (v[int(m)] + v[int(m + 0.5)]) / 2 }'
}

wanted="${SCENES:-$ALL_SCENES}"
for scene in $wanted; do scene_args "$scene" >/dev/null; done # an unknown name stops here
for aa in false true; do
    suffix=""
    if [ "$aa" = true ]; then suffix="-aa"; fi
    # Each scene's times and ratios, one line per round, in files of the scratch folder.
    for round in $(seq "$rounds"); do
        bare=""
        for scene in bare $wanted; do
            if [ "$scene" = bare ] && [ -n "$bare" ]; then continue; fi
            # shellcheck disable=SC2046 # the scene's arguments are words
            ms="$(measure "$scene$suffix" "$(scene_settings "$scene" "$aa")" $(scene_args "$scene"))"
            if [ -z "$bare" ]; then bare=$ms; fi
            awk -v ms="$ms" -v bare="$bare" 'BEGIN { printf "%s %.4f\n", ms, ms / bare }' \
                >>"$work/$scene$suffix.rounds"
        done
    done
    for scene in bare $wanted; do
        file="$work/$scene$suffix.rounds"
        [ -f "$file" ] || continue
        ms="$(awk '{ print $1 }' "$file" | median)"
        ratio="$(awk '{ print $2 }' "$file" | median)"
        each="$(awk '{ printf "%s%.2f", (NR > 1 ? " " : ""), $2 }' "$file")"
        printf '%s %.2f %.2f (%s)\n' "$scene$suffix" "$ms" "$ratio" "$each"
        rm -f "$file"
    done
done
