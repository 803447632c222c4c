#!/usr/bin/env bash
# CPU time per operation of gateway builds, measured in turns in one run, so
# that every build meets the same machine: on a busy machine requests per
# second move with other work, CPU time per operation far less.
#
#   bash bench/cpu-alternated.sh auth    DIST...   # GET /_sso/auth, valid cookie (wrk)
#   bash bench/cpu-alternated.sh sign-in DIST...   # whole sign-in flows (20 workers)
#   bash bench/cpu-alternated.sh proxy   DIST...   # GET /page through the reverse proxy (wrk)
#   bash bench/cpu-alternated.sh mixed   DIST...   # /_sso/auth alone, then beside paced sign-ins
#
# DIST is a build's dist/ folder (npm run build; keep a copy of an older one
# beside a node_modules link to compare). Each build runs as a gateway
# process of its own, pinned to core 1, against the shared peer benchmark's
# identity provider; the load runs on core 0. In `auth` mode the bare
# node:http server of the peer benchmark (ceiling.mjs) takes its turn too;
# in `proxy` mode each build proxies to that server (on core 0 then) and a
# bare node:http proxy with a keep-alive agent and no checks takes the turn.
# The figure is the process's utime + stime (/proc/PID/stat) over a turn,
# divided by the requests or flows it completed. PEER_BENCH names the peer
# benchmark's folder. Knobs: ROUNDS (6), SECS (3), DBURL (a PostgreSQL URL
# instead of a fresh SQLite file per build: an empty database, which the
# builds share with a secret key made for the run), REDIS (a Redis URL, with DBURL:
# sessions and pending sign-ins there, each build under a prefix of its own),
# PORTS (added to every port: 28180 and up).
#
# In `sign-in` mode, PEERS=1 adds two turns to each round: the peer
# benchmark's Express + Passport stack (its baseline-passport/ folder needs
# `npm ci` first) and bench/sign-in-floor.ts (build it with
# `npm run build:test`), the least any Node.js server does for a sign-in.
#
# OIDC=1 (`auth` and `sign-in` modes) runs every build against the peer
# benchmark's OpenID Provider emulation instead (modoidc/idp-oidc.mjs, its
# folder needs `npm ci` first): each sign-in verifies an RS256 id_token, its
# nonce and the user info's subject.
#
# `mixed` mode gives each build three turns a round: its checks alone (wrk,
# as in `auth`), sign-ins alone, then the checks beside the same sign-ins.
# The sign-ins are started at RATE a second (75, an open loop:
# bench/paced-sign-ins.ts, built by `npm run build:test`), or, with WORKERS=N,
# made by N workers each signing in again as soon as it is done (the peer
# benchmark's mixed load). It prints the checks a second alone and beside and
# their ratio, and in CPU time: a check alone, a sign-in alone, and a check
# beside the sign-ins once their share is taken out (the turn's CPU time less
# its sign-ins at the sign-in turn's cost, over its checks), with the share of
# core 1 the gateway used in that turn: under 100 % the gateway waited for
# requests, and the load side set the rate. CONTROL=1 adds a turn a round:
# the first build's checks beside paced sign-ins sent to the floor of a
# sign-in (on core 1) instead, so the load side's own effect on the checks is
# known. NODE_FLAGS go to every build's node; with --trace-gc-nvp each turn
# also counts the build's young collections (s), full ones (mc), the MiB
# promoted to the old generation and the main thread's time in collections.
set -euo pipefail
mode=${1:?auth, sign-in, proxy or mixed}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
PB=$(cd "${PEER_BENCH:?the peer benchmark folder, the folder holding run.sh}" && pwd)
ROUNDS=${ROUNDS:-6}
SECS=${SECS:-3}
H=127.0.0.1
# PORTS moves every port by that much, for two runs on one machine.
IDP=$((28180 + ${PORTS:-0}))
CEIL=$((28182 + ${PORTS:-0}))
BASE=$((28190 + ${PORTS:-0}))
work=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

IDP_SCRIPT=$PB/idp.mjs
ENTRIES=$PB/ssogate-entries.json
if [[ ${OIDC:-0} == 1 ]]; then
  IDP_SCRIPT=$PB/modoidc/idp-oidc.mjs
  ENTRIES=$PB/modoidc/ssogate-entries.json
fi
taskset -c 0 node "$IDP_SCRIPT" $IDP >/dev/null 2>&1 &
PIDS+=($!)
# The upstream in proxy mode shares the load's core, as the identity provider does.
[[ $mode == proxy ]] && ceiling_core=0 || ceiling_core=1
CEILING_PORT=$CEIL taskset -c $ceiling_core node "$PB/ceiling.mjs" >/dev/null 2>&1 &
CEILING_PID=$!
PIDS+=($!)
BARE_PROXY=$((BASE + 42))
UPSTREAM=
if [[ $mode == proxy ]]; then
  UPSTREAM=http://$H:$CEIL
  taskset -c 1 node -e "
    const http = require('node:http');
    const agent = new http.Agent({ keepAlive: true });
    http.createServer((request, response) => {
      const upstream = http.request({ host: '$H', port: $CEIL, path: request.url,
        method: request.method, headers: request.headers, agent }, (answer) => {
        response.writeHead(answer.statusCode, answer.headers);
        answer.pipe(response);
      });
      request.pipe(upstream);
    }).listen($BARE_PROXY, '$H');" >/dev/null 2>&1 &
  BARE_PROXY_PID=$!
  PIDS+=($!)
fi

# name PORT PID: a peer server that takes a turn of its own in sign-in mode.
PEER_NAMES=()
PEER_PORTS=()
PEER_PIDS=()
wait_for() { for _ in $(seq 300); do curl -s -o /dev/null "$1" && return 0; sleep 0.2; done; return 1; }
if [[ $mode == mixed && ${CONTROL:-0} == 1 ]]; then
  SSOGATE_PORT=$((BASE + 41)) IDP_URL=http://$H:$IDP taskset -c 1 node "$root/build/bench/sign-in-floor.js" \
    >"$work/floor.log" 2>&1 &
  PIDS+=($!)
  wait_for "http://$H:$((BASE + 41))/_sso/healthz" || { echo "the floor did not start" >&2; exit 1; }
fi
if [[ $mode == sign-in && ${PEERS:-0} == 1 ]]; then
  PORT=$((BASE + 40)) IDP_URL=http://$H:$IDP taskset -c 1 node "$PB/baseline-passport/server.mjs" \
    >"$work/passport.log" 2>&1 &
  PIDS+=($!)
  PEER_NAMES+=(passport) PEER_PORTS+=($((BASE + 40))) PEER_PIDS+=($!)
  SSOGATE_PORT=$((BASE + 41)) IDP_URL=http://$H:$IDP taskset -c 1 node "$root/build/bench/sign-in-floor.js" \
    >"$work/floor.log" 2>&1 &
  PIDS+=($!)
  PEER_NAMES+=(floor) PEER_PORTS+=($((BASE + 41))) PEER_PIDS+=($!)
  wait_for "http://$H:$((BASE + 40))/auth" || { echo "the Passport stack did not start" >&2; exit 1; }
  wait_for "http://$H:$((BASE + 41))/_sso/healthz" || { echo "the floor did not start" >&2; exit 1; }
fi

# Builds sharing a PostgreSQL database must open each other's sealed secrets.
run_key=$(node -p "require('node:crypto').randomBytes(32).toString('base64')")
declare -a GATEWAY_PIDS COOKIES
i=0
for dist in "$@"; do
  port=$((BASE + i))
  data=$work/gateway-$i
  mkdir -p "$data"
  sed -e "s#@IDP@#http://$H:$IDP#g" -e "s/@ENTRY@/bench/g" "$ENTRIES" >"$data/entries.json"
  env SSOGATE_PORT=$port SSOGATE_HOST=$H SSOGATE_PUBLIC_URL=http://$H:$port \
    SSOGATE_DATABASE_URL="${DBURL:-sqlite:$data/ssogate.db}" SSOGATE_ENTRIES_FILE="$data/entries.json" \
    SSOGATE_ADMIN_PASSWORD=bench-admin-password SSOGATE_OUTBOUND_ALLOW=127.0.0.1 \
    SSOGATE_SIGN_INS_PER_MINUTE=100000 SSOGATE_PENDING_SIGN_INS_MAX=10000000 \
    ${DBURL:+SSOGATE_SECRET_KEY=$run_key} ${REDIS:+SSOGATE_REDIS_URL=$REDIS SSOGATE_REDIS_PREFIX=bench$i:} \
    ${UPSTREAM:+SSOGATE_UPSTREAM=$UPSTREAM} taskset -c 1 node ${NODE_FLAGS:-} "$dist/main.js" >"$data/log" 2>&1 &
  GATEWAY_PIDS[i]=$!
  PIDS+=($!)
  wait_for "http://$H:$port/_sso/healthz" || true
  # Through the proxy, the landing page is the upstream's hello world.
  COOKIES[i]=$(node "$PB/signin-load.mjs" --start "http://$H:$port/_sso/login/bench?return_to=/" \
    --expect-text "$([[ $mode == proxy ]] && echo hello || echo user)" --print-cookie)
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
  if [[ $mode == auth || $mode == proxy ]]; then
    count=$(echo "$out" | awk '/requests in/{print $1}')
    if echo "$out" | grep -q Non-2xx; then echo "non-2xx answers" >&2; exit 1; fi
  else
    count=$(echo "$out" | grep -o '([0-9]* ok' | tr -dc 0-9)
  fi
  awk -v t=$((after - before)) -v hz="$ticks_per_second" -v n="$count" -v s="$SECS" \
    'BEGIN { printf "%8.1f µs %9.1f/s", t * 1e6 / hz / n, n / s }'
}

# PORT COOKIE: the checks answered on /_sso/auth over SECS (wrk on core 0).
checks() {
  local out
  out=$(taskset -c 0 wrk -t1 -c50 -d"${SECS}"s -H "Cookie: $2" "http://$H:$1/_sso/auth")
  if echo "$out" | grep -q Non-2xx; then echo "non-2xx answers" >&2; exit 1; fi
  echo "$out" | awk '/requests in/{print $1}'
}

# START_URL FILE: sign-ins for SECS, paced at RATE or by WORKERS workers; the
# sign-ins that ended well go to FILE.
sign_ins() {
  if [[ -n ${WORKERS:-} ]]; then
    taskset -c 0 node "$PB/signin-load.mjs" --start "$1" --expect-path / --expect-text "${3:-user}" \
      --concurrency "$WORKERS" --warmup 0 --duration "$SECS" --json "$2.json" >/dev/null
    node -p "require('$2.json').flows" >"$2"
  else
    taskset -c 0 node "$root/build/bench/paced-sign-ins.js" "$1" "${RATE:-75}" "$SECS" \
      | node -e 'let t = ""; process.stdin.on("data", (d) => (t += d)).on("end", () => {
          const paced = JSON.parse(t);
          if (paced.failed > 0) throw new Error(`${paced.failed} paced sign-ins failed`);
          console.log(paced.succeeded);
        })' >"$2"
  fi
}

# LOG: what --trace-gc-nvp wrote there so far, as "scavenges mark-compacts
# promoted-bytes pause-µs" (the pauses of the main thread, every kind).
gc_counts() {
  awk '/ gc=s /{s++} / gc=(ms|mc|mmc) /{m++}
    / promoted=/{match($0, / promoted=[0-9]+/); p += substr($0, RSTART + 10, RLENGTH - 10)}
    / pause=/{match($0, / pause=[0-9.]+/); u += 1000 * substr($0, RSTART + 7, RLENGTH - 7)}
    END {printf "%d %d %d %d", s, m, p, u}' "$1"
}
# BEFORE AFTER: the collections between two gc_counts.
gc_between() {
  [[ ${NODE_FLAGS:-} == *--trace-gc-nvp* ]] || return 0
  read -r s0 m0 p0 u0 <<<"$1"
  read -r s1 m1 p1 u1 <<<"$2"
  awk -v s=$((s1 - s0)) -v m=$((m1 - m0)) -v p=$((p1 - p0)) -v u=$((u1 - u0)) \
    'BEGIN { printf " [%d s, %d mc, %.1f MiB, %.0f ms]", s, m, p / 1048576, u / 1000 }'
}

for round in $(seq "$ROUNDS"); do
  line="round $round:"
  if [[ $mode == auth ]]; then
    line+=" ceiling $(measure $CEILING_PID taskset -c 0 wrk -t1 -c50 -d"${SECS}"s "http://$H:$CEIL/") |"
  elif [[ $mode == proxy ]]; then
    line+=" bare proxy $(measure $BARE_PROXY_PID taskset -c 0 wrk -t1 -c32 -d"${SECS}"s \
      "http://$H:$BARE_PROXY/page") |"
  fi
  if [[ $mode == mixed && ${CONTROL:-0} == 1 ]]; then
    # The first build's checks beside sign-ins that the floor, not the gateway, answers.
    alone=$(checks "$BASE" "${COOKIES[0]}")
    WORKERS='' sign_ins "http://$H:$((BASE + 41))/_sso/login/bench?return_to=/" "$work/floor" hello &
    signing=$!
    beside=$(checks "$BASE" "${COOKIES[0]}")
    wait $signing
    line+=$(awk -v a="$alone" -v b="$beside" -v f="$(cat "$work/floor")" -v secs="$SECS" \
      'BEGIN { printf " control: build 1 alone %.0f/s, beside %.1f sign-ins/s to the floor %.0f/s: ×%.2f |", a / secs, f / secs, b / secs, b / a }')
  fi
  for p in "${!PEER_NAMES[@]}"; do
    start=http://$H:${PEER_PORTS[p]}/_sso/login/bench?return_to=/
    [[ ${PEER_NAMES[p]} == passport ]] && start=http://$H:${PEER_PORTS[p]}/login
    line+=" ${PEER_NAMES[p]} $(measure "${PEER_PIDS[p]}" taskset -c 0 node "$PB/signin-load.mjs" \
      --start "$start" --expect-path / --expect-text hello --concurrency 20 --warmup 0 --duration "$SECS") |"
  done
  i=0
  for dist in "$@"; do
    port=$((BASE + i))
    if [[ $mode == auth ]]; then
      result=$(measure "${GATEWAY_PIDS[i]}" taskset -c 0 wrk -t1 -c50 -d"${SECS}"s \
        -H "Cookie: ${COOKIES[i]}" "http://$H:$port/_sso/auth")
    elif [[ $mode == proxy ]]; then
      result=$(measure "${GATEWAY_PIDS[i]}" taskset -c 0 wrk -t1 -c32 -d"${SECS}"s \
        -H "Cookie: ${COOKIES[i]}" "http://$H:$port/page")
    elif [[ $mode == mixed ]]; then
      pid=${GATEWAY_PIDS[i]}
      log=$work/gateway-$i/log
      start=http://$H:$port/_sso/login/bench?return_to=/
      g0=$(gc_counts "$log") t0=$(cpu_ticks "$pid")
      alone=$(checks "$port" "${COOKIES[i]}")
      g1=$(gc_counts "$log") t1=$(cpu_ticks "$pid")
      sign_ins "$start" "$work/alone"
      g2=$(gc_counts "$log") t2=$(cpu_ticks "$pid")
      sign_ins "$start" "$work/beside" &
      signing=$!
      beside=$(checks "$port" "${COOKIES[i]}")
      wait $signing
      g3=$(gc_counts "$log") t3=$(cpu_ticks "$pid")
      result=$(awk -v a="$alone" -v b="$beside" -v sa="$(cat "$work/alone")" -v sb="$(cat "$work/beside")" \
        -v ta=$((t1 - t0)) -v ts=$((t2 - t1)) -v tb=$((t3 - t2)) -v hz="$ticks_per_second" -v secs="$SECS" '
        BEGIN {
          us = 1e6 / hz; signIn = ts * us / sa
          printf "alone %.0f/s %.1f µs %.0f%% | sign-ins %.1f/s %.0f µs | beside %.1f/s %.0f/s %.1f µs %.0f%% | ×%.2f",
            a / secs, ta * us / a, 100 * ta / hz / secs, sa / secs, signIn,
            sb / secs, b / secs, (tb * us - sb * signIn) / b, 100 * tb / hz / secs, b / a
        }')
      result+=$(gc_between "$g0" "$g1")$(gc_between "$g1" "$g2")$(gc_between "$g2" "$g3")
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
