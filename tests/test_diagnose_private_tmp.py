"""An eval run as a systemd service whose unit keeps `PrivateTmp=yes` from a hardening template, run for real (the
service's private /var/tmp made as systemd makes it: a fresh tmpfs in a private mount namespace): the results it
writes in /var/tmp end with it, and the publish step, run outside, copies last week's run from the real /var/tmp.
The diagnosis names the unit's line and the reader's (infra). With `PrivateTmp=no`, healthy."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from script_support import CLI, WAIT_FOR_PORT, materialize_line, string_match_run

from gym_pipeline.diagnose import diagnose
from gym_pipeline.host import free_loopback_port


@pytest.mark.skipif(os.geteuid() != 0, reason="mounts a tmpfs in a private mount namespace (unshare needs root)")
@pytest.mark.parametrize("private_tmp", ["yes", "no"])
def test_results_left_in_a_services_private_var_tmp_are_not_what_is_published(tmp_path: Path, private_tmp: str) -> None:
    run, checkpoint = string_match_run(tmp_path, rows=8)
    port = free_loopback_port()
    out = Path(f"/var/tmp/gym-pipeline-test-{port}")  # the eval's fast local folder
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\n# the eval in fast local /var/tmp; publish.sh copies the results afterwards\nOUT={out}\n"
        f"rm -rf $OUT && mkdir -p $OUT && cp {run}/data.jsonl $OUT/ && cd $OUT\n" + materialize_line(3)
        + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\n")
    (run / "weekly-eval.service").write_text(
        "[Unit]\nDescription=weekly eval (weekly-eval.timer)\n\n[Service]\nType=oneshot\n"
        f"ExecStart=/bin/bash {run}/run_eval.sh\n# hardening from the team's unit template\nPrivateTmp={private_tmp}\n")
    (run / "publish.sh").write_text(f"#!/bin/bash\n# cron: copy the eval's results to the run folder\n"
                                    f"mkdir -p {run}/results && cp -v {out}/*.jsonl {run}/results/\n")
    service = "bash run_eval.sh > logs/weekly-eval.log 2>&1"
    if private_tmp == "yes":  # what systemd does for PrivateTmp=yes
        service = f"unshare --mount --propagation private bash -c 'mount -t tmpfs tmpfs /var/tmp && {service}'"
    node = (f"{CLI} serve-policy --checkpoint {checkpoint} --port {port} > logs/model_server.log 2>&1 &\n"
            + WAIT_FOR_PORT.format(port=port)
            + "bash run_eval.sh > logs/run_eval_by_hand_last_week.log 2>&1\n"  # last week's run, by hand
            + f"{service}\nbash publish.sh > logs/publish.log 2>&1\nkill %1\nwait\n")
    try:
        subprocess.run(["bash", "-c", node], cwd=run, timeout=300, check=True)
    finally:
        shutil.rmtree(out, ignore_errors=True)

    report = diagnose(run)

    if private_tmp == "no":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "results_left_in_a_services_private_tmp"), [
        f.title for f in report.causes]
    assert top.title.startswith("weekly-eval.service:8 gives the eval a private /tmp and /var/tmp (`PrivateTmp=yes`): "
                                f"what run_eval.sh wrote in {out} ended with the service, and publish.sh:3 read the "
                                f"real {out}")
    assert "remove `PrivateTmp=yes` from weekly-eval.service" in top.fix
