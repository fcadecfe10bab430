#!/usr/bin/env bash
# Starts or stops the local test broker (Tansu, in-memory) on a free loopback port.
#   scripts/broker.sh start   → prints the address; state in .run/broker.{pid,addr,log}
#   scripts/broker.sh stop    → stops it by PID
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
run="$root/.run"
mkdir -p "$run"
case "${1:-}" in
  start)
    if [ -f "$run/broker.pid" ] && kill -0 "$(cat "$run/broker.pid")" 2>/dev/null; then
      cat "$run/broker.addr"; exit 0
    fi
    tansu="$("$root/scripts/tansu-path.sh")"
    [ -x "$tansu" ] || { echo "broker: tansu not installed (run: make deps)" >&2; exit 1; }
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
    RUST_LOG=warn "$tansu" broker --listener-url "tcp://127.0.0.1:$port" --advertised-listener-url "tcp://127.0.0.1:$port" --silent \
      >"$run/broker.log" 2>&1 &
    echo $! > "$run/broker.pid"
    for _ in $(seq 1 100); do
      if python3 -c "import socket,sys; socket.create_connection(('127.0.0.1',$port),0.2)" 2>/dev/null; then
        echo "127.0.0.1:$port" | tee "$run/broker.addr"; exit 0
      fi
      sleep 0.05
    done
    echo "broker: did not start; see $run/broker.log" >&2; exit 1 ;;
  stop)
    if [ -f "$run/broker.pid" ]; then
      pid="$(cat "$run/broker.pid")"
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
      kill -9 "$pid" 2>/dev/null || true
      rm -f "$run/broker.pid" "$run/broker.addr"
      echo "broker stopped"
    fi ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
