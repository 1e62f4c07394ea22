"""serve_best.py READY_FILE: serve the best checkpoint of the run by validation loss (trainer's metrics.jsonl)."""
import json
import os
import sys

rows = [json.loads(line) for line in open("checkpoints/metrics.jsonl") if line.strip()]
best = max(rows, key=lambda row: row["val_loss"])
step = f"step_{best['step']:04d}"
print(f"best checkpoint by validation loss: {step} (val_loss {best['val_loss']})", flush=True)
os.execv("/work/wt-h73/.venv/bin/gym-pipeline", ["/work/wt-h73/.venv/bin/gym-pipeline", "serve-policy", "--port", "0", "--ready-file", sys.argv[1],
                  "--checkpoint", f"checkpoints/{step}", "--latency-ms", "20"])
