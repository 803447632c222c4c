#!/usr/bin/env bash
# CPU time per operation of gateway builds, measured in turns in one run, so
# that every build meets the same machine: on a busy machine requests per
# second move with other work, CPU time per operation far less.
#
#   bash bench/cpu-alternated.sh auth    DIST...   # GET /_sso/auth, valid cookie (wrk)
#   bash bench/cpu-alternated.sh sign-in DIST...   # whole sign-in flows (20 workers)
#
# DIST is a build's dist/ folder (npm run build; keep a copy of an older one
# beside a node_modules link to compare). Each build runs as a gateway
# process of its own, pinned to core 1, against the shared peer benchmark's
# identity provider; the load runs on core 0. In `auth` mode the bare
# node:http server of the peer benchmark (ceiling.mjs) takes its turn too.
# The figure is the process's utime + stime (/proc/PID/stat) over a turn,
# divided by the requests or flows it completed. PEER_BENCH names the peer
# benchmark's folder. Knobs: ROUNDS (6), SECS (3), DBURL (a PostgreSQL URL
# instead of a fresh SQLite file per build).
set -euo pipefail
mode=${1:?auth or sign-in}
shift
PB=$(cd "${PEER_BENCH:?the peer benchmark folder, e.g. PEER_BENCH=/work/shared/peer-bench}" && pwd)
ROUNDS=${ROUNDS:-6}
SECS=${SECS:-3}
H=127.0.0.1
IDP=28180
CEIL=28182
BASE=28190
work=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

taskset -c 0 node "$PB/idp.mjs" $IDP >/dev/null 2>&1 &
PIDS+=($!)
CEILING_PORT=$CEIL taskset -c 1 node "$PB/ceiling.mjs" >/dev/null 2>&1 &
CEILING_PID=$!
PIDS+=($!)

declare -a GATEWAY_PIDS COOKIES
i=0
for dist in "$@"; do
  port=$((BASE + i))
  data=$work/gateway-$i
  mkdir -p "$data"
  sed -e "s#@IDP@#http://$H:$IDP#g" -e "s/@ENTRY@/bench/g" "$PB/ssogate-entries.json" >"$data/entries.json"
  env SSOGATE_PORT=$port SSOGATE_HOST=$H SSOGATE_PUBLIC_URL=http://$H:$port \
    SSOGATE_DATABASE_URL="${DBURL:-sqlite:$data/ssogate.db}" SSOGATE_ENTRIES_FILE="$data/entries.json" \
    SSOGATE_ADMIN_PASSWORD=bench-admin-password SSOGATE_OUTBOUND_ALLOW=127.0.0.1 \
    SSOGATE_SIGN_INS_PER_MINUTE=100000 SSOGATE_PENDING_SIGN_INS_MAX=10000000 \
    taskset -c 1 node "$dist/main.js" >"$data/log" 2>&1 &
  GATEWAY_PIDS[i]=$!
  PIDS+=($!)
  for _ in $(seq 100); do curl -s -o /dev/null "http://$H:$port/_sso/healthz" && break; sleep 0.2; done
  COOKIES[i]=$(node "$PB/signin-load.mjs" --start "http://$H:$port/_sso/login/bench?return_to=/" \
    --expect-text user --print-cookie)
  i=$((i + 1))
done

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
ticks_per_second=$(getconf CLK_TCK)

# PID COMMAND... : prints "µs per operation, operations per second"
measure() {
  local pid=$1 before after out count
  shift
  before=$(cpu_ticks "$pid")
  out=$("$@")
  after=$(cpu_ticks "$pid")
  if [[ $mode == auth ]]; then
    count=$(echo "$out" | awk '/requests in/{print $1}')
    if echo "$out" | grep -q Non-2xx; then echo "non-2xx answers" >&2; exit 1; fi
  else
    count=$(echo "$out" | grep -o '([0-9]* ok' | tr -dc 0-9)
  fi
  awk -v t=$((after - before)) -v hz="$ticks_per_second" -v n="$count" -v s="$SECS" \
    'BEGIN { printf "%8.1f µs %9.1f/s", t * 1e6 / hz / n, n / s }'
}

for round in $(seq "$ROUNDS"); do
  line="round $round:"
  if [[ $mode == auth ]]; then
    line+=" ceiling $(measure $CEILING_PID taskset -c 0 wrk -t1 -c50 -d"${SECS}"s "http://$H:$CEIL/") |"
  fi
  i=0
  for dist in "$@"; do
    port=$((BASE + i))
    if [[ $mode == auth ]]; then
      result=$(measure "${GATEWAY_PIDS[i]}" taskset -c 0 wrk -t1 -c50 -d"${SECS}"s \
        -H "Cookie: ${COOKIES[i]}" "http://$H:$port/_sso/auth")
    else
      result=$(measure "${GATEWAY_PIDS[i]}" taskset -c 0 node "$PB/signin-load.mjs" \
        --start "http://$H:$port/_sso/login/bench?return_to=/" --expect-path / --expect-text user \
        --concurrency 20 --warmup 0 --duration "$SECS")
    fi
    line+=" build $((i + 1)) $result |"
    i=$((i + 1))
  done
  echo "$line"
done
