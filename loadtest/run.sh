#!/usr/bin/env bash
# Load test: starts a Brass server on loopback, runs locust headless against it, prints
# requests/s, p50/p95/p99 latency and errors per request type, the server's peak memory
# and the number of live games. Exits non-zero on any unexpected error response.
#
#   loadtest/run.sh [--users N] [--spawn-rate R] [--run-time 20s] [--postgres [URL]]
#                   [--preload GAMES] [--out DIR] [--seed S] [--locustfile FILE]
#                   [--workers N]
#
# SQLite (a fresh file in the output directory) by default; --postgres uses a fresh schema
# of the local PostgreSQL (default postgresql://postgres@127.0.0.1:5432/test), dropped at
# the end. PYTHON selects the interpreter (default: the repository's .venv, else python3).
# --locustfile runs another locustfile (e.g. an older one, for a comparison; default
# loadtest/locustfile.py); the report also shows ListLegalActions calls per decision.
# --workers N starts the server with N worker processes (brass serve --workers); CPU time
# and memory are then summed over all of them.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
USERS=20
SPAWN_RATE=20
RUN_TIME=20s
STORE=sqlite
PG_URL="postgresql://postgres@127.0.0.1:5432/test"
PRELOAD=0
OUT=""
SEED=1
LOCUSTFILE="$HERE/locustfile.py"
WORKERS=1

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --users) USERS="$2"; shift 2 ;;
    --spawn-rate) SPAWN_RATE="$2"; shift 2 ;;
    --run-time) RUN_TIME="$2"; shift 2 ;;
    --postgres)
      STORE=postgres
      if [[ $# -gt 1 && "$2" == postgresql://* ]]; then PG_URL="$2"; shift; fi
      shift ;;
    --preload) PRELOAD="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --seed) SEED="$2"; shift 2 ;;
    --workers) WORKERS="$2"; shift 2 ;;
    --locustfile) LOCUSTFILE="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
done

if [[ -z "${PYTHON:-}" ]]; then
  if [[ -x "$ROOT/.venv/bin/python" ]]; then PYTHON="$ROOT/.venv/bin/python"; else PYTHON=python3; fi
fi

# locust is the dev extra's: say so rather than fail later with a bare "RESULT: FAIL"
if ! LOCUST_ERROR="$("$PYTHON" -c 'import locust' 2>&1)"; then
  echo "loadtest/run.sh needs locust, which $PYTHON cannot import ($(tail -n 1 <<<"$LOCUST_ERROR")):" >&2
  echo "install the dev extra: $PYTHON -m pip install -e '.[dev]' (or set PYTHON=...)" >&2
  exit 2
fi

# Run time in seconds (locust accepts 20s, 2m, 1h30m; plain numbers are seconds).
RUN_SECONDS="$("$PYTHON" - "$RUN_TIME" <<'EOF'
import re, sys
text = sys.argv[1]
if text.isdigit():
    print(int(text)); raise SystemExit
parts = re.fullmatch(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?", text)
if not parts or not any(parts.groups()):
    raise SystemExit(f"bad --run-time {text!r}")
h, m, s = (int(x or 0) for x in parts.groups())
print(h * 3600 + m * 60 + s)
EOF
)"
if (( RUN_SECONDS > 3600 )); then echo "--run-time is capped at 1h" >&2; exit 2; fi

if [[ -z "$OUT" ]]; then OUT="$(mktemp -d -t brass-load.XXXXXX)"; fi
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
SUPPORT=("$PYTHON" "$HERE/support.py")

SERVER_PID=""
SCHEMA=""
cleanup() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [[ -n "$SCHEMA" ]]; then "${SUPPORT[@]}" pg-drop "$PG_URL" "$SCHEMA" || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

read -r GRPC_PORT HTTP_PORT < <("${SUPPORT[@]}" ports 2)
if [[ "$STORE" == postgres ]]; then
  mapfile -t PG < <("${SUPPORT[@]}" pg-create "$PG_URL")
  SCHEMA="${PG[0]}"
  DATABASE_URL="${PG[1]}"
else
  DATABASE_URL="sqlite:///$OUT/load.sqlite3"
fi

# The users create games from positions, which needs the operator token.
export BRASS_OPERATOR_TOKEN="${BRASS_OPERATOR_TOKEN:-loadtest-operator-$RANDOM$RANDOM}"
echo "server: gRPC 127.0.0.1:$GRPC_PORT, REST 127.0.0.1:$HTTP_PORT, store $STORE; output $OUT"
# Every user connects from 127.0.0.1, so the per-address limits (watch streams, games
# created) are lifted.
BRASS_HOST=127.0.0.1 BRASS_WATCH_BURST=100000 BRASS_WATCH_RATE_PER_SECOND=100000 \
  BRASS_MAX_WATCHERS_PER_CLIENT=100000 BRASS_MAX_WATCHERS_PER_ADDRESS=100000 \
  BRASS_MAX_WATCHERS_PER_CONNECTION=100000 BRASS_CREATE_GAME_RATE= \
  "$PYTHON" -m brass_service --port "$GRPC_PORT" --http-port "$HTTP_PORT" \
  --database-url "$DATABASE_URL" --log-level warning --workers "$WORKERS" \
  >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
"${SUPPORT[@]}" wait-ready --pid "$SERVER_PID" --grpc-port "$GRPC_PORT" --http-port "$HTTP_PORT"
read -r BASELINE_KB _ < <("${SUPPORT[@]}" memory "$SERVER_PID")

if (( PRELOAD > 0 )); then
  "${SUPPORT[@]}" preload --grpc-target "127.0.0.1:$GRPC_PORT" --games "$PRELOAD"
fi

read -r DECISIONS_BEFORE _ _ < <("${SUPPORT[@]}" decisions --http-port "$HTTP_PORT")
CPU_BEFORE="$("${SUPPORT[@]}" cpu "$SERVER_PID")"
set +e
# `time` gives locust's own CPU (user + system seconds): the client's cost per decision.
{ TIMEFORMAT='%U %S'; time (cd "$OUT" && "$PYTHON" -m locust -f "$LOCUSTFILE" --headless \
  --users "$USERS" --spawn-rate "$SPAWN_RATE" --run-time "$RUN_TIME" --stop-timeout 10 \
  --host "http://127.0.0.1:$HTTP_PORT" --grpc-target "127.0.0.1:$GRPC_PORT" \
  --summary-file "$OUT/summary.json" --seed "$SEED" \
  --csv "$OUT/locust" --only-summary --loglevel WARNING >"$OUT/locust.log" 2>&1); } 2>"$OUT/locust.cpu"
LOCUST_EXIT=$?
LOCUST_CPU="$("$PYTHON" -c "import sys; print(sum(map(float, sys.argv[1:])))" \
  $(tail -n 1 "$OUT/locust.cpu" 2>/dev/null) 2>/dev/null || echo 0)"
set -e

SERVER_ALIVE=0
PEAK_KB=0
LIVE=0
CACHED=0
DECISIONS_AFTER="$DECISIONS_BEFORE"
CPU_AFTER="$CPU_BEFORE"
if kill -0 "$SERVER_PID" 2>/dev/null; then
  SERVER_ALIVE=1
  read -r _ PEAK_KB < <("${SUPPORT[@]}" memory "$SERVER_PID")
  CPU_AFTER="$("${SUPPORT[@]}" cpu "$SERVER_PID")"
  read -r DECISIONS_AFTER LIVE CACHED < <("${SUPPORT[@]}" decisions --http-port "$HTTP_PORT")
fi
if (( LOCUST_EXIT > 1 )); then
  echo "locust failed (exit $LOCUST_EXIT):" >&2
  tail -n 40 "$OUT/locust.log" >&2
fi

"${SUPPORT[@]}" report --out "$OUT" --store "$STORE" --users "$USERS" \
  --run-seconds "$RUN_SECONDS" --decisions-before "$DECISIONS_BEFORE" \
  --decisions-after "$DECISIONS_AFTER" --peak-kb "$PEAK_KB" --baseline-kb "$BASELINE_KB" \
  --live-games "$LIVE" --cached-games "$CACHED" --locust-exit "$LOCUST_EXIT" \
  --server-alive "$SERVER_ALIVE" --server-log "$OUT/server.log" \
  --server-cpu-seconds "$("$PYTHON" -c "print($CPU_AFTER - $CPU_BEFORE)")" \
  --client-cpu-seconds "$LOCUST_CPU"
