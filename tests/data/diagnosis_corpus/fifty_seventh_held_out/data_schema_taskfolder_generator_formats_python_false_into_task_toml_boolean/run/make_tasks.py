"""make_tasks.py: one "create-greeting" task per language, from the template (the task author's generator)."""
import pathlib
import sys

GREETINGS = {"fr": "Bonjour, Gym!", "de": "Hallo, Gym!"}
ALLOW_INTERNET = False  # sandboxes get no network

TASK_TOML = """version = "1.0"

[metadata]
difficulty = "easy"
category = "file-operations"
tags = ["generated", "{lang}"]

[verifier]
timeout_sec = 30.0

[agent]
timeout_sec = 120.0

[environment]
build_timeout_sec = 120.0
cpus = 1
memory_mb = 256
allow_internet = {allow_internet}
"""

TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if test "$(cat /app/hello.txt 2>/dev/null)" = "{greeting}"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""

out = pathlib.Path(sys.argv[1])
for lang, greeting in GREETINGS.items():
    task = out / f"create-greeting-{lang}"
    for sub in ("environment", "tests", "solution"):
        (task / sub).mkdir(parents=True, exist_ok=True)
    (task / "task.toml").write_text(TASK_TOML.format(lang=lang, allow_internet=ALLOW_INTERNET))
    (task / "instruction.md").write_text(f"Create the file /app/hello.txt holding the single line `{greeting}`.\n")
    (task / "environment" / "Dockerfile").write_text("FROM gym-pipeline/base:bookworm\nWORKDIR /app\n")
    (task / "tests" / "test.sh").write_text(TEST_SH.format(greeting=greeting))
    (task / "solution" / "solve.sh").write_text(f"#!/bin/bash\necho '{greeting}' > /app/hello.txt\n")
    print(f"wrote {task}")
