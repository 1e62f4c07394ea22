"""The bundled environments: verifiers against Gym 0.7.0's own rollouts, and the example datasets."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from gym_pipeline.core.formats import MATERIALIZED_INPUTS_FILE, ROLLOUT_INDEX, ROLLOUTS_FILE, TASK_INDEX
from gym_pipeline.engines.responses import output_text
from gym_pipeline.environments import (
    ENVIRONMENTS,
    McqaEnvironment,
    StringMatchEnvironment,
    UnknownEnvironmentError,
    VerifierInputError,
    get_environment,
)
from gym_pipeline.environments.base import Environment
from gym_pipeline.environments.string_match import extract_answer

FIXTURE_RUNS = ["clean_run", "partial_run_with_failures"]
VERDICT_KEYS = ["reward", "mask_sample", "failure_kind", "failure_reason", "expected_answer", "extracted_answer"]

string_match = StringMatchEnvironment()
mcqa = McqaEnvironment()


def _read(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def _row(prompt: str = "Q?", **fields) -> dict:
    content = [{"type": "input_text", "text": prompt}]
    return {"responses_create_params": {"input": [{"role": "user", "type": "message", "content": content}]}, **fields}


# --- string_match against Gym's fixture rollouts ---------------------------------------------------


@pytest.mark.parametrize("run", FIXTURE_RUNS)
def test_string_match_reproduces_every_fixture_rollout(fixtures_dir: Path, run: str) -> None:
    inputs = {(row[TASK_INDEX], row[ROLLOUT_INDEX]): row for row in _read(fixtures_dir / run / MATERIALIZED_INPUTS_FILE)}
    rollouts = _read(fixtures_dir / run / ROLLOUTS_FILE)
    assert rollouts
    for rollout in rollouts:
        key = (rollout[TASK_INDEX], rollout[ROLLOUT_INDEX])
        verdict = string_match.verify(inputs[key], output_text(rollout["response"]))
        assert list(verdict) == VERDICT_KEYS, key
        assert verdict == {field: rollout[field] for field in VERDICT_KEYS}, key


@pytest.mark.parametrize(
    ("text", "mode", "expected"),
    [
        (r"The capital is \boxed{Paris}.", "boxed", "Paris"),
        (r"\boxed{1} then \boxed{\frac{1}{2}}", "boxed", r"\frac{1}{2}"),
        (r"\boxed{7} and an unclosed \boxed{8", "boxed", "7"),
        ("no box here", "boxed", None),
        ("Final answer: Jupiter\nFINAL ANSWER:  Saturn.", "final_answer", "Saturn"),
        ("Final answer: 15\nthanks", "final_answer", "15"),
        ("final answer:", "final_answer", None),
        (r"\boxed{3}", "final_answer", None),
        ("The largest ocean is:\n  Pacific Ocean  \n\n", "last_line", "Pacific Ocean"),
        ("   \n", "last_line", None),
    ],
)
def test_string_match_extraction(text: str, mode: str, expected: str | None) -> None:
    assert extract_answer(text, mode) == expected


def test_string_match_comparison_normalizes_whitespace_and_respects_case_flag() -> None:
    row = _row(expected_answer="Pacific Ocean", extraction_mode="last_line", case_sensitive=False)
    assert string_match.verify(row, "pacific \t OCEAN")["reward"] == 1.0
    row = _row(expected_answer="NaCl", extraction_mode="boxed", case_sensitive=True)
    assert string_match.verify(row, r"\boxed{NaCl}")["reward"] == 1.0
    assert string_match.verify(row, r"\boxed{NACL}")["reward"] == 0.0


def test_string_match_uses_gym_defaults_for_mode_and_case() -> None:
    verdict = string_match.verify(_row(expected_answer="Saturn"), "final answer: saturn")
    assert verdict["reward"] == 1.0 and verdict["extracted_answer"] == "saturn"


@pytest.mark.parametrize(
    ("fields", "bad_field"),
    [
        ({}, "expected_answer"),
        ({"expected_answer": 15}, "expected_answer"),
        ({"expected_answer": "  "}, "expected_answer"),
        ({"expected_answer": "x", "extraction_mode": "regex"}, "extraction_mode"),
        ({"expected_answer": "x", "case_sensitive": "yes"}, "case_sensitive"),
    ],
)
def test_string_match_rejects_rows_it_cannot_grade(fields: dict, bad_field: str) -> None:
    with pytest.raises(VerifierInputError) as error:
        string_match.verify(_row(**fields), r"\boxed{x}")
    assert error.value.field == bad_field


def test_knowledge_entry_derives_distractors_when_the_row_has_none(fixtures_dir: Path) -> None:
    fixture_row = _read(fixtures_dir / "clean_run" / "input_example.jsonl")[0]
    entry = string_match.knowledge_entry(fixture_row)
    assert entry["prompt"] == "What is the capital of France? Put your final answer in \\boxed{}."
    assert entry["answer"] == "Paris"
    assert 2 <= len(entry["distractors"]) <= 4 and "Paris" not in entry["distractors"]
    assert string_match.knowledge_entry(_row(expected_answer="80"))["distractors"] == ["81", "79", "90"]


# --- mcqa -------------------------------------------------------------------------------------------

OPTIONS = [{"A": "Mercury"}, {"B": "Venus"}, {"C": "Earth"}, {"D": "Mars"}]


@pytest.mark.parametrize(
    ("text", "extracted", "reward"),
    [
        ("Mercury is closest.\nAnswer: A", "A", 1.0),
        ("Answer: B at first... no.\nanswer: (a)", "A", 1.0),
        ("Answer: C", "C", 0.0),
        ("I pick the first one.\n\nA.", "A", 1.0),
        ("Answer: E", None, 0.0),
        ("Answer: Mercury", None, 0.0),
        ("I think it is A.", None, 0.0),
    ],
)
def test_mcqa_verify(text: str, extracted: str | None, reward: float) -> None:
    verdict = mcqa.verify(_row(options=OPTIONS, expected_answer="A"), text)
    assert list(verdict) == VERDICT_KEYS
    assert (verdict["extracted_answer"], verdict["reward"]) == (extracted, reward)


@pytest.mark.parametrize(
    ("fields", "bad_field"),
    [
        ({"expected_answer": "A"}, "options"),
        ({"options": OPTIONS}, "expected_answer"),
        ({"options": OPTIONS, "expected_answer": "E"}, "expected_answer"),
        ({"options": [{"A": "x", "B": "y"}], "expected_answer": "A"}, "options"),
        ({"options": [{"a": "x"}, {"b": "y"}], "expected_answer": "A"}, "options"),
    ],
)
def test_mcqa_rejects_rows_it_cannot_grade(fields: dict, bad_field: str) -> None:
    with pytest.raises(VerifierInputError) as error:
        mcqa.verify(_row(**fields), "Answer: A")
    assert error.value.field == bad_field


def test_mcqa_knowledge_entry() -> None:
    entry = mcqa.knowledge_entry(_row("Which planet?", options=OPTIONS, expected_answer="b"))
    assert entry == {"prompt": "Which planet?", "answer": "B", "distractors": ["A", "C", "D"]}


# --- shared helpers and the registry ---------------------------------------------------------------


def test_prompt_text_reads_the_last_user_message() -> None:
    row = {
        "responses_create_params": {
            "input": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "first"},
                {"role": "assistant", "content": "ok"},
                {"role": "user", "type": "message", "content": [
                    {"type": "input_text", "text": "second "}, {"type": "input_text", "text": "part"}]},
            ]
        }
    }
    assert Environment.prompt_text(row) == "second part"
    assert Environment.prompt_text({"responses_create_params": {"input": [{"role": "user", "content": "hi"}]}}) == "hi"
    with pytest.raises(VerifierInputError, match="no user message"):
        Environment.prompt_text({"responses_create_params": {"input": [{"role": "system", "content": "x"}]}})
    with pytest.raises(VerifierInputError) as error:
        Environment.prompt_text({})
    assert error.value.field == "responses_create_params"


def test_registry() -> None:
    assert set(ENVIRONMENTS) == {"string_match", "mcqa"}
    environment = get_environment("string_match")
    assert environment.agent_name == "string_match_simple_agent"
    assert environment.environment_server_name == "string_match_environment_server"
    assert environment.dataset_path.name == "string_match.jsonl" and environment.dataset_path.is_file()
    with pytest.raises(UnknownEnvironmentError, match="mcqa, string_match") as error:
        get_environment("math")
    assert isinstance(error.value, ValueError) and "did you mean" not in str(error.value)
    with pytest.raises(UnknownEnvironmentError, match="did you mean 'string_match'"):
        get_environment("String_Match")


# --- the bundled datasets ---------------------------------------------------------------------------


def _well_formatted(environment: Environment, row: dict, answer: str) -> str:
    if environment.name == "mcqa":
        return f"Let me think.\nAnswer: {answer}"
    return {"boxed": rf"So \boxed{{{answer}}}.", "final_answer": f"Reasoning.\nFinal answer: {answer}",
            "last_line": f"Reasoning.\n{answer}"}[row["extraction_mode"]]


@pytest.mark.parametrize("name", sorted(ENVIRONMENTS))
def test_bundled_dataset_is_well_formed_and_gradable(name: str) -> None:
    environment = get_environment(name)
    rows = list(environment.rows())
    assert len(rows) >= 60
    assert {row["difficulty"] for row in rows} == {1, 2, 3, 4, 5}
    prompts = [environment.prompt_text(row) for row in rows]
    assert len(set(prompts)) == len(prompts)
    for row in rows:
        (message,) = row["responses_create_params"]["input"]
        assert message["role"] == "user" and message["type"] == "message"
        assert [part["type"] for part in message["content"]] == ["input_text"]
        knowledge = environment.knowledge_entry(row)
        assert 2 <= len(knowledge["distractors"]) <= 4
        assert environment.verify(row, _well_formatted(environment, row, knowledge["answer"]))["reward"] == 1.0
        for wrong in knowledge["distractors"]:
            assert environment.verify(row, _well_formatted(environment, row, wrong))["reward"] == 0.0


def test_bundled_string_match_mixes_modes_and_mcqa_lists_its_options() -> None:
    modes = [row["extraction_mode"] for row in string_match.rows()]
    assert all(modes.count(mode) >= 15 for mode in ("boxed", "final_answer", "last_line"))
    for row in mcqa.rows():
        assert len(row["options"]) == 4
        prompt = Environment.prompt_text(row)
        for option in row["options"]:
            ((letter, text),) = option.items()
            assert f"{letter}) {text}" in prompt
        assert "Answer: <LETTER>" in prompt
