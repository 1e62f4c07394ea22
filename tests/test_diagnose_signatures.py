"""The signature table: both regex engines agree on it, and every signature and known problem has a real case."""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from conftest import FIXTURES

from gym_pipeline.config import ModelServerConfig
from gym_pipeline.core.materialize import MaterializationSettings
from gym_pipeline.core.staleness import StaleInputsError, ensure_resume_is_safe
from gym_pipeline.diagnose import diagnose
from gym_pipeline.diagnose.signatures import KNOWN_PROBLEMS, SIGNATURES, SIGNATURES_BY_NAME, TAIL_SIGNATURES
from gym_pipeline.diagnose.vocabulary import CATEGORIES, DEBUG_STEPS
from gym_pipeline.serving.servers import ModelServerError, serve_checkpoint

DATA = Path(__file__).parent / "data" / "diagnose"
FIXTURE_LOGS = FIXTURES / "logs"

# Signatures whose messages reach us in a response body or in a failed Dagster step's error, not in a log file.
BODY_EXAMPLES = {
    "vllm_tool_parser_missing": '{"object":"error","message":"\\"auto\\" tool choice requires '
                                '--enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError"}'
                                .replace('\\"', '"'),
    "model_endpoint_down": "gym_pipeline.serving.servers.ModelServerError: model endpoint http://127.0.0.1:9/v1/models "
                           "did not answer: <urlopen error [Errno 111] Connection refused>",
}


def pipeline_stale_message(tmp_path: Path) -> str:
    """Our own refusal to resume, as `gym.staleness` words it."""
    tmp_path.mkdir(exist_ok=True)
    source = tmp_path / "data.jsonl"
    source.write_text('{"responses_create_params": {"input": "q"}}\n')
    record = {"source": {"path": str(source), "digest": "sha256:0"},
              "settings": MaterializationSettings(1, "agent").as_dict()}
    with pytest.raises(StaleInputsError) as raised:
        ensure_resume_is_safe(tmp_path / "rollouts_materialized_inputs.jsonl", None, record)
    return str(raised.value)


def pipeline_missing_checkpoint(tmp_path: Path) -> str:
    """Our model server's refusal to serve a checkpoint folder that does not exist."""
    with pytest.raises(ModelServerError) as raised, serve_checkpoint(
        ModelServerConfig(), "step_9999", tmp_path / "step_9999", tmp_path
    ):
        pass
    return f"gym_pipeline.serving.servers.ModelServerError: {raised.value}"


def example_lines(tmp_path: Path) -> list[str]:
    lines = []
    for path in sorted([*DATA.rglob("*"), *FIXTURE_LOGS.iterdir()]):
        if path.is_file() and path.suffix != ".md":
            lines += path.read_text(errors="replace").splitlines()
    return lines + list(BODY_EXAMPLES.values()) + [pipeline_stale_message(tmp_path),
                                                   pipeline_missing_checkpoint(tmp_path)]


def test_every_pattern_compiles_in_re2_and_python():
    lines = pa.array([b"x"], pa.binary())
    for signature in SIGNATURES:
        re.compile(signature.pattern)
        pc.match_substring_regex(lines, "(?m)" + signature.bare)
        assert "(?P<" not in signature.bare


def test_every_signature_matches_a_real_or_reproduced_line(tmp_path):
    lines = example_lines(tmp_path)
    unmatched = [s.name for s in (*SIGNATURES, *TAIL_SIGNATURES) if not any(s.regex.search(line) for line in lines)]
    assert unmatched == []


def test_re2_and_python_agree_on_every_example_line(tmp_path):
    lines = example_lines(tmp_path)
    array = pa.array([line.encode() + b"\n" for line in lines], pa.binary())
    for signature in SIGNATURES:
        re2 = pc.match_substring_regex(array, "(?m)" + signature.bare).to_pylist()
        python = [bool(signature.regex.search(line)) for line in lines]
        disagree = [line for line, a, b in zip(lines, re2, python, strict=True) if a != b]
        assert disagree == [], signature.name


def test_known_problems_are_well_formed():
    for problem in KNOWN_PROBLEMS:
        assert problem.category in CATEGORIES and problem.step in DEBUG_STEPS
        assert problem.guide.startswith("seeds/")
        for name in problem.signatures:
            assert name in SIGNATURES_BY_NAME or name == "skipped_task", name


@pytest.mark.parametrize("problem", KNOWN_PROBLEMS, ids=[p.key for p in KNOWN_PROBLEMS])
def test_every_known_problem_is_diagnosed_from_its_own_message(tmp_path, problem):
    lines = example_lines(tmp_path / "examples")
    own = [line for line in lines if any(SIGNATURES_BY_NAME[n].regex.search(line) for n in problem.signatures
                                         if n in SIGNATURES_BY_NAME)]
    others = {n for other in KNOWN_PROBLEMS if other is not problem for n in other.signatures
              if n in SIGNATURES_BY_NAME and n not in problem.signatures}
    # a line no other known problem reads as well (a refused loopback is also an endpoint that did not answer)
    line = next((line for line in own if not any(SIGNATURES_BY_NAME[n].regex.search(line) for n in others)), own[0])
    run = tmp_path / "run"
    run.mkdir()
    (run / "job.log").write_text(line + "\n")
    report = diagnose(run)
    finding = next((f for f in report.findings if f.category == problem.category and f.explains >= set(problem.signatures)),
                   None)
    assert finding is not None, (problem.key, [f.title for f in report.findings])
    assert "{" not in finding.title and "{" not in finding.fix.replace("{{", "")
    assert finding.evidence[0].file == "job.log" and finding.evidence[0].line == 1
