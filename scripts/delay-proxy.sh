# Sourced by the benchmark scripts that reach a test server "far away".
#
# start_delay_proxy DELAY HOST:PORT DIR: run scripts/throttle-proxy.py in the background,
# adding DELAY (e.g. 30ms) of round trip to every connection to HOST:PORT, with its ports
# and log in DIR; sets DELAY_PROXY_PID and DELAY_PROXY_URL (http://127.0.0.1:PORT).
start_delay_proxy() {
    local delay=$1 to=$2 dir=$3 port=
    python3 "$(dirname "${BASH_SOURCE[0]}")/throttle-proxy.py" --delay "$delay" \
        --listen 127.0.0.1:0 --to "$to" > "$dir/proxy.ports" 2> "$dir/proxy.log" &
    DELAY_PROXY_PID=$!
    for _ in $(seq 50); do [ -s "$dir/proxy.ports" ] && break; sleep 0.1; done
    port=$(awk '{split($3, a, ":"); print a[2]}' "$dir/proxy.ports")
    [ -n "$port" ] || { echo "throttle-proxy.py did not start: $(cat "$dir/proxy.log")" >&2; return 1; }
    DELAY_PROXY_URL=http://127.0.0.1:$port
}
