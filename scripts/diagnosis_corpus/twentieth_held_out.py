"""Build the TWENTIETH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/twentieth_held_out.py --out tests/data/diagnosis_corpus/twentieth_held_out [--only CASE ...]

Measured once on 2026-12-03 (top-1 41 %, see benchmarks/README.md), then tuned on by kind (21 of 22; the miss left
is in known_misses.json). The next held-out set (`held_out.py`) is still to be written.

This is the twentieth held-out set, written from the guides alone (the NeMo Gym debugging guide, the reward
profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It is meant to be measured once, by someone else, to see
how well `gym-pipeline diagnose` names root causes on failures its rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`: bounded queues, latency), the built-in engine (`gym-pipeline materialize`, `collect`,
`profile`, `stage`), workspace verifiers (`verifier: "MODULE:FUNCTION"`), task folders run in Docker sandboxes, the
real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval profile` inside a loopback-only network namespace,
with a user's own resources server and scripts), real node state (a stale PYTHONPATH holding an old vendored
package, an LD_LIBRARY_PATH reaching a truncated shared library, a stale LD_PRELOAD), and real bad command lines,
scripts, Makefiles, config, data, verifier files and task folders. The output of every command is captured as a user
would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs. Each case
injects one cause, different from those of the nineteen earlier sets or reached by another path, and each recipe
checks that its fault really happened (it raises RecipeError otherwise, and the case is not written).

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class of
the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; the helpers shared with the earlier sets are imported from eighth_held_out.py,
ninth_held_out.py, tenth_held_out.py, fourteenth_held_out.py, seventeenth_held_out.py and eighteenth_held_out.py,
and only this set's own are defined here. Needs root (unshare), Docker, NeMo Gym 0.7.0, and
PYTHONPATH set to this checkout. Run it from a foreground shell (SIGINT and SIGHUP at their defaults).
"""

from __future__ import annotations

import json
import shlex
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighteenth_held_out import task_rewards  # noqa: E402
from eighth_held_out import (  # noqa: E402
    agent_args,
    builtin_setup,
    checkpoints,
    collect_sh,
    failed,
    gym_profile,
    gym_setup,
    gym_start,
    profile_sh,
    served,
    stage,
    stop_gym,
    task_checkpoints,
    user_taskset,
    write_sweep,
)
from fourteenth_held_out import mean, rewards  # noqa: E402
from ninth_held_out import own_gym_server, taskset_stages, taskset_sweep, verifier_sweep  # noqa: E402
from recipes import (  # noqa: E402
    GP,
    GYM,
    Ctx,
    case,
    collect_argv,
    gym_eval,
    gym_model_args,
    main,
    materialize,
    rewrite_rows,
    rows_of,
    text_of,
    unique_keys,
    wait_for,
)
from seventeenth_held_out import failure_kinds, taskset_run  # noqa: E402
from tenth_held_out import gym_eval_bounded, in_log  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def served_by_script(ctx: Ctx, script: Path, log: str = "logs/model_server.log") -> str:
    """Start the user's model-server script RUN/... (it passes --ready-file WORK/model_url); the URL it serves."""
    ready = ctx.work / "model_url"
    ready.unlink(missing_ok=True)
    ctx.bg(f"bash {script}", log)
    wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "the model server")
    return ready.read_text().strip()


def builtin_rows(ctx: Ctx, n: int, start: int, name: str = "string_match.jsonl") -> tuple[Path, list[Path]]:
    """A user's string_match dataset in RUN and the two simulated checkpoints knowing it."""
    data = ctx.dataset("string_match", n, start=start, folder=ctx.run, name=name)
    return data, checkpoints(ctx, "string_match", data)


# =====================================================================================================
# the built-in engine, the stages and the launchers
# =====================================================================================================


@case(
    "healthy_builtin_collect_timed_with_usr_bin_time_verbose",
    "healthy",
    [],
    "nothing is wrong: the user wrapped `gym-pipeline collect` in `/usr/bin/time -v` to see its memory use, so the "
    "log ends with a long resource table (page faults, context switches, 'Exit status: 0'); every rollout was "
    "collected and profiled",
)
def healthy_builtin_collect_timed_with_usr_bin_time_verbose(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 6, 20, 3, "--latency-ms 20", in_run=True)
    collected = ctx.sh("/usr/bin/time -v " + shlex.join(collect_argv(run, url, "string_match", 4)), "logs/collect.log",
                       timeout=300)
    profiled = profile_sh(ctx)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if collected or profiled or got != 18 or not in_log(ctx, "Maximum resident set size", "logs/collect.log"):
        raise failed(ctx, f"collect {collected}, profile {profiled}, {got}")
    return (f"materialize (6 tasks x 3); `/usr/bin/time -v gym-pipeline collect` exit {collected}, {got} rollouts; "
            f"profile exit {profiled}.")


@case(
    "healthy_builtin_collect_with_stale_ld_preload_warnings",
    "healthy",
    [],
    "nothing is wrong: the user's shell still exports LD_PRELOAD for a profiler library that was uninstalled, so "
    "every program started prints \"ERROR: ld.so: object ... from LD_PRELOAD cannot be preloaded ...: ignored\"; the "
    "loader ignores it, and materialize, collect and profile completed every rollout",
)
def healthy_builtin_collect_with_stale_ld_preload_warnings(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 6, 26)
    url, policy = ctx.policy(better, "--latency-ms 20")
    (run / "profiler_env.sh").write_text("# perf tooling (added for the tokenizer benchmark in September)\n"
                                         "export LD_PRELOAD=/opt/perftools/lib/libtcmalloc_and_profiler.so.4\n"
                                         "export CPUPROFILE_FREQUENCY=100\n")
    wrap = f"source {run}/profiler_env.sh"
    made = ctx.sh(f"( {wrap}; {GP} materialize --input {data} --num-repeats 3 --agent string_match_simple_agent "
                  f"--output {run}/rollouts_materialized_inputs.jsonl )", "logs/materialize.log")
    collected = collect_sh(ctx, url, "string_match", 4, wrap=wrap)
    profiled = profile_sh(ctx, wrap=wrap)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if made or collected or profiled or got != 18 or not in_log(ctx, "cannot be preloaded", "logs/collect.log"):
        raise failed(ctx, f"materialize {made}, collect {collected}, profile {profiled}, {got}")
    return (f"RUN/profiler_env.sh (LD_PRELOAD of a missing library) sourced before materialize (6 tasks x 3, exit "
            f"{made}), collect (exit {collected}, {got} rollouts) and profile (exit {profiled}).")


OLD_PYDANTIC = '''"""pydantic 1.10.13, vendored for the old labelling tool (pip install --target ~/lib/python)."""
VERSION = "1.10.13"
compiled = False


class BaseModel:
    class Config:
        extra = "ignore"


def Field(default=None, **kwargs):
    return default


class ValidationError(ValueError):
    pass
'''


@case(
    "infra_builtin_pythonpath_reaches_old_vendored_pydantic",
    "infra",
    ["PYTHONPATH"],
    "the user's setup_env.sh, sourced before every job, prepends ~/lib/python to PYTHONPATH; that folder holds pydantic "
    "1.10 installed there with `pip install --target` for an old labelling tool, and it shadows the venv's pydantic 2: "
    "gym-pipeline collect died at import ('cannot import name ... from pydantic') and no rollout was collected",
)
def infra_builtin_pythonpath_reaches_old_vendored_pydantic(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 5, 32, 2, "--latency-ms 20", in_run=True)
    lib = ctx.work / "home" / "lib" / "python"
    (lib / "pydantic").mkdir(parents=True)
    (lib / "pydantic" / "__init__.py").write_text(OLD_PYDANTIC)
    (lib / "pydantic-1.10.13.dist-info").mkdir()
    (lib / "pydantic-1.10.13.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: pydantic\n"
                                                                 "Version: 1.10.13\n")
    (run / "setup_env.sh").write_text("# sourced by every job script\n# our own tools (pip install --target)\n"
                                      f"export PYTHONPATH={lib}:$PYTHONPATH\nexport OMP_NUM_THREADS=1\n")
    collected = collect_sh(ctx, url, "string_match", 4, wrap=f"source {run}/setup_env.sh")
    rows = rows_of(run / "rollouts.jsonl")
    if collected == 0 or rows or not in_log(ctx, "pydantic", "logs/collect.log"):
        raise failed(ctx, f"collect {collected}, {len(rows)}")
    return (f"materialize (5 tasks x 2); RUN/setup_env.sh (PYTHONPATH starting with a folder holding pydantic 1.10) "
            f"sourced, then `gym-pipeline collect` exit {collected}, {len(rows)} rollouts.")


@case(
    "infra_builtin_ld_library_path_reaches_truncated_libpython",
    "infra",
    ["LD_LIBRARY_PATH"],
    "the user's modules.sh (sourced before the jobs) adds the lib folder of a Python module build to LD_LIBRARY_PATH; "
    "the module's libpython3.11.so.1.0 was cut short by an interrupted copy, and the dynamic loader finds it before "
    "the right one: every Python program of the job (gym-pipeline profile) failed to start ('file too short')",
)
def infra_builtin_ld_library_path_reaches_truncated_libpython(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 5, 40, 2, "--latency-ms 20", in_run=True)
    collected = collect_sh(ctx, url, "string_match", 4)
    module = ctx.work / "sw" / "python" / "3.11.7-gcc12" / "lib"
    module.mkdir(parents=True)
    (module / "libpython3.11.so.1.0").write_bytes(b"\x7fELF\x02\x01\x01" + b"\x00" * 41)
    (run / "modules.sh").write_text("# module load python/3.11.7-gcc12 (team build on /sw)\n"
                                    f"export LD_LIBRARY_PATH={module}:$LD_LIBRARY_PATH\n"
                                    f"export PATH={module.parent}/bin:$PATH\n")
    profiled = profile_sh(ctx, wrap=f"source {run}/modules.sh")
    if collected or profiled == 0 or not in_log(ctx, "libpython3.11.so.1.0", "logs/profile.log"):
        raise failed(ctx, f"collect {collected}, profile {profiled}")
    return (f"materialize (5 tasks x 2), collect exit {collected}; RUN/modules.sh (LD_LIBRARY_PATH first on a folder "
            f"with a truncated libpython3.11.so.1.0) sourced, then `gym-pipeline profile` exit {profiled}.")


@case(
    "config_builtin_model_url_taken_from_stale_exported_variable",
    "config",
    ["MODEL_URL"],
    "the user's collect.sh takes the model server from ${MODEL_URL:-...}, its default being the new step_0200 server; "
    "the shell still exported MODEL_URL from Monday's debugging session, the address of the step_0100 server that "
    "was left running, so every rollout was generated by the previous checkpoint and the report scores the wrong "
    "model (everything exits 0)",
)
def config_builtin_model_url_taken_from_stale_exported_variable(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 44)
    old_url, _ = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_step_0100.log")
    new_url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    materialize(ctx, data, 3, "string_match")
    (run / "debug_env.sh").write_text("# Monday: debugging the step_0100 server (sourced from ~/.bashrc)\n"
                                      f"export MODEL_URL={old_url}\nexport GYM_PIPELINE_LOG_LEVEL=INFO\n")
    argv = collect_argv(run, "$MODEL_URL", "string_match", 4)
    (run / "collect.sh").write_text("#!/bin/bash\n# collect step_0200 (served since this morning)\n"
                                    f"MODEL_URL=${{MODEL_URL:-{new_url}}}\necho \"model server: $MODEL_URL\"\n"
                                    + " ".join(argv) + "\n")
    collected = ctx.sh(f"source {run}/debug_env.sh; bash {run}/collect.sh", "logs/collect.log", timeout=300)
    profiled = profile_sh(ctx)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if collected or got != 24 or old_url not in text_of(run / "logs" / "collect.log"):
        raise failed(ctx, f"collect {collected}, {got}")
    return (f"two model servers: step_0100 ({old_url}, left running) and step_0200 ({new_url}); materialize (8 tasks "
            f"x 3); RUN/debug_env.sh (MODEL_URL of the step_0100 server) sourced, then RUN/collect.sh "
            f"(${{MODEL_URL:-step_0200's URL}}) exit {collected}, {got} rollouts, mean reward "
            f"{mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}; profile exit {profiled}.")


@case(
    "config_stage_sweep_yaml_num_repeats_given_twice_last_wins",
    "config",
    ["num_repeats"],
    "the user's sweep.yaml sets num_repeats: 8 at the top, but a `num_repeats: 1` line added at the bottom for a smoke "
    "test was never removed; YAML keeps the last of two equal keys without a word, so the nightly sweep ran one "
    "repeat per task and its per-task statistics rest on a single rollout each (everything exits 0)",
)
def config_stage_sweep_yaml_num_repeats_given_twice_last_wins(ctx: Ctx) -> str:
    import yaml

    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 6, 52)
    url, policy = ctx.policy(better, "--latency-ms 10")
    sweep = write_sweep(ctx, "string_match", data, better, num_repeats=8, concurrency=6)
    text = yaml.safe_dump(json.loads(sweep.read_text()), sort_keys=False)
    sweep.unlink()
    sweep = run / "sweep.yaml"
    sweep.write_text("# nightly sweep: eight repeats per task for pass@k\n" + text
                     + "# smoke test of the new verifier, one repeat (Tuesday)\nnum_repeats: 1\n")
    codes = [stage(ctx, sweep, "materialize", better, "string_match"),
             stage(ctx, sweep, "collect", better, "string_match", *served(url)),
             stage(ctx, sweep, "profile", better, "string_match")]
    inputs = rows_of(run / "rollouts_materialized_inputs.jsonl")
    if any(codes) or len(inputs) != 6:
        raise failed(ctx, f"exit {codes}, {len(inputs)} inputs")
    return (f"RUN/sweep.yaml (num_repeats: 8 at the top, num_repeats: 1 at the bottom); stages materialize, collect, "
            f"profile exit {codes}; {len(inputs)} materialized inputs for 6 tasks.")


@case(
    "data_schema_builtin_multiword_labels_with_html_nbsp_entities",
    "data_schema",
    ["expected_answer"],
    "the labels were scraped from the team's HTML answer sheet: every expected_answer of more than one word has its "
    "spaces as the entity '&nbsp;' ('Ludwig&nbsp;van&nbsp;Beethoven'), which no answer matches, so correct answers "
    "on those tasks score 0 (everything exits 0)",
)
def data_schema_builtin_multiword_labels_with_html_nbsp_entities(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 20, 0)
    multiword = set()

    def entities(i, row):
        if " " in row["expected_answer"]:
            multiword.add(i)
            row["expected_answer"] = row["expected_answer"].replace(" ", "&nbsp;")
            return True
        return False

    changed = rewrite_rows(data, entities)
    url, policy = ctx.policy(better, "--latency-ms 20")
    materialize(ctx, data, 2, "string_match")
    collected = collect_sh(ctx, url, "string_match", 4, timeout=300)
    profiled = profile_sh(ctx)
    rows = rows_of(run / "rollouts.jsonl")
    hit = [row for row in rows if row.get("_ng_task_index") in multiword]
    if changed < 3 or not hit or any(rewards(hit)) or collected:
        raise failed(ctx, f"{changed} changed; collect {collected}, {len(rows)} rows, rewards {rewards(hit)}")
    return (f"RUN/string_match.jsonl (20 rows, {changed} labels with '&nbsp;' for spaces); materialize (x 2), collect "
            f"exit {collected}, profile exit {profiled}; mean reward {mean(rewards(rows)):.2f}.")


@case(
    "data_schema_builtin_numeric_labels_with_thousands_separators",
    "data_schema",
    ["expected_answer"],
    "the labels went through a spreadsheet whose number format adds thousands separators: every numeric "
    "expected_answer of four digits or more was exported as '5,040' rather than '5040', which the model's answers "
    "never match, so correct answers on those tasks score 0 (everything exits 0)",
)
def data_schema_builtin_numeric_labels_with_thousands_separators(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 10, 33)
    grouped = set()

    def separators(i, row):
        label = row["expected_answer"]
        if label.isdigit() and len(label) >= 4:
            grouped.add(i)
            row["expected_answer"] = f"{int(label):,}"
            return True
        return False

    changed = rewrite_rows(data, separators)
    url, policy = ctx.policy(better, "--latency-ms 20")
    materialize(ctx, data, 3, "string_match")
    collected = collect_sh(ctx, url, "string_match", 4, timeout=300)
    profiled = profile_sh(ctx)
    rows = rows_of(run / "rollouts.jsonl")
    hit = [row for row in rows if row.get("_ng_task_index") in grouped]
    if changed < 3 or not hit or any(rewards(hit)) or collected:
        raise failed(ctx, f"{changed} changed; collect {collected}, {len(rows)} rows, rewards {rewards(hit)}")
    return (f"RUN/string_match.jsonl (10 rows, {changed} numeric labels with thousands separators); materialize (x 3), "
            f"collect exit {collected}, profile exit {profiled}; mean reward {mean(rewards(rows)):.2f}.")


OVERLAP_VERIFIER = '''
"""Our answer verifier: partial credit for the words of the expected answer that the final answer names."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip().rstrip(".").lower().split() if match else []
    expected = str(row["expected_answer"]).lower().split()
    # credit for each expected word found (e.g. "Beethoven" alone for "Ludwig van Beethoven")
    return float(sum(word in answer for word in expected))
'''


@case(
    "verifier_runtime_stage_workspace_verifier_word_overlap_not_normalised",
    "verifier_runtime",
    ["score"],
    "the user's workspace verifier gives partial credit by counting the words of the expected answer found in the "
    "final answer, but never divides by the number of words: a correct answer of three words scores 3.0, so rewards "
    "go above 1 and the report's means are inflated (everything exits 0)",
)
def verifier_runtime_stage_workspace_verifier_word_overlap_not_normalised(ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, OVERLAP_VERIFIER, 49, n=6, repeats=4)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "exact_answer")]
    got = rewards(rows_of(run / "rollouts.jsonl"))
    if any(codes) or not got or max(got) <= 1:
        raise failed(ctx, f"exit {codes}, rewards {got}")
    return (f"workspace verifier verifiers/my_verifier.py (count of expected words found, not divided); stages exit "
            f"{codes}; rewards {sorted(set(got))}, mean {mean(got):.2f}.")


MOVED_TABLE_VERIFIER = '''
"""Our answer verifier: accepts the aliases of an answer listed in aliases.json (e.g. "Au" for "gold")."""
import json
import re
from pathlib import Path

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)
_ALIASES = None


def aliases():
    global _ALIASES
    if _ALIASES is None:
        with open(Path(__file__).with_name("aliases.json")) as table:
            _ALIASES = {key.lower(): [v.lower() for v in values] for key, values in json.load(table).items()}
    return _ALIASES


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip().rstrip(".").lower() if match else ""
    expected = str(row["expected_answer"]).lower()
    accepted = [expected, *aliases().get(expected, [])]
    return 1.0 if answer in accepted else 0.0
'''


@case(
    "verifier_runtime_stage_workspace_verifier_alias_table_moved_to_subfolder",
    "verifier_runtime",
    ["aliases.json"],
    "the user's workspace verifier reads aliases.json beside itself (Path(__file__).with_name) on its first call; a "
    "tidy-up moved the table to verifiers/tables/aliases.json, so every call raised FileNotFoundError and no rollout "
    "was scored",
)
def verifier_runtime_stage_workspace_verifier_alias_table_moved_to_subfolder(ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, MOVED_TABLE_VERIFIER, 6, n=6)
    (run / "verifiers" / "tables").mkdir()
    (run / "verifiers" / "tables" / "aliases.json").write_text(json.dumps(
        {"Au": ["gold"], "Hydrogen": ["H"], "Mercury": ["Hg"], "Ohm": ["Ω"]}, indent=2) + "\n")
    (run / "verifiers" / "tables" / "README.md").write_text("Lookup tables of the verifiers (moved here from "
                                                            "verifiers/ to keep that folder to code).\n")
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "exact_answer")]
    ctx.sh(f"ls -R {run}/verifiers", "logs/ls_verifiers.log")
    rows = rows_of(run / "rollouts.jsonl")
    if not in_log(ctx, "aliases.json") or any(rewards(rows)):
        raise failed(ctx, f"exit {codes}, {len(rows)} rows, rewards {rewards(rows)}")
    return (f"workspace verifier verifiers/my_verifier.py (reads aliases.json beside itself; the table is in "
            f"verifiers/tables/); stages exit {codes}; {len(rows)} rows.")


@case(
    "throughput_builtin_shards_collected_at_once_with_xargs",
    "throughput_resources",
    [],
    "the user's collect_shards.sh runs one `gym-pipeline collect` per shard through `xargs -P 4`, each at concurrency "
    "8: 32 requests at once against a model server that generates 2 at a time with 4 waiting, so the overflow was "
    "answered 429 overloaded and many rollouts were given up",
)
def throughput_builtin_shards_collected_at_once_with_xargs(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 12, 58)
    url, policy = ctx.policy(better, "--latency-ms 400 --max-running 2 --max-waiting 4")
    script = run / "collect_shards.sh"
    script.write_text(
        "#!/bin/bash\n# split the dataset in 4 shards and collect them side by side\n"
        f"cd {run}\nmkdir -p shards\nsplit -n l/4 -d --additional-suffix=.jsonl string_match.jsonl shards/part_\n"
        "ls shards/part_*.jsonl | xargs -P 4 -I{} bash -c '"
        "out=${1%.jsonl}; mkdir -p $out; "
        f"{GP} materialize --input $1 --num-repeats 3 --agent string_match_simple_agent "
        "--output $out/rollouts_materialized_inputs.jsonl && "
        f"{GP} collect --inputs $out/rollouts_materialized_inputs.jsonl --output $out/rollouts.jsonl "
        f"--model-url {url} --env string_match --concurrency 8 2>&1 | sed \"s|^|[$out] |\"' _ {{}}\n"
        "cat shards/part_*/rollouts.jsonl > rollouts.jsonl\n"
        "cat shards/part_*/rollouts_materialized_inputs.jsonl > rollouts_materialized_inputs.jsonl\n")
    collected = ctx.sh(f"bash {script}", "logs/collect_shards.log", timeout=500)
    profiled = profile_sh(ctx)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 36 or not in_log(ctx, "429"):
        raise failed(ctx, f"collect {collected}, {got}")
    return (f"model server --max-running 2 --max-waiting 4; RUN/collect_shards.sh (4 shards of 3 tasks x 3, xargs -P 4, "
            f"concurrency 8 each) exit {collected}, {got} of 36 rollouts; profile exit {profiled}.")


MAKEFILE = """# make: materialize, collect and profile the run in this folder
MODEL_URL ?= http://127.0.0.1:8000/v1

all: rollouts_reward_profiling.jsonl

rollouts_materialized_inputs.jsonl: string_match.jsonl
\tGP materialize --input $< --num-repeats 3 --agent string_match_simple_agent --output $@

rollouts.jsonl: rollouts_materialized_inputs.jsonl
\tGP collect --inputs $< --output $@ --model-url $(MODEL_URL) --env string_match --concurrency 4

rollouts_reward_profiling.jsonl: rollouts.jsonl
\tGP profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_makefile_keeps_rollouts_of_previous_checkpoint",
    "cache_resume",
    ["Makefile"],
    "the user drives the run with a Makefile whose rollouts.jsonl depends only on the materialized inputs; after "
    "step_0200's server was started, `make MODEL_URL=...` found rollouts.jsonl (step_0100's, from last week) newer "
    "than its inputs and said 'Nothing to be done': nothing was collected from step_0200 and the report is "
    "step_0100's",
)
def cache_resume_builtin_makefile_keeps_rollouts_of_previous_checkpoint(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 6, 74)
    (run / "Makefile").write_text(MAKEFILE.replace("GP ", f"{GP} "))
    old_url, old = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_step_0100.log")
    first = ctx.sh(f"make -C {run} MODEL_URL={old_url}", "logs/make_step_0100.log", timeout=400)
    ctx.stop(old, signal.SIGINT, 20)
    new_url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    second = ctx.sh(f"make -C {run} MODEL_URL={new_url}", "logs/make_step_0200.log", timeout=400)
    if first or second or not in_log(ctx, "Nothing to be done", "logs/make_step_0200.log"):
        raise failed(ctx, f"make {first}, {second}")
    return (f"RUN/Makefile; `make MODEL_URL=<step_0100's server>` last week (exit {first}, 6 tasks x 3); then "
            f"`make MODEL_URL=<step_0200's server>` (exit {second}): 'Nothing to be done'.")


SUMMARIZE = """\"\"\"Print the run's mean reward for the weekly report (cached: profiles of big runs take a while).\"\"\"
import json
import os
import sys

run = sys.argv[1]
cache = os.path.join(run, "summary_cache.json")
if os.path.exists(cache):
    with open(cache) as handle:
        summary = json.load(handle)
else:
    with open(os.path.join(run, "rollouts_reward_profiling.jsonl")) as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    summary = {"tasks": len(rows), "mean_reward": round(sum(row["mean/reward"] for row in rows) / len(rows), 4)}
    with open(cache, "w") as handle:
        json.dump(summary, handle)
print(json.dumps(summary))
"""


@case(
    "cache_resume_builtin_report_script_reuses_summary_cache_of_last_run",
    "cache_resume",
    ["summary_cache.json"],
    "the user's summarize.py, which turns the profile into the weekly report's numbers, keeps them in "
    "summary_cache.json and reads that file whenever it exists; it was written for last week's step_0100 run in the "
    "same folder, so after step_0200 was collected and profiled the report again gave step_0100's mean reward "
    "(everything exits 0)",
)
def cache_resume_builtin_report_script_reuses_summary_cache_of_last_run(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 12)
    (run / "summarize.py").write_text(SUMMARIZE)
    materialize(ctx, data, 3, "string_match")
    means, codes = [], []
    for checkpoint in (weaker, better):
        name = checkpoint.name
        url, server = ctx.policy(checkpoint, "--latency-ms 20", log=f"logs/model_server_{name}.log")
        ctx.sh(f"rm -f {run}/rollouts.jsonl {run}/rollouts_failures.jsonl", f"logs/clean_{name}.log")
        codes.append(collect_sh(ctx, url, "string_match", 4, log=f"logs/collect_{name}.log"))
        codes.append(profile_sh(ctx, log=f"logs/profile_{name}.log"))
        codes.append(ctx.sh(f"python3 {run}/summarize.py {run}", f"logs/summarize_{name}.log"))
        ctx.stop(server, signal.SIGINT, 20)
        means.append(mean(rewards(rows_of(run / "rollouts.jsonl"))))
    first, second = (text_of(run / "logs" / f"summarize_{c.name}.log") for c in (weaker, better))
    if any(codes) or first != second or abs(means[0] - means[1]) < 0.1:
        raise failed(ctx, f"exit {codes}, means {means}, {first!r} {second!r}")
    return (f"RUN/summarize.py (cached in RUN/summary_cache.json); materialize (8 tasks x 3), then for step_0100 and "
            f"step_0200 in turn: collect, profile, summarize (exits {codes}); mean rewards of the rollouts "
            f"{means[0]:.2f} and {means[1]:.2f}, both summaries {second.strip()}.")


# =====================================================================================================
# the real NeMo Gym 0.7.0
# =====================================================================================================


@case(
    "healthy_gym_eval_script_traced_with_bash_x",
    "healthy",
    [],
    "nothing is wrong: the user ran run_eval.sh with `bash -x` to see its expanded command, so the log is full of "
    "'+ ' trace lines (variables, the whole `gym eval run` command line); every rollout was collected and profiled",
    netns=True,
)
def healthy_gym_eval_script_traced_with_bash_x(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 2, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# nightly eval\nOUT=results\nREPEATS=3\nCONCURRENCY=4\nmkdir -p $OUT\n"
                      f"for f in {data}; do wc -l $f; done\n"
                      f"{GYM} eval run --no-serve --agent string_match_simple_agent --input {data} "
                      "--output $OUT/rollouts.jsonl --num-repeats $REPEATS --concurrency $CONCURRENCY "
                      f"++route_failures_to_sidecar=true {overrides}\n"
                      "ls -l $OUT\n")
    code = ctx.sh(f"bash -x {script}", "eval_run.log", cwd=run, timeout=300)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or profiled or got != 15 or not in_log(ctx, "+ REPEATS=3", "eval_run.log"):
        raise failed(ctx, f"eval {code}, profile {profiled}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): `bash -x run_eval.sh` (`gym eval run --no-serve`, 5 tasks "
            f"x 3) exit {code}, {got} rollouts; `gym eval profile` exit {profiled}.")


@case(
    "data_schema_gym_tasks_file_built_without_one_missing_shard",
    "data_schema",
    [],
    "the user's build_tasks.sh fetches the three shards listed in the dataset's MANIFEST and concatenates them; "
    "part-00001 is missing from the mirror, the copy failed ('cannot stat') but the script went on, so tasks.jsonl "
    "holds 8 of the 12 tasks and the eval and its profile silently cover only two thirds of the dataset",
    netns=True,
)
def data_schema_gym_tasks_file_built_without_one_missing_shard(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 12, 60, "--latency-ms 30")
    lines = data.read_text().splitlines(keepends=True)
    mirror = ctx.work / "mirror" / "datasets" / "trivia-v3"
    mirror.mkdir(parents=True)
    (mirror / "part-00000.jsonl").write_text("".join(lines[0:4]))
    (mirror / "part-00002.jsonl").write_text("".join(lines[8:12]))
    (run / "MANIFEST").write_text("trivia-v3: 12 rows in 3 shards\npart-00000.jsonl 4\npart-00001.jsonl 4\n"
                                  "part-00002.jsonl 4\n")
    data.unlink()
    (run / "build_tasks.sh").write_text(
        "#!/bin/bash\n# fetch the shards of trivia-v3 and build tasks.jsonl\n"
        f"cd {run}\nmkdir -p shards\n"
        f"for shard in $(tail -n +2 MANIFEST | cut -d' ' -f1); do cp {mirror}/$shard shards/; done\n"
        "cat shards/*.jsonl > tasks.jsonl\necho \"built tasks.jsonl\"\n")
    ctx.sh(f"bash {run}/build_tasks.sh", "build_tasks.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = unique_keys(run / "results" / "rollouts.jsonl")
    if code or profiled or len(got) != 16 or not in_log(ctx, "cannot stat", "build_tasks.log"):
        raise failed(ctx, f"eval {code}, profile {profiled}, {len(got)}")
    return (f"RUN/build_tasks.sh (one of the three shards of RUN/MANIFEST missing from the mirror) -> RUN/tasks.jsonl; "
            f"real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (x 2) exit {code}, {len(got)} "
            f"rollouts; `gym eval profile` exit {profiled}.")


@case(
    "config_gym_eval_input_glob_also_matches_dev_split",
    "config",
    ["--input"],
    "the user's run_eval.sh passes --input data/*.jsonl, meaning the one test file; the folder now also holds "
    "tasks.dev.jsonl, so the shell expanded the glob into two file names: --input got data/tasks.dev.jsonl and "
    "data/tasks.jsonl was read as a Hydra override and refused ('mismatched input'), and nothing was evaluated",
    netns=True,
)
def config_gym_eval_input_glob_also_matches_dev_split(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 11, 40, "--latency-ms 30")
    lines = data.read_text().splitlines(keepends=True)
    (run / "data").mkdir()
    (run / "data" / "tasks.jsonl").write_text("".join(lines[:8]))
    (run / "data" / "tasks.dev.jsonl").write_text("".join(lines[8:]))
    data.unlink()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# nightly eval of the test split\n"
                      f"cd {run}\n{GYM} eval run --no-serve --agent string_match_simple_agent --input data/*.jsonl "
                      "--output results/rollouts.jsonl --num-repeats 2 --concurrency 4 "
                      f"++route_failures_to_sidecar=true {overrides}\n")
    code = ctx.sh(f"bash {script}", "eval_run.log", timeout=300)
    ctx.sh(f"ls -l {run}/data", "ls_data.log")
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if got == 16:
        raise failed(ctx, f"eval {code}, {got}")
    return (f"RUN/data holds tasks.jsonl (8 tasks) and tasks.dev.jsonl (3); RUN/run_eval.sh (`--input data/*.jsonl`); "
            f"real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` exit {code}, {got} rollouts; "
            f"`gym eval profile` exit {profiled}.")


REGEX_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            # labels may be patterns (e.g. "colou?r", "gr[ae]y"): match them as regular expressions
            flags = 0 if body.case_sensitive else re.IGNORECASE
            reward = 1.0 if re.fullmatch(body.expected_answer, extracted.strip(), flags) else 0.0
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""

SPECIAL_TASKS = [
    ("Which programming language did Bjarne Stroustrup create? Put your final answer in \\boxed{}.", "C++",
     ["Java", "C#", "Rust"]),
    ("What are the coordinates of the point 3 to the right of the origin and 4 up? Put your final answer in "
     "\\boxed{}.", "(3, 4)", ["(4, 3)", "(3, -4)", "(0, 0)"]),
    ("A book costs $40 and a lamp three times as much. How much is the lamp? Put your final answer in \\boxed{}.",
     "$120", ["$80", "$160", "$43"]),
    ("Which key of a US keyboard shares the number 8? Put your final answer in \\boxed{}.", "*", ["&", "^", "("]),
]


@case(
    "verifier_runtime_gym_verify_matches_labels_as_regular_expressions",
    "verifier_runtime",
    ["re.fullmatch"],
    "the user's pattern_match resources server matches every answer with re.fullmatch(expected_answer, ...), so that "
    "labels may be patterns; plain labels holding regex characters break it: '*' raises re.error in verify ('nothing "
    "to repeat': those rollouts are lost), and 'C++', '(3, 4)' and '$120' read as patterns never match themselves "
    "(correct answers score 0)",
    netns=True,
)
def verifier_runtime_gym_verify_matches_labels_as_regular_expressions(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=70, folder=run, name="tasks.jsonl")
    template = rows_of(data)[0]
    extra = []
    for text, label, distractors in SPECIAL_TASKS:
        row = json.loads(json.dumps(template))
        row["responses_create_params"]["input"][0]["content"][0]["text"] = text
        row.update(expected_answer=label, extraction_mode="boxed", distractors=distractors, difficulty=1)
        extra.append(row)
    with data.open("a") as handle:
        handle.writelines(json.dumps(row) + "\n" for row in extra)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = own_gym_server(ctx, "pattern_match", REGEX_VERIFY)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='pattern_match')} "
                               f"{overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4,
                                                       "pattern_match_simple_agent"), 150)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    special = [row for row in rows if row.get("_ng_task_index", -1) >= 6]
    if len(rows) == 20 or any(rewards(special)) or not in_log(ctx, "multiple repeat") and not in_log(ctx, "nothing to repeat"):
        raise failed(ctx, f"eval {code}, {len(rows)} rows, special rewards {rewards(special)}")
    return ("RUN/tasks.jsonl (10 tasks, 4 with labels C++, (3, 4), $120, *); a user's resources server pattern_match "
            "(verify: re.fullmatch(expected_answer, answer)); real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval "
            f"run --no-serve` (x 2) exit {code}, {len(rows)} of 20 rollouts; `gym eval profile` exit {profiled}.")


@case(
    "model_serving_gym_server_script_picks_oldest_checkpoint",
    "model_serving",
    ["serve_latest.sh"],
    "the user's serve_latest.sh serves `ls -d checkpoints/step_* | head -1`, meant to be the newest checkpoint; ls "
    "sorts ascending, so it served step_0100, the oldest: the eval of 'the latest checkpoint' scored the previous "
    "one, and everything exits 0",
    netns=True,
)
def model_serving_gym_server_script_picks_oldest_checkpoint(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=30, folder=run, name="tasks.jsonl")
    weaker, better = checkpoints(ctx, "string_match", data)
    script = run / "serve_latest.sh"
    script.write_text("#!/bin/bash\n# serve the newest checkpoint of the run\n"
                      f"CKPT=$(ls -d {weaker.parent}/step_* | head -1)\necho \"serving $CKPT\"\n"
                      f"{GP} serve-policy --port 0 --ready-file {ctx.work}/model_url --checkpoint $CKPT "
                      "--latency-ms 30\n")
    url = served_by_script(ctx, script, "policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start)
    got = rows_of(run / "results" / "rollouts.jsonl")
    if code or profiled or len(got) != 24 or "step_0100" not in text_of(run / "policy_server.log"):
        raise failed(ctx, f"eval {code}, profile {profiled}, {len(got)}")
    return (f"RUN/serve_latest.sh (`ls -d checkpoints/step_* | head -1`: step_0100 of step_0100, step_0200); real NeMo "
            f"Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (8 tasks x 3) exit {code}, {len(got)} "
            f"rollouts, mean reward {mean(rewards(got)):.2f}; `gym eval profile` exit {profiled}.")


# =====================================================================================================
# task folders (Docker sandboxes)
# =====================================================================================================


@case(
    "healthy_taskfolder_stages_recorded_with_script_terminal_codes",
    "healthy",
    [],
    "nothing is wrong: the user ran each stage of the taskset (sort-unique-words, replace-spelling) inside `script` to "
    "keep the terminal's colours in the log, so the logs are full of escape codes, carriage returns and redrawn "
    "progress bars; every episode completed, was verified and profiled",
)
def healthy_taskfolder_stages_recorded_with_script_terminal_codes(ctx: Ctx) -> str:
    from eighth_held_out import stage_argv

    run = ctx.run
    tasks = user_taskset(ctx, ["sort-unique-words", "replace-spelling"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = []
    for key, extra in (("materialize", ()), ("collect", served(url)), ("profile", ())):
        argv = shlex.join(stage_argv(sweep, key, checkpoint, "terminal_tasks", *extra))
        codes.append(ctx.sh(f"script -q -e -c {shlex.quote(argv)} /dev/null", f"logs/{key}.log", timeout=600))
    got = len(unique_keys(run / "rollouts.jsonl"))
    if any(codes) or got != 4 or b"\r" not in (run / "logs" / "collect.log").read_bytes():
        raise failed(ctx, f"exit {codes}, {got}")
    return (f"A sweep with the taskset RUN/tasks (sort-unique-words, replace-spelling; x 2): `script -q -e -c "
            f"'gym-pipeline stage ...' /dev/null` materialize, collect, profile exit {codes}; rewards "
            f"{rewards(rows_of(run / 'rollouts.jsonl'))}.")


NAMED_SCORES_TEST = """#!/bin/bash
# Scores the task on two criteria in /logs/verifier/reward.json (for the dashboard).
cd /app
correct=0
format=0
if test -f /app/top.txt; then format=1; fi
if test "$(tr -d "[:space:]" < /app/top.txt 2>/dev/null)" = "the"; then correct=1; fi
echo "correct=$correct format=$format"
printf '{"correct": %d, "format": %d}\\n' "$correct" "$format" > /logs/verifier/reward.json
"""


@case(
    "verifier_runtime_taskfolder_reward_json_two_named_scores_without_reward",
    "verifier_runtime",
    ["reward.json"],
    "top-word's tests/test.sh was rewritten to report two named scores in reward.json ({\"correct\": 1, \"format\": "
    "1}) for a dashboard; with more than one entry and none named 'reward' the reward cannot be read, so every "
    "top-word episode got an invalid reward and scored 0, done or not",
)
def verifier_runtime_taskfolder_reward_json_two_named_scores_without_reward(ctx: Ctx) -> str:
    run = ctx.run

    def named(tasks: Path) -> None:
        (tasks / "top-word" / "tests" / "test.sh").write_text(NAMED_SCORES_TEST)

    tasks, codes = taskset_run(ctx, ["top-word", "csv-column-total"], named)
    top = task_rewards(run / "rollouts.jsonl", "top-word")
    if not top or any(top) or not in_log(ctx, "reward.json"):
        raise failed(ctx, f"exit {codes}, top-word rewards {top}")
    return (f"A sweep with the taskset RUN/tasks (top-word's test.sh writes reward.json with 'correct' and 'format'; "
            f"csv-column-total; x 2); stages exit {codes}; top-word rewards {top}; failure kinds "
            f"{sorted(set(failure_kinds(run / 'rollouts.jsonl')))}.")


@case(
    "model_serving_taskfolder_server_started_on_math_run_checkpoint",
    "model_serving",
    ["--checkpoint"],
    "the user's serve_policy.sh for the terminal-agent sweep passes --checkpoint of the math SFT run's step_0200 (a "
    "path copied from the other project's script) instead of the agent run's: the server answered every episode with "
    "a model that never learned these tasks, so the episodes ran but almost none was solved (everything exits 0)",
)
def model_serving_taskfolder_server_started_on_math_run_checkpoint(ctx: Ctx) -> str:
    from gym_pipeline.environments import StringMatchEnvironment
    from gym_pipeline.serving.checkpoints import demo_checkpoints

    run = ctx.run
    tasks = user_taskset(ctx, ["rename-extensions", "json-version"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    math_data = ctx.dataset("string_match", 8, start=10, name="math_sft.jsonl")
    math = demo_checkpoints(ctx.work / "math-sft" / "checkpoints", 2, [StringMatchEnvironment(math_data)])[-1]
    script = run / "serve_policy.sh"
    script.write_text("#!/bin/bash\n# model server for the terminal-agent sweep (from the math-sft serving script)\n"
                      f"{GP} serve-policy --port 0 --ready-file {ctx.work}/model_url --checkpoint {math} "
                      "--latency-ms 30\n")
    url = served_by_script(ctx, script)
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    got = rows_of(run / "rollouts.jsonl")
    if len(got) != 4 or mean(rewards(got)) > 0.3:
        raise failed(ctx, f"exit {codes}, {len(got)} rows, rewards {rewards(got)}")
    return (f"RUN/serve_policy.sh (--checkpoint of the math-sft run's step_0200); a sweep with the taskset RUN/tasks "
            f"(rename-extensions, json-version; x 2) on checkpoint {checkpoint.name}: stages exit {codes}; rewards "
            f"{rewards(got)}.")


@case(
    "data_schema_taskfolder_backup_copy_of_task_left_in_taskset",
    "data_schema",
    ["count-error-lines.bak"],
    "while editing count-error-lines the user kept a copy of the folder as tasks/count-error-lines.bak, inside the "
    "taskset: it is a task folder like any other, so the sweep ran it as a third task and the report counts that task "
    "twice under two names (everything exits 0)",
)
def data_schema_taskfolder_backup_copy_of_task_left_in_taskset(ctx: Ctx) -> str:
    import shutil

    run = ctx.run

    tasks = user_taskset(ctx, ["count-error-lines", "csv-column-total"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    shutil.copytree(tasks / "count-error-lines", tasks / "count-error-lines.bak")
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    ctx.sh(f"ls -l {tasks}", "logs/ls_tasks.log")
    got = rows_of(run / "rollouts.jsonl")
    if any(codes) or len(got) != 6 or not task_rewards(run / "rollouts.jsonl", "count-error-lines.bak"):
        raise failed(ctx, f"exit {codes}, {len(got)} rows")
    return (f"A sweep with the taskset RUN/tasks (count-error-lines, a copy count-error-lines.bak, csv-column-total; "
            f"x 2); stages exit {codes}; {len(got)} rollouts.")


if __name__ == "__main__":
    sys.exit(main("held_out", __file__, __doc__))
