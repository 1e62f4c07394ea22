"""Differential tests: the real NeMo Gym 0.7.0 and our commands on the same generated files, compared byte for byte.

Materialization: `gym eval run --no-serve` against `gym-pipeline materialize` for each scenario of
MATERIALIZE_CASES (the scenarios of Gym's rollout-collection tests, derived from its
`_preprocess_raw_rows`, and the cases of issue 17), then `gym-pipeline check-stale` on Gym's own file
(fresh) and after type-only edits of the dataset (stale). Values Gym keeps and our stages cannot use (task
indices 3.0, "7", -1) are refused with a message saying what Gym writes. Profiling: `gym eval profile`
against `gym-pipeline profile` for each of PROFILE_CASES (test_gym_parity_profile.py).

The cases marked HELD_OUT were written after the fixes, to check them on inputs they were not tuned on.
Needs NeMo Gym 0.7.0 (scripts/install-nemo-gym.sh) and `unshare --net` (root); skips otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import pytest

from gym_pipeline.cli import main
from gym_pipeline.core.materialize import MaterializationSettings
from gym_pipeline.core.staleness import compare_materialized, settings_arguments
from tests.gym_parity_support import gym_executable, run_all, run_gym_materialize

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]

HELD_OUT = "held_out"


def _request(text: str = "q", **extra: Any) -> dict[str, Any]:
    return {"input": [{"role": "user", "content": text}], **extra}


def _lines(*rows: Any) -> bytes:
    return b"".join(row if isinstance(row, bytes) else orjson.dumps(row) + b"\n" for row in rows)


@dataclass
class Case:
    name: str
    dataset: bytes
    settings: dict[str, Any]
    refused_because: str | None = None  # Gym writes a file and we refuse, with a message holding this text
    gym_fails: bool = False  # Gym writes no file (and we refuse too)
    prompt: str | None = None  # a prompt config's YAML
    tags: tuple[str, ...] = field(default_factory=tuple)


A = {"responses_create_params": _request("a"), "id": "a"}
B = {"responses_create_params": _request("b"), "id": "b"}
C = {"responses_create_params": _request("c"), "id": "c"}

MATERIALIZE_CASES = [
    Case("repeats_aabbcc", _lines(A, B, C), {"num_repeats": 3, "agent": "agent"}),
    Case("interleaved_abcabc", _lines(A, B, C), {"num_repeats": 2, "agent": "agent", "interleave_repeats": True}),
    Case("identical_lines_share_a_task", _lines(A, B, A), {"num_repeats": 2, "agent": "agent"}),
    Case("identical_lines_interleaved", _lines(A, B, A, A), {"num_repeats": 2, "agent": "agent",
                                                              "interleave_repeats": True}),
    Case("given_task_indices_interleaved",
         _lines({**A, "_ng_task_index": 1}, B, {**C, "_ng_task_index": 1}, {**A, "_ng_task_index": 0}),
         {"num_repeats": 2, "agent": "agent", "interleave_repeats": True}),
    Case("agent_replaces_every_agent_ref",
         _lines({**A, "agent_ref": {"name": "old", "type": "responses_api_agents"}}, {**B, "agent_ref": {"name": "agent"}},
                C),
         {"num_repeats": 2, "agent": "agent"}),
    Case("agent_ref_null_routed_by_agent", _lines({**A, "agent_ref": None}, B), {"num_repeats": 1, "agent": "agent"}),
    Case("rows_keep_their_agent_ref", _lines({**A, "agent_ref": {"name": "x", "type": "t"}},
                                             {**B, "agent_ref": {"name": "y"}}), {"num_repeats": 2, "agent": None}),
    Case("limit", _lines(A, B, C), {"num_repeats": 2, "agent": "agent", "limit": 2}),
    Case("limit_beyond_the_data", _lines(A, B), {"num_repeats": 1, "agent": "agent", "limit": 5}),
    Case("seed_per_repeat",
         _lines(A, {**B, "responses_create_params": _request("b", metadata={"extra_body": '{"top_k": 5}', "k": "v"})},
                {**C, "responses_create_params": _request("c", metadata=None)}),
         {"num_repeats": 3, "agent": "agent", "num_repeats_add_seed": True}),
    Case("prompt_config", _lines({"question": "2+2?", "id": 1, "responses_create_params": {"temperature": 0.5}},
                                 {"question": "3+3?", "id": 2}),
         {"num_repeats": 2, "agent": "agent"}, prompt="system: You are terse.\nuser: 'Answer: {question} ({id})'\n"),
    Case("num_repeats_per_agent",
         _lines({**A, "agent_ref": {"name": "x"}}, {**B, "agent_ref": {"name": "y"}}, {**C, "agent_ref": {"name": "z"}}),
         {"num_repeats": {"x": 3, "_default": 1}, "agent": None}),
    Case("agent_map", _lines({**A, "agent_ref": {"name": "old"}}, {**B, "agent_ref": {"name": "kept"}}),
         {"num_repeats": 2, "agent": None, "agent_map": {"old": "new"}}),
    Case("fan_out", _lines({**A, "agent_ref": {"name": "src"}}, {**B, "agent_ref": {"name": "solo"}}),
         {"num_repeats": 2, "agent": None, "fan_out": {"src": ["agent_a", "agent_b"]}}),
    Case("fan_out_with_repeats_per_target", _lines({**A, "agent_ref": {"name": "src"}}),
         {"num_repeats": {"agent_a": 1, "agent_b": 3}, "agent": None, "fan_out": {"src": ["agent_a", "agent_b"]},
          "interleave_repeats": True}),
    Case("request_overrides", _lines(A, {**B, "responses_create_params": _request("b", temperature=1.0)}),
         {"num_repeats": 1, "agent": "agent", "responses_create_params": {"temperature": 0.25}}),
    Case("unicode_crlf_and_no_final_newline",
         b'{"responses_create_params":{"input":"\xc3\xa9t\xc3\xa9 \\u00e9"},"k":"\xf0\x9f\x98\x80"}\r\n'
         + _lines(A) + b'{"responses_create_params":{"input":"\xc3\xa9t\xc3\xa9 \\u00e9"},"k":"\xf0\x9f\x98\x80"}',
         {"num_repeats": 2, "agent": "agent"}),
    Case("rollout_index_in_the_data_is_replaced", _lines({"_ng_rollout_index": 7, **A}), {"num_repeats": 2,
                                                                                           "agent": "agent"}),
    Case("numbers_as_written", _lines({**A, "f": 1.0, "g": 1e-7, "h": 2**63 - 1, "i": -0.0}),
         {"num_repeats": 1, "agent": "agent"}),
    # Gym writes these; our stages need non-negative integer task indices, so we refuse and say what Gym writes.
    Case("task_index_float", _lines({**A, "_ng_task_index": 3.0}), {"num_repeats": 2, "agent": "agent"},
         refused_because='Gym 0.7.0 would write `"_ng_task_index": 3.0`'),
    Case("task_index_text", _lines({**A, "_ng_task_index": "7"}), {"num_repeats": 2, "agent": "agent"},
         refused_because='Gym 0.7.0 would write `"_ng_task_index": "7"`'),
    Case("task_index_negative", _lines({**A, "_ng_task_index": -1}), {"num_repeats": 2, "agent": "agent"},
         refused_because='Gym 0.7.0 would write `"_ng_task_index": -1`'),
    # Both refuse: Gym writes no file.
    Case("no_agent_anywhere", _lines(A), {"num_repeats": 1, "agent": None}, gym_fails=True),
    Case("no_request", _lines({"id": 1}), {"num_repeats": 1, "agent": "agent"}, gym_fails=True),
    Case("blank_line", _lines(A) + b"\n" + _lines(B), {"num_repeats": 1, "agent": "agent"}, gym_fails=True),
    Case("prompt_and_input_both_set", _lines(A), {"num_repeats": 1, "agent": "agent"}, prompt="user: '{id}'\n",
         gym_fails=True),
    # Held out: written after the fixes.
    # from Gym's own tests (tests/unit_tests/test_rollout_collection.py): a per-agent repeats map that names no
    # repeats for a row's agent, and has no _default, is refused
    Case("num_repeats_map_missing_an_agent", _lines({**A, "agent_ref": {"name": "x"}}, {**B, "agent_ref": {"name": "y"}}),
         {"num_repeats": {"x": 2}, "agent": None}, gym_fails=True),
    Case("held_out_map_and_fan_out",
         _lines({**A, "agent_ref": {"name": "old"}}, {**B, "agent_ref": {"name": "src"}}, {**C, "agent_ref": None}),
         {"num_repeats": 2, "agent": None, "agent_map": {"old": "new", "_default": "fallback"},
          "fan_out": {"src": ["agent_a", "agent_b"]}}, tags=(HELD_OUT,)),
    Case("held_out_interleaved_fan_out_with_seeds",
         _lines({**A, "agent_ref": {"name": "src"}}, B, {**A, "agent_ref": {"name": "src"}}),
         {"num_repeats": 2, "agent": None, "agent_map": {"_default": "d"}, "fan_out": {"src": ["p", "q"]},
          "interleave_repeats": True, "num_repeats_add_seed": True}, tags=(HELD_OUT,)),
    Case("held_out_agent_ref_without_name", _lines({**A, "agent_ref": {}}, {**B, "agent_ref": {"type": "t"}}),
         {"num_repeats": 1, "agent": "agent"}, tags=(HELD_OUT,)),
    Case("held_out_prompt_keeps_request_fields",
         _lines({"q": "x", "responses_create_params": {"tools": [], "input": []}}, {"q": "{braces}"}),
         {"num_repeats": 1, "agent": "agent", "limit": 0}, prompt="user: '<{q}> {{literal}}'\n", tags=(HELD_OUT,)),
    Case("held_out_key_order_and_given_index_zero",
         _lines({"z": 1, "_ng_task_index": 0, "responses_create_params": _request(), "a": [1.5, True, None]},
                {"a": 2, "responses_create_params": _request()}),
         {"num_repeats": 3, "agent": "agent", "interleave_repeats": True}, tags=(HELD_OUT,)),
]


def _our_arguments(case: Case, folder: Path) -> list[str]:
    settings = MaterializationSettings(**_settings(case, folder))
    words = settings_arguments(settings)
    if settings.agent is None and "--agent" in words:  # settings_arguments shows a placeholder agent
        at = words.index("--agent")
        del words[at:at + 2]
    return words


def _settings(case: Case, folder: Path) -> dict[str, Any]:
    return {**case.settings, **({"prompt_config": str(folder / "prompt.yaml")} if case.prompt else {})}


def _prepare(case: Case, root: Path) -> Path:
    folder = root / case.name
    folder.mkdir()
    (folder / "data.jsonl").write_bytes(case.dataset)
    if case.prompt:
        (folder / "prompt.yaml").write_text(case.prompt)
    return folder


@pytest.fixture(scope="module")
def gym_outputs(tmp_path_factory):
    """Each case's folder and what real Gym 0.7.0 wrote for it (computed once, two cases at a time)."""
    gym = gym_executable()
    root = tmp_path_factory.mktemp("materialize_parity")
    folders = [_prepare(case, root) for case in MATERIALIZE_CASES]
    outcomes = run_all([
        (lambda case=case, folder=folder: run_gym_materialize(gym, folder, folder / "data.jsonl",
                                                                _settings(case, folder)))
        for case, folder in zip(MATERIALIZE_CASES, folders, strict=True)
    ])
    return {case.name: (folder, outcome) for case, folder, outcome in zip(MATERIALIZE_CASES, folders, outcomes,
                                                                            strict=True)}


@pytest.mark.parametrize("case", MATERIALIZE_CASES, ids=lambda case: case.name)
def test_materialize_matches_gym(case, gym_outputs, capsys):
    folder, gym = gym_outputs[case.name]
    assert (gym.output is None) == case.gym_fails, gym.log[-600:]
    ours = folder / "ours" / "rollouts_materialized_inputs.jsonl"
    code = main(["materialize", "--input", str(folder / "data.jsonl"), "--output", str(ours),
                 *_our_arguments(case, folder)])
    error = capsys.readouterr().err
    if gym.output is None:
        assert code == 2, f"Gym wrote no file ({gym.log[-400:]}) but we did"
        assert "error" in error
        return
    if case.refused_because:
        assert code == 2
        assert case.refused_because in " ".join(error.split()), error
        return
    assert code == 0, error
    assert ours.read_bytes() == gym.output
    # check-stale agrees with Gym: its own file is fresh.
    gym_file = folder / "gym" / "rollouts_materialized_inputs.jsonl"
    assert main(["check-stale", "--inputs", str(gym_file), "--source", str(folder / "data.jsonl"),
                 *_our_arguments(case, folder)]) == 0


TYPE_EDITS = [  # (name, the row before, the row after): Gym's file changes, so check-stale must say stale
    ("int_to_float", {"responses_create_params": _request(), "n": 1}, {"responses_create_params": _request(), "n": 1.0}),
    ("true_to_one", {"responses_create_params": _request(), "n": True}, {"responses_create_params": _request(), "n": 1}),
    ("nested_zero_to_false", {"responses_create_params": _request(temperature=0)},
     {"responses_create_params": _request(temperature=False)}),
    ("key_order", {"responses_create_params": _request(), "a": 1, "b": 2},
     {"responses_create_params": _request(), "b": 2, "a": 1}),
]


@pytest.mark.parametrize(("before", "after"), [edit[1:] for edit in TYPE_EDITS], ids=[edit[0] for edit in TYPE_EDITS])
def test_check_stale_sees_type_only_edits(before, after, tmp_path):
    gym = gym_executable()
    settings = {"num_repeats": 2, "agent": "agent"}
    source = tmp_path / "data.jsonl"
    source.write_bytes(_lines(before, B))
    written = run_gym_materialize(gym, tmp_path, source, settings)
    gym_file = tmp_path / "gym" / "rollouts_materialized_inputs.jsonl"
    assert written.output is not None, written.log[-400:]
    source.write_bytes(_lines(after, B))
    report = compare_materialized(gym_file, source, MaterializationSettings(**settings))
    assert report.stale and report.differing_rows[0]["line"] == 1
    rewritten = run_gym_materialize(gym, tmp_path, source, settings)
    assert rewritten.output != written.output  # Gym's own file changed too
    assert not compare_materialized(gym_file, source, MaterializationSettings(**settings)).stale
