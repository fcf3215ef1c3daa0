# Sourced by the benchmarks: builds the release server and site, starts the
# server on a free loopback port with a throwaway database, creates one ask
# and sets URL, ASK_URL and SERVER_PID. The server stops when the script exits.
scripts/dev.sh build-release >&2
SERVER_OUT=$(mktemp)
target/release/askdesk --addr 127.0.0.1:0 --database :memory: --site-root target/site \
  >"$SERVER_OUT" 2>/dev/null &
SERVER_PID=$!
trap 'kill $SERVER_PID 2>/dev/null || true' EXIT
URL=
for _ in $(seq 100); do
  URL=$(sed -n 's/^askdesk is serving on \(http:[^ ]*\)$/\1/p' "$SERVER_OUT")
  [ -n "$URL" ] && break
  sleep 0.1
done
[ -n "$URL" ] || { echo "the server did not start" >&2; exit 1; }
ASK_URL=$(curl -sf -X POST "$URL/api/v1/asks" -H 'content-type: application/json' -d '{
  "title": "Release plan", "agent": "bench",
  "questions": [
    {"id": "features", "header": "Features", "question": "Which features should ship?", "multiSelect": true,
     "options": [{"label": "Auth", "description": "Sign-in with a token"}, {"label": "Logging"}, {"label": "Metrics"}]},
    {"id": "db", "header": "Database", "question": "Which database?",
     "options": [{"label": "SQLite"}, {"label": "PostgreSQL"}]},
    {"id": "notes", "question": "Anything else?"}
  ]}' | sed -n 's/.*"url":"\([^"]*\)".*/\1/p')
[ -n "$ASK_URL" ] || { echo "could not create an ask" >&2; exit 1; }
