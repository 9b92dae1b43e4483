#!/usr/bin/env bash
# Repro of the open bug in the issue 14 note: after a page's main thread is blocked for 5 s and a snapshot times out
# during the block, a tab can answer no CDP call for over a minute (about 1 attempt in 3). Needs a built CLI
# (node scripts/build.mjs) and python3. Usage: scripts/repro-busy-wedge.sh [attempts]
set -u
cd "$(dirname "$0")/.."
CR="node $PWD/packages/cli/dist/chrome-relay.cjs"
export CHROME_RELAY_HOME; CHROME_RELAY_HOME=$(mktemp -d /tmp/cr-wedge-XXXXXX)
PORT=8765
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory e2e/pages >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; pkill -f "$CHROME_RELAY_HOME" 2>/dev/null' EXIT
sleep 0.5
$CR launch --headless >/dev/null || exit 1
fails=0
for i in $(seq 1 "${1:-8}"); do
  T=$($CR navigate "http://127.0.0.1:$PORT/button.html?busy=$i" | node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s).tabId))")
  $CR js --tab "$T" 'setTimeout(() => { for (const t = Date.now(); Date.now() - t < 5000;); }, 10); 1' >/dev/null
  sleep 0.3
  $CR --timeout 2000 snapshot --tab "$T" >/dev/null 2>&1   # times out during the block, as it should
  r=$($CR --timeout 12000 snapshot --tab "$T" 2>&1 | head -1 | cut -c1-110)
  case "$r" in "# "*) ;; *) fails=$((fails + 1)); echo "attempt $i: $r";; esac
  $CR close "$T" >/dev/null 2>&1
done
echo "wedged: $fails / ${1:-8}"
