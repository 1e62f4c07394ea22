"""A collection whose concurrency needs more file descriptors than its open-files limit, run for real: each request
in flight holds a socket, and the requests past the limit fail with EMFILE. When the user's script sets the limit
(`ulimit -n 32`, a node's hardening line) or prints it (the limit coming from the node's login limits), the run's
sizing is named (throughput/resources), with the line and both numbers. Under a limit that fits, it is healthy."""

from pathlib import Path

import pytest
from script_support import CLI, materialize_line, run_scripts

from gym_pipeline.diagnose import diagnose

MATERIALIZE = materialize_line(10)  # 100 rollouts: more than one wave of requests can open sockets for
COLLECT = (f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
           "--env string_match --concurrency 96\n")


@pytest.mark.parametrize("limit", [32, 4096])
def test_a_limit_the_script_sets_below_the_collections_concurrency_is_named_with_both(tmp_path: Path, limit: int):
    run = run_scripts(tmp_path, [f"ulimit -n {limit}   # the shared node's hardening guide\n" + MATERIALIZE + COLLECT])
    failures = (run / "rollouts_failures.jsonl")
    assert ("Too many open files" in failures.read_text()) == (limit == 32)  # the descriptors really ran out

    report = diagnose(run)

    if limit == 4096:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "host_limits"), top.title
    assert top.title.startswith("The collection ran 96 requests at once under an open-files limit of 32 (run_eval.sh:2)")
    assert "lower `--concurrency` below the limit (at most 24 here)" in top.fix


def test_a_limit_from_the_nodes_login_limits_that_the_script_prints_is_named(tmp_path: Path):
    login_shell = tmp_path / "login_shell"  # the node's limits.conf, applied to the shell the script runs in
    login_shell.write_text('#!/bin/sh\nulimit -n 24\nexec bash "$@"\n')
    login_shell.chmod(0o755)
    run = run_scripts(tmp_path, ['echo "== weekly eval (open files limit: $(ulimit -n))"\n' + MATERIALIZE + COLLECT],
                      shell=str(login_shell))

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("throughput_resources", "host_limits"), top.title
    assert [line.where for line in top.evidence][0] == "logs/run_eval_0.log:1"
    assert "`ulimit -n 1024` where run_eval.sh sets or reads it" in top.fix


def test_a_limit_nothing_in_the_run_names_is_the_machines(tmp_path: Path):
    login_shell = tmp_path / "login_shell"
    login_shell.write_text('#!/bin/sh\nulimit -n 24\nexec bash "$@"\n')
    login_shell.chmod(0o755)
    run = run_scripts(tmp_path, [MATERIALIZE + COLLECT], shell=str(login_shell))
    assert "Too many open files" in (run / "rollouts_failures.jsonl").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("infra", "host_limits"), top.title
