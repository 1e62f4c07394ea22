"""Reading a data file's bad line: what kind of damage it is, and the hints an exception gives for the fix."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gym_pipeline.diagnose import diagnose
from gym_pipeline.diagnose.bad_data_line import first_bad_line
from gym_pipeline.diagnose.exception_hints import code_fix_hint

ROW = '{"responses_create_params": {"input": "q"}, "expected_answer": "4"}'


@pytest.mark.parametrize(("content", "line", "kind"), [
    (f"# exported by a tool\n{ROW}\n", 1, "comment"),
    (f"{ROW}\n// note\n{ROW}\n", 2, "comment"),
    (f"{ROW}\n{ROW[:30]}", 2, "cut"),
    ("\ufeff" + ROW + "\n", 1, "bom"),
    (f"[\n  {ROW}\n]\n", 1, "document"),
    (f"{ROW}\n{ROW}{ROW}\n", 2, "glued"),
    (f"{ROW}\n{ROW} x\n", 2, "other"),
    (f"{ROW}\n[1, 2]\n", 2, "other"),
    ("{'responses_create_params': {'input': 'q'}, 'expected_answer': '4', 'strict': True}\n", 1, "python"),
])
def test_the_first_bad_line_and_its_kind(tmp_path, content, line, kind):
    path = tmp_path / "data.jsonl"
    path.write_text(content, encoding="utf-8")
    bad = first_bad_line(path)
    assert bad is not None and (bad.line, bad.kind) == (line, kind)
    assert str(path) in bad.fix


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le"])
def test_a_utf16_file_is_named_for_its_encoding(tmp_path, encoding):
    path = tmp_path / "data.jsonl"
    path.write_bytes(f"{ROW}\n{ROW}\n".encode(encoding))
    bad = first_bad_line(path)
    assert bad is not None and bad.kind == "utf16" and "iconv -f UTF-16 -t UTF-8" in bad.fix


def test_a_cut_line_followed_by_a_newline_is_not_called_cut(tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_text(f"{ROW[:30]}\n{ROW}\n", encoding="utf-8")
    assert first_bad_line(path).kind == "other"


def test_a_clean_file_has_no_bad_line(tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_text(f"{ROW}\n\n{ROW}\n", encoding="utf-8")
    assert first_bad_line(path) is None


@pytest.mark.parametrize(("error", "words"), [
    ("AttributeError(\"'MatchConfig' object has no attribute 'min_similarity'\")", ["min_similarity", "MatchConfig"]),
    ("json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)", ["json.loads"]),
    ("TypeError: '<' not supported between instances of 'str' and 'float'", ["`str`", "`float`"]),
    ("SystemExit: 1", ["sys.exit()"]),
])
def test_exception_hints_name_what_to_change(error, words):
    hint = code_fix_hint(error)
    assert all(word in hint for word in words), hint


def test_no_hint_for_an_unknown_error():
    assert code_fix_hint("RuntimeError: something else") == ""


def test_a_blank_line_is_bad_only_for_a_reader_that_refuses_it(tmp_path):
    data = tmp_path / "tasks.jsonl"
    data.write_text('{"a": 1} \n\n{"a": 2} \n\n')  # print(json.dumps(row), "\n") leaves a blank line after each row
    assert first_bad_line(data) is None  # ours skips blank lines
    bad = first_bad_line(data, blank_lines_bad=True)  # Gym's reader does not
    assert (bad.line, bad.kind) == (2, "blank") and "sed -i" in bad.fix


PREP = """import json, sys
rows = [{"responses_create_params": {"input": f"What is {n} + {n}?"}, "expected_answer": str(2 * n)} for n in range(4)]
with open(sys.argv[1], "w") as out:
    for row in rows:
        %s
"""


@pytest.mark.parametrize(("write", "fault"), [("print(row, file=out)", "python"),
                                              ('out.write(json.dumps(row, indent=2) + "\\n")', "document"),
                                              ('out.write(json.dumps(row) + "\\n")', None)])
def test_a_data_script_printing_python_dicts_or_indented_rows_is_named_in_the_fix(tmp_path, write, fault):
    run = tmp_path / "run"
    run.mkdir()
    (run / "prep_data.py").write_text(PREP % write)
    subprocess.run([sys.executable, "prep_data.py", "tasks.jsonl"], cwd=run, check=True)
    with (run / "materialize.log").open("w") as log:
        subprocess.run([sys.executable, "-m", "gym_pipeline.cli", "materialize", "--input", "tasks.jsonl",
                        "--num-repeats", "1", "--agent", "string_match_simple_agent", "--output",
                        "rollouts_materialized_inputs.jsonl"], cwd=run, stdout=log, stderr=subprocess.STDOUT)

    findings = [f for f in diagnose(run).findings if f.id == "bad_data_line"]

    if fault == "python":
        assert "not valid JSON" in (run / "materialize.log").read_text()
        assert findings[0].title == "tasks.jsonl line 1 is not JSON: a Python dict, not JSON"
        assert findings[0].fix.startswith("In prep_data.py:5, write each row with `out.write(json.dumps(row)")
    elif fault == "document":  # rows indented for readable review diffs
        assert "not valid JSON" in (run / "materialize.log").read_text()
        assert findings[0].title == "tasks.jsonl line 1 is not JSON: a pretty-printed JSON document"
        assert findings[0].fix.startswith("In prep_data.py:5, write each row on one line, without `indent`")
    else:
        assert findings == []


@pytest.mark.parametrize("final_newline", [False, True])
def test_files_joined_with_cat_when_one_lacks_its_final_newline(tmp_path, final_newline):
    """prepare_data.sh joins two annotators' exports with `cat`; the first export has no newline after its last row,
    so that row and the next file's first become one line, and materializing refuses it. With the newline, it runs."""
    run = tmp_path / "run"
    run.mkdir()
    (run / "annotator_a.jsonl").write_text(f"{ROW}\n{ROW}" + ("\n" if final_newline else ""))
    (run / "annotator_b.jsonl").write_text(f"{ROW}\n")
    (run / "prepare_data.sh").write_text("#!/bin/bash\ncat annotator_a.jsonl annotator_b.jsonl > tasks.jsonl\n")
    subprocess.run(["bash", "prepare_data.sh"], cwd=run, check=True)
    with (run / "materialize.log").open("w") as log:
        subprocess.run([sys.executable, "-m", "gym_pipeline.cli", "materialize", "--input", "tasks.jsonl",
                        "--num-repeats", "1", "--agent", "string_match_simple_agent", "--output",
                        "rollouts_materialized_inputs.jsonl"], cwd=run, stdout=log, stderr=subprocess.STDOUT)

    findings = [f for f in diagnose(run).findings if f.id == "bad_data_line"]

    if final_newline:
        assert (run / "rollouts_materialized_inputs.jsonl").is_file() and findings == []
        return
    assert "tasks.jsonl:2: not valid JSON" in (run / "materialize.log").read_text()
    assert findings[0].title == "tasks.jsonl line 2 is not JSON: two rows run together"
    assert findings[0].fix.startswith("prepare_data.sh:2 (`cat annotator_a.jsonl annotator_b.jsonl > tasks.jsonl`) "
                                      "joins annotator_a.jsonl, annotator_b.jsonl into tasks.jsonl, and "
                                      "annotator_a.jsonl does not end in a newline")


PREP_FROM_CSV = '''import csv, json
with open("labels.csv", newline="", encoding="utf-8") as source, open("tasks.jsonl", "w") as out:
    for record in csv.DictReader(source):
        out.write(json.dumps({"responses_create_params": {"input": record["question"]},
                              "expected_answer": record["answer"]}) + "\\n")
'''


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-8"])
def test_a_csv_saved_with_a_byte_order_mark_stops_the_data_script_that_writes_the_data(tmp_path, encoding):
    """The team's sheet saved as "CSV UTF-8" starts with a BOM; prep_data.py reads it as utf-8, so the first column is
    `\\ufeffquestion` and the script stops on a KeyError after opening tasks.jsonl: the run reads an empty file.
    Saved without the BOM, the same script writes every row."""
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "labels.csv").write_text("question,answer\nWhat is 2+2?,4\nWhat is 3+3?,6\n", encoding=encoding)
    (run / "prep_data.py").write_text(PREP_FROM_CSV)
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\n{sys.executable} prep_data.py\n{sys.executable} -m gym_pipeline.cli materialize --input "
        "tasks.jsonl --num-repeats 1 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n")
    with (run / "logs" / "run_eval.log").open("w") as log:
        subprocess.run(["bash", "run_eval.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=120)

    report = diagnose(run)

    if encoding == "utf-8":
        assert len((run / "tasks.jsonl").read_text().splitlines()) == 2
        assert all("byte-order mark" not in f.cause for f in report.findings)
        return
    assert (run / "tasks.jsonl").read_text() == ""
    top = report.causes[0]
    assert top.category == "data_schema", [f.title for f in report.causes]
    assert top.title == ("The source data tasks.jsonl is empty: prep_data.py, which writes it, stopped on an error "
                         "(KeyError: 'question')")
    assert top.fix.startswith('Open labels.csv with `encoding="utf-8-sig"` in prep_data.py')


PREP_PRINTING = '''import json, sys
print("prep: writing the weekly rows"%s)
for answer in ("4", "5"):
    print(json.dumps({"responses_create_params": {"input": "q"}, "expected_answer": answer}))
'''


@pytest.mark.parametrize("to_stderr", [False, True])
def test_a_message_printed_into_the_data_its_script_writes_on_stdout(tmp_path, to_stderr):
    """prepare_data.sh writes the data as prep.py's stdout (`python3 prep.py > tasks.jsonl`), and prep.py prints a
    progress message there before the rows: line 1 of the data is that message, and materializing refuses it. The fix
    names the redirect and the print. Printed to stderr, the message stays out of the data."""
    run = tmp_path / "run"
    run.mkdir()
    (run / "prep.py").write_text(PREP_PRINTING % (", file=sys.stderr" if to_stderr else ""))
    (run / "prepare_data.sh").write_text(f"#!/bin/bash\n{sys.executable} prep.py > tasks.jsonl\n")
    subprocess.run(["bash", "prepare_data.sh"], cwd=run, check=True, capture_output=True)
    with (run / "materialize.log").open("w") as log:
        subprocess.run([sys.executable, "-m", "gym_pipeline.cli", "materialize", "--input", "tasks.jsonl",
                        "--num-repeats", "1", "--agent", "string_match_simple_agent", "--output",
                        "rollouts_materialized_inputs.jsonl"], cwd=run, stdout=log, stderr=subprocess.STDOUT)

    findings = [f for f in diagnose(run).findings if f.id == "bad_data_line"]

    if to_stderr:
        assert (run / "rollouts_materialized_inputs.jsonl").is_file() and findings == []
        return
    assert "tasks.jsonl:1: not valid JSON" in (run / "materialize.log").read_text()
    assert findings[0].fix.startswith(f"prepare_data.sh:2 makes tasks.jsonl the output of a job or command (`"
                                      f"{sys.executable} prep.py > tasks.jsonl`), so everything it prints lands in "
                                      "the data: prep.py:2 (`print(\"prep: writing the weekly rows\")`) printed line 1")


PREP_READING_FIRST = '''import csv, json
with open("labels.csv", newline="", encoding="utf-8") as source:
    rows = [{"responses_create_params": {"input": record["question"]}, "expected_answer": record["answer"]}
            for record in csv.DictReader(source)]
with open("tasks.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\\n" for row in rows)
'''


@pytest.mark.parametrize("hint_line", [True, False])
def test_a_csv_export_starting_with_excels_separator_hint_stops_the_data_script(tmp_path, hint_line):
    """The review tool's new export starts with `sep=,` (a line for Excel); prep_data.py's DictReader takes it as the
    header, stops on KeyError: 'question' before writing tasks.jsonl, and the run script goes on to materialize a file
    that is not there. The finding names the script's error and the hint line (data). Without it, the rows are
    written."""
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "labels.csv").write_text(("sep=,\n" if hint_line else "") + "question,answer\nWhat is 2+2?,4\n")
    (run / "prep_data.py").write_text(PREP_READING_FIRST)
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\n{sys.executable} prep_data.py\n{sys.executable} -m gym_pipeline.cli materialize --input "
        "tasks.jsonl --num-repeats 1 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n")
    with (run / "logs" / "run_eval.log").open("w") as log:
        subprocess.run(["bash", "run_eval.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=120)

    report = diagnose(run)

    if not hint_line:
        assert (run / "rollouts_materialized_inputs.jsonl").is_file()
        assert all(f.id != "data_file_its_writer_never_wrote" for f in report.findings)
        return
    assert not (run / "tasks.jsonl").exists()
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "data_file_its_writer_never_wrote"), [
        f.title for f in report.causes]
    assert top.title == ("The data file tasks.jsonl was never written: prep_data.py, which writes it, stopped on an "
                         "error first (KeyError: 'question')")
    assert "labels.csv starts with `sep=,`" in top.cause and top.fix.startswith("In prep_data.py, skip the `sep=` first line")
