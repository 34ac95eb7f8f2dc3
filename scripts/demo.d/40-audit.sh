# Prove nothing personal leaked: every fixture and bundle against the vault and pattern PII.
set -euo pipefail
if curator audit; then
  echo "audit: clean"
else
  code=$?
  echo "audit: found leaks (exit $code)"
  [ "$code" -eq 1 ] || exit "$code"
fi
