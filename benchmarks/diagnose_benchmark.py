"""Diagnosis throughput and memory over large logs: `diagnose()` on a run folder with 1 GB of logs.

Target (issue 5): at least 200 MB/s, with memory that does not grow with log size.
Run: .venv/bin/python benchmarks/diagnose_benchmark.py [--sizes-gb 0.5 1] [--runs 3] [--errors-every N]

Each size gets a run folder under benchmarks/out/ (git-ignored), generated once and deterministically:
`logs/env_start.log`, lines shaped like what `gym env start` prints with its Ray workers, uvicorn
servers, a vLLM policy server and the eval client's progress, with one real verifier traceback at
99% of the file and a Ctrl-C's shutdown tracebacks after it. The benchmark checks the diagnosis
names that buried error (not the noise), measures the time of whole `diagnose()` calls with the
file in the page cache, and the peak RSS of a fresh child process diagnosing each size.

`--errors-every N` adds a retried-request error line every N lines (a noisy run: every chunk of
the file then holds lines to read); the diagnosis must then name the first of them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

OUT = Path(__file__).parent / "out"
LOG = "logs/env_start.log"
FORMAT_VERSION = "1"  # bump when the generated content changes

_BULK = (
    # (weight, template)
    (6, 'INFO {date} [loggers.py:123] Engine 000: Avg prompt throughput: {f1} tokens/s, Avg generation throughput: '
        '{f2} tokens/s, Running: {n} reqs, Waiting: 0 reqs, GPU KV cache usage: {f3}%, Prefix cache hit rate: {f1}%'),
    (5, '(policy_model) INFO:     127.0.0.1:{port} - "POST /v1/responses HTTP/1.1" 200 OK'),
    (4, 'INFO {date} [async_llm.py:270] Added request chatcmpl-{hex}.'),
    (3, "INFO {date} [logger.py:43] Received request chatcmpl-{hex}: prompt: '<|im_start|>user\\nWhat is the capital "
        "of France? Put your final answer in \\\\boxed{{}}.<|im_end|>\\n<|im_start|>assistant\\n', params: "
        "SamplingParams(n=1, temperature=1.0, top_p=1.0, top_k=0, seed=None, stop=[], max_tokens=2048), "
        "prompt_token_ids: None, lora_request: None."),
    (3, '(string_match) INFO:     127.0.0.1:{port} - "POST /verify HTTP/1.1" 200 OK'),
    (3, '(string_match_simple_agent) INFO:     127.0.0.1:{port} - "POST /run HTTP/1.1" 200 OK'),
    (2, 'Collecting rollouts:  {pct}%|######5   | {n}/20000 [01:{sec}<00:41, 124.18it/s]'
        '                     Finished {n} / 20000 rollouts ({pct}%) in 0:01:{sec} (6640.84 rollouts/min). Examples left:'),
    (2, 'Found {n} / 20000 ({f1}%) rollouts for `string_match_simple_agent`.'),
    (2, '    "reward": {f1},'),
    (1, "(raylet) [2026-11-30 09:{sec}:54,818 I {pid} {pid}] (raylet) node_manager.cc:512: Scheduling actor {hex} "
        "on node 1c2d3e4f with resources {{CPU: 1}}"),
    (1, "2026-11-30 09:{sec}:54,900\tINFO worker.py:1841 -- Connecting to existing Ray cluster at address: "
        "127.0.0.1:37363..."),
    (1, "[2026-11-30 09:05:{sec},221][nemo_gym.telemetry.connection_pool][INFO] - aiohttp connection pool capacity "
        "for this server/CLI process group: workers=1 aggregate_total=102400 aggregate_per_host=1024"),
    (1, "(pid={pid}) INFO {date} [gpu_model_runner.py:1245] Model loading took 14.9 GiB and 12.3 seconds"),
    (1, "WARNING {date} [scheduler.py:1097] Sequence group chatcmpl-{hex} is preempted by PreemptionMode.RECOMPUTE "
        "mode because there is not enough KV cache space."),
)

_START = """NeMo Gym is starting a new Ray cluster...
Started Ray cluster at 127.0.0.1:37363
Waiting for head server to spin up
INFO:     Started server process [16548]
INFO:     Uvicorn running on http://127.0.0.1:11000 (Press CTRL+C to quit)
(policy_model) INFO:     Started server process [17040]
(policy_model) INFO:     Uvicorn running on http://127.0.0.1:14690 (Press CTRL+C to quit)
(string_match) INFO:     Started server process [17035]
(string_match) INFO:     Uvicorn running on http://127.0.0.1:16591 (Press CTRL+C to quit)
All 4 / 4 servers ready! Polling every 60s
"""

_BURIED_ERROR = """(string_match) ERROR:    Exception in ASGI application
(string_match) Traceback (most recent call last):
(string_match)   File "/opt/gym/.venv/lib/python3.13/site-packages/resources_servers/string_match/app.py", line 88, in verify
(string_match)     expected = body.expected_answer.strip()
(string_match) KeyError: 'expected_answer'
"""
BURIED_HEADLINE = "(string_match) KeyError: 'expected_answer'"
RETRY_ERROR = "(string_match_simple_agent) ERROR:    /run to policy_model failed with 503, retrying (attempt 2 of 3)"

_SHUTDOWN_NOISE = """^CTraceback (most recent call last):
  File "/opt/gym/.venv/bin/gym", line 8, in <module>
    sys.exit(main())
KeyboardInterrupt
(string_match) INFO:     Shutting down
(string_match) ERROR:    Traceback (most recent call last):
(string_match)     await receive()
(string_match) asyncio.exceptions.CancelledError
(policy_model) Traceback (most recent call last):
(policy_model)     resp = await handler(req)
(policy_model) RuntimeError: Session is closed
(policy_model) INFO:     Finished server process [17040]
"""


def _bulk(rng: random.Random, size: int, errors_every: int) -> bytes:
    """About `size` bytes of everyday log lines (and an error line every `errors_every` lines, if not 0)."""
    weights = [w for w, _ in _BULK]
    templates = [t for _, t in _BULK]
    lines, written = [], 0
    while written < size:
        template = rng.choices(templates, weights)[0]
        line = template.format(
            date=f"11-30 09:{rng.randrange(60):02d}:{rng.randrange(60):02d}", f1=f"{rng.random() * 100:.1f}",
            f2=f"{rng.random() * 1000:.1f}", f3=f"{rng.random() * 100:.1f}", n=rng.randrange(1, 20000),
            port=rng.randrange(30000, 60000), hex=f"{rng.getrandbits(128):032x}", pct=rng.randrange(100),
            sec=f"{rng.randrange(60):02d}", pid=rng.randrange(10000, 99999),
        ) + "\n"
        lines.append(line)
        written += len(line)
        if errors_every and len(lines) % errors_every == 0:
            lines.append(RETRY_ERROR + "\n")
            written += len(RETRY_ERROR) + 1
    return "".join(lines).encode()


def make_run(size_bytes: int, errors_every: int = 0) -> tuple[Path, int]:
    """The run folder of one size and the line number of the buried error's headline (generated once)."""
    run = OUT / (f"diagnose_{size_bytes / 1e9:g}gb" + (f"_errors_every_{errors_every}" if errors_every else ""))
    log = run / LOG
    stamp = run / "generated.txt"
    if stamp.exists() and stamp.read_text().split()[0] == FORMAT_VERSION:
        return run, int(stamp.read_text().split()[1])
    log.parent.mkdir(parents=True, exist_ok=True)
    rng = random.Random(5)
    block = 16 << 20
    with log.open("wb") as handle:
        handle.write(_START.encode())
        written, lines = len(_START), _START.count("\n")
        before_error = int(size_bytes * 0.99)
        while written < before_error:
            chunk = _bulk(rng, min(block, before_error - written), errors_every)
            handle.write(chunk)
            written += len(chunk)
            lines += chunk.count(b"\n")
        handle.write(_BURIED_ERROR.encode())
        headline = lines + _BURIED_ERROR.count("\n")
        written += len(_BURIED_ERROR)
        while written < size_bytes - len(_SHUTDOWN_NOISE):
            chunk = _bulk(rng, min(block, size_bytes - len(_SHUTDOWN_NOISE) - written), errors_every)
            handle.write(chunk)
            written += len(chunk)
        handle.write(_SHUTDOWN_NOISE.encode())
    stamp.write_text(f"{FORMAT_VERSION} {headline}\n")
    return run, headline


def check(report, headline_line: int, errors_every: int) -> None:
    """The diagnosis must name the buried error (or the first retry error), not the shutdown noise after it."""
    evidence = report.findings[0].evidence[0]
    if errors_every:
        assert (evidence.file, evidence.text) == (LOG, " ".join(RETRY_ERROR.split())), evidence
        return
    # a traceback raised in the resources server, with no rows to show the field missing: the verifier's
    assert report.category == "verifier_runtime", report.category
    assert (evidence.file, evidence.line, evidence.text) == (LOG, headline_line, BURIED_HEADLINE), evidence
    assert len(report.findings) == 1, [f.title for f in report.findings]


def peak_rss_kib() -> int:
    """This process's peak RSS since it started (VmHWM; getrusage's ru_maxrss would include the parent's
    high-water mark, which Linux carries across fork and exec)."""
    status = Path("/proc/self/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))


def child(run: str, headline_line: int, errors_every: int) -> None:
    """Diagnose once in a fresh process and print its peak RSS (KiB) and the seconds it took."""
    from gym_pipeline.diagnose import diagnose

    started = time.perf_counter()
    report = diagnose(run)
    seconds = time.perf_counter() - started
    check(report, headline_line, errors_every)
    print(peak_rss_kib(), f"{seconds:.3f}")


def baseline() -> None:
    """The peak RSS of a process that only imports the diagnosis (Python, numpy, pyarrow, pydantic...)."""
    import gym_pipeline.diagnose  # noqa: F401

    print(peak_rss_kib(), "0")


def warm_page_cache(path: Path) -> None:
    with path.open("rb", buffering=0) as handle:
        buffer = bytearray(16 << 20)
        while handle.readinto(buffer):
            pass


def in_child(*args: str) -> tuple[int, float]:
    output = subprocess.run([sys.executable, __file__, *args], check=True, capture_output=True, text=True).stdout
    rss, seconds = output.split()
    return int(rss), float(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes-gb", type=float, nargs="+", default=[0.5, 1.0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--errors-every", type=int, default=0, help="add a retry error line every N lines")
    parser.add_argument("--child", nargs=2, metavar=("RUN_DIR", "HEADLINE_LINE"), help=argparse.SUPPRESS)
    parser.add_argument("--baseline", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), args.errors_every)
        return
    if args.baseline:
        baseline()
        return

    from gym_pipeline.diagnose import diagnose

    base_rss, _ = in_child("--baseline")
    print(f"import only: peak RSS {base_rss / 1024:.0f} MiB")
    for size_gb in args.sizes_gb:
        run, headline = make_run(int(size_gb * 1e9), args.errors_every)
        size = (run / LOG).stat().st_size
        warm_page_cache(run / LOG)
        seconds = []
        for _ in range(args.runs):
            started = time.perf_counter()
            report = diagnose(run)
            seconds.append(time.perf_counter() - started)
            check(report, headline, args.errors_every)
        rss, child_seconds = in_child("--child", str(run), str(headline), "--errors-every", str(args.errors_every))
        best, median = min(seconds), statistics.median(seconds)
        print(f"{size / 1e9:.2f} GB, {report.summary['log_bytes'] / 1e9:.2f} GB scanned: best {best:.2f} s = "
              f"{size / best / 1e6:.0f} MB/s, median {median:.2f} s = {size / median / 1e6:.0f} MB/s "
              f"({args.runs} runs); fresh process: {child_seconds:.2f} s, peak RSS {rss / 1024:.0f} MiB "
              f"(+{(rss - base_rss) / 1024:.0f} MiB over import only); first finding: "
              f"{report.findings[0].evidence[0].where}")


if __name__ == "__main__":
    main()
