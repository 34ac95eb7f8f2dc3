# Review round trip: push to a throwaway Label Studio, a labeller submits, pull it back.
# Uses $LABEL_STUDIO_URL / $LABEL_STUDIO_API_KEY when set; otherwise starts Label Studio
# from $LABEL_STUDIO_BIN (the Makefile sets it) on a free loopback port, and stops it after.
set -euo pipefail

if [ -z "${LABEL_STUDIO_URL:-}" ]; then
  LS_BIN="${LABEL_STUDIO_BIN:-$REPO/.ls-venv/bin/label-studio}"
  if [ ! -x "$LS_BIN" ]; then
    echo "Label Studio not installed ($LS_BIN): run 'make deps' to include the review demo"
    exit 0
  fi
  PORT="$(python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  LS_DATA="$DEMO/.curator/labelstudio"
  mkdir -p "$LS_DATA/home"
  export LABEL_STUDIO_API_KEY="demo-legacy-token-$(python -c 'import secrets; print(secrets.token_hex(8))')"
  echo "starting Label Studio on 127.0.0.1:$PORT (the first start sets up a database: a minute or two)"
  HOME="$LS_DATA/home" LABEL_STUDIO_BASE_DATA_DIR="$LS_DATA" \
  LABEL_STUDIO_USERNAME=lead@demo.invalid LABEL_STUDIO_PASSWORD=demo-password-123 \
  LABEL_STUDIO_USER_TOKEN="$LABEL_STUDIO_API_KEY" LABEL_STUDIO_ENABLE_LEGACY_API_TOKEN=true \
  LABEL_STUDIO_DISABLE_SIGNUP_WITHOUT_LINK=true LABEL_STUDIO_LATEST_VERSION_CHECK=false \
  LABEL_STUDIO_COLLECT_ANALYTICS=false SENTRY_DSN= FRONTEND_SENTRY_DSN= \
    setsid "$LS_BIN" start --no-browser --internal-host 127.0.0.1 --port "$PORT" \
      --data-dir "$LS_DATA" >"$LS_DATA/server.log" 2>&1 &
  LS_PID=$!
  trap 'kill -- -"$LS_PID" 2>/dev/null || true' EXIT
  export LABEL_STUDIO_URL="http://127.0.0.1:$PORT"
  for _ in $(seq 600); do
    python -c "import httpx, sys; sys.exit(httpx.get('$LABEL_STUDIO_URL/health', timeout=2).status_code != 200)" \
      2>/dev/null && break
    kill -0 "$LS_PID" 2>/dev/null || { tail -5 "$LS_DATA/server.log"; exit 1; }
    sleep 1
  done
fi

curator review push

# A labeller opens the first task and submits what curator pre-filled (the SDK, as the UI's API).
python - <<'EOF'
import os
from label_studio_sdk import LabelStudio

ls = LabelStudio(base_url=os.environ["LABEL_STUDIO_URL"], api_key=os.environ["LABEL_STUDIO_API_KEY"])
for project in ls.projects.list():
    if not project.title.startswith("curator "):
        continue
    for task in ls.tasks.list(project=project.id, fields="all"):
        if task.annotations:
            continue
        prediction = ls.predictions.list(task=task.id)[0]
        ls.annotations.create(id=task.id, result=prediction.result)
        print(f"labeller submitted task {task.id} ({task.data['fixture_id']})")
        raise SystemExit
print("no unannotated task to label")
EOF

curator review pull
