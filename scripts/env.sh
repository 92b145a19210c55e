# Shared settings for texto's scripts (sourced, not run).
# Build output and installed tools live outside the clone so repeated runs are incremental.
TEXTO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TEXTO_CACHE=${TEXTO_CACHE:-$HOME/.cache/texto}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$TEXTO_CACHE/target}
TEXTO_TOOLS=$TEXTO_CACHE/tools
export PATH="$TEXTO_TOOLS/bin:$HOME/.cargo/bin:$PATH"
# Trunk and wasm-pack must never download tools or check for updates themselves.
export TRUNK_SKIP_VERSION_CHECK=true
export TRUNK_OFFLINE=true
cd "$TEXTO_ROOT"

# Each step says how long its script has run (minutes:seconds); with TEXTO_STEP_LOG set, it
# also notes when it began there, for scripts/test's breakdown.
step() {
    printf '\n== [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"
    if [ -n "${TEXTO_STEP_LOG:-}" ]; then printf '%s\t%s\n' "$(date +%s)" "$*" >>"$TEXTO_STEP_LOG"; fi
}

# A TCP port free on loopback now, for a server a script starts.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Waits up to 10 s for a texto started in the background to write "running at" to LOG; else
# shows LOG and stops the script.
wait_running() { # log
    for _ in $(seq 100); do grep -q "running at" "$1" && return; sleep 0.1; done
    cat "$1" >&2
    exit 1
}
