"""Build the FIFTY-SIXTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/fifty_sixth_held_out.py --out tests/data/diagnosis_corpus/fifty_sixth_held_out [--only CASE ...]

This set was written after the fifty-five earlier sets (first_held_out.py ... fifty_fifth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`), Slurm batch
jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval profile` inside a loopback-only network
namespace), and the user's own shell scripts, settings, environment files, Slurm scripts, gateways in front of the
model server, data files and resources servers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the fifty-five earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). Some of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""
from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, gym_start, gym_start_failing, stop_gym  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_second_held_out import submit  # noqa: E402
from fortieth_held_out import complete  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import (  # noqa: E402
    GYM,
    Ctx,
    case,
    gym_model_args,
    main,
    rewrite_rows,
    rows_of,
    text_of,
    user_resources_server,
)
from thirtieth_held_out import gateway_url, gym_rows  # noqa: E402
from thirty_fifth_held_out import mean_reward  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs  # noqa: E402
from twenty_fourth_held_out import gym_profile_line, keep_server_code  # noqa: E402
from twenty_sixth_held_out import slurm_script  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def eval_script(ctx: Ctx, overrides: str, lines: list[str] | None = None, repeats: int = 3, concurrency: int = 4,
                agent: str = "string_match_simple_agent", extra: str = "") -> Path:
    """RUN/run_eval.sh: `lines`, then `gym eval run --no-serve` on RUN/tasks.jsonl into RUN/results, and profile."""
    script = ctx.run / "run_eval.sh"
    script.write_text(
        "#!/bin/bash\n# weekly eval\n" + f"cd {ctx.run}\n" + "".join(f"{line}\n" for line in lines or [])
        + f"{GYM} eval run --no-serve {extra} --agent {agent} --input tasks.jsonl --output results/rollouts.jsonl "
          f"--num-repeats {repeats} --concurrency {concurrency} ++route_failures_to_sidecar=true {overrides}\n"
        + gym_profile_line("results") + "\n")
    return script


def week(ctx: Ctx, start: int, n: int = 8, weaker: bool = False, flags: str = "--latency-ms 30",
         front=None, edit=None, prep=None, env_extra: str = "", lines: list[str] | None = None, repeats: int = 3,
         server: tuple[str, object] | None = None, eval_timeout: float = 400) -> tuple[int | None, list[dict]]:
    """The user's tasks RUN/tasks.jsonl (`edit(index, row)` applied after the policy learnt them), a simulated
    policy (behind `front(url)` when given: the team's gateway), `gym env start`, RUN/run_eval.sh; with `server`
    (name, edit_app) a user's own resources server copied from Gym's string_match."""
    run = ctx.run
    data = ctx.dataset("string_match", n, start=start, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[0 if weaker else 1]
    if edit is not None:
        rewrite_rows(data, edit)
    if prep is not None:
        prep(data)
    url, policy = ctx.policy(checkpoint, flags, log="policy_server.log")
    if front is not None:
        url = front(url)
    overrides = ctx.gym_overrides()
    search, resources, agent = "", "string_match", "string_match_simple_agent"
    if server is not None:
        name, edit_app = server
        folder = user_resources_server(ctx, name, "string_match", edit_app)
        keep_server_code(ctx, folder, name)
        search, resources, agent = f"--search-dir {folder}", name, f"{name}_simple_agent"
    env_start = gym_start(ctx, f"{search} {gym_model_args(url, resources_server=resources)} {env_extra} "
                               f"{overrides}".replace("  ", " ").strip())
    script = eval_script(ctx, overrides, lines, repeats=repeats, agent=agent, extra=search)
    process = ctx.bg(f"bash {script}", "logs/run_eval.log")
    try:
        process.wait(timeout=eval_timeout)
    except Exception:
        ctx.note(f"{eval_timeout:g} s without RUN/run_eval.sh ending: Ctrl-C on it")
    ctx.stop(process, signal.SIGINT, 30)
    stop_gym(ctx, env_start, policy)
    return process.returncode, gym_rows(ctx)


def failures(ctx: Ctx) -> list[dict]:
    return rows_of(ctx.run / "results" / "rollouts_failures.jsonl")


def profiled(ctx: Ctx) -> list[dict]:
    return rows_of(ctx.run / "results" / "rollouts_reward_profiling.jsonl")


def everything(ctx: Ctx) -> str:
    return "".join(text_of(p) for p in ctx.run.rglob("*") if p.is_file() and p.suffix in (".log", ".jsonl", ".json"))


def modes(ctx: Ctx, rows: list[dict]) -> dict[str, list[float]]:
    """The rewards of `rows` by the extraction mode of their task (a task's index is its line in tasks.jsonl)."""
    tasks = rows_of(ctx.run / "tasks.jsonl")
    by_mode: dict[str, list[float]] = {}
    for row in rows:
        mode = tasks[row["_ng_task_index"]].get("extraction_mode", "?")
        by_mode.setdefault(mode, []).append(float(row.get("reward") or 0))
    return by_mode


# =====================================================================================================
# the real NeMo Gym 0.7.0: healthy
# =====================================================================================================


@case(
    "healthy_gym_run_script_checks_head_server_on_docs_default_port_that_this_run_does_not_use",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh first lists Gym's servers with `curl http://127.0.0.1:11000/"
    "server_instances`, the docs' default head port; this run's head server listens on another port (++head_server."
    "port), so curl prints 'Failed to connect to 127.0.0.1 port 11000' and the script goes on; every rollout was "
    "collected, verified and profiled",
    netns=True,
)
def healthy_gym_run_script_checks_head_server_on_docs_default_port_that_this_run_does_not_use(ctx: Ctx) -> str:
    lines = ["echo '== Gym servers (head server, docs default port)'",
             "curl -sS --max-time 5 http://127.0.0.1:11000/server_instances || echo 'could not list the servers'"]
    code, got = week(ctx, 16, lines=lines, weaker=True)
    log = log_of(ctx, "run_eval.log")
    if code or len(keys_of(got)) != 24 or "port 11000" not in log or len(profiled(ctx)) != 8:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace) `gym env start` (head server on a private port); "
            f"RUN/run_eval.sh (`curl http://127.0.0.1:11000/server_instances`, `gym eval run --no-serve` 8 x 3, `gym "
            f"eval profile`) exit {code}; {len(got)} rollouts, mean reward {mean(rewards(got)):.2f} (step_0100); "
            f"curl could not connect.")


REASONING_HOOK = r'''
# The deployment behind this gateway runs with a reasoning parser (INFRA-912): the reply's working goes to
# `reasoning_content`, only the conclusion (after the last blank line) stays in `content`, as vLLM returns them.


def completion(handler, body):
    status, data = handler._upstream(body)
    if status != 200:
        return status, data
    reply = json.loads(data)
    for choice in reply.get("choices", []):
        message = choice.get("message") or {}
        content = message.get("content")
        if isinstance(content, str) and "\n\n" in content:
            reasoning, _, conclusion = content.rpartition("\n\n")
            message["reasoning_content"], message["content"] = reasoning, conclusion
    return status, json.dumps(reply).encode()
'''


@case(
    "healthy_gym_gateway_splits_replies_with_reasoning_parser_and_gym_keeps_reasoning_as_its_own_output_item",
    "healthy",
    [],
    "nothing is wrong: the team's gateway.py in front of the model server returns each reply as vLLM does with a "
    "reasoning parser (the working in `reasoning_content`, the conclusion in `content`); Gym's vllm_model proxy "
    "(uses_reasoning_parser, its default) turns the reasoning into a reasoning output item of the response and "
    "string_match grades the message, so the rollouts carry reasoning items as well; every rollout was collected, "
    "verified and profiled",
    netns=True,
)
def healthy_gym_gateway_splits_replies_with_reasoning_parser_and_gym_keeps_reasoning_as_its_own_output_item(
        ctx: Ctx) -> str:
    front = lambda url: gateway_url(ctx, url, "Splits reasoning like vLLM's parser.", REASONING_HOOK)  # noqa: E731
    code, got = week(ctx, 64, front=front)
    with_reasoning = [r for r in got if any(item.get("type") == "reasoning" for item in r["response"]["output"])]
    if code or len(keys_of(got)) != 24 or not with_reasoning or mean(rewards(got)) < 0.4 or len(profiled(ctx)) != 8:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(with_reasoning)}, {rewards(got)}: "
                          f"{log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/gateway.py (moves each reply's working to `reasoning_content`) in front of the simulated policy "
            f"serving step_0200; real NeMo Gym 0.7.0 (loopback-only namespace) `gym env start` against the gateway, "
            f"RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit {code}; {len(got)} rollouts "
            f"({len(with_reasoning)} with a reasoning item), mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# the real NeMo Gym 0.7.0: model_serving (the team's gateway in front of the model server)
# =====================================================================================================

CONTEXT_HOOK = '''
# The deployment behind this gateway was the 4k-context draft model: refuse what it cannot hold with vLLM's own
# error, before the backend is hit (cheaper). (Since INFRA-877 the backend serves the 32k-context policy.)
MAX_MODEL_LEN = 4096


def completion(handler, body):
    request = json.loads(body)
    prompt = sum(round(len(str(m.get("content") or "").split()) * 1.3) for m in request.get("messages", []))
    completion_budget = request.get("max_tokens") or request.get("max_completion_tokens") or 16
    if prompt + completion_budget > MAX_MODEL_LEN:
        message = (f"This model's maximum context length is {MAX_MODEL_LEN} tokens. However, you requested "
                   f"{prompt + completion_budget} tokens ({prompt} in the messages, {completion_budget} in the "
                   f"completion). Please reduce the length of the messages or completion.")
        return 400, json.dumps({"object": "error", "message": message, "type": "BadRequestError", "param": None,
                                "code": 400}).encode()
    return handler._upstream(body)
'''


def reasoning_budget(index: int, row: dict) -> bool:
    row["responses_create_params"]["max_output_tokens"] = 8192
    return True


@case(
    "model_serving_gym_gateway_context_window_check_kept_from_4k_draft_deployment_refuses_every_request",
    "model_serving",
    ["MAX_MODEL_LEN"],
    "the team's gateway.py in front of the model server still checks requests against `MAX_MODEL_LEN = 4096`, the "
    "context window of the draft model it used to front (the backend now serves the 32k-context policy), and refuses "
    "every request of the eval (8192 max_output_tokens) with vLLM's 'maximum context length' 400; Gym's model proxy "
    "turns that error into an empty completion (finish_reason length), so every rollout was 'completed' with an "
    "empty reply and reward 0 (every command exits 0)",
    netns=True,
)
def model_serving_gym_gateway_context_window_check_kept_from_4k_draft_deployment_refuses_every_request(
        ctx: Ctx) -> str:
    front = lambda url: gateway_url(ctx, url, "Checks the deployment's context window.", CONTEXT_HOOK)  # noqa: E731
    code, got = week(ctx, 4, front=front, edit=reasoning_budget)
    gateway_log = log_of(ctx, "gateway.log")
    if code or len(keys_of(got)) != 24 or any(rewards(got)) or '" 400' not in gateway_log:
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}: {gateway_log[-800:]} "
                          f"{log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/tasks.jsonl (8 tasks, `max_output_tokens: 8192`); RUN/gateway.py (`MAX_MODEL_LEN = 4096`, refuses "
            f"longer requests with vLLM's 400) in front of the simulated policy serving step_0200; real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym env start` against the gateway, RUN/run_eval.sh (`gym eval run --no-serve` "
            f"8 x 3, `gym eval profile`) exit {code}; {len(got)} rollouts, every reward 0.")


LATEX_HOOK = r'''
import re

# Replies go to the team's chat UI and Slack too, which show LaTeX as raw markup: render the common commands as
# plain text (\boxed{x} -> x, \text{x} -> x).
LATEX_COMMAND = re.compile(r"\\(?:boxed|text|mathrm|textbf)\{([^{}]*)\}")


def completion(handler, body):
    status, data = handler._upstream(body)
    if status != 200:
        return status, data
    reply = json.loads(data)
    for choice in reply.get("choices", []):
        message = choice.get("message") or {}
        if isinstance(message.get("content"), str):
            message["content"] = LATEX_COMMAND.sub(r"\1", message["content"])
    return status, json.dumps(reply).encode()
'''


@case(
    "model_serving_gym_gateway_renders_latex_markup_as_plain_text_for_chat_ui_so_boxed_answers_lose_their_box",
    "model_serving",
    ["boxed"],
    "the team's gateway.py in front of the model server renders LaTeX commands of every reply as plain text for its "
    "chat UI (`\\boxed{36}` -> `36`); the eval goes through it, so the replies to the tasks that ask for a \\boxed{} "
    "answer reached Gym without the box, string_match extracted nothing from them and every boxed task scored 0, "
    "while the final-answer and last-line tasks scored normally (every command exits 0)",
    netns=True,
)
def model_serving_gym_gateway_renders_latex_markup_as_plain_text_for_chat_ui_so_boxed_answers_lose_their_box(
        ctx: Ctx) -> str:
    front = lambda url: gateway_url(ctx, url, "Renders LaTeX for the chat UI.", LATEX_HOOK)  # noqa: E731
    code, got = week(ctx, 24, front=front)
    by_mode = modes(ctx, got)
    boxed, others = by_mode.get("boxed", []), by_mode.get("final_answer", []) + by_mode.get("last_line", [])
    if code or len(keys_of(got)) != 24 or not boxed or any(boxed) or not any(others) \
            or any("\\boxed" in json.dumps(r.get("response", {})) for r in got):
        raise failed(ctx, f"exit {code}, {len(got)}, {by_mode}: {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/gateway.py (renders `\\boxed{{x}}`, `\\text{{x}}` as plain text) in front of the simulated policy "
            f"serving step_0200; real NeMo Gym 0.7.0 (loopback-only namespace) `gym env start` against the gateway, "
            f"RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit {code}; {len(got)} rollouts, "
            f"boxed tasks' rewards {boxed}, the others' mean {mean(others):.2f}.")


# =====================================================================================================
# the real NeMo Gym 0.7.0: data_schema
# =====================================================================================================

CALCULATOR_TOOL = {"type": "function", "function": {
    "name": "calculator", "description": "Evaluate an arithmetic expression.",
    "parameters": {"type": "object", "properties": {"expression": {"type": "string"}}, "required": ["expression"]}}}


def chat_completions_tools(index: int, row: dict) -> bool:
    row["responses_create_params"]["tools"] = [CALCULATOR_TOOL]
    row["responses_create_params"]["tool_choice"] = "auto"
    return True


@case(
    "data_schema_gym_rows_carry_calculator_tool_in_chat_completions_format_instead_of_responses_format",
    "data_schema",
    ["tools"],
    "the user's tasks.jsonl gives every row the team's calculator tool, copied from their Chat Completions harness: "
    "`tools: [{type: function, function: {name, description, parameters}}]`; Gym's rows are Responses API "
    "parameters, whose function tools are flat (`{type: function, name, parameters, strict}`), so every row failed "
    "validation and no rollout was collected",
    netns=True,
)
def data_schema_gym_rows_carry_calculator_tool_in_chat_completions_format_instead_of_responses_format(
        ctx: Ctx) -> str:
    code, got = week(ctx, 32, edit=chat_completions_tools)
    if got or "FunctionToolParam" not in everything(ctx):
        raise failed(ctx, f"exit {code}, {len(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/tasks.jsonl (every row's responses_create_params has `tools` in Chat Completions form); real NeMo "
            f"Gym 0.7.0 (loopback-only namespace) `gym env start`, RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, "
            f"`gym eval profile`) exit {code}; no rollouts.")


def expand_samples(path: Path, copies: int) -> None:
    """The user's prep: every task written `copies` times, one row per sample."""
    rows = rows_of(path)
    path.write_text("".join(json.dumps({**row, "sample_id": k}) + "\n" for row in rows for k in range(copies)))


@case(
    "data_schema_gym_rows_pre_expanded_per_sample_with_sample_id_so_gym_profiles_each_copy_as_its_own_task",
    "data_schema",
    ["repeats"],
    "the user's prep script (from the old in-house harness, which sampled once per row) writes every task three "
    "times with a `sample_id` 0-2 and run_eval.sh runs `gym eval run --num-repeats 1`; Gym takes a task to be one "
    "distinct input line, so the three copies became three tasks of one rollout each: the profile holds 24 tasks "
    "instead of 8, none with the 3 rollouts meant for its pass@k and variance (every command exits 0)",
    netns=True,
)
def data_schema_gym_rows_pre_expanded_per_sample_with_sample_id_so_gym_profiles_each_copy_as_its_own_task(
        ctx: Ctx) -> str:
    code, got = week(ctx, 40, prep=lambda path: expand_samples(path, 3), repeats=1)
    profile = profiled(ctx)
    if code or len(got) != 24 or len(profile) != 24 or any(p.get("num_rollouts") != 1 for p in profile):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(profile)} profile rows")
    return (f"RUN/tasks.jsonl (8 tasks x 3 copies, `sample_id` 0-2); real NeMo Gym 0.7.0 (loopback-only namespace) "
            f"`gym env start`, RUN/run_eval.sh (`gym eval run --no-serve --num-repeats 1`, `gym eval profile`) exit "
            f"{code}; {len(got)} rollouts, {len(profile)} profiled tasks of 1 rollout each, mean reward "
            f"{mean(rewards(got)):.2f}.")


def numeric_labels_as_numbers(index: int, row: dict) -> bool:
    """The user's prep: `json.dumps` of the labels column as pandas read it (numbers as numbers)."""
    label = row["expected_answer"]
    if label.lstrip("-").isdigit():
        row["expected_answer"] = int(label)
        return True
    return False


@case(
    "data_schema_gym_prep_writes_numeric_labels_as_json_numbers_that_string_match_request_refuses",
    "data_schema",
    ["expected_answer"],
    "the user's prep script builds tasks.jsonl from the answer-key CSV with pandas, which reads the numeric answers "
    "as integers, and json.dumps writes them as JSON numbers (`\"expected_answer\": 36`); string_match's request "
    "model takes expected_answer as a string and refuses a number, so every rollout of the numeric tasks failed "
    "validation (the failures sidecar) while the tasks with word answers were scored, and the profile refused the "
    "partial collection",
    netns=True,
)
def data_schema_gym_prep_writes_numeric_labels_as_json_numbers_that_string_match_request_refuses(ctx: Ctx) -> str:
    code, got = week(ctx, 0, edit=numeric_labels_as_numbers)
    tasks = rows_of(ctx.run / "tasks.jsonl")
    numeric = {i for i, row in enumerate(tasks) if isinstance(row["expected_answer"], int)}
    scored = {r["_ng_task_index"] for r in got}
    if not numeric or scored & numeric or not scored or "string_type" not in everything(ctx):
        raise failed(ctx, f"exit {code}, numeric {numeric}, scored {scored}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/tasks.jsonl ({len(numeric)} of 8 rows with `expected_answer` as a JSON number); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym env start`, RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval "
            f"profile`) exit {code}; {len(got)} rollouts, none of the numeric tasks, {len(failures(ctx))} failure "
            f"rows.")


# =====================================================================================================
# the real NeMo Gym 0.7.0: verifier_runtime (the user's own resources server)
# =====================================================================================================

NORMALIZE_HELPER = '''
    def _normalize(text):
        """Lower-case, without surrounding spaces or a final full stop (our answer key's convention)."""
        return text.strip().rstrip(".").lower()

'''


def helper_without_self(app: str) -> str:
    anchor = "    async def verify(self, body: StringMatchVerifyRequest)"
    app = app.replace(anchor, NORMALIZE_HELPER.lstrip("\n") + anchor)
    old = "            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)"
    new = ("            if self._normalize(extracted) == self._normalize(body.expected_answer):\n"
           "                reward = 1.0  # exact match under our answer key's convention\n"
           "            else:\n"
           "                reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)")
    assert old in app
    return app.replace(old, new)


@case(
    "verifier_runtime_gym_own_verify_calls_helper_method_defined_without_self_parameter",
    "verifier_runtime",
    ["_normalize"],
    "the user's own resources server key_match (Gym's string_match copied) gained a helper `def _normalize(text)` "
    "inside the server class, without `self` or @staticmethod, which verify calls as `self._normalize(extracted)`; "
    "every call with an extracted answer raised TypeError (takes 1 positional argument but 2 were given), so /verify "
    "answered 500 and no rollout was scored",
    netns=True,
)
def verifier_runtime_gym_own_verify_calls_helper_method_defined_without_self_parameter(ctx: Ctx) -> str:
    code, got = week(ctx, 48, server=("key_match", helper_without_self), eval_timeout=300)
    text = everything(ctx)
    if len(keys_of(got)) > 4 or "positional argument" not in text:
        raise failed(ctx, f"exit {code}, {len(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"a user's resources server key_match (RUN/my_gym: Gym's string_match with `def _normalize(text)` in the "
            f"class, called as `self._normalize(...)` in verify); real NeMo Gym 0.7.0 (loopback-only namespace) `gym "
            f"env start --search-dir`, RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit "
            f"{code}; {len(got)} rollouts, {len(failures(ctx))} failure rows.")


def required_extracted_answer(app: str) -> str:
    old = "    extracted_answer: Optional[str]\n"
    assert old in app
    return app.replace(old, "    extracted_answer: str  # the dashboard's answer column: always a string\n")


@case(
    "verifier_runtime_gym_own_verify_response_model_declares_extracted_answer_as_required_string",
    "verifier_runtime",
    ["extracted_answer"],
    "the user's own resources server answer_col (Gym's string_match copied) declares its verify response's "
    "`extracted_answer: str` (for the team dashboard) where Gym's has Optional[str]; when a reply holds no answer in "
    "the asked format, verify builds its response with extracted_answer None, which the model refuses, so /verify "
    "answered 500 for exactly the replies that should score 0: those rollouts failed (the failures sidecar) instead "
    "of scoring 0, the mean reward of the rest is biased upward, and `gym eval profile` refused the incomplete "
    "collection",
    netns=True,
)
def verifier_runtime_gym_own_verify_response_model_declares_extracted_answer_as_required_string(ctx: Ctx) -> str:
    code, got = week(ctx, 56, weaker=True, server=("answer_col", required_extracted_answer), eval_timeout=400)
    errors = [f for f in failures(ctx) if "extracted_answer" in json.dumps(f)]
    if not errors or len(keys_of(got)) >= 24:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(failures(ctx))} failures: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"a user's resources server answer_col (RUN/my_gym: Gym's string_match with `extracted_answer: str` in its "
            f"verify response); real NeMo Gym 0.7.0 (loopback-only namespace) `gym env start --search-dir`, "
            f"RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit {code}; {len(keys_of(got))} "
            f"rollouts, mean reward {mean(rewards(got)):.2f} (step_0100), {len(errors)} failed attempts naming "
            f"extracted_answer.")


IPV6_ONLY_HOSTS = """# /etc/hosts: rendered by the cluster's config management (template hosts-ipv6.j2, rolled out in CM-4411)
::1     localhost ip6-localhost ip6-loopback
ff02::1 ip6-allnodes
ff02::2 ip6-allrouters
"""


@case(
    "infra_gym_node_hosts_file_rendered_from_ipv6_only_template_has_no_ipv4_localhost",
    "infra",
    ["/etc/hosts"],
    "the eval node's /etc/hosts was re-rendered by the cluster's config management from an IPv6-only template: "
    "`localhost` now resolves to ::1 only and there is no `127.0.0.1 localhost` line; Gym's servers and Ray, which "
    "find this node's address through the host name localhost, could not come up as on any other node, and the eval "
    "collected nothing",
    netns=True,
)
def infra_gym_node_hosts_file_rendered_from_ipv6_only_template_has_no_ipv4_localhost(ctx: Ctx) -> str:
    hosts = ctx.work / "hosts"
    hosts.write_text(IPV6_ONLY_HOSTS)
    # the node's state, not a command of the user's: only this case's private mount namespace sees it
    subprocess.run(["mount", "--bind", str(hosts), "/etc/hosts"], check=True)
    ctx.note("(the node's /etc/hosts: `::1 localhost ip6-localhost ip6-loopback`, no IPv4 localhost line)")
    try:
        data = ctx.dataset("string_match", 8, start=72, folder=ctx.run, name="tasks.jsonl")
        better = checkpoints(ctx, "string_match", data)[1]
        url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
        overrides = ctx.gym_overrides()
        ready, exit_code = gym_start_failing(ctx, f"{gym_model_args(url)} {overrides}", timeout_s=150)
        code = ctx.sh(f"bash {eval_script(ctx, overrides)}", "logs/run_eval.log", timeout=300)
        stop_gym(ctx, policy)
    finally:
        subprocess.run(["umount", "/etc/hosts"], check=False)
    log = text_of(ctx.run / "env_start.log")
    if ready or gym_rows(ctx) or "[::1]" not in log:
        raise failed(ctx, f"ready {ready}, exit {exit_code}/{code}: {log[-1500:]}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace) on a node whose /etc/hosts maps localhost to ::1 only: "
            f"`gym env start` not ready after 150 s (Ray's GCS at [::1] unreachable), Ctrl-C (exit {exit_code}); "
            f"RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit {code}; no rollouts.")


# =====================================================================================================
# Slurm batch jobs
# =====================================================================================================

SRUN_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=15
#SBATCH --ntasks=1
cd RUN_DIR
echo "== weekly eval, job $SLURM_JOB_ID"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
srun SRUN_FLAGS GP_BIN collect --inputs rollouts_materialized_inputs.jsonl \\
  --output rollouts.jsonl --model-url MODEL_URL --env string_match --concurrency 4
srun SRUN_FLAGS GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "healthy_slurm_steps_ask_srun_for_core_binding_that_this_cluster_does_not_support",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch runs collect and profile as `srun --cpu-bind=cores` steps (from the "
    "GPU cluster's template); this cluster has no task affinity plugin, so srun prints 'cluster configuration lacks "
    "support for cpu binding' and runs each step unbound; the job collected and profiled every rollout",
)
def healthy_slurm_steps_ask_srun_for_core_binding_that_this_cluster_does_not_support(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 10)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(SRUN_SBATCH, ctx, MODEL_URL=url, SRUN_FLAGS="--cpu-bind=cores"))
    code = submit(ctx)
    got = complete(ctx)
    job = job_logs(ctx, "eval_*.log")
    if code or got != 24 or "lacks support for cpu binding" not in job \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {job[-1500:]} {text_of(run / 'logs' / 'submit.log')[-600:]}")
    return (f"RUN/eval.sbatch (materialize 8 x 3; `srun --cpu-bind=cores` collect, profile) via RUN/submit.sh exit "
            f"{code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


OLD_CLUSTER_ENV = """# cluster_env.sh: my shell settings, sourced by every script (brought over from the old cluster)
export PATH=$HOME/bin:$PATH
export SQUEUE_FORMAT="%.10i %.20j %.8T %.10M %R"
# multi-node jobs there needed PMIx
export SLURM_MPI_TYPE=pmix
"""


@case(
    "infra_slurm_shell_settings_from_old_cluster_export_mpi_type_pmix_that_this_cluster_cannot_load",
    "infra",
    ["SLURM_MPI_TYPE"],
    "the user's submit.sh sources cluster_env.sh, brought over from the old cluster, which exports "
    "`SLURM_MPI_TYPE=pmix`; sbatch passes it into the job and every `srun` step reads it as its --mpi type, but this "
    "cluster cannot load the PMIx library ('Couldn't load specified plugin name for mpi/pmix'), so the collect and "
    "profile steps never started: materialize ran, no rollout was collected",
)
def infra_slurm_shell_settings_from_old_cluster_export_mpi_type_pmix_that_this_cluster_cannot_load(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 18)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "cluster_env.sh").write_text(OLD_CLUSTER_ENV)
    (run / "eval.sbatch").write_text(slurm_script(SRUN_SBATCH, ctx, MODEL_URL=url, SRUN_FLAGS="--ntasks=1"))
    code = submit(ctx, pre=[f"source {run}/cluster_env.sh"])
    job = job_logs(ctx, "eval_*.log")
    if complete(ctx) or (run / "rollouts_reward_profiling.jsonl").exists() \
            or not (run / "rollouts_materialized_inputs.jsonl").exists() or "mpi/pmix" not in job:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {job[-1500:]} {text_of(run / 'logs' / 'submit.log')[-600:]}")
    return (f"RUN/cluster_env.sh (`export SLURM_MPI_TYPE=pmix`) sourced by RUN/submit.sh; RUN/eval.sbatch (materialize "
            f"8 x 3; `srun` collect, profile) exit {code}; no rollouts.")


if __name__ == "__main__":
    sys.exit(main("fifty_sixth_held_out", __file__, __doc__))
