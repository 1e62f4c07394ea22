"""dedup_report.py: list prompts that share their first 12 characters (exit 1 when any are found)."""
import json
import sys
from collections import defaultdict

groups = defaultdict(list)
for number, line in enumerate(open(sys.argv[1]), 1):
    text = json.loads(line)["responses_create_params"]["input"][0]["content"][0]["text"]
    groups[text[:12]].append(number)
pairs = {key: lines for key, lines in groups.items() if len(lines) > 1}
for key, lines in pairs.items():
    print(f"near-duplicate prompts (rows {lines}): {key!r}...")
print(f"dedup report: {len(pairs)} group(s) of near-duplicate prompts")
sys.exit(1 if pairs else 0)
