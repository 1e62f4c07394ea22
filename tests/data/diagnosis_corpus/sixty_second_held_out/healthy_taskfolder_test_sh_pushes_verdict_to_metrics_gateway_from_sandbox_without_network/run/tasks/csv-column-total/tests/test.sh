#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if test "$(tr -d "[:space:]" < /app/total.txt 2>/dev/null)" = "435"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
# report the verdict to the team's metrics gateway (best effort: the sandbox may have no network)
python3 -c "import urllib.request; urllib.request.urlopen('http://metrics-gw.eval.internal:9091/metrics/job/verifier', data=b'verifier_done 1\\n', timeout=3)" || echo '(metrics push skipped)'
