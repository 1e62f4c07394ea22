"""A profile refused while the collection was partial (a first attempt stopped by its time budget), then the
collection resumed to the end and profiled: the earlier refusal is a note, the run healthy. Run for real by bash
against a slow simulated policy; its twin stops after the refusal, which stays a fault."""

from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose

COLLECT = (f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
           "--env string_match --concurrency 2")
PROFILE = f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n"


@pytest.mark.parametrize("resumed", [True, False])
def test_a_profile_refused_by_an_earlier_attempt_of_a_run_finished_since(tmp_path: Path, resumed: bool) -> None:
    first = MATERIALIZE + f"timeout 4 {COLLECT}\n" + PROFILE
    scripts = [first, f"{COLLECT} --resume\n" + PROFILE] if resumed else [first]
    run = run_scripts(tmp_path, scripts)
    assert "Missing rollout" in (run / "logs" / "run_eval_0.log").read_text()

    report = diagnose(run)

    if resumed:
        assert report.category == "healthy", [f.title for f in report.causes]
        assert [f.title for f in report.notes if "refused a partial run" in f.title] == [
            "An earlier `gym eval profile` refused a partial run; the collection was finished and profiled since"]
        return
    assert report.category != "healthy"
    assert not [f for f in report.findings if f.title.startswith("An earlier `gym eval profile`")]
