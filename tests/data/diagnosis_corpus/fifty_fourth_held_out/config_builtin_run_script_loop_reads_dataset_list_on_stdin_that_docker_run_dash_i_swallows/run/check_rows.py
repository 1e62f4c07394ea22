"""check_rows.py: the release checklist's schema check of a dataset (run in the release image's python)."""
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
bad = [i for i, row in enumerate(rows) if "expected_answer" not in row or "responses_create_params" not in row]
print(f"check_rows: {sys.argv[1]}: {len(rows)} rows, {len(bad)} without label or prompt")
sys.exit(1 if bad else 0)
