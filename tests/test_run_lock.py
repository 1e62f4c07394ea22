"""The run-directory lock within one process: re-entrant for its thread, refused to anyone else, taken over when stale.

Refusal across processes and takeover from a killed process are in test_crash_safety.py.
"""

import logging
import os
import threading

import orjson
import pytest

from gym_pipeline.core.run_lock import LOCK_FILE, RunDirectoryError, RunDirectoryLockedError, run_directory_lock


def _record(run_dir) -> bytes:
    return (run_dir / LOCK_FILE).read_bytes()


def test_holder_is_recorded_while_held_and_cleared_on_release(tmp_path):
    with run_directory_lock(tmp_path, "rollouts", dagster_run_id="run-1") as holder:
        record = orjson.loads(_record(tmp_path))
        assert record["pid"] == holder.pid == os.getpid()
        assert record["stage"] == "rollouts" and record["dagster_run_id"] == "run-1"
        assert record["host"] and record["command"] and record["started_at"]
    assert _record(tmp_path) == b""
    with run_directory_lock(tmp_path, "reward_profile"):  # free again
        pass


def test_nested_use_by_the_holding_thread_keeps_the_outer_record(tmp_path):
    with run_directory_lock(tmp_path, "rollouts", dagster_run_id="outer"):
        with run_directory_lock(tmp_path / ".", "reward_profile") as inner:
            assert inner.stage == "rollouts" and inner.dagster_run_id == "outer"
        assert orjson.loads(_record(tmp_path))["stage"] == "rollouts"  # still held after the inner block
    assert _record(tmp_path) == b""


def test_another_thread_is_refused_with_the_holder_named(tmp_path):
    refusals = []

    def second_writer() -> None:
        try:
            with run_directory_lock(tmp_path, "materialized_inputs"):
                pass
        except RunDirectoryLockedError as error:
            refusals.append(error)

    with run_directory_lock(tmp_path, "rollouts", dagster_run_id="run-7"):
        thread = threading.Thread(target=second_writer)
        thread.start()
        thread.join()
    [error] = refusals
    message = str(error)
    assert f"run directory {tmp_path.resolve()} is in use by pid {os.getpid()}" in message
    assert "stage rollouts, Dagster run run-7" in message and "wait for it or stop it" in message


def test_a_record_left_by_a_dead_holder_is_taken_over_with_a_warning(tmp_path, caplog):
    dead = {"pid": 999_999, "host": "elsewhere", "command": "gym-pipeline collect", "stage": "rollouts",
            "started_at": "2024-01-01T00:00:00Z", "dagster_run_id": None}
    (tmp_path / LOCK_FILE).write_bytes(orjson.dumps(dead))  # its flock went with the process
    with caplog.at_level(logging.WARNING), run_directory_lock(tmp_path, "rollouts") as holder:
        assert holder.pid == os.getpid()
    assert "taking over the lock of pid 999999 (gym-pipeline collect; stage rollouts) on host elsewhere" in caplog.text


def test_an_unwritable_run_directory_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    for run_dir in (blocker, blocker / "run"):  # the run directory itself a file, or one of its parents
        with pytest.raises(RunDirectoryError, match=f"cannot lock run directory {run_dir}: {blocker} is a file, "
                                                    "not a directory"):
            with run_directory_lock(run_dir, "rollouts"):
                pass
    dangling = tmp_path / "scratch"
    dangling.symlink_to(tmp_path / "unmounted" / "scratch")
    with pytest.raises(RunDirectoryError, match=f"{dangling} is a symlink to {tmp_path}/unmounted/scratch, which "
                                                "does not exist"):
        with run_directory_lock(dangling / "run", "rollouts"):
            pass
    (tmp_path / "results").symlink_to("results_migrated")  # a migration that left each pointing at the other
    (tmp_path / "results_migrated").symlink_to("results")
    with pytest.raises(RunDirectoryError, match=f"{tmp_path}/results is a symlink loop .*too many levels"):
        with run_directory_lock(tmp_path / "results" / "run", "rollouts"):
            pass
