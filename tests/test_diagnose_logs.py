"""The log collector: chunked RE2 scanning gives the same facts as reading line by line, whatever the chunking."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES

from gym_pipeline.diagnose import diagnose
from gym_pipeline.diagnose.logs import (
    MAX_EXAMPLES,
    MAX_INCIDENTS_PER_FILE,
    LogFacts,
    find_log_files,
    scan_file,
    scan_logs,
    scan_text,
)

DATA = Path(__file__).parent / "data" / "diagnose"
FIXTURE_LOGS = FIXTURES / "logs"


def scan(path: Path, chunk_bytes: int = 8 << 20) -> LogFacts:
    facts = LogFacts()
    scan_file(path, path.name, facts, chunk_bytes=chunk_bytes)
    return facts


def summary(facts: LogFacts) -> tuple:
    incidents = [(i.start, i.end, i.line, i.text, i.kind, i.after_shutdown, sorted(i.signatures))
                 for i in facts.incidents]
    hits = {name: [(h.line, h.text, h.groups) for h in hits] for name, hits in facts.hits.items()}
    return incidents, hits, dict(facts.hit_counts), facts.lines_scanned, dict(facts.ended_in_shutdown)


@pytest.mark.parametrize("log", ["verifier_crash_then_ctrl_c.log", "vllm_cuda_oom.log"])
@pytest.mark.parametrize("chunk_bytes", [300, 4096])
def test_small_chunks_give_the_same_facts(log, chunk_bytes):
    """Tracebacks, bursts and hits that straddle chunk boundaries are read as if the file were one chunk."""
    path = DATA / log
    assert summary(scan(path, chunk_bytes)) == summary(scan(path))


def test_every_fixture_log_scans_the_same_in_small_chunks():
    for path in FIXTURE_LOGS.iterdir():
        assert summary(scan(path, 700)) == summary(scan(path)), path.name


def test_real_error_before_shutdown_and_noise_after(tmp_path):
    facts = scan(DATA / "verifier_crash_then_ctrl_c.log")
    real = [i for i in facts.incidents if not i.after_shutdown]
    assert [(i.start, i.end, i.line, i.kind) for i in real] == [(55, 61, 61, "traceback")]
    assert real[0].text == "(string_match) AttributeError: 'NoneType' object has no attribute 'strip'"
    # the Ctrl-C traceback and CancelledError are noise; the error after "Shutting down" is marked as after it
    after = [i for i in facts.incidents if i.after_shutdown]
    assert [i.text for i in after] == ["(policy_model) RuntimeError: Session is closed"]
    assert facts.ended_in_shutdown == {"verifier_crash_then_ctrl_c.log": True}


def test_traceback_interleaved_with_another_servers_lines(tmp_path):
    log = tmp_path / "env.log"
    log.write_text(
        "(string_match) Traceback (most recent call last):\n"
        "(policy_model) INFO:     127.0.0.1:1 - \"POST /v1/responses HTTP/1.1\" 200 OK\n"
        '(string_match)   File "app.py", line 3, in verify\n'
        "(string_match) KeyError: 'expected_answer'\n"
    )
    [incident] = scan(log).incidents
    assert (incident.start, incident.end, incident.line) == (1, 4, 4)
    assert incident.text == "(string_match) KeyError: 'expected_answer'"


@pytest.mark.parametrize("cut_in_before", ["    raise ValueError", "ValueError: NEMO_GYM"])
def test_traceback_cut_by_an_unprefixed_line_of_another_process(tmp_path, cut_in_before):
    """Under load, a Gym server starting beside the model proxy that crashed prints its own unprefixed line between
    the crash's frames (as a real `gym env start` wrote it in CI): the traceback still ends in its exception, and the
    diagnosis reads the refused value, not a traceback without one."""
    lines = [
        "Starting `policy_model` from venv /staging/server_venvs/responses_api_models/vllm_model/.venv",
        "Traceback (most recent call last):",
        '  File "/venv/lib/python3.13/site-packages/responses_api_models/vllm_model/app.py", line 1699, in <module>',
        "    VLLMModel.run_webserver()",
        '  File "/venv/lib/python3.13/site-packages/responses_api_models/vllm_model/app.py", line 169, in '
        "_default_reasoning_field",
        '    raise ValueError(f"NEMO_GYM_REASONING_FIELD must be one of {get_args(ReasoningFieldMode)}, got {value!r}")',
        "ValueError: NEMO_GYM_REASONING_FIELD must be one of ('both', 'reasoning', 'reasoning_content'), got 'none'",
        "(string_match) INFO:     Started server process [449]",
    ]
    cut = next(k for k, line in enumerate(lines) if line.startswith(cut_in_before))
    lines.insert(cut, "Found ulimit of %s and failed to automatically increase with error %s. This can cause fd "
                      "limit errors like `OSError: [Errno 24] Too many open files`.")
    (tmp_path / "env_start.log").write_text("\n".join(lines) + "\n")

    [incident] = scan(tmp_path / "env_start.log").incidents
    assert (incident.start, incident.line) == (2, 8)
    assert incident.text.startswith("ValueError: NEMO_GYM_REASONING_FIELD must be one of")
    (tmp_path / "harness.env").write_text("export NEMO_GYM_REASONING_FIELD=none\n")
    top = diagnose(tmp_path).causes[0]
    assert top.category == "config" and "NEMO_GYM_REASONING_FIELD must be one of" in top.title, top.title


def test_a_traceback_without_its_exception_ends_at_the_next_unrelated_line(tmp_path):
    """A traceback cut off (its process killed while printing) ends where other lines begin, which do not go on."""
    (tmp_path / "env.log").write_text(
        "Traceback (most recent call last):\n"
        '  File "app.py", line 3, in verify\n'
        "INFO:     Shutting down\n"
        "INFO:     Waiting for application shutdown.\n"
        "INFO:     Application shutdown complete.\n"
        "INFO:     Finished server process [8]\n"
    )
    [incident] = scan(tmp_path / "env.log").incidents
    assert (incident.start, incident.end) == (1, 2)
    assert incident.text == "Traceback (most recent call last): (no exception line)"


def test_appended_logs_restart_after_a_shutdown(tmp_path):
    """A log appended by a second run: its error counts, though the first run shut down before it."""
    log = tmp_path / "model_server.log"
    log.write_text(
        "SIMULATED_POLICY_READY http://127.0.0.1:40001/v1\n"
        "INFO:     Shutting down\n"
        "SIMULATED_POLICY_READY http://127.0.0.1:40002/v1\n"
        "Traceback (most recent call last):\n"
        '  File "policy.py", line 9, in serve\n'
        "OSError: [Errno 28] No space left on device\n"
    )
    [incident] = scan(log).incidents
    assert incident.line == 6 and not incident.after_shutdown


def test_progress_bars_crlf_and_a_last_line_without_newline(tmp_path):
    log = tmp_path / "eval.log"
    log.write_bytes(
        b"Collecting rollouts:   0%|          | 0/20 [00:00<?, ?it/s][rollout_collection] /run failed status=500 row={}\r\n"
        b"Collecting rollouts:  10%|#         | 2/20\rERROR: collector crashed\r\n"
        + b"Found 2 / 20 (10.00%) rollouts\r\n" * 4
        + b"ValueError: last line, no newline"
    )
    facts = scan(log)
    assert [(h.line, h.groups["status"]) for h in facts.hits["run_failed"]] == [(1, "500")]
    assert [(i.line, i.text) for i in facts.incidents] == [(2, "ERROR: collector crashed"),
                                                          (7, "ValueError: last line, no newline")]
    assert facts.lines_scanned == 7


def test_a_line_longer_than_a_chunk_is_cut_and_line_numbers_stay_right(tmp_path):
    log = tmp_path / "huge.log"
    log.write_text("x" * 5000 + " ERROR never read\n" + "ERROR: the next line\n")
    facts = scan(log, chunk_bytes=1024)
    assert [(i.line, i.text) for i in facts.incidents] == [(2, "ERROR: the next line")]
    assert facts.lines_scanned == 2


def test_line_numbers_across_blocks_and_chunks(tmp_path):
    log = tmp_path / "big.log"
    errors = {}
    with log.open("w") as handle:
        for number in range(1, 20001):
            if number % 1999 == 0:
                errors[number] = f"ERROR: worker {number} failed"
                handle.write(errors[number] + "\n")
            else:
                handle.write(f"INFO 11-30 09:04:12 [loggers.py:123] Engine 000: Running: {number} reqs\n")
    assert log.stat().st_size > 10 * 64 << 10  # many blocks in one chunk
    for chunk_bytes in (8 << 20, 100_000):
        facts = scan(log, chunk_bytes)
        assert [(i.line, i.text) for i in facts.incidents] == list(errors.items())
        assert facts.lines_scanned == 20000


@pytest.mark.parametrize("chunk_bytes", [16 << 10, 8 << 20])  # a few candidate lines per chunk, or thousands
def test_floods_are_counted_not_kept(tmp_path, chunk_bytes):
    log = tmp_path / "flood.log"
    with log.open("w") as handle:
        for n in range(5000):
            handle.write(f"INFO request {n} ok\n(policy_model) ERROR:    [Errno 98] address already in use (try {n})\n")
            handle.write("INFO padding line between bursts\n" * 3)
    facts = scan(log, chunk_bytes=chunk_bytes)
    hits = facts.hits["address_in_use"]
    assert len(hits) == MAX_EXAMPLES and facts.hit_counts["address_in_use"] == 5000
    assert hits[0].text.endswith("(try 0)") and hits[-1].text.endswith("(try 4999)")  # the first ones and the last
    assert len(facts.incidents) == MAX_INCIDENTS_PER_FILE
    assert facts.incident_counts["flood.log"] == 5000


def test_find_log_files_below_the_run_skips_virtual_environments(tmp_path):
    for name in ("logs/model_server.log", "eval.log", "results/harbor/tb/verifier/t1/test-stdout.txt",
                 "slurm-81234.out", ".venv/lib/x.log", "resources_servers/x/.venv/y.log", "notes.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("hello\n")
    assert [str(p.relative_to(tmp_path)) for p in find_log_files(tmp_path)] == [
        "eval.log", "slurm-81234.out", "logs/model_server.log", "results/harbor/tb/verifier/t1/test-stdout.txt"]


def test_a_text_is_read_like_a_log():
    facts = LogFacts()
    scan_text("dagster: run failure", "Traceback (most recent call last):\n  File \"x.py\", line 1\n"
                                      "ValueError: Found conflicting aggregate metrics in r/_metrics.json", facts)
    [incident] = facts.incidents
    assert incident.file == "dagster: run failure" and "conflicting_metrics" in incident.signatures
    assert facts.hits["conflicting_metrics"][0].groups["file"] == "r/_metrics.json"


def test_logs_below_a_gym_results_folder_are_diagnosed(tmp_path):
    (tmp_path / "results" / "logs").mkdir(parents=True)
    shutil.copy(FIXTURE_LOGS / "env_prefetch_python_version_unsatisfiable.log", tmp_path / "results" / "logs" / "e.log")
    report = diagnose(tmp_path)
    assert report.category == "infra"
    assert report.findings[0].evidence[0].file == "results/logs/e.log"
    assert scan_logs(tmp_path).files == ["results/logs/e.log"]


def test_a_preload_the_loader_ignored_is_no_error_and_a_library_it_could_not_load_is(tmp_path):
    from gym_pipeline.diagnose import diagnose

    [incident] = scan(DATA / "shared_library_loader.log").incidents
    assert incident.line == 2 and "error while loading shared libraries" in incident.text
    shutil.copy(DATA / "shared_library_loader.log", tmp_path / "collect.log")
    report = diagnose(tmp_path)
    assert report.category == "infra" and "LD_LIBRARY_PATH" in report.causes[0].fix
