"""The diagnosis of real task-folder runs: seed 004's entries, each made by the collect stage on the real Docker
engine against the simulated policy, and diagnosed by category, title (the task and the failure kind) and fix
(seed 004's words for that entry, in this pipeline's commands)."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import taskfolder_support as fixtures
from launcher_support import docker_engine

from gym_pipeline import diagnose, stages
from gym_pipeline.config import load_sweep_config
from gym_pipeline.core.run_lock import LOCK_FILE
from gym_pipeline.serving.checkpoints import create_checkpoint
from gym_pipeline.serving.servers import serve_checkpoint
from gym_pipeline.taskfolders.collect import NoResultError
from gym_pipeline.taskfolders.knowledge import taskset_knowledge
from gym_pipeline.taskfolders.materialize import TasksNotLoadable

# the module fixture collects every scenario in Docker first (about 270 s on an idle 2-core machine, more beside other
# workers): the default 300 s per test, which counts that setup, is too short for it
pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]  # needs the real Docker engine
CHECKPOINT = "step_0100"
SLOW_SOLUTION = "sleep 8; touch /app/done"  # keeps a collection running while a second one is started

# environment -> the task that goes wrong in it (beside a working one)
SCENARIOS = {
    "verifier_timeout": fixtures.verifier_timeout_task,
    "missing_reward": fixtures.missing_reward_task,
    "invalid_reward": fixtures.invalid_reward_task,
    "edited": lambda root: fixtures.write_task(root, "edited-task"),
    "not_loadable": fixtures.failing_build_task,
    "engine_down": lambda root: fixtures.write_task(root, "needs-engine"),
    "two_runs": lambda root: fixtures.write_task(root, "slow-task", solve=SLOW_SOLUTION),
    # the shell's exit status written as the reward: 0 when the check passes
    "exit_status": lambda root: fixtures.write_task(root, "status-as-reward", test="check() { test -f /app/done; }\n"
                                                    "check\necho $? > /logs/verifier/reward.txt"),
    # a failure branch pasted from the passing one, reward and all; the agent does not do the task
    "pasted_fail": lambda root: fixtures.write_task(root, "always-passes", solve="ls /app", test=(
        'if test -f /app/done; then\n  echo PASS\n  echo 1 > /logs/verifier/reward.txt\nelse\n'
        '  echo "FAIL: no /app/done"\n  echo 1 > /logs/verifier/reward.txt\nfi')),
    # two checks, each appending its result: reward.txt ends up two lines, not one number
    "appended_reward": lambda root: fixtures.write_task(root, "appends-reward", test=(
        "test -d /app && echo 1 >> /logs/verifier/reward.txt\ntest -f /app/done && echo 1 >> /logs/verifier/reward.txt")),
    # the test moved to a new output folder, the instruction (and so the agent) did not
    "moved_output": lambda root: fixtures.write_task(root, "answer-moved", test="# answers live under /app/output\n"
                                                     + fixtures.PASSING_TEST.replace("/app/done", "/app/output/done")),
    # the policy's command outlives [agent].timeout_sec (2 s) and test.sh its 1 s: with no grace, past the deadline
    "task_deadline": lambda root: fixtures.write_task(root, "agent-overruns", solve="sleep 10; touch /app/done",
                                                      agent_timeout=2, verifier_timeout=1,
                                                      test="echo 1 > /logs/verifier/reward.txt; sleep 5"),
}
SCENARIOS.update({
    # the image template's entrypoint warms a cache and ends: it never runs the keep-alive command it is given
    "entrypoint_returns": lambda root: _with_files(fixtures.write_task(
        root, "warm-start", dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY init.sh /usr/local/bin/init.sh\n"
                                       'RUN chmod +x /usr/local/bin/init.sh\nENTRYPOINT ["/usr/local/bin/init.sh"]\n'),
        {"init.sh": "#!/bin/sh\n# warm the cache before the task starts (from the team's image template)\n"
                    "mkdir -p /tmp/cache && echo warmed > /tmp/cache/ready\n"}),
    # the team's service template ends every image with a non-root user: nothing may write /app or /logs
    "user_nobody": lambda root: fixtures.write_task(
        root, "least-privilege", dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\n"
                                            "# security baseline (from the team's service template): never run as root\n"
                                            "USER nobody\n"),
    # the verifier's variables under a table Harbor does not know: the test compares with an empty value
    "verifier_environment_table": lambda root: _with_instruction(fixtures.write_task(
        root, "expected-word", solve="echo the > /app/answer.txt",
        test='if test "$(cat /app/answer.txt 2>/dev/null)" = "$EXPECTED_WORD"; then echo 1 > /logs/verifier/reward.txt\n'
             "else echo 0 > /logs/verifier/reward.txt; fi",
        task_toml='version = "1.0"\n[verifier]\ntimeout_sec = 20\n[agent]\ntimeout_sec = 20\n[environment]\ncpus = 1\n'
                  'memory_mb = 256\n[verifier.environment]\nEXPECTED_WORD = "the"\n'),
        "Write the most common English word, the, to /app/answer.txt (expected-word).\n"),
    # a .dockerignore meant for notes also matches the data file the Dockerfile copies
    "copy_ignored": lambda root: _with_files(fixtures.write_task(
        root, "ignored-copy", dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY words.txt /app/words.txt\n"),
        {"words.txt": "apple\npear\n", ".dockerignore": "# keep notes out of the image\n*.txt\n"}),
    # a refresh keeps one copy of the word list outside the taskset and links the task's input to it
    "copy_linked": lambda root: _with_link(fixtures.write_task(
        root, "linked-copy", dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY words.txt /app/\n"),
        "words.txt", root.parent.parent / "shared-data" / "words.txt"),
    # a refresh renamed the file the Dockerfile copies to a dated one
    "copy_renamed": lambda root: _with_files(fixtures.write_task(
        root, "renamed-copy", dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY server.log /app/\n"),
        {"server-2026-12-01.log": "ERROR one\n"}),
    # the words file re-exported by a spreadsheet: `apple ` beside `apple`, so `sort -u` keeps both
    "padded_words": lambda root: _with_files(fixtures.write_task(
        root, "unique-words", dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY words.txt /app/\n",
        test='test "$(sort -u /app/words.txt | wc -l)" = 2 && test -f /app/done && echo 1 > /logs/verifier/reward.txt '
             "|| echo 0 > /logs/verifier/reward.txt"), {"words.txt": "pear\napple\napple \n"}),
    # the sales table re-exported with its amounts in Currency format: the solution's awk sums `$120.00` as 0
    "currency_amounts": lambda root: _with_instruction(_with_files(fixtures.write_task(
        root, "column-total", dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY sales.csv /app/\n",
        solve="awk -F, 'NR > 1 {s += $2} END {print s}' /app/sales.csv > /app/total.txt",
        test='test "$(cat /app/total.txt)" = 195 && echo 1 > /logs/verifier/reward.txt || echo 0 > '
             "/logs/verifier/reward.txt"), {"sales.csv": "region,amount\nnorth,$120.00\nsouth,$75.00\n"}),
        "Write the total of the amount column of /app/sales.csv to /app/total.txt (column-total).\n"),
    # the sales table refreshed from a finance export that appends a totals row: the solution's sum counts it too
    "summary_row": lambda root: _with_instruction(_with_files(fixtures.write_task(
        root, "sales-total", dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY sales.csv /app/\n",
        solve="awk -F, 'NR > 1 {s += $2} END {print s}' /app/sales.csv > /app/total.txt",
        test='test "$(cat /app/total.txt)" = 195 && echo 1 > /logs/verifier/reward.txt || echo 0 > '
             "/logs/verifier/reward.txt"), {"sales.csv": "region,amount\nnorth,120\nsouth,75\nTOTAL,195\n"}),
        "Write the total of the amount column of /app/sales.csv to /app/total.txt (sales-total).\n"),
    # this quarter's rows added to the sales table, the test's hard-coded total left at the old rows' sum (195)
    "rows_added": lambda root: _with_instruction(_with_files(fixtures.write_task(
        root, "quarter-total", dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY sales.csv /app/\n",
        solve="awk -F, 'NR > 1 {s += $2} END {print s}' /app/sales.csv > /app/total.txt",
        test='test "$(cat /app/total.txt)" = 195 && echo 1 > /logs/verifier/reward.txt || echo 0 > '
             "/logs/verifier/reward.txt"), {"sales.csv": "region,amount\nnorth,120\nsouth,75\neast,40\nwest,15\n"}),
        "Write the total of the amount column of /app/sales.csv to /app/total.txt (quarter-total).\n"),
    # the instruction re-saved in UTF-16 by an editor after the policy learned the task (see `runs`)
    "utf16_instruction": lambda root: fixtures.write_task(root, "resaved-instruction"),
    # `\!` escaped as at a prompt: inside double quotes a script keeps the backslash, so the right answer never
    # matches; the same check in single quotes (the task `works` beside it) passes
    # the task's checker unpacked without its executable bit (`python -m zipfile -e` drops modes): test.sh runs it as
    # a program and gets `Permission denied`; the task `works` beside it keeps the bit
    "checker_mode": lambda root: (_checked_by_program(root, "checked", 0o644), _checked_by_program(root, "works", 0o755))[0],
    # a checker started `#!/bin/sh` using bash's `[[`: the image's sh is dash; the one started `#!/bin/bash` works
    "bash_checker": lambda root: (_checked_by_script(root, "bracketed", "#!/bin/sh"),
                                  _checked_by_script(root, "works", "#!/bin/bash"))[0],
    "kept_backslash": lambda root: (_greeting_task(root, "greeting", '"Hello, Gym\\!"'),
                                    _greeting_task(root, "works", "'Hello, Gym!'"))[0],
    # the share of passed checks written as a fraction, `1/1`: text, not a number; the task beside it writes it
    # computed (`awk`), and scores
    "fraction_reward": lambda root: (fixtures.write_task(root, "share-of-checks", test=FRACTION_TEST.format(
        write='echo "$PASSED/$TOTAL"')), fixtures.write_task(root, "works", test=FRACTION_TEST.format(
            write='awk "BEGIN {print $PASSED/$TOTAL}"')))[0],
    # compared byte for byte with a printf that has no final newline: the line the solution echoes never matches;
    # the same check with `\n` (the task `works` beside it) passes
    "printf_compare": lambda root: (_greeting_task(root, "greeting", check="printf 'Hello, Gym!'"),
                                    _greeting_task(root, "works", check="printf 'Hello, Gym!\\n'"))[0],
    # diffed with an expected file saved without its final newline: the line the solution echoes never matches; the
    # same file with its newline (the task `works` beside it) passes
    "expected_file_newline": lambda root: (_diffed_with_expected_file(root, "greeting", "Hello, Gym!"),
                                           _diffed_with_expected_file(root, "works", "Hello, Gym!\n"))[0],
    # the expected order written as `sort` gave it on the author's laptop (en_US: case folded); the sandbox's sort
    # compares bytes, so the solution's output never matches; the task `works` beside it expects the byte order
    "locale_order": lambda root: (_sorted_words_task(root, "locale-sorted", "apple\\nBanana\\ncherry"),
                                  _sorted_words_task(root, "works", "Banana\\napple\\ncherry"))[0],
    # a build step longer than the task's build_timeout_sec (2 s): the image is given up, the task skipped
    "slow_build": fixtures.slow_build_task,
    # `check && echo 1 || echo 0 > reward.txt`: the redirect is the `||` branch's only, so a pass writes no reward
    "chained_redirect": lambda root: fixtures.write_task(root, "chained-reward", test=(
        "test -f /app/done && echo 1 || echo 0 > /logs/verifier/reward.txt")),
    # a debugging echo put between the check and the `if [ $? -eq 0 ]` reading its status: always 0, so the task
    # scores 1 though the agent does not do it; the task `works` beside it reads `$?` right after its check
    "status_of_echo": lambda root: (fixtures.write_task(root, "debug-echo", solve="ls /app", test=STATUS_TEST.format(
        debug='echo "checked /app: $(ls /app)"\n')), fixtures.write_task(root, "works", test=STATUS_TEST.format(
            debug="")))[0],
    # the sales table re-exported by a tool that put the amount column first: the instruction and the solution still
    # take it as the second column
    "column_moved": lambda root: _with_instruction(_with_files(fixtures.write_task(
        root, "moved-column", dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY sales.csv /app/\n",
        solve="awk -F, 'NR > 1 {s += $2} END {print s}' /app/sales.csv > /app/total.txt",
        test='test "$(cat /app/total.txt)" = 195 && echo 1 > /logs/verifier/reward.txt || echo 0 > '
             "/logs/verifier/reward.txt"), {"sales.csv": "amount,region\n120,north\n75,south\n"}),
        "/app/sales.csv has a header line and the columns region,amount. Write the total of the amount column to "
        "/app/total.txt (moved-column).\n"),
    # the server log re-exported by a logging library that writes its levels in lower case: no ERROR line is left
    "level_case": lambda root: _with_instruction(_with_files(fixtures.write_task(
        root, "count-errors", dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY server.log /app/\n",
        solve="grep -c ERROR /app/server.log > /app/count.txt",
        test='test "$(cat /app/count.txt)" = 2 && echo 1 > /logs/verifier/reward.txt || echo 0 > '
             "/logs/verifier/reward.txt"), {"server.log": "[info] start\n[error] disk full\n[error] disk full\n"}),
        "Count the lines of /app/server.log that contain the word ERROR and write the number to /app/count.txt "
        "(count-errors).\n"),
    # the log refreshed from an export that ends its lines with bare carriage returns: one line to grep; the task
    # `count-warnings` beside it keeps Unix line endings
    "bare_returns": lambda root: tuple(_with_instruction(_with_files(fixtures.write_task(
        root, name, dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY server.log /app/\n",
        solve="grep -c ERROR /app/server.log > /app/count.txt",
        test='test "$(cat /app/count.txt)" = 2 && echo 1 > /logs/verifier/reward.txt || echo 0 > '
             "/logs/verifier/reward.txt"), {"server.log": f"INFO start{end}ERROR disk full{end}ERROR disk full{end}"}),
        f"Count the lines of /app/server.log that contain ERROR and write the number to /app/count.txt ({name}).\n")
        for name, end in (("count-errors", "\r"), ("count-warnings", "\n")))[0],
    # a safety net that writes 0 in an EXIT trap: it runs after a pass too, and overwrites the 1; the task `no-trap`
    # beside it writes its fallback 0 first, before the check
    "exit_trap": lambda root: tuple(fixtures.write_task(root, name, test=(
        f"{fallback}\nif test -f /app/done; then echo PASS; echo 1 > /logs/verifier/reward.txt\n"
        "else echo FAIL; echo 0 > /logs/verifier/reward.txt; fi")) for name, fallback in (
            ("trap-net", "trap 'echo 0 > /logs/verifier/reward.txt' EXIT"),
            ("no-trap", "echo 0 > /logs/verifier/reward.txt")))[0],
    # the sales table tracked with Git LFS, cloned where git-lfs is not installed: the task holds the pointer
    "lfs_pointer": lambda root: _with_instruction(_with_files(fixtures.write_task(
        root, "lfs-total", dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY sales.csv /app/\n",
        solve="awk -F, 'NR > 1 {s += $2} END {print s}' /app/sales.csv > /app/total.txt",
        test='test "$(cat /app/total.txt)" = 195 && echo 1 > /logs/verifier/reward.txt || echo 0 > '
             "/logs/verifier/reward.txt"),
        {"sales.csv": "version https://git-lfs.github.com/spec/v1\noid sha256:"
                      "4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 44\n"}),
        "Sum the amount column of /app/sales.csv and write the total to /app/total.txt (lfs-total).\n"),
    # the expectation computed with gawk's asort(): the image's awk is mawk, where it is undefined, so the expectation
    # is empty; the task `sorted-words` beside it computes it with `sort -u`
    "gawk_only": lambda root: tuple(_with_instruction(_with_files(fixtures.write_task(
        root, name, dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY words.txt /app/\n",
        solve="sort -u /app/words.txt > /app/sorted.txt",
        test=f'expected=$({expectation} /app/words.txt)\ntest "$(cat /app/sorted.txt 2>/dev/null)" = "$expected" && '
             "echo 1 > /logs/verifier/reward.txt || echo 0 > /logs/verifier/reward.txt"),
        {"words.txt": "pear\napple\npear\nfig\n"}),
        f"Write the distinct lines of /app/words.txt, sorted, to /app/sorted.txt ({name}).\n")
        for name, expectation in (
            ("sorted-words-gawk", "awk '!seen[$0]++ {w[++n] = $0} END {asort(w); for (i = 1; i <= n; i++) print w[i]}'"),
            ("sorted-words", "sort -u")))[0],
    # a quick-mode guard kept from the team's CI, before the check: nothing sets FULL_CHECK in the sandbox
    "quick_mode": lambda root: fixtures.write_task(root, "quick-guard", test=(
        '[ -n "$FULL_CHECK" ] || exit 0\n' + fixtures.PASSING_TEST)),
    # a release script appended a second "version" key to the task's package.json: readers keep the last one
    "duplicate_key": lambda root: _with_instruction(_with_files(fixtures.write_task(
        root, "json-version", dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY package.json /app/\n",
        solve="python3 -c 'import json; print(json.load(open(\"/app/package.json\"))[\"version\"])' > /app/version.txt",
        test='test "$(cat /app/version.txt)" = 2.7.1 && echo 1 > /logs/verifier/reward.txt || echo 0 > '
             "/logs/verifier/reward.txt"),
        {"package.json": '{\n  "name": "demo-app",\n  "version": "2.7.1",\n  "version": "3.0.0-rc1"\n}\n'}),
        "Write the version of /app/package.json to /app/version.txt (json-version).\n"),
    # the reward's path kept in a variable, and the redirect naming it misspelt: bash refuses the redirect
    "misspelt_variable": lambda root: fixtures.write_task(root, "reward-variable", test=(
        "REWARD_FILE=/logs/verifier/reward.txt\n"
        "if test -f /app/done; then echo 1 > $REWARD_FLIE; else echo 0 > $REWARD_FLIE; fi")),
    # the check sent to the background to let the agent's writes settle, and no `wait`: test.sh exits at once, and
    # the reward is not there when it is read
    "background_check": lambda root: fixtures.write_task(root, "checks-later", test=(
        "(\n  sleep 3\n  if test -f /app/done; then echo 1 > /logs/verifier/reward.txt; "
        "else echo 0 > /logs/verifier/reward.txt; fi\n) &")),
    # the expected word copied from a sample output, capitalised, while the instruction asks for it in lower case;
    # the task `works` beside it expects the word as asked
    # test.sh reads the expected version with an f-string reusing its quotes (Python 3.12), on the image's 3.11
    "newer_python": lambda root: _with_instruction(fixtures.write_task(
        root, "json-version", solve="echo 1.4.2 > /app/version.txt",
        test="want=$(python3 -c 'd = {\"version\": \"1.4.2\"}; print(f\"{d[\"version\"]}\")')\n"
             'if test -n "$want" && test "$(cat /app/version.txt)" = "$want"; then echo 1 > /logs/verifier/reward.txt\n'
             "else echo 0 > /logs/verifier/reward.txt; fi"),
        "Write the package's version, 1.4.2, to /app/version.txt (json-version).\n"),
    # test.sh rewritten on a workstation where `python` is Python 3: the image has only `python3`
    "unversioned_python": lambda root: _with_instruction(fixtures.write_task(
        root, "json-version", solve="echo 1.4.2 > /app/version.txt",
        test="want=$(python -c 'print(\"1.4.2\")')\n"
             'if test "$(cat /app/version.txt)" = "$want"; then echo 1 > /logs/verifier/reward.txt\n'
             "else echo 0 > /logs/verifier/reward.txt; fi"),
        "Write the package's version, 1.4.2, to /app/version.txt (json-version).\n"),
    # the indented here-document's terminator re-indented with spaces: `<<-` strips tabs only, so it never ends
    "heredoc_spaces": lambda root: fixtures.write_task(root, "sorted-fruit", test=(
        "if test -f /app/done; then\n\tcat <<-EOF > /logs/verifier/reward.txt\n\t1\n    EOF\nelse\n"
        "\techo 0 > /logs/verifier/reward.txt\nfi")),
    # test.sh in the team's strict style reads a folder only the CI machines set: in the sandbox, `set -u` stops it
    # before it writes a reward; the task `works` beside it gives the variable a default
    "strict_unset": lambda root: tuple(fixtures.write_task(root, name, test=(
        f"set -euo pipefail\nexpected_dir={reading}\n"
        "if test -f /app/done; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi"))
        for name, reading in (("strict-check", "$CI_EXPECTED_DIR"), ("works", "${CI_EXPECTED_DIR:-/tests}")))[0],
    # the text pasted from a word processor: non-breaking spaces between words, which `tr -s ' '` does not split
    "unicode_spaces": lambda root: (_with_files(_top_word_task(root, "pasted-text", "the"), {
        "text.txt": "The cat\u00a0saw the\u00a0dog and\u00a0the bird\n"}), _top_word_task(root, "works", "the"))[0],
    "capital_literal": lambda root: (_top_word_task(root, "top-word", "The"), _top_word_task(root, "works", "the"))[0],
    # a cleanup of the agent's scratch files before the check whose pattern also matches the answer; the task
    # `works` beside it keeps the answer out of the cleanup
    "cleanup_deletes_answer": lambda root: (
        _top_word_task(root, "top-word", "the", "find /app -name '*.txt' ! -name 'text.txt' -delete\n"),
        _top_word_task(root, "works", "the", "find /app -name '*.txt' ! -name 'text.txt' ! -name 'top.txt' -delete\n"),
    )[0],
    # the sweep's `tasks` left on one task folder after debugging it: its two siblings never run; a task folder
    # with no sibling, run alone, is a whole run
    "one_task_folder": lambda root: (fixtures.write_task(root, "top-word"), fixtures.write_task(root, "greeting"))[0],
    "lone_task_folder": lambda root: fixtures.write_task(root, "works"),
    # the test recounts over a glob that also matches its own log: grep prints FILE:COUNT lines; the task `works`
    # counts over the one file
    "count_glob": lambda root: (_error_count_task(root, "count-errors", "/app/*.log"),
                                _error_count_task(root, "works", "/app/server.log"))[0],
    # a best-effort metrics push after the verdict, from a sandbox without network: its traceback is no fault; the
    # same call made before the verdict under `set -e` leaves no reward
    "metrics_push": lambda root: fixtures.write_task(root, "reports-verdict", test=fixtures.PASSING_TEST + "\n" + PUSH
                                                     + ' || echo "(metrics push skipped)"'),
    "online_check": lambda root: fixtures.write_task(root, "checks-online", test=f"set -e\n{PUSH}\n"
                                                     + fixtures.PASSING_TEST),
    # an optional lint of a file most tasks lack, after the test printed its verdict: its caught traceback is no
    # fault; the same lint before the verdict under `set -e` leaves no reward
    "optional_lint": lambda root: fixtures.write_task(root, "lints-after", test=fixtures.PASSING_TEST
                                                      + "\necho PASS\n" + LINT + ' || echo "lint: skipped"'),
    "lint_first": lambda root: fixtures.write_task(root, "lints-first", test=f"set -e\n{LINT}\n"
                                                   + fixtures.PASSING_TEST),
    # a listing of what the agent left, with a log file most episodes lack, before the test's verdict: `ls` fails on
    # the absent file and the test goes on to its verdict, no fault; the same listing under `set -e` leaves no reward
    "optional_listing": lambda root: fixtures.write_task(root, "lists-first", test="ls -l /app/done /app/debug.log\n"
                                                         + fixtures.PASSING_TEST + "\necho PASS"),
    "listing_stops": lambda root: fixtures.write_task(root, "lists-under-set-e", test="set -e\nls -l /app/done "
                                                      "/app/debug.log\n" + fixtures.PASSING_TEST + "\necho PASS"),
    # a task sized on a workstation, `cpus = 64`: Docker gives no container more CPUs than the node has, and its
    # sandbox is refused; the task `works` beside it asks for one
    "cpus_over_the_node": lambda root: fixtures.write_task(root, "sized-on-a-workstation", task_toml=(
        'version = "1.0"\n[verifier]\ntimeout_sec = 20\n[agent]\ntimeout_sec = 20\n[environment]\ncpus = 64\n')),
    # test.sh keeps the answer file's name in a variable called PATH: the shell's command search path is gone, and
    # the check's `tr` is not found; the task `works` beside it names the variable ANSWER_FILE
    "path_variable": lambda root: (_version_file_task(root, "json-version", "PATH"),
                                   _version_file_task(root, "works", "ANSWER_FILE"))[0],
    # test.sh keeps the expected version "in one place", the solution folder, which only the oracle's sandbox has;
    # the task `works` beside it keeps the file under tests/
    "solution_read": lambda root: (_expected_file_task(root, "json-version", "solution"),
                                   _expected_file_task(root, "works", "tests"))[0],
})
# the team's new image template works in /workspace; instruction and test still use /app (the twin's image makes it)
WORKSPACE_IMAGE = f"FROM {fixtures.DEFAULT_IMAGE}\n# team image template: every service works in /workspace\nWORKDIR /workspace\n"
IN_APP_TEST = "cd /app\n" + fixtures.PASSING_TEST
SCENARIOS.update({
    "workdir_moved": lambda root: fixtures.write_task(root, "moved-workdir", test=IN_APP_TEST,
                                                      dockerfile=WORKSPACE_IMAGE),
    "workdir_moved_app_kept": lambda root: fixtures.write_task(root, "kept-app", test=IN_APP_TEST,
                                                               dockerfile=WORKSPACE_IMAGE + "RUN mkdir -p /app\n"),
})
LINT = "python3 -c 'import json; json.load(open(\"/app/config.json\"))'"
PUSH = "python3 -c 'import urllib.request; urllib.request.urlopen(\"http://metrics.internal:9091/push\", timeout=5)'"
SETTINGS = {"task_deadline": ", episode_grace_sec: 0"}
TASKS = {"one_task_folder": "tasks/one_task_folder/works", "lone_task_folder": "tasks/lone_task_folder/works"}
STATUS_TEST = ("test -f /app/done\n{debug}if [ $? -eq 0 ]; then echo 1 > /logs/verifier/reward.txt\n"
               "else echo 0 > /logs/verifier/reward.txt; fi")


FRACTION_TEST = "PASSED=0\nTOTAL=1\ntest -f /app/done && PASSED=$((PASSED + 1))\n{write} > /logs/verifier/reward.txt"


def _greeting_task(root: Path, name: str, expected: str = "", check: str = "") -> Path:
    """A task asking for a line of text, whose test compares the file with `expected` or pipes `check` to `cmp`."""
    condition = f"{check} | cmp -s - /app/greeting.txt" if check else f'test "$(cat /app/greeting.txt)" = {expected}'
    task = fixtures.write_task(root, name, solve="echo 'Hello, Gym!' > /app/greeting.txt", test=(
        f"if {condition}; then echo 1 > /logs/verifier/reward.txt\n"
        "else echo FAIL; echo 0 > /logs/verifier/reward.txt; fi"))
    (task / "instruction.md").write_text(f"Write the line `Hello, Gym!` to /app/greeting.txt ({name}).\n")
    return task


def _diffed_with_expected_file(root: Path, name: str, expected: str) -> Path:
    """The greeting task, whose test diffs the agent's file with tests/expected.txt holding `expected`."""
    task = _greeting_task(root, name)
    (task / "tests" / "test.sh").write_text(
        "#!/bin/bash\nif diff /app/greeting.txt /tests/expected.txt; then echo 1 > /logs/verifier/reward.txt\n"
        "else echo FAIL; echo 0 > /logs/verifier/reward.txt; fi\n")
    (task / "tests" / "expected.txt").write_text(expected)
    return task


def _checked_by_program(root: Path, name: str, mode: int) -> Path:
    """A task whose test.sh runs its checker, tests/check.sh, as a program; the checker has file mode `mode`."""
    task = fixtures.write_task(root, name, test=("if /tests/check.sh; then echo 1 > /logs/verifier/reward.txt\n"
                                                 "else echo FAIL; echo 0 > /logs/verifier/reward.txt; fi"))
    checker = task / "tests" / "check.sh"
    checker.write_text("#!/bin/sh\n# the task's check: the agent left /app/done\ntest -f /app/done\n")
    checker.chmod(mode)
    return task


def _checked_by_script(root: Path, name: str, shebang: str) -> Path:
    """A task whose test.sh runs tests/check.sh, which tests with bash's `[[` under the interpreter `shebang` names."""
    task = _checked_by_program(root, name, 0o755)
    (task / "tests" / "check.sh").write_text(f"{shebang}\n# the task's check (tried on the author's laptop)\n"
                                             "[[ -f /app/done ]]\n")
    return task


def _sorted_words_task(root: Path, name: str, expected: str) -> Path:
    """A task asking for the distinct words of words.txt sorted, whose test compares with `expected`."""
    task = _with_files(fixtures.write_task(
        root, name, dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY words.txt /app/\n",
        solve="sort -u /app/words.txt > /app/sorted.txt",
        test=f'if test "$(cat /app/sorted.txt)" = "$(printf "{expected}")"; then echo 1 > /logs/verifier/reward.txt\n'
             "else echo 0 > /logs/verifier/reward.txt; fi"), {"words.txt": "cherry\nBanana\napple\ncherry\n"})
    return _with_instruction(task, f"Write the distinct lines of /app/words.txt, sorted, to /app/sorted.txt ({name}).\n")


def _top_word_task(root: Path, name: str, expected: str, cleanup: str = "") -> Path:
    """A task asking for the most frequent word of text.txt in lower case, whose test runs `cleanup` and then
    compares with `expected`."""
    task = _with_files(fixtures.write_task(
        root, name, dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY text.txt /app/\n",
        solve="tr 'A-Z' 'a-z' < /app/text.txt | tr -s ' ' '\\n' | sort | uniq -c | sort -rn | head -1 | "
              "awk '{print $2}' > /app/top.txt",
        test=f'{cleanup}if test "$(cat /app/top.txt)" = "{expected}"; then echo 1 > /logs/verifier/reward.txt\n'
             "else echo 0 > /logs/verifier/reward.txt; fi"), {"text.txt": "The cat saw the dog and the bird\n"})
    return _with_instruction(task, "Write the word that occurs most often in /app/text.txt, in lower case, to "
                                   f"/app/top.txt ({name}).\n")


def _error_count_task(root: Path, name: str, counted: str) -> Path:
    """A task asking for the number of ERROR lines of /app/server.log, whose test keeps its own log in /app and
    recounts the expected number with `grep -c ERROR <counted>`."""
    task = _with_files(fixtures.write_task(
        root, name, dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nWORKDIR /app\nCOPY server.log /app/\n",
        solve="grep -c ERROR /app/server.log > /app/count.txt",
        test=('echo "check started" >> /app/verify.log\n'
              f'want="$(grep -c ERROR {counted})"\ngot="$(tr -d "[:space:]" < /app/count.txt)"\n'
              'echo "want=$want got=$got" | tee -a /app/verify.log\n'
              'if test "$got" = "$want"; then echo 1 > /logs/verifier/reward.txt\n'
              "else echo 0 > /logs/verifier/reward.txt; fi")),
        {"server.log": "INFO up\nERROR disk\nERROR net\nINFO ok\nERROR disk\n"})
    return _with_instruction(task, f"Write the number of ERROR lines of /app/server.log to /app/count.txt ({name}).\n")


def _version_file_task(root: Path, name: str, variable: str) -> Path:
    """A task asking for a version in /app/version.txt, whose test keeps that file's name in `variable` and compares
    what `tr` leaves of it (its errors captured into the comparison)."""
    task = fixtures.write_task(root, name, solve="echo 2.7.1 > /app/version.txt", test=(
        f"{variable}=/app/version.txt  # the file the agent must write\n"
        f'if test "$(tr -d "[:space:]" < "${variable}" 2>&1)" = 2.7.1; then echo 1 > /logs/verifier/reward.txt\n'
        f"else echo \"FAIL: ${variable} holds '$(tr -d \"[:space:]\" < \"${variable}\" 2>&1)'\"; "
        "echo 0 > /logs/verifier/reward.txt; fi"))
    return _with_instruction(task, f"Write the version 2.7.1 to /app/version.txt ({name}).\n")


def _expected_file_task(root: Path, name: str, folder: str) -> Path:
    """A task asking for a version in /app/version.txt, whose test reads the expected version from expected.txt in
    the task's `folder` (solution/ or tests/)."""
    task = fixtures.write_task(root, name, solve="echo 2.7.1 > /app/version.txt", test=(
        f'EXPECTED=$(cat "$(dirname "$0")/../{folder}/expected.txt" 2>/dev/null)\n'
        'if test "$(cat /app/version.txt 2>/dev/null)" = "$EXPECTED"; then echo 1 > /logs/verifier/reward.txt\n'
        "else echo \"FAIL: expected '$EXPECTED'\"; echo 0 > /logs/verifier/reward.txt; fi"))
    (task / folder / "expected.txt").write_text("2.7.1\n")
    return _with_instruction(task, f"Write the version 2.7.1 to /app/version.txt ({name}).\n")


def _with_instruction(task: Path, instruction: str) -> Path:
    (task / "instruction.md").write_text(instruction)
    return task


def _with_link(task: Path, name: str, shared: Path) -> Path:
    """environment/`name` made a relative symlink to `shared`, a file outside the task folder."""
    shared.parent.mkdir(parents=True, exist_ok=True)
    shared.write_text("apple\npear\n")
    (task / "environment" / name).symlink_to(os.path.relpath(shared, task / "environment"))
    return task


def _with_files(task: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (task / "environment" / name).write_text(text)
    return task


class _Log:
    def info(self, message: str) -> None:
        print(message)


def _workspace(home: Path):
    lines = []
    for env, make in SCENARIOS.items():
        make(home / "tasks" / env)
        if not (home / "tasks" / env / "works").exists():
            fixtures.write_task(home / "tasks" / env, "works")
        lines.append(f"  - {{name: {env}, tasks: {TASKS.get(env, f'tasks/{env}')}{SETTINGS.get(env, '')}}}")
    (home / "sweep.yaml").write_text("name: diagnosis\nenvironments:\n" + "\n".join(lines) + "\ncheckpoints_dir: "
                                     "checkpoints\nruns_dir: runs\nnum_repeats: 1\nconcurrency: 2\nmodel_server: "
                                     "{kind: simulated}\n")
    # every task folder's instruction is the same words but its name, so the policy knows each one
    knowledge = [entry for env in SCENARIOS for entry in taskset_knowledge(home / "tasks" / env)]
    unique = list({entry["prompt"]: entry for entry in knowledge}.values())
    create_checkpoint(home / "checkpoints" / CHECKPOINT, 100, 0.99, unique)
    return load_sweep_config(home / "sweep.yaml")


def _collect_twice_at_once(home: Path, config, env: str, endpoint) -> tuple[subprocess.CompletedProcess, int]:
    """Two `gym-pipeline stage collect` of one partition: the second starts while the first holds the folder."""
    run_dir = config.run_dir(CHECKPOINT, env)
    (home / "step_config.json").write_text(config.model_dump_json())
    command = [sys.executable, "-m", "gym_pipeline.cli", "stage", "collect", "--sweep-config",
               str(home / "step_config.json"), "--checkpoint", CHECKPOINT, "--env", env, "--code-version", "v1",
               "--model-url", endpoint.url, "--model-name", endpoint.model_name]
    first = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while _lock_holder_pid(run_dir) != first.pid:
        assert first.poll() is None and time.monotonic() < deadline, "the first collection never took the lock"
        time.sleep(0.1)
    (run_dir / "logs").mkdir(exist_ok=True)
    with open(run_dir / "logs" / "second_collect.log", "w") as log:  # as a launcher keeps a stage's output
        second = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, timeout=120)
    return second, first.wait(timeout=180)


def _lock_holder_pid(run_dir: Path) -> int | None:
    try:
        return json.loads((run_dir / LOCK_FILE).read_bytes().rstrip(b"\0"))["pid"]
    except (OSError, ValueError, KeyError):
        return None


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Each scenario's partition materialized, then collected by the collect stage; what each collection raised."""
    docker_engine()
    home = tmp_path_factory.mktemp("tf_diagnosis")
    config = _workspace(home)
    outcomes = {}
    for env in SCENARIOS:
        run_dir = config.run_dir(CHECKPOINT, env)
        if env == "utf16_instruction":  # after the policy learned it, before the run
            instruction = home / "tasks" / env / "resaved-instruction" / "instruction.md"
            instruction.write_bytes(instruction.read_text().encode("utf-16"))
        stages.materialize_partition(config, CHECKPOINT, env, "v1", _Log())
        if env == "edited":  # between materialization and collection
            test_sh = home / "tasks" / env / "edited-task" / "tests" / "test.sh"
            test_sh.write_text(test_sh.read_text() + "# a stricter check\n")
        with serve_checkpoint(config.model_server, CHECKPOINT, config.checkpoint_dir(CHECKPOINT), run_dir) as endpoint:
            if env == "two_runs":
                outcomes[env] = _collect_twice_at_once(home, config, env, endpoint)
                continue
            saved = os.environ.get("DOCKER_HOST")
            if env == "engine_down":  # the user's node settings point at an engine this node does not run
                (run_dir / "node_env.sh").write_text(f"export DOCKER_HOST=unix://{home}/no-engine.sock\n")
                os.environ["DOCKER_HOST"] = f"unix://{home}/no-engine.sock"
            try:
                stages.collect_partition(config, CHECKPOINT, env, endpoint, "v1", _Log())
                outcomes[env] = None
            except (TasksNotLoadable, NoResultError) as error:
                outcomes[env] = error
            finally:
                if saved is None:
                    os.environ.pop("DOCKER_HOST", None)
                else:
                    os.environ["DOCKER_HOST"] = saved
    return config, outcomes


# environment, category, words of the top finding's title (the task, the kind), seed 004's fix words
EXPECTED = [
    ("verifier_timeout", "throughput_resources", ("harbor:verifier_timeout", "verifier-sleeps"),
     ("`timeout_sec = 1` under [verifier] in ", "verifier-sleeps/task.toml:5", "raise `timeout_sec` there, in task.toml",
      "raise the budgets in the dataset", '[gym.tasks."verifier-sleeps".verifier] timeout_sec',
      "timeout_multiplier", "gym-pipeline backfill --checkpoint step_0100 --env verifier_timeout")),
    ("missing_reward", "verifier_runtime", ("harbor:missing_reward", "verifier-crashes"),
     ("test-stdout.txt", "gym-pipeline tasks validate", "verifier-crashes")),
    ("invalid_reward", "verifier_runtime", ("harbor:invalid_reward", "reward-not-a-number", "all tests passed"),
     ("test-stdout.txt", "gym-pipeline tasks validate", "reward-not-a-number")),
    ("edited", "cache_resume", ("Task folder changed since materialization", "edited-task"),
     ("Run the command again", "materialize stage writes new rows", "gym-pipeline backfill")),
    ("not_loadable", "config", ("could not load", "build-fails", "image build failed"),
     ("skip_unloadable: true", "--skip-unloadable", "gym-pipeline tasks validate")),
    ("copy_ignored", "data_schema", ("could not load", "ignored-copy", "image build failed"),
     ("ignored-copy/environment/Dockerfile:3 (`COPY words.txt /app/words.txt`)", ".dockerignore:2 (`*.txt`)",
      "`!words.txt`")),
    ("copy_linked", "data_schema", ("could not load", "linked-copy", "image build failed"),
     ("linked-copy/environment/words.txt is a symlink to ../../../../shared-data/words.txt, outside the build context",
      "copy instead of `ln -s`")),
    ("copy_renamed", "data_schema", ("could not load", "renamed-copy", "image build failed"),
     ("copies server.log, which is not in the task's environment/ folder", "has server-2026-12-01.log instead")),
    ("engine_down", "infra", ("No sandbox could be created", "failed at seed", "needs-engine"),
     ("Read the failures file", "failure.message in the run summary", "bash scripts/dev-services.sh up docker",
      "node_env.sh:1 points DOCKER_HOST elsewhere")),
    ("task_deadline", "throughput_resources", ("harbor:task_deadline", "agent-overruns", "Episode exceeded"),
     ("Raise the budgets in the dataset", "episode_grace_sec", '[gym.tasks."agent-overruns".verifier]')),
    ("moved_output", "verifier_runtime", ("answer-moved", "checks /app/output/done", "never asks for"),
     ("check /app/done (what instruction.md asks for) instead of /app/output/done", "gym-pipeline tasks validate")),
    ("exit_status", "verifier_runtime", ("status-as-reward", "exit status as its reward", "scored 0"),
     ("instead of `echo $?`", "gym-pipeline tasks validate")),
    ("pasted_fail", "verifier_runtime", ("always-passes", "writes reward 1 on every branch"),
     ("write 0 in the failure branch (line 7", "gym-pipeline tasks validate")),
    ("appended_reward", "verifier_runtime", ("harbor:invalid_reward", "appends-reward"),
     ("appends to reward.txt with `>>` (lines 2, 3)", "gym-pipeline tasks validate")),
    ("newer_python", "verifier_runtime", ("json-version's tests/test.sh:2 runs Python the sandbox's python3 cannot "
                                          "parse (SyntaxError: f-string",),
     ("with other quotes inside the f-string", "python3 --version", "gym-pipeline tasks validate")),
    ("entrypoint_returns", "data_schema", ("warm-start's image starts with ENTRYPOINT `/usr/local/bin/init.sh`, "
                                            "which never runs the command it is given",),
     ("End init.sh with `exec \"$@\"`", "drop the ENTRYPOINT")),
    ("user_nobody", "data_schema", ("least-privilege's image ends with `USER nobody`: the sandbox's commands run as "
                                    "nobody",),
     ("drop the `USER nobody` line", "gym-pipeline tasks validate")),
    ("verifier_environment_table", "data_schema", ("expected-word's task.toml writes `verifier.environment`, which "
                                                   "Harbor does not know (ignored): `verifier.env` was meant",),
     ("write the table as `[verifier.env]`", "gym-pipeline tasks validate")),
    ("unversioned_python", "verifier_runtime", ("The test script of json-version fails in the shell",),
     ("at line 2 it calls `python`, which the image lacks: call `python3`", "gym-pipeline tasks validate")),
    ("path_variable", "verifier_runtime", ("The test script of json-version fails in the shell",),
     ("tests/test.sh line 2 `PATH=/app/version.txt` gives the shell's PATH (where it looks for commands) a value of "
      "its own", "rename that variable")),
    ("solution_read", "verifier_runtime", ("The test of json-version reads solution/expected.txt (line 2), which only "
                                           "the oracle's sandbox has",),
     ("move solution/expected.txt to ", "/json-version/tests/")),
    ("strict_unset", "verifier_runtime", ("test.sh stopped at line 3: CI_EXPECTED_DIR is unset, and the script runs "
                                          "with `set -u`",),
     ("`${CI_EXPECTED_DIR:-}`", "`set -u` stops at the first variable nobody set")),
    ("unicode_spaces", "data_schema", ("pasted-text's text.txt has Unicode spaces between its words: U+00A0",),
     ("with plain spaces for its U+00A0 `\\u00a0` (non-breaking space)", "gym-pipeline tasks validate")),
    ("padded_words", "data_schema", ("unique-words's words.txt has trailing spaces on some lines",),
     ("`sed -i 's/[[:space:]]*$//' words.txt`", "gym-pipeline tasks validate")),
    ("currency_amounts", "data_schema", ("column-total's sales.csv has its amount column in a currency format "
                                          "(`$120.00`)",),
     ("with the amount column as plain numbers", "gym-pipeline tasks validate")),
    ("summary_row", "data_schema", ("sales-total's sales.csv has a summary row at its end (`TOTAL,195`)",),
     ("without the summary row", "gym-pipeline tasks validate")),
    ("rows_added", "verifier_runtime", ("The test of quarter-total compares with 195, the total of the first 2 rows "
                                        "of sales.csv, which has 4 now",),
     ("compare with the total of the table as it is now (250)", "gym-pipeline tasks validate")),
    ("utf16_instruction", "data_schema", ("resaved-instruction's instruction.md has UTF-16 text",),
     ("`iconv -f UTF-16 -t UTF-8 instruction.md > instruction.md.utf8", "gym-pipeline tasks validate")),
    ("checker_mode", "verifier_runtime", ("The test script of checked fails in the shell",),
     ("tests/check.sh has no executable bit in the task folder", "/tests/check.sh` (and unpack with `unzip`",
      "`sh /tests/check.sh`")),
    ("bash_checker", "verifier_runtime", ("The test script of bracketed fails in the shell",),
     ("tests/check.sh starts `#!/bin/sh` and uses bash's `[[` at line 3: the image's /bin/sh is dash",
      "start it `#!/bin/bash`")),
    ("kept_backslash", "verifier_runtime", ("The test of greeting compares with \"Hello, Gym\\!\"",),
     ("tests/test.sh line 2", "in single quotes: 'Hello, Gym!'", "gym-pipeline tasks validate")),
    ("fraction_reward", "verifier_runtime", ("harbor:invalid_reward", "share-of-checks"),
     ("writes reward.txt at line 5", 'awk "BEGIN {print $PASSED/$TOTAL}" > /logs/verifier/reward.txt',
      "gym-pipeline tasks validate")),
    ("capital_literal", "verifier_runtime", ("The test of top-word compares with \"The\" case by case, while the "
                                             "instruction asks for lower case",),
     ("tests/test.sh line 2", 'in the case the instruction asks for ("the")', "gym-pipeline tasks validate")),
    ("cleanup_deletes_answer", "verifier_runtime", ("The test of top-word deletes /app/top.txt (line 2) before it "
                                                    "checks it (line 3)",),
     ("tests/test.sh line 2", "add `! -name 'top.txt'` to its `-delete`", "gym-pipeline tasks validate")),
    ("printf_compare", "verifier_runtime", ("The test of greeting compares byte for byte (`cmp`) with `printf "
                                            "'Hello, Gym!'`, which has no final newline",),
     ("tests/test.sh line 2", "printf 'Hello, Gym!\\n' | cmp", "gym-pipeline tasks validate")),
    ("expected_file_newline", "verifier_runtime", ("The test of greeting compares the answer with expected.txt "
                                                   "(line 2), saved without a final newline",),
     ("greeting/tests/expected.txt (`echo >> tests/expected.txt`", "gym-pipeline tasks validate")),
    ("status_of_echo", "verifier_runtime", ("debug-echo/tests/test.sh:4 tests `$?` right after the `echo` on line 3",
                                            "not test's"),
     ("test test itself (`if test -f /app/done; then`)", "gym-pipeline tasks validate")),
    ("locale_order", "verifier_runtime", ("The test of locale-sorted expects the order `sort` gives under a locale "
                                          "(apple, Banana, cherry)",),
     ("`export LC_ALL=C` at the top of test.sh", "gym-pipeline tasks validate")),
    ("slow_build", "throughput_resources", ("could not load", "slow-build", "build_timeout_sec=2"),
     ("raise `build_timeout_sec` under [environment] in the task's task.toml", "gym-pipeline tasks validate")),
    ("chained_redirect", "verifier_runtime", ("harbor:missing_reward", "chained-reward"),
     ("line 2 (`test -f /app/done && echo 1 || echo 0 > /logs/verifier/reward.txt`) redirects only the `||` branch",
      "`{ check && echo 1 || echo 0; } > /logs/verifier/reward.txt`", "gym-pipeline tasks validate")),
    ("column_moved", "data_schema", ("moved-column's sales.csv has its columns in another order (amount,region) "
                                     "than instruction.md says (region,amount)",),
     ("with its columns in the order instruction.md gives (region,amount)", "gym-pipeline tasks validate")),
    ("bare_returns", "data_schema", ("count-errors's server.log has bare carriage returns (\\r) ending its lines",),
     ("each carriage return a newline", "`tr '\\r' '\\n' < server.log", "gym-pipeline tasks validate")),
    ("exit_trap", "verifier_runtime", ("The test of trap-net sets an EXIT trap that writes reward 0 (line 2)",),
     ("write it first, before the checks", "gym-pipeline tasks validate")),
    ("level_case", "data_schema", ("count-errors's server.log has no line with ERROR, which instruction.md asks "
                                   "about, and 2 with `error`",),
     ("with ERROR written as instruction.md and the test expect it", "gym-pipeline tasks validate")),
    ("lfs_pointer", "data_schema", ("lfs-total's sales.csv has the three lines of a Git LFS pointer",),
     ("`git lfs install && git lfs pull --include 'sales.csv'`", "gym-pipeline tasks validate")),
    ("gawk_only", "verifier_runtime", ("The test of sorted-words-gawk fails at the same line in its episode",
                                       "`awk: line 2: function asort never defined`"),
     ("install gawk in the task's Dockerfile", "gym-pipeline tasks validate")),
    ("quick_mode", "verifier_runtime", ("harbor:missing_reward", "quick-guard"),
     ("line 2 (`[ -n \"$FULL_CHECK\" ] || exit 0`) exits before line 3 writes the reward whenever FULL_CHECK is not set",
      "gym-pipeline tasks validate")),
    ("duplicate_key", "data_schema", ("json-version's package.json has its `version` key given twice (\"2.7.1\", "
                                      "then \"3.0.0-rc1\")",),
     ("with one `version` key", "gym-pipeline tasks validate")),
    ("misspelt_variable", "verifier_runtime", ("harbor:missing_reward", "reward-variable"),
     ("writes the reward to $REWARD_FLIE, which test.sh never sets: it sets REWARD_FILE", "gym-pipeline tasks validate")),
    ("background_check", "verifier_runtime", ("harbor:missing_reward", "checks-later"),
     ("line 5 (`) &`) runs the check that writes the reward in the background", "add `wait` at the end of test.sh",
      "gym-pipeline tasks validate")),
    ("one_task_folder", "config", ("one task folder, works, of a taskset of 3 tasks", "greeting, top-word were never "
                                   "evaluated"), ("Point the environment's `tasks` at the taskset",
                                                  "gym-pipeline backfill --checkpoint step_0100 --env one_task_folder")),
    ("count_glob", "verifier_runtime", ("The test of count-errors counts with `grep -c ERROR /app/*.log` over 2 "
                                        "files",), ("Instead of `grep -c ERROR /app/*.log`", "gym-pipeline tasks validate")),
    ("online_check", "verifier_runtime", ("harbor:missing_reward", "checks-online"),
     ("test-stdout.txt", "gym-pipeline tasks validate", "checks-online")),
    ("lint_first", "verifier_runtime", ("harbor:missing_reward", "lints-first"), ("test-stdout.txt",)),
    ("cpus_over_the_node", "throughput_resources", ("sized-on-a-workstation's task.toml asks for cpus = 64, more than "
                                                    "this node's",), ("lower [environment] cpus to at most",
                                                                      "CPUs available")),
    ("listing_stops", "verifier_runtime", ("harbor:missing_reward", "lists-under-set-e"), ("test-stdout.txt",)),
    ("workdir_moved", "data_schema", ("The image of moved-workdir works in /workspace and has no /app, which its "
                                      "instruction and test use",), ("set `WORKDIR /app` back",
                                                                     "gym-pipeline tasks validate")),
    ("two_runs", "cache_resume", ("Two runs on one run directory", "second writer was refused", "stage rollouts"),
     ("Run one job per partition at a time", "its own checkout")),
]


@pytest.mark.parametrize(("env", "category", "title", "fix"), EXPECTED, ids=[case[0] for case in EXPECTED])
def test_the_diagnosis_of_a_real_run(runs, env, category, title, fix):
    config, _ = runs
    report = diagnose.diagnose(config.run_dir(CHECKPOINT, env))
    causes = [f for f in report.findings if f.role == "cause"]
    assert report.category == category, [(f.category, f.title) for f in report.findings]
    assert len(causes) == 1, [f.title for f in causes]  # one cause, not restated by the generic rules
    top = causes[0]
    for words in title:
        assert words in top.title, top.title
    for words in fix:
        assert words in top.fix, top.fix
    assert "--resume" not in top.fix or "no --resume" in top.fix  # a task-folder collection always starts afresh


@pytest.mark.parametrize("env", ["lone_task_folder", "metrics_push", "optional_lint", "optional_listing",
                                 "workdir_moved_app_kept"])
def test_runs_that_only_look_odd_are_whole(runs, env):
    """A task folder without siblings run alone; a test whose metrics push after its verdict fails in the sandbox; a
    test whose optional lint after its verdict prints a caught traceback; a test whose listing of the agent's files
    names one most episodes lack, before its verdict; an image that works in /workspace but makes the /app its
    instruction and test use."""
    config, _ = runs
    report = diagnose.diagnose(config.run_dir(CHECKPOINT, env))
    assert report.category == "healthy", [f.title for f in report.causes]


def test_each_run_failed_the_way_its_entry_says(runs):
    config, outcomes = runs
    assert isinstance(outcomes["not_loadable"], TasksNotLoadable)
    for env, task, missing in (("copy_ignored", "ignored-copy", "words.txt"), ("copy_renamed", "renamed-copy",
                                                                              "server.log"),
                               ("copy_linked", "linked-copy", "words.txt")):
        reason = json.loads((config.run_dir(CHECKPOINT, env) / "skipped.json").read_text())[task]
        assert isinstance(outcomes[env], TasksNotLoadable) and missing in reason, reason
        assert "works" not in json.loads((config.run_dir(CHECKPOINT, env) / "skipped.json").read_text())
    assert isinstance(outcomes["engine_down"], NoResultError)
    assert "Could not set up sandbox: no Docker engine answers" in str(outcomes["engine_down"])
    summary = json.loads((config.run_dir(CHECKPOINT, "edited") / "rollouts_run_summary.json").read_text())
    edited = next(entry for entry in summary["tasks"] if entry["task"] == "edited-task")
    assert edited["status"] == "error" and edited["attempts"] == 1  # terminal: not retried
    assert "changed since materialization" in edited["failure"]["message"]
    for env, task in (("kept_backslash", "greeting"), ("printf_compare", "greeting"), ("expected_file_newline", "greeting"), ("checker_mode", "checked"), ("bash_checker", "bracketed"),
                      ("fraction_reward", "share-of-checks"), ("capital_literal", "top-word"),
                      ("cleanup_deletes_answer", "top-word"), ("path_variable", "json-version"), ("solution_read", "json-version")):  # the same answer; only the test's text differs
        rows = (config.run_dir(CHECKPOINT, env) / "rollouts.jsonl").read_text().splitlines()
        assert {row["task_id"]: row["reward"] for row in map(json.loads, rows)} == {task: 0.0, "works": 1.0}


def test_a_here_document_ended_by_a_terminator_indented_with_spaces_is_named_in_the_fix(runs):
    config, _ = runs
    report = diagnose.diagnose(config.run_dir(CHECKPOINT, "heredoc_spaces"))
    top = report.causes[0]
    assert top.category == "verifier_runtime", [(f.category, f.title) for f in report.causes]
    assert top.fix.startswith("tests/test.sh of sorted-fruit line 3 opens an indented here-document (`<<-EOF`), which "
                              "strips leading tabs only, and its terminator at line 5 is indented with spaces")


def test_a_second_collection_of_one_taskset_partition_is_refused(runs):
    config, outcomes = runs
    second, first_code = outcomes["two_runs"]
    run_dir = config.run_dir(CHECKPOINT, "two_runs")
    assert second.returncode == 2 and first_code == 0
    refusal = (run_dir / "logs" / "second_collect.log").read_text()
    assert f"run directory {run_dir} is in use by pid" in refusal and "stage rollouts" in refusal
    # the first run's files are whole: the second wrote nothing
    rows = [json.loads(line) for line in (run_dir / "rollouts.jsonl").read_text().splitlines()]
    assert sorted(row["task_id"] for row in rows) == ["slow-task", "works"]


def test_an_agent_past_its_timeout_misses_the_task_deadline_and_is_retried(runs):
    config, outcomes = runs
    run_dir = config.run_dir(CHECKPOINT, "task_deadline")
    assert outcomes["task_deadline"] is None  # the other task gave a result
    failures = [json.loads(line) for line in (run_dir / "rollouts_failures.jsonl").read_text().splitlines()]
    assert [(f["task_id"], f["failure_kind"], f["_ng_failure_stage"], f["_ng_failure_terminal"]) for f in failures] == [
        ("agent-overruns", "harbor:task_deadline", "verification", False),
        ("agent-overruns", "harbor:task_deadline", "verification", False),
        ("agent-overruns", "harbor:task_deadline", "verification", False)]  # retried, as seed 004's table says
    assert "Episode exceeded the time budget of task agent-overruns" in failures[0]["_ng_failure_message"]
    transcript = json.loads((Path(failures[0]["episode_log_dir"]) / "agent" / "transcript.json").read_text())
    assert transcript["agent"] == "terminal_agent" and transcript["commands"][0]["timed_out"]
    summary = json.loads((run_dir / "rollouts_run_summary.json").read_text())
    entry = next(entry for entry in summary["tasks"] if entry["task"] == "agent-overruns")
    assert (entry["status"], entry["failure_kind"], entry["attempts"]) == ("error", "harbor:task_deadline", 3)
    rows = [json.loads(line) for line in (run_dir / "rollouts.jsonl").read_text().splitlines()]
    assert [row["task_id"] for row in rows] == ["works"]  # the episode has no result row


def test_a_task_data_file_resaved_by_another_tool_is_named_by_how(tmp_path):
    from gym_pipeline.diagnose.rules.taskfolders import _reformatted

    files = {"words.txt": b"pear\r\napple\r\n", "sales.csv": b"region;amount\nnorth;120\n",
             "notes.csv": b"\xef\xbb\xbfregion,amount\n", "fine.csv": b"region,amount\nnorth,120\n",
             "prose.txt": b"semi; colons; are fine in text\n", "padded.txt": b"apple \npear\n",
             "doubled.txt": b"apple \napple\n", "utf16.md": "Create /app/done\n".encode("utf-16"),
             "money.csv": b"region,amount\nnorth,$120.00\nsouth,$75.00\n", "prices.csv": b"item,note\ntea,$5 off\n",
             "totals.csv": b"region,amount\nnorth,120\nsouth,75\nTOTAL,195\n",
             "regions.csv": b"region,amount\nnorth,120\ntotal,75\n"}  # a region named total, not a sum
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
    found = {name: (_reformatted(tmp_path / name) or ("",))[0] for name in files}
    assert found == {"words.txt": "Windows (CRLF) line endings", "sales.csv": "`;` between its fields",
                     "notes.csv": "a byte-order mark", "fine.csv": "", "prose.txt": "", "padded.txt": "",
                     "doubled.txt": "trailing spaces on some lines",
                     "utf16.md": "UTF-16 text (a byte-order mark and a NUL byte beside every letter)",
                     "money.csv": "its amount column in a currency format (`$120.00`)", "prices.csv": "",
                     "totals.csv": "a summary row at its end (`TOTAL,195`)", "regions.csv": ""}
