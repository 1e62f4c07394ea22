"""A collection started in a private network namespace (`unshare --net`, as a site's job wrapper isolates each job),
run for real: its loopback is down, so the model server on the node's 127.0.0.1 is `Network is unreachable`, and
nothing is collected. The diagnosis names the namespace (infra), not the model server; without it, healthy."""

import os
from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose


@pytest.mark.skipif(os.geteuid() != 0, reason="unshare --net needs root")
@pytest.mark.parametrize("wrapper", ["unshare --net ", ""])
def test_a_collection_in_a_private_network_namespace_cannot_reach_the_loopback(tmp_path: Path, wrapper: str) -> None:
    run = run_scripts(tmp_path, [MATERIALIZE + f"{wrapper}{CLI} collect --inputs rollouts_materialized_inputs.jsonl "
                                 "--output rollouts.jsonl --model-url URL --env string_match --concurrency 4\n"])

    report = diagnose(run)

    if not wrapper:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "Network is unreachable" in (run / "logs" / "run_eval_0.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "known_problems"), [f.title for f in report.causes]
    assert top.title == "The run could not reach 127.0.0.1, its own machine's loopback: Network is unreachable"
    assert "`unshare --net`" in top.fix and "`ip addr show lo`" in top.fix
    assert len(report.causes) == 1, [f.title for f in report.causes]  # the model server is not blamed
