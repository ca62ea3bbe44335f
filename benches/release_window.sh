# Sourced by the frame benchmarks: builds the release game (`$game`), makes a scratch folder
# (`$work`) and starts one Xvfb server at 1280x720 for Mesa's software Vulkan (`$DISPLAY`), both
# cleaned up when the script exits.

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/temple-trails/target}"
cargo build --release --locked --quiet
game="$CARGO_TARGET_DIR/release/temple-trails"

work="$(mktemp -d)"
Xvfb -displayfd 3 -screen 0 1280x720x24 3>"$work/display" >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 50); do [ -s "$work/display" ] && break; sleep 0.1; done
export DISPLAY=":$(cat "$work/display")" WGPU_BACKEND=vulkan
