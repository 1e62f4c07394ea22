"""Reward profiling on a synthetic Gym 0.7.0 run of 20,000 tasks x 16 repeats, at half, full and double size.

Target (issue 4): at least 20x faster than Gym 0.7.0's `gym eval profile` on the same files (98.7 s and
3.8 GB on the reference machine for the full size), so under 5 s, with peak memory under 400 MB and
memory that does not grow with the rollouts file beyond the per-task summaries.

The run is deterministic and written under benchmarks/out/ (git-ignored), rows shaped like the 0.7.0
fixture rows: the full `responses_create_params`, a `response` object with output text and usage,
verifier fields, rollouts in completion order (shuffled in blocks), rewards varying by task difficulty
and output length, some responses cut off by the length limit and a few masked.

Each profile runs in a fresh child process (`profile_run` + `write_profile`, all five outputs). Memory:
the child's peak RSS (`ru_maxrss`), and, sampled every 20 ms over the child and its worker processes,
the largest worker peak (`VmHWM`) and the peak of their summed proportional set size (PSS, shared
pages split between processes) -- what the whole profile holds at once.

    .venv/bin/python benchmarks/profile_benchmark.py                  # 0.5x, 1x, 2x
    .venv/bin/python benchmarks/profile_benchmark.py --scales 1 --gym /path/to/venv/bin/gym

With `--gym`, the same files are also profiled by a real `gym eval profile` (its time and peak memory
are measured the same way) and its three output files are compared with ours (1e-9 relative).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import orjson

OUT = Path(__file__).resolve().parent / "out"
TASKS, REPEATS = 20_000, 16
GENERATOR_VERSION = 1  # bump when the generated rows change
AGENT = "string_match_simple_agent"
MAX_OUTPUT_TOKENS = 1024
WIDE_PADDING = 2700  # characters added to each output text of a "wide" run: about twice the bytes per row

_RESPONSES_CREATE_PARAMS = dict.fromkeys(
    ["background", "include", "input", "instructions", "max_output_tokens", "max_tool_calls", "metadata", "model",
     "parallel_tool_calls", "previous_response_id", "prompt", "reasoning", "service_tier", "store",
     "context_management", "conversation", "moderation", "prompt_cache_key", "prompt_cache_retention",
     "safety_identifier", "stream_options", "temperature", "text", "tool_choice", "tools", "top_logprobs", "top_p",
     "truncation", "user", "stream"]
) | {"parallel_tool_calls": True, "tool_choice": "auto", "tools": []}

_RESPONSE_TAIL = dict.fromkeys(
    ["parallel_tool_calls", "temperature", "tool_choice", "tools", "top_p", "background", "completed_at",
     "conversation", "max_output_tokens", "max_tool_calls", "moderation", "previous_response_id", "prompt",
     "prompt_cache_key", "prompt_cache_retention", "reasoning", "safety_identifier", "service_tier", "status", "text",
     "top_logprobs", "truncation", "usage", "user"]
) | {"parallel_tool_calls": True, "tool_choice": "auto", "tools": []}


def _prose(rng: random.Random, size: int) -> str:
    words = ["the", "answer", "is", "so", "we", "compute", "first", "then", "check", "value", "step", "result",
             "because", "sum", "of", "each", "term", "gives", "total", "therefore", "final", "number", "and"]
    text, length = [], 0
    while length < size:
        word = rng.choice(words)
        text.append(word)
        length += len(word) + 1
    return " ".join(text)


def _input_row(task: int, repeat: int, prompt: str, answer: str) -> dict:
    return {
        "responses_create_params": {"input": [
            {"role": "user", "type": "message", "content": [{"type": "input_text", "text": prompt}]},
        ]},
        "expected_answer": answer,
        "extraction_mode": "boxed",
        "case_sensitive": False,
        "agent_ref": {"name": AGENT},
        "_ng_task_index": task,
        "_ng_rollout_index": repeat,
    }


def _rollout_row(rng: random.Random, prose: str, task: int, repeat: int, prompt: str, answer: str,
                 solve_rate: float, padding: str) -> dict:
    output_tokens = min(MAX_OUTPUT_TOKENS, int(rng.lognormvariate(4.55, 0.6)) + 5)
    cut_off = output_tokens >= MAX_OUTPUT_TOKENS or rng.random() < 0.01
    # Longer answers are right less often; cut-off ones never.
    solved = not cut_off and rng.random() < solve_rate * (1.15 - output_tokens / 2 / MAX_OUTPUT_TOKENS)
    reward = 1.0 if solved else (0.5 if rng.random() < 0.03 else 0.0)
    masked = rng.random() < 0.001
    start = rng.randrange(len(prose) - 4200)
    text = padding + prose[start:start + 4 * output_tokens - 20] + f" \\boxed{{{answer if solved else 'x'}}}."
    input_tokens = len(prompt) // 4 + 11
    params = _RESPONSES_CREATE_PARAMS | {"input": [{"content": [{"text": prompt, "type": "input_text"}],
                                                    "role": "user", "type": "message", "phase": None}]}
    response = {
        "id": f"resp_{rng.getrandbits(128):032x}",
        "created_at": 1796029444.0 + task,
        "error": None,
        "incomplete_details": {"reason": "max_output_tokens"} if cut_off else None,
        "instructions": None,
        "metadata": None,
        "model": "fake-model",
        "object": "response",
        "output": [{
            "id": f"msg_{rng.getrandbits(128):032x}",
            "content": [{"annotations": [], "text": text, "type": "output_text", "logprobs": None}],
            "role": "assistant", "status": "incomplete" if cut_off else "completed", "type": "message", "phase": None,
        }],
    } | _RESPONSE_TAIL | {
        "status": "incomplete" if cut_off else "completed",
        "usage": {"input_tokens": input_tokens, "input_tokens_details": {"cached_tokens": None},
                  "output_tokens": output_tokens, "output_tokens_details": {"reasoning_tokens": None},
                  "total_tokens": input_tokens + output_tokens},
    }
    return {
        "responses_create_params": params,
        "response": response,
        "reward": reward,
        "mask_sample": masked,
        "failure_kind": "judge_failed" if masked else None,
        "failure_reason": "judge returned no verdict" if masked else None,
        "expected_answer": answer,
        "extracted_answer": answer if solved else "x",
        "_ng_task_index": task,
        "_ng_rollout_index": repeat,
        "agent_ref": {"name": AGENT},
        "_ng_environment_server": "string_match_environment_server",
        "_ng_result_type": "legacy_agent",
    }


def generate_run(folder: Path, tasks: int, repeats: int, seed: int = 4, padding: int = 0) -> tuple[Path, Path]:
    """A Gym-format run (materialized inputs and rollouts); reused when already generated. `padding`
    lengthens every output text by that many characters (same rollouts, a bigger file)."""
    inputs, rollouts, marker = (folder / "rollouts_materialized_inputs.jsonl", folder / "rollouts.jsonl",
                                folder / "generated.json")
    wanted = {"tasks": tasks, "repeats": repeats, "seed": seed, "padding": padding, "version": GENERATOR_VERSION}
    if marker.exists() and orjson.loads(marker.read_bytes()) == wanted:
        return inputs, rollouts
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    prose = _prose(rng, 64_000)
    pad = _prose(random.Random(seed + 1), padding)[:padding]
    block: list[bytes] = []
    with inputs.open("wb") as inputs_file, rollouts.open("wb") as rollouts_file:
        for task in range(tasks):
            prompt = f"Problem {task}: {_prose(rng, rng.randrange(60, 300))}? Put your final answer in \\boxed{{}}."
            answer = str(rng.randrange(10_000))
            kind = rng.random()
            solve_rate = 0.0 if kind < 0.15 else 1.0 if kind > 0.8 else rng.random()
            for repeat in range(repeats):
                inputs_file.write(orjson.dumps(_input_row(task, repeat, prompt, answer)) + b"\n")
                block.append(orjson.dumps(_rollout_row(rng, prose, task, repeat, prompt, answer, solve_rate,
                                                        pad)) + b"\n")
            if len(block) >= 256 or task == tasks - 1:  # completion order: shuffled within blocks
                rng.shuffle(block)
                rollouts_file.writelines(block)
                block.clear()
    marker.write_bytes(orjson.dumps(wanted))
    return inputs, rollouts


# --------------------------------------------------------------------------------------------------
# Measuring a child process and its descendants


def _children(pid: int) -> list[int]:
    try:
        children = []
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                children += [int(child) for child in handle.read().split()]
        return children
    except OSError:
        return []


def _descendants(root: int) -> list[int]:
    pids, frontier = [], _children(root)
    while frontier:
        pid = frontier.pop()
        pids.append(pid)
        frontier += _children(pid)
    return pids


def _kib(path: str, field: str) -> int:
    try:
        with open(path) as handle:
            for line in handle:
                if line.startswith(field):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class TreeSampler(threading.Thread):
    """Samples the descendants of a process: the peak of their summed PSS, and each one's peak RSS (VmHWM)."""

    def __init__(self, root: int):
        super().__init__(daemon=True)
        self.root = root
        self.peak_pss_kib = 0
        self.peak_rss_kib: dict[int, int] = {}
        self.command: int | None = None  # the root's child: the measured command
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            pss = 0
            if self.command is None:
                self.command = next(iter(_children(self.root)), None)
            for pid in _descendants(self.root):
                pss += _kib(f"/proc/{pid}/smaps_rollup", "Pss:")
                self.peak_rss_kib[pid] = max(self.peak_rss_kib.get(pid, 0), _kib(f"/proc/{pid}/status", "VmHWM:"))
            self.peak_pss_kib = max(self.peak_pss_kib, pss)
            self.done.wait(0.02)


# Runs the command as its only child and reports that child's exact peak RSS (ru_maxrss), and the CPU time
# of the command and the processes it waited for (its workers): a measure other load on the machine hardly moves.
_WRAPPER = (
    "import json, resource, subprocess, sys\n"
    "code = subprocess.call(sys.argv[1:])\n"
    "usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(json.dumps({'peak_rss_mb': usage.ru_maxrss / 1024, 'cpu_s': usage.ru_utime + usage.ru_stime}))\n"
    "sys.exit(code)\n"
)


def measure(command: list[str], cwd: Path | None = None) -> dict:
    """Run a command: its wall time and peak RSS, its workers' largest peak RSS, and the peak PSS of all (MB)."""
    started = time.perf_counter()
    wrapper = subprocess.Popen([sys.executable, "-c", _WRAPPER, *command], cwd=cwd, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    sampler = TreeSampler(wrapper.pid)
    sampler.start()
    stdout, stderr = wrapper.communicate()
    wall = time.perf_counter() - started
    sampler.done.set()
    sampler.join()
    if wrapper.returncode != 0:
        raise RuntimeError(f"{command} failed:\n{stderr.decode()[-3000:]}")
    *output, report = stdout.decode().strip().splitlines()
    workers = [kib for pid, kib in sampler.peak_rss_kib.items() if pid != sampler.command]
    return json.loads(report) | {
        "wall_s": wall,
        "worker_peak_rss_mb": max(workers, default=0) / 1024,
        "peak_tree_pss_mb": sampler.peak_pss_kib / 1024,
        "output": output,
    }


def _child(inputs: str, rollouts: str, output_dir: str) -> None:
    """Profile in this (fresh) process; print the time spent in profile_run and write_profile."""
    import warnings

    from gym_pipeline.core.profile import profile_run, write_profile

    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = profile_run(inputs, rollouts)
    profiled = time.perf_counter()
    write_profile(result, Path(rollouts), Path(output_dir))
    finished = time.perf_counter()
    print(json.dumps({"profile_s": profiled - started, "write_s": finished - profiled, "total_s": finished - started}))


# --------------------------------------------------------------------------------------------------
# Comparing with Gym's own output


def _same(ours, gyms, where: str = "$") -> str | None:
    """None when equal (keys in order, numbers within 1e-9 relative), else where they differ."""
    if isinstance(gyms, dict):
        if not isinstance(ours, dict) or list(ours) != list(gyms):
            return f"{where}: keys differ"
        return next((d for k in gyms if (d := _same(ours[k], gyms[k], f"{where}.{k}"))), None)
    if isinstance(gyms, list):
        if not isinstance(ours, list) or len(ours) != len(gyms):
            return f"{where}: lengths differ"
        return next((d for i, (a, b) in enumerate(zip(ours, gyms, strict=True)) if (d := _same(a, b, f"{where}[{i}]"))),
                    None)
    if isinstance(gyms, float) or isinstance(ours, float):
        ok = type(ours) is type(gyms) and math.isclose(ours, gyms, rel_tol=1e-9, abs_tol=1e-12)
        return None if ok else f"{where}: {ours!r} vs {gyms!r}"
    return None if type(ours) is type(gyms) and ours == gyms else f"{where}: {ours!r} vs {gyms!r}"


def compare_outputs(ours: Path, gyms: Path) -> dict[str, str]:
    verdicts = {}
    for name in ("rollouts_reward_profiling.jsonl", "rollouts_agent_metrics.json", "rollouts_repeat_level_metrics.json"):
        if name.endswith(".jsonl"):
            with (ours / name).open("rb") as a, (gyms / name).open("rb") as b:
                difference = next((d for i, (x, y) in enumerate(zip(a, b, strict=True))
                                   if (d := _same(orjson.loads(x), orjson.loads(y), f"line {i + 1}"))), None)
        else:
            difference = _same(orjson.loads((ours / name).read_bytes()), orjson.loads((gyms / name).read_bytes()))
        verdicts[name] = difference or "same"
    return verdicts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", default="0.5,1,2,1w", help="multiples of 20,000 tasks (16 repeats each); "
                        "`w` marks a run with the same rollouts but rows about twice as long")
    parser.add_argument("--runs", type=int, default=3, help="profiles per size")
    parser.add_argument("--gym", type=Path, help="a `gym` executable (nemo-gym 0.7.0) to profile the same files")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return

    for scale in args.scales.split(","):
        tasks, wide = int(TASKS * float(scale.removesuffix("w"))), scale.endswith("w")
        folder = OUT / f"profile_{tasks}x{REPEATS}{'_wide' if wide else ''}"
        started = time.perf_counter()
        inputs, rollouts = generate_run(folder, tasks, REPEATS, padding=WIDE_PADDING if wide else 0)
        generated = time.perf_counter() - started
        size_mb = (inputs.stat().st_size + rollouts.stat().st_size) / 1e6
        print(f"\n{tasks} tasks x {REPEATS} repeats: rollouts {rollouts.stat().st_size / 1e6:.0f} MB, materialized "
              f"inputs {inputs.stat().st_size / 1e6:.0f} MB ({size_mb:.0f} MB; generated in {generated:.1f} s)")
        subprocess.run(["cat", str(inputs), str(rollouts)], stdout=subprocess.DEVNULL, check=True)  # page cache
        ours = folder / "ours"
        runs = []
        for _ in range(args.runs):
            shutil.rmtree(ours, ignore_errors=True)
            load = os.getloadavg()[0]  # other work on the machine slows the runs down
            run = measure([sys.executable, __file__, "--child", str(inputs), str(rollouts), str(ours)])
            run |= json.loads(run.pop("output")[-1]) | {"load_before": load}
            runs.append(run)
        for key in ("wall_s", "total_s", "profile_s", "write_s", "cpu_s", "peak_rss_mb", "worker_peak_rss_mb",
                    "peak_tree_pss_mb", "load_before"):
            values = [run[key] for run in runs]
            print(f"  {key:20} best {min(values):8.2f}  median {sorted(values)[len(values) // 2]:8.2f}   "
                  f"(runs: {', '.join(f'{v:.2f}' for v in values)})")
        if args.gym:
            gyms = folder / "gym"
            shutil.rmtree(gyms, ignore_errors=True)
            gyms.mkdir()
            for name in (inputs.name, rollouts.name):
                (gyms / name).symlink_to(folder / name)
            run = measure([str(args.gym), "eval", "profile", "--inputs", inputs.name, "--rollouts", rollouts.name],
                          cwd=gyms)
            print(f"  gym eval profile: wall {run['wall_s']:.1f} s, peak RSS {run['peak_rss_mb']:.0f} MB, "
                  f"peak tree PSS {run['peak_tree_pss_mb']:.0f} MB")
            for name, verdict in compare_outputs(ours, gyms).items():
                print(f"  {name}: {verdict}")


if __name__ == "__main__":
    main()
