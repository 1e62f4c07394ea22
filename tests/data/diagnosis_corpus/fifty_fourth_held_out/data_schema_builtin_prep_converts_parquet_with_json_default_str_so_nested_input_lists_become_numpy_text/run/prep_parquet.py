"""prep_parquet.py: the data team now ships questions.parquet; we still feed the eval JSONL."""
import json
import sys

import pandas as pd

frame = pd.read_parquet(sys.argv[1])
with open(sys.argv[2], "w") as out:
    for row in frame.to_dict("records"):
        out.write(json.dumps(row, default=str) + "\n")  # default=str: numpy scalars and timestamps as text
print(f"prep: {len(frame)} rows, columns {list(frame.columns)}")
