"""The rows a diagnosis reads of a JSONL file: the objects that parse, by line number, and nothing raised."""

from pathlib import Path

from gym_pipeline.diagnose.jsonl_rows import readable_rows


def test_readable_rows_skip_what_does_not_parse_and_keep_line_numbers(tmp_path: Path):
    rows = tmp_path / "rollouts.jsonl"
    rows.write_bytes(b'{"a": 1}\n[1, 2]\n\n{"a": 2}\n{"a": 3, "torn\n{"a": 4}\n')

    assert list(readable_rows(rows)) == [(1, {"a": 1}), (4, {"a": 2}), (6, {"a": 4})]
    assert list(readable_rows(rows, limit=4)) == [(1, {"a": 1}), (4, {"a": 2})]


def test_a_file_that_cannot_be_opened_has_no_readable_rows(tmp_path: Path):
    assert list(readable_rows(tmp_path / "missing.jsonl")) == []
    assert list(readable_rows(tmp_path)) == []
