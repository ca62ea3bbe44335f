#!/usr/bin/env bash
# Where a frame's time goes: runs scenes of the release game under `perf record` in one Xvfb
# server at 1280x720 (Mesa's software Vulkan), as benches/frames.sh renders them, and prints for
# each scene the share of the process's CPU samples by part, each sample counted where it was
# taken (self time):
#   painter    the chase view's projection, draw list and painter (logic::runner::chase)
#   game       the rest of our code: rules, views, the crowd, menus' logic
#   egui       egui and its tessellator (egui, epaint, bevy_egui)
#   ecs        Bevy's scheduler, queries and commands (bevy_ecs, bevy_app, bevy_tasks)
#   render     the render graph, extraction and wgpu (bevy_render, bevy_*_pipeline, wgpu*)
#   raster     the software rasteriser: Mesa's lavapipe and the shaders its LLVM compiles
#   system     the kernel and the C library (copying frames to X11, memory, threads)
#   other      the rest of the game's binary (winit, audio, the allocator, ...) and libraries
#
# Usage: benches/frame_profile.sh [scene ...]   (scenes as in frames.sh; default: bare title
#        runner runner-topdown maze wanderers-20000; WARMUP and FRAMES change the counts)
# Needs: xvfb, mesa-vulkan-drivers, linux-perf; builds the release game with cargo first.
set -euo pipefail
cd "$(dirname "$0")/.."

warmup="${WARMUP:-60}"
frames="${FRAMES:-240}"
# shellcheck source=benches/frame_scenes.sh
source benches/frame_scenes.sh

# The part a sample belongs to, from its shared object and symbol.
classify='
{
    dso = $2; sym = $3; for (i = 4; i <= NF; i++) sym = sym " " $i
    part = "other"
    if (sym ~ /logic::runner::chase/) part = "painter"
    else if (sym ~ /temple_trails/) part = "game"
    else if (sym ~ /egui|epaint|emath|ecolor/) part = "egui"
    else if (sym ~ /bevy_ecs|bevy_app|bevy_tasks|async_executor/) part = "ecs"
    else if (sym ~ /bevy_render|bevy_core_pipeline|bevy_sprite|bevy_mesh|bevy_camera|wgpu|naga/) part = "render"
    else if (dso ~ /JIT|lvp|LLVM|gallium|vulkan|mesa|unknown/) part = "raster"
    else if (dso ~ /kernel|libc\.|libm\.|ld-linux|libgcc/) part = "system"
    share[part] += $1
}
END {
    n = split("painter game egui ecs render raster system other", order, " ")
    for (i = 1; i <= n; i++) printf "%s %.1f%%  ", order[i], share[order[i]]
    printf "\n"
}'

scenes="${*:-bare title runner runner-topdown maze wanderers-20000}"
for scene in $scenes; do scene_args "$scene" >/dev/null; done # an unknown name stops here
for scene in $scenes; do
    mkdir -p "$work/$scene"
    scene_settings "$scene" false >"$work/$scene/settings.json"
    # shellcheck disable=SC2046 # the scene's arguments are words
    TEMPLE_TRAILS_HOME="$work/$scene" perf record -q -F 499 -o "$work/$scene.perf" -- \
        "$game" $(scene_args "$scene") --frames "$warmup" --measure-frames "$frames" \
        >"$work/$scene.out" 2>"$work/$scene.log"
    ms="$(awk '$1 == "frame_ms" { print $2 }' "$work/$scene.out")"
    printf '%s %s ms  ' "$scene" "${ms:-?}"
    perf report -q -i "$work/$scene.perf" --no-children --sort dso,sym --stdio 2>/dev/null |
        awk 'NF >= 3 && $1 ~ /%$/ { sub(/%/, "", $1); print }' |
        awk "$classify"
done
