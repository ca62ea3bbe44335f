# Sourced by the frame benchmarks (frames.sh, frame_profile.sh): the scenes they render, and the
# window they render them in. Builds the release game (`$game`), makes a scratch folder (`$work`)
# and starts one Xvfb server at 1280x720 for Mesa's software Vulkan (`$DISPLAY`), both cleaned
# up when the script exits.

# Every scene, in the order they are measured.
ALL_SCENES="bare title runner runner-topdown maze maze-hard wanderers-2000 wanderers-20000 wanderers-20000-stone"

# The game's arguments for a scene.
scene_args() {
    case "$1" in
        bare) echo "--bare" ;;
        title) echo "" ;;
        runner | runner-topdown) echo "--mode runner --autoplay --seed 42" ;;
        maze) echo "--mode maze --autoplay --seed 42" ;;
        maze-hard) echo "--mode maze --autoplay --seed 42 --difficulty hard" ;;
        wanderers-2000 | wanderers-20000 | wanderers-20000-stone) echo "--mode wanderers --seed 42" ;;
        *)
            echo "unknown scene $1 (the scenes: $ALL_SCENES)" >&2
            exit 2
            ;;
    esac
}

# A scene's settings.json: anti-aliasing as `$2` says, and the scene's own sections. The maze's
# first-run tips are off: the scenes measure play after a first run (the runner scenes run on the
# autopilot, which is never guided).
scene_settings() {
    local sections
    case "$1" in
        runner-topdown) sections='"runner": {"view": "top_down"}' ;;
        maze) sections='"maze": {"guidance": {"on": false}}' ;;
        maze-hard) sections='"maze": {"size": "medium", "guidance": {"on": false}}' ;;
        wanderers-2000) sections='"wanderers": {"count": 2000}' ;;
        wanderers-20000) sections='"wanderers": {"count": 20000}' ;;
        wanderers-20000-stone) sections='"wanderers": {"count": 20000, "density": 0.4}' ;;
        *) sections="" ;;
    esac
    printf '{"antialiasing": %s%s}\n' "$2" "${sections:+, $sections}"
}

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/temple-trails/target}"
cargo build --release --locked --quiet
game="$CARGO_TARGET_DIR/release/temple-trails"

work="$(mktemp -d)"
Xvfb -displayfd 3 -screen 0 1280x720x24 3>"$work/display" >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 50); do [ -s "$work/display" ] && break; sleep 0.1; done
export DISPLAY=":$(cat "$work/display")" WGPU_BACKEND=vulkan
