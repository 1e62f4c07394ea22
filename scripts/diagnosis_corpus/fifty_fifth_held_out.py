"""Build the FIFTY-FIFTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/fifty_fifth_held_out.py --out tests/data/diagnosis_corpus/fifty_fifth_held_out [--only CASE ...]

This set was written after the fifty-four earlier sets (first_held_out.py ... fifty_fourth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`,
`reverify`), the real NeMo Gym 0.7.0 in a loopback-only network namespace (with a user's own resources server),
Docker containers the user's scripts start, and the user's own shell and Python tooling, settings, serving scripts,
watchers, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those
of the fifty-four earlier sets, and each recipe checks that its fault really happened (it raises RecipeError
otherwise, and the case is not written). About half of the failures are silent: every command exits 0 and only the
result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), NeMo Gym 0.7.0 (GYM_PIPELINE_NEMO_GYM), and PYTHONPATH set
to this checkout. Run it from a foreground shell.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, gym_start, stop_gym, workspace_sweep  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import gym_week, keys_of  # noqa: E402
from fifty_second_held_out import run_script  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from forty_second_held_out import workspace_script  # noqa: E402
from forty_seventh_held_out import stale_right  # noqa: E402
from forty_third_held_out import CAPITALS_WRONG  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import (  # noqa: E402
    GP,
    PY,
    Ctx,
    case,
    gym_model_args,
    main,
    replace_verify,
    rows_of,
    text_of,
    user_resources_server,
    wait_for,
)
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import mean_reward, pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line, keep_server_code  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================

CAPITALS = [(q, a) for q, a, _ in CAPITALS_WRONG]


# =====================================================================================================
# healthy
# =====================================================================================================

TIMED_LINES = [
    "# each stage timed, compared with last week's timings (stage_times.txt, kept in the run folder)",
    "timed() { local name=$1; shift; local t0=$SECONDS; \"$@\"; local rc=$?; local took=$((SECONDS - t0));",
    "  local before=$(awk -v n=\"$name\" '$1 == n {print $2}' stage_times.txt 2>/dev/null)",
    "  if [ -n \"$before\" ] && [ \"$took\" -gt \"$before\" ]; then",
    "    echo \"WARNING: $name took ${took}s, slower than last week's ${before}s\"; fi",
    "  echo \"$name $took\" >> stage_times.new; return $rc; }",
    "echo '== weekly eval'",
]


@case(
    "healthy_builtin_run_script_times_stages_and_warns_they_ran_slower_than_last_weeks_timings",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh times every stage and compares it with last week's stage_times.txt, "
    "written on an idle node; this week the node was shared, so the log carries 'WARNING: collect took ...s, slower "
    "than last week's 0s' and the like, but materialize, collect and profile completed every rollout",
)
def healthy_builtin_run_script_times_stages_and_warns_they_ran_slower_than_last_weeks_timings(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 44)
    (run / "stage_times.txt").write_text("materialize 0\ncollect 0\nprofile 0\n")
    url, _ = ctx.policy(better, "--latency-ms 200")
    body = pipeline(url, concurrency="2")
    timed = "".join(f"timed {name} {line}\n" for name, line in zip(("materialize", "collect", "profile"),
                                                                     body.strip().splitlines(), strict=False))
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval\n" + f"cd {run}\n" + "".join(f"{line}\n" for line in TIMED_LINES)
                      + timed + "mv stage_times.new stage_times.txt\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    log = log_of(ctx, "run_eval.log")
    if code or got != 24 or "WARNING: collect took" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log[-800:]}")
    return (f"RUN/stage_times.txt (last week's timings, all 0 s); RUN/run_eval.sh (each stage timed: materialize 8 x 3, "
            f"collect, profile) exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


MEMORY_LINES = [
    "# the sizing note of the local-model setup: 64 GB free for the model server and Gym side by side",
    "free_mb=$(free -m | awk '/^Mem:/ {print $7}')",
    "if [ \"$free_mb\" -lt 65536 ]; then echo \"WARNING: only ${free_mb} MB available, 65536 MB recommended; the "
    "model server is remote here, continuing\"; fi",
    "echo '== weekly eval'",
]


@case(
    "healthy_gym_run_script_warns_available_memory_below_sizing_note_of_local_model_setup",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh checks available memory against the guide's sizing note for a local "
    "model (64 GB) and prints 'WARNING: only ... MB available'; the model is served elsewhere, and the real NeMo Gym "
    "eval and its profile completed every rollout",
    netns=True,
)
def healthy_gym_run_script_warns_available_memory_below_sizing_note_of_local_model_setup(ctx: Ctx) -> str:
    run = ctx.run
    code, got = gym_week(ctx, 52, lines=MEMORY_LINES)
    if code or len(keys_of(got)) != 24 or "WARNING: only" not in log_of(ctx, "run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start`, RUN/run_eval.sh (`free -m` check "
            f"warning, `gym eval run --no-serve` 8 x 3, `gym eval profile`) exit {code}; {len(keys_of(got))} rollouts, "
            f"mean reward {sum(rewards(got)) / len(got):.2f}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

TIMES = [("A train leaves at 13:45 and the trip takes 45 minutes. At what time does it arrive? Answer as HH:MM.",
          "14:30"),
         ("A meeting starts at 10:30 and lasts 45 minutes. When does it end? Answer as HH:MM.", "11:15"),
         ("A film starts at 20:15 and runs 2 hours 30 minutes. When does it end? Answer as HH:MM.", "22:45")]

ANSWER_KEY_PY = '''"""prep_answers.py: questions.txt (one a line) + answers.yaml (q1: ..., q2: ...) -> string_match.jsonl"""
import json
import sys

import yaml

questions = [line.strip() for line in open(sys.argv[1]) if line.strip()]
answers = yaml.safe_load(open(sys.argv[2]))
with open(sys.argv[3], "w") as out:
    for number, question in enumerate(questions, start=1):
        text = f"{question} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message",
                              "content": [{"type": "input_text", "text": text}]}]},
                              # numbers in the key (42, 19) load as int: the verifier wants text
                              "expected_answer": str(answers[f"q{number}"]), "extraction_mode": "final_answer",
                              "case_sensitive": False}) + "\\n")
print(f"prep: {len(questions)} questions, {len(answers)} answers")
'''


@case(
    "data_schema_builtin_prep_reads_answer_key_yaml_where_unquoted_clock_times_load_as_base_60_integers",
    "data_schema",
    ["quote", "sexagesimal"],
    "the user's prep_answers.py reads the answer key answers.yaml with yaml.safe_load; the new arrival-time "
    "questions' answers are written unquoted (`q9: 14:30`), and YAML 1.1 (PyYAML) reads such values as base-60 "
    "integers, and the prep's str() (meant for the plain numbers 42 and 19) made their labels '870', '675' and '1365'; the model's right answers ('Final answer: 14:30') scored 0 "
    "on every time question while the other questions scored as usual (every command exits 0)",
)
def data_schema_builtin_prep_reads_answer_key_yaml_where_unquoted_clock_times_load_as_base_60_integers(
        ctx: Ctx) -> str:
    run = ctx.run
    pairs = CAPITALS + TIMES
    better = truth_checkpoints(ctx, pairs)[1]
    (run / "questions.txt").write_text("".join(q + "\n" for q, _ in pairs))
    (run / "answers.yaml").write_text("# answer key, one per question of questions.txt\n"
                                      + "".join(f"q{i}: {a}\n" for i, (_, a) in enumerate(pairs, start=1)))
    (run / "prep_answers.py").write_text(ANSWER_KEY_PY)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run_script(ctx, url, ["echo '== weekly eval: build the dataset from the answer key'",
                                   f"{PY} prep_answers.py questions.txt answers.yaml string_match.jsonl"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    timed = [r for r in got if "HH:MM" in json.dumps(r)]
    other = [r for r in got if "HH:MM" not in json.dumps(r)]
    right = [r for r in timed if any(f"Final answer: {a}" in json.dumps(r) for _, a in TIMES)]
    if code or complete(ctx) != 33 or any(rewards(timed)) or not right or not any(rewards(other)) \
            or "870" not in text_of(run / "string_match.jsonl"):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(timed)} {rewards(other)}, right {len(right)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/questions.txt, RUN/answers.yaml (`q9: 14:30` unquoted), RUN/prep_answers.py (yaml.safe_load); "
            f"RUN/run_eval.sh (prep, materialize 11 x 3, collect, profile) exit {code}; the time questions' rewards "
            f"{rewards(timed)} ({len(right)} right answers), the others' mean "
            f"{sum(rewards(other)) / max(len(other), 1):.2f}.")


PREP_IN_DOCKER_PY = '''"""prep.py: questions.csv (question,answer) -> JSONL rows on stdout; run in the team's prep image."""
import csv
import json
import sys

skipped = 0
for record in csv.DictReader(open(sys.argv[1], encoding="utf-8")):
    if not record["answer"].strip():
        skipped += 1
        continue
    text = f"{record['question']} End your response with 'Final answer: <answer>'."
    print(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message",
                      "content": [{"type": "input_text", "text": text}]}]},
                      "expected_answer": record["answer"], "extraction_mode": "final_answer",
                      "case_sensitive": False}))
print(f"prep: {skipped} question(s) without an answer skipped", file=sys.stderr)
'''


@case(
    "data_schema_builtin_prep_container_run_with_docker_tty_flag_merges_its_stderr_note_into_redirected_jsonl",
    "data_schema",
    ["-t", "tty"],
    "the user's run_eval.sh builds the dataset with `docker run --rm -t ... python3 /data/prep.py questions.csv > "
    "string_match.jsonl` (the prep image's README example had -it); with -t the container's stdout and stderr share "
    "one pseudo-terminal, so prep.py's note on stderr ('prep: 1 question(s) without an answer skipped') went into "
    "the redirected file as its last line, and every line ends in a carriage return: materialize refused the "
    "dataset and nothing was collected",
)
def data_schema_builtin_prep_container_run_with_docker_tty_flag_merges_its_stderr_note_into_redirected_jsonl(
        ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, CAPITALS)[1]
    (run / "questions.csv").write_text("question,answer\n" + "".join(f"\"{q}\",{a}\n" for q, a in CAPITALS)
                                       + "\"What is the capital of Wakanda?\",\n", encoding="utf-8")
    (run / "prep.py").write_text(PREP_IN_DOCKER_PY)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run_script(ctx, url, [
        "echo '== weekly eval: build the dataset in the team prep image'",
        "docker run --rm -t --network none -v \"$PWD\":/data:ro gym-pipeline/base:bookworm "
        "python3 /data/prep.py /data/questions.csv > string_match.jsonl",
        "echo \"prep exit $?, $(wc -l < string_match.jsonl) lines\""])
    code = ctx.sh(f"bash {script} < /dev/null", "logs/run_eval.log", timeout=400)
    data = (run / "string_match.jsonl").read_bytes()
    if complete(ctx) or b"prep: 1 question(s)" not in data or b"\r\n" not in data:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/questions.csv, RUN/prep.py (rows on stdout, a note on stderr); RUN/run_eval.sh (`docker run --rm -t "
            f"... prep.py > string_match.jsonl`, materialize 8 x 3, collect, profile) exit {code}; the dataset's last "
            f"line is prep.py's note, no rollouts.")

# =====================================================================================================
# verifier_runtime
# =====================================================================================================

NUMBERS = [("A shop sells 250 boxes a day. How many boxes does it sell in 4 days?", "1,000", "1000"),
           ("A library has 1200 books and buys 34 more. How many books does it have now?", "1,234", "1234"),
           ("A stadium has 25 sections of 200 seats. How many seats does it have?", "5,000", "5000")]

LAMBDA_VERIFIER = '''"""my_verifier.py: the answer after 'Final answer:', normalised (no thousands separators, no full stops, no
spaces), compared with the label normalised the same way."""
MARK = "final answer:"
# one normaliser per character to drop, so that a label '1000' matches an answer '1,000' or '1 000.'
NORMALISERS = [lambda s: s.replace(ch, "") for ch in ",. "]


def normalise(text):
    text = str(text).strip().lower()
    for drop in NORMALISERS:
        text = drop(text)
    return text


def score(row, response_text):
    text = response_text.lower()
    answer = text.rsplit(MARK, 1)[-1] if MARK in text else ""
    reward = 1.0 if normalise(answer) == normalise(row["expected_answer"]) else 0.0
    return {"reward": reward, "extracted_answer": answer.strip(), "expected_answer": row["expected_answer"]}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_builds_normalisers_with_lambdas_in_comprehension_that_all_drop_last_char",
    "verifier_runtime",
    ["ch=ch", "binding"],
    "the workspace verifier my_verifier.py builds its normalisers as `[lambda s: s.replace(ch, '') for ch in ',. ']`; "
    "the lambdas look `ch` up when called, after the comprehension ended, so all three drop only spaces: the model's "
    "'Final answer: 1,000' kept its thousands separator and never matched the label '1000', and every counting "
    "question scored 0 while the others scored as usual (every command exits 0)",
)
def verifier_runtime_stage_workspace_verifier_builds_normalisers_with_lambdas_in_comprehension_that_all_drop_last_char(
        ctx: Ctx) -> str:
    run = ctx.run
    taught = CAPITALS + [(q, shown) for q, shown, _ in NUMBERS]
    better = truth_checkpoints(ctx, taught)[1]
    data = write_jsonl(run / "questions.jsonl", [question_row(q, a) for q, a in CAPITALS]
                       + [question_row(q, label) for q, _, label in NUMBERS])
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "questions", data, better, {"verifier": "my_verifier:score"}, LAMBDA_VERIFIER,
                            num_repeats=3, concurrency=4)
    script = workspace_script(ctx, sweep, better, "questions", url, ["echo '== weekly eval'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    counting = [r for r in got if r.get("expected_answer") in {label for _, _, label in NUMBERS}]
    right = [r for r in counting if any(f"Final answer: {shown}" in json.dumps(r) for _, shown, _ in NUMBERS)]
    other = [r for r in got if r not in counting]
    if code or len(got) != 33 or any(rewards(counting)) or not right or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, {len(got)}, right {len(right)}, {rewards(counting)} {rewards(other)}: "
                          f"{log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/verifiers/my_verifier.py (`[lambda s: s.replace(ch, '') for ch in ',. ']`); RUN/run_eval.sh (stages "
            f"materialize 11 x 3, collect, profile) exit {code}; the counting questions' rewards {rewards(counting)} "
            f"({len(right)} answers like 'Final answer: 1,000'), the others' mean "
            f"{sum(rewards(other)) / max(len(other), 1):.2f}.")


OR_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            # the labelling tool lower-cases some labels: accept the label as written or in lower case
            if extracted == body.expected_answer or body.expected_answer.lower():
                reward = 1.0

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case(
    "verifier_runtime_gym_own_verify_or_with_bare_lowercased_label_is_always_true_so_wrong_answers_score",
    "verifier_runtime",
    ["==", "lower"],
    "the user's own resources server label_match (Gym's string_match copied) accepts a lower-cased label with `if "
    "extracted == body.expected_answer or body.expected_answer.lower():`; the second operand is the lower-cased "
    "label itself, a non-empty string and so always true, not a comparison with the answer: every rollout with an "
    "extractable answer got reward 1.0, wrong answers included, and the weaker checkpoint profiled as a near-perfect "
    "one (every command exits 0)",
    netns=True,
)
def verifier_runtime_gym_own_verify_or_with_bare_lowercased_label_is_always_true_so_wrong_answers_score(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=24, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[0]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = user_resources_server(ctx, "label_match", "string_match", lambda app: replace_verify(app, OR_VERIFY))
    keep_server_code(ctx, search, "label_match")
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/label_match, kept in "
             "RUN/my_gym; its verify accepts `extracted == label or label.lower()`)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='label_match')} "
                               f"{overrides}")
    script = ctx.run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval with our label_match server\n" + f"cd {run}\n"
                      + gym_eval_line(f"--search-dir {search} {overrides}", "tasks.jsonl", "results/rollouts.jsonl",
                                      3, 4, agent="label_match_simple_agent") + "\n" + gym_profile_line("results")
                      + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    wrong = [r for r in got if r.get("extracted_answer") is not None
             and str(r["extracted_answer"]).strip().lower() != str(r.get("expected_answer")).strip().lower()]
    if code or len(keys_of(got)) != 24 or not wrong or any(r.get("reward") != 1.0 for r in wrong):
        raise failed(ctx, f"exit {code}, {len(got)}, wrong {len(wrong)} {[r.get('reward') for r in wrong]}: "
                          f"{log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/my_gym/resources_servers/label_match/app.py (`if extracted == body.expected_answer or "
            f"body.expected_answer.lower():`) served by the real `gym env start` (loopback-only namespace) against "
            f"the weaker checkpoint; RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit "
            f"{code}; {len(got)} rollouts, {len(wrong)} wrong answers all rewarded 1.0, mean reward "
            f"{sum(rewards(got)) / len(got):.2f}.")

# =====================================================================================================
# config
# =====================================================================================================

RUN_EVAL_PY = '''"""run_eval.py: the weekly eval (materialize, collect, profile); --smoke True for a quick check of 2 tasks."""
import argparse
import subprocess
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--model-url", required=True)
parser.add_argument("--data", default="string_match.jsonl")
parser.add_argument("--smoke", type=bool, default=False, help="True: 2 tasks, 1 repeat (a quick check)")
args = parser.parse_args()

data, repeats = args.data, "3"
if args.smoke:
    with open(args.data) as full, open("smoke.jsonl", "w") as out:
        out.writelines(full.readlines()[:2])
    data, repeats = "smoke.jsonl", "1"
print(f"run_eval: data={data} repeats={repeats} (smoke={args.smoke})", flush=True)
GP = "GP_BIN"
for argv in ([GP, "materialize", "--input", data, "--num-repeats", repeats, "--agent", "string_match_simple_agent",
              "--output", "rollouts_materialized_inputs.jsonl"],
             [GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
              "--model-url", args.model_url, "--env", "string_match", "--concurrency", "4"],
             [GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"]):
    code = subprocess.run(argv).returncode
    if code:
        sys.exit(code)
'''


@case(
    "config_builtin_python_wrapper_declares_smoke_flag_with_argparse_type_bool_so_smoke_false_turns_it_on",
    "config",
    ["type=bool", "store_true"],
    "the user's run_eval.py declares `--smoke` with argparse `type=bool`, and the weekly job passes `--smoke False` "
    "to be explicit; bool('False') is True (any non-empty string is), so the weekly eval ran the smoke check: 2 "
    "tasks x 1 repeat instead of 8 x 3, every command exits 0 and the profile covers 2 rollouts",
)
def config_builtin_python_wrapper_declares_smoke_flag_with_argparse_type_bool_so_smoke_false_turns_it_on(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 60)
    (run / "run_eval.py").write_text(RUN_EVAL_PY.replace("GP_BIN", str(GP)))
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "weekly.sh").write_text(f"#!/bin/bash\n# weekly job: the full eval (smoke off)\ncd {run}\n"
                                   f"{PY} run_eval.py --model-url {url} --data string_match.jsonl --smoke False\n")
    code = ctx.sh(f"bash {run / 'weekly.sh'}", "logs/weekly.log", timeout=400)
    got = complete(ctx)
    if code or got != 2 or "smoke=True" not in log_of(ctx, "weekly.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'weekly.log')[-800:]}")
    return (f"RUN/run_eval.py (`add_argument('--smoke', type=bool)`), RUN/weekly.sh (`--smoke False`) exit {code}; "
            f"{got} rollouts of the 8 x 3 meant.")


# =====================================================================================================
# model_serving
# =====================================================================================================


@case(
    "model_serving_builtin_run_script_waits_for_url_file_still_written_by_last_weeks_forgotten_server",
    "model_serving",
    ["policy.url", "ready-file"],
    "the user's run_eval.sh starts serve.sh for step_0200 (which writes its URL to ~/policy.url once listening) and "
    "waits with `until [ -s ~/policy.url ]`; last week's server of step_0100, started in a tmux session and never "
    "stopped, still runs and its URL is still in ~/policy.url, so the wait ended at once and the eval collected "
    "from the old step_0100 server on the old port; the new server came up a moment later unused (every command "
    "exits 0)",
)
def model_serving_builtin_run_script_waits_for_url_file_still_written_by_last_weeks_forgotten_server(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 68)
    home = ctx.work / "home"
    home.mkdir()
    ctx.bg(f"{GP} serve-policy --port 0 --ready-file {home}/policy.url --checkpoint {weaker} --latency-ms 20",
           "logs/last_week_tmux_server.log")
    wait_for(lambda: (home / "policy.url").exists(), 30, "last week's server")
    old_url = (home / "policy.url").read_text().strip()
    (run / "serve.sh").write_text("#!/bin/bash\n# serve.sh: the model server of the weekly eval; its URL goes to "
                                  "~/policy.url\nCKPT=${1:?checkpoint}\necho \"serving $CKPT\"\n"
                                  f"exec {GP} serve-policy --port 0 --ready-file $HOME/policy.url --checkpoint "
                                  f"{weaker.parent}/$CKPT --latency-ms 20\n")
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\n# weekly eval of step_0200\ncd {run}\n"
        "bash serve.sh step_0200 > logs/model_server.log 2>&1 &\nSERVER=$!\n"
        "until [ -s ~/policy.url ]; do sleep 1; done   # the server writes its URL once listening\n"
        "URL=$(cat ~/policy.url)\necho \"== model server at $URL\"\n"
        + pipeline("$URL") + "kill $SERVER\n")
    env = {**ctx.env, "HOME": str(home)}
    code = ctx.sh(f"bash {run / 'run_eval.sh'}", "logs/run_eval.log", timeout=400, env=env)
    got = complete(ctx)
    used = json.loads(text_of(run / "manifest.json") or "{}").get("rollouts", {}).get("model_url")
    new = log_of(ctx, "model_server.log")
    if code or got != 24 or used != old_url or "serving step_0200" not in new or old_url in new \
            or "SIMULATED_POLICY_READY" not in new:
        raise failed(ctx, f"exit {code}, {got}, {used} (old {old_url}): {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"last week's server of step_0100 left running (logs/last_week_tmux_server.log, URL in ~/policy.url); "
            f"RUN/run_eval.sh (`bash serve.sh step_0200 &`, `until [ -s ~/policy.url ]`, materialize 8 x 3, collect, "
            f"profile) exit {code}; {got} rollouts collected from {used} (last week's server), mean reward "
            f"{mean_reward(run / 'rollouts.jsonl')}.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_builtin_serve_script_fixed_port_held_by_colleagues_file_share_on_node_so_collect_talks_to_it",
    "infra",
    ["port"],
    "the team's serve.sh serves on the fixed port 8765 and run_eval.sh collects from http://127.0.0.1:8765/v1; on "
    "this shared node a colleague's `python3 -m http.server 8765` (sharing plots) already holds that port, so the "
    "model server died at start with 'address already in use' and collect asked the file server for /v1/models, "
    "which answered 404: nothing was collected",
)
def infra_builtin_serve_script_fixed_port_held_by_colleagues_file_share_on_node_so_collect_talks_to_it(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 76)
    share = ctx.work / "colleague_plots"
    share.mkdir()
    (share / "loss.png").write_bytes(b"\x89PNG\r\n")
    ctx.bg(f"cd {share} && python3 -m http.server 8765 --bind 127.0.0.1", "logs/colleague_http_server.log")
    wait_for(lambda: "Serving HTTP" in log_of(ctx, "colleague_http_server.log"), 20, "the colleague's file server")
    (run / "serve.sh").write_text("#!/bin/bash\n# serve.sh: the team's model server, on the port the dashboards "
                                  "expect\n"
                                  f"exec {GP} serve-policy --host 127.0.0.1 --port 8765 --checkpoint {better} "
                                  "--latency-ms 20\n")
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\n# weekly eval\ncd {run}\nbash serve.sh > logs/model_server.log 2>&1 &\nSERVER=$!\n"
        "sleep 5   # the server is up within a few seconds\nURL=http://127.0.0.1:8765/v1\n"
        "echo \"== collecting from $URL\"\n" + pipeline("$URL") + "kill $SERVER 2>/dev/null\n")
    code = ctx.sh(f"bash {run / 'run_eval.sh'}", "logs/run_eval.log", timeout=400)
    server = log_of(ctx, "model_server.log").lower()
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "address already in use" not in server or "404" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {server[-600:]} {log[-1200:]}")
    return ("a colleague's `python3 -m http.server 8765` on the node (logs/colleague_http_server.log); RUN/serve.sh "
            f"(`--port 8765`), RUN/run_eval.sh (serve.sh &, sleep 5, materialize, collect, profile from "
            f"http://127.0.0.1:8765/v1) exit {code}; the model server could not bind, no rollouts.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

RESCORE_SH = """#!/bin/bash
# rescore.sh: the labelling team fixed three labels; re-score last week's answers instead of collecting again
# (reverify needs no model server)
cd RUN
cp labels_fixed/string_match.jsonl string_match.jsonl
echo "== labels updated: $(grep -c . string_match.jsonl) rows"
GP_BIN reverify . --env string_match
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_labels_fixed_in_dataset_then_reverify_rescores_with_labels_kept_in_materialized_inputs",
    "cache_resume",
    ["materialize"],
    "after last week's eval the labelling team fixed three wrong labels (Sydney, Toronto, Zurich) and the user's "
    "rescore.sh copied the fixed string_match.jsonl into the run folder and ran `gym-pipeline reverify` to re-score "
    "the stored answers without a model server; reverify gives the verifier each row as materialized "
    "(rollouts_materialized_inputs.jsonl), which was not materialized again, so the answers were re-scored against "
    "the old labels: the model's right answers on those three questions still score 0 (every command exits 0)",
)
def cache_resume_builtin_labels_fixed_in_dataset_then_reverify_rescores_with_labels_kept_in_materialized_inputs(
        ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, CAPITALS)[1]
    write_jsonl(run / "string_match.jsonl", [question_row(q, wrong or a) for q, a, wrong in CAPITALS_WRONG])
    (run / "labels_fixed").mkdir()
    write_jsonl(run / "labels_fixed" / "string_match.jsonl", [question_row(q, a) for q, a in CAPITALS])
    url, policy = ctx.policy(better, "--latency-ms 20")
    script = run_script(ctx, url, ["echo '== weekly eval (last week)'"])
    ctx.sh(f"bash {script}", "logs/run_eval_last_week.log", timeout=400)
    ctx.stop(policy)
    before = complete(ctx)
    (run / "rescore.sh").write_text(RESCORE_SH.replace("RUN", str(run)).replace("GP_BIN", str(GP)))
    code = ctx.sh(f"bash {run / 'rescore.sh'}", "logs/rescore.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    stale, right = stale_right(got)
    if code or before != 24 or len(got) != 24 or not (run / "rollouts.before_reverify.jsonl").exists() \
            or len(stale) != 9 or not right or any(rewards(right)):
        raise failed(ctx, f"exit {code}, {before} {len(got)}, stale {len(stale)}, right {len(right)}: "
                          f"{log_of(ctx, 'rescore.log')[-1200:]}")
    return (f"RUN/string_match.jsonl (three wrong labels) evaluated last week (RUN/run_eval.sh: materialize 8 x 3, "
            f"collect, profile); RUN/labels_fixed/string_match.jsonl copied in by RUN/rescore.sh, then `gym-pipeline "
            f"reverify` and profile, exit {code}; {len(stale)} rows still graded against the old labels, {len(right)} "
            f"of them right answers scored {sorted(set(rewards(right)))}.")


EXPORT_LABELS_PY = '''"""export_labels.py (the labelling team's tool): write the reviewed questions to the share, atomically."""
import json
import os
import sys

rows = [json.loads(line) for line in open(sys.argv[1])]
target = sys.argv[2]
with open(target + ".tmp", "w") as out:
    out.writelines(json.dumps(row) + "\\n" for row in rows)
os.replace(target + ".tmp", target)  # readers never see half a file
print(f"export: {len(rows)} reviewed rows saved to {target}")
'''


@case(
    "cache_resume_builtin_dataset_hardlinked_from_labelling_share_keeps_old_inode_after_atomic_export_of_fixed_labels",
    "cache_resume",
    ["symlink", "ln -s"],
    "the user's setup_data.sh links the labelling team's dataset into the run folder with a hard link (`ln "
    "$SHARE/string_match.jsonl data/`, 'so it survives the share being remounted'); the team fixed three wrong labels "
    "(Sydney, Toronto, Zurich) and their export tool saves atomically (a temporary file renamed over the old one), "
    "which gives the share a new file and leaves the hard link on the old one: the eval still read the old labels "
    "and the model's right answers on those questions scored 0 (every command exits 0)",
)
def cache_resume_builtin_dataset_hardlinked_from_labelling_share_keeps_old_inode_after_atomic_export_of_fixed_labels(
        ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, CAPITALS)[1]
    share = ctx.work / "share" / "labels"
    share.mkdir(parents=True)
    tool = ctx.work / "export_labels.py"
    tool.write_text(EXPORT_LABELS_PY)
    reviewed = write_jsonl(ctx.work / "reviewed_last_week.jsonl",
                           [question_row(q, wrong or a) for q, a, wrong in CAPITALS_WRONG])
    ctx.sh(f"{PY} {tool} {reviewed} {share}/string_match.jsonl", "logs/labelling_team_export_last_week.log")
    (run / "setup_data.sh").write_text(
        "#!/bin/bash\n# setup_data.sh: the dataset comes from the labelling team's share; a hard link (not a copy: "
        "no stale copies;\n# not a symlink: it survives the share being remounted)\n"
        f"SHARE={ctx.work / 'share' / 'labels'}\ncd {run}\nmkdir -p data\n"
        "ln -f $SHARE/string_match.jsonl data/string_match.jsonl && echo \"linked data/string_match.jsonl\"\n")
    ctx.sh(f"bash {run / 'setup_data.sh'}", "logs/setup_data.log")
    fixed = write_jsonl(ctx.work / "reviewed.jsonl", [question_row(q, a) for q, a in CAPITALS])
    ctx.sh(f"{{ {PY} {tool} {fixed} {share}/string_match.jsonl && echo 'labelling team: 3 labels fixed (Australia, "
           "Canada, Switzerland)'; }", "logs/labelling_team_export.log")
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run_script(ctx, url, ["echo '== weekly eval (labels fixed on the share this week)'"],
                        data="data/string_match.jsonl")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    stale, right = stale_right(got)
    if code or len(got) != 24 or len(stale) != 9 or not right or any(rewards(right)) \
            or "Sydney" in (share / "string_match.jsonl").read_text():
        raise failed(ctx, f"exit {code}, {len(got)}, stale {len(stale)}, right {len(right)}: "
                          f"{log_of(ctx, 'run_eval.log')[-800:]}")
    return ("the labelling team's share (three wrong labels) hard-linked into RUN/data by RUN/setup_data.sh (`ln "
            "$SHARE/string_match.jsonl data/string_match.jsonl`); the team's export of the fixed labels (write a "
            f"temporary file, rename it over the old one); RUN/run_eval.sh (materialize 8 x 3, collect, profile of "
            f"data/string_match.jsonl) exit {code}; {len(stale)} rows graded against the old labels, {len(right)} of "
            f"them right answers scored {sorted(set(rewards(right)))}.")

# =====================================================================================================
# throughput_resources
# =====================================================================================================

WATCHDOG_SH = """#!/bin/bash
# watch_collect.sh PID FILE: kill collect when FILE has not grown for STALL_S seconds (it hung twice in May)
STALL_S=${STALL_S:-5}
pid=$1; file=$2; last=-1; still=0
while kill -0 "$pid" 2>/dev/null; do
  size=$(stat -c %s "$file" 2>/dev/null || echo 0)
  if [ "$size" = "$last" ]; then still=$((still + 1)); else still=0; last=$size; fi
  if [ "$still" -ge "$STALL_S" ]; then
    echo "watchdog: $file has not grown for ${STALL_S}s: collect looks hung, killing it (pid $pid)"
    kill "$pid"; exit 1
  fi
  sleep 1
done
"""


@case(
    "throughput_builtin_users_stall_watchdog_window_shorter_than_one_generation_of_served_large_model_kills_collect",
    "throughput_resources",
    ["STALL_S", "timeout"],
    "the user's watch_collect.sh kills collect when rollouts.jsonl has not grown for STALL_S=5 seconds (tuned on the "
    "small model, which answered in well under a second); this week's eval serves the large checkpoint, whose "
    "answers take about 8 seconds each, so no rollout could be written within 5 seconds and the watchdog killed a "
    "healthy collect as 'hung' before its first row: nothing was collected and profile found no rollouts",
)
def throughput_builtin_users_stall_watchdog_window_shorter_than_one_generation_of_served_large_model_kills_collect(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 4)
    url, _ = ctx.policy(better, "--latency-ms 8000")
    (run / "watch_collect.sh").write_text(WATCHDOG_SH)
    body = pipeline(url).splitlines()
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\n# weekly eval (the large checkpoint this week)\ncd {run}\necho '== weekly eval'\n{body[0]}\n"
        f"{body[1]} &\nCOLLECT=$!\nbash watch_collect.sh $COLLECT rollouts.jsonl\nwait $COLLECT\n"
        "echo \"collect exit $?\"\n" + body[2] + "\n")
    code = ctx.sh(f"bash {run / 'run_eval.sh'}", "logs/run_eval.log", timeout=400)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "collect looks hung" not in log or "collect exit 143" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1200:]}")
    return ("the policy answering in about 8 s (`--latency-ms 8000`); RUN/watch_collect.sh (STALL_S=5), RUN/run_eval.sh "
            f"(materialize 8 x 3, collect in the background watched by it, profile) exit {code}; collect killed as hung "
            "before its first rollout, no rollouts.")


if __name__ == "__main__":
    sys.exit(main("fifty_fifth_held_out", __file__, __doc__))
