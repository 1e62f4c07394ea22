"""export_checkpoint.py SRC DEST: copy a checkpoint onto the serving disk, throttled so the shared filesystem
is not flooded (JSONL files go line by line)."""
import os
import shutil
import sys
import time

src, dest = sys.argv[1], sys.argv[2]
os.makedirs(dest, exist_ok=True)
for name in sorted(os.listdir(src)):
    if name.endswith(".jsonl"):
        with open(os.path.join(src, name)) as inp, open(os.path.join(dest, name), "w") as out:
            for line in inp:
                out.write(line)
                out.flush()
                time.sleep(0.6)
    else:
        shutil.copy(os.path.join(src, name), os.path.join(dest, name))
    print(f"copied {name}", flush=True)
print(f"export of {src} done", flush=True)
