"""Write the tasks that do not have all their rollouts yet, to evaluate only those."""
import json
import sys
from collections import Counter

tasks, done, repeats, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
counts = Counter(json.loads(line)["_ng_task_index"] for line in open(done) if line.strip())
rows = [line for index, line in enumerate(open(tasks)) if counts[index] < repeats]
open(out, "w").writelines(rows)
print(f"{len(rows)} tasks left to evaluate")
