"""Labels rewritten by the user's preparation script, so the model's right answers score 0. Run for real:
prep_data.py writes the data, bash runs the built-in engine against the simulated policy, which knows the right
answers; each twin leaves the labels as they were.

- Labels whose case carries meaning (NaCl, pH, mRNA, eBay) re-cased as a whole on rows compared case by case.
- Labels of questions asking for a number in words (`eight`) turned into digits for a dashboard.
- Labels taken from a graded export's reference column, which holds the reference model's whole last line
  (`Final answer: Canberra`), not the answer.
- Labels printed by a preparation script under the node's `PYTHONIOENCODING=ascii:replace`: `San Jos?` for San José.
- Decimal labels computed in floating point and written with `str()` (`0.30000000000000004` for 0.3).
- Drafts whose answer is still `TODO` kept by a filter on a flag the review export writes as text
  (`"reviewed": "false"` is true in Python).
- Labels of centuries and regnal numbers written in Roman numerals (`XV`), where the questions ask for the number.
- LaTeX labels whose backslashes were doubled by hand "for JSON" before `json.dumps` escaped them again.
- Labels cleaned of stray spaces by removing every space (`NewDelhi`).
- Labels copied from a web page's text with its soft hyphens (`Nai\\u00adrobi`), in the data file itself.
- Decimal labels from a spreadsheet exported in a German locale (`3,5` for 3.5), copied as they were.
- Whole-number labels past 2^53 passed through `jq` 1.6, which reads every JSON number as a double
  (`1152921504606847000` for 2^60).
- Clock-time labels of a YAML answer key written unquoted, which PyYAML reads as base-60 integers (`870` for 14:30).
- Number labels from a sheet column formatted as ordinals (`3rd` for 3), where the questions ask for the number only.
- Gene symbols of a month and a number (`SEPT2`, `MARCH1`) that the shared sheet turned into dates (`2-Sep`)."""

import json
import sys
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

# the user's run script after its preparation step: materialize tasks.jsonl, collect, profile
STAGES = (f"{CLI} materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output "
          f"rollouts_materialized_inputs.jsonl\n{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output "
          "rollouts.jsonl --model-url URL --env string_match --concurrency 6\n"
          f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")


def final_answer_rows(labels: dict[str, str], case_sensitive: bool = True) -> list[dict]:
    return [{"responses_create_params": {"input": [{"role": "user", "content": f"{question} End your response with "
                                                                             "'Final answer: <answer>'."}]},
             "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": case_sensitive}
            for question, answer in labels.items()]


def prepared_run(tmp_path: Path, prep_body: str, rows: list[dict]) -> Path:
    """prep_data.py (reading data.jsonl, writing tasks.jsonl with `prep_body` applied to each row), then materialize,
    collect and profile by the user's run_eval.sh."""
    prep = ("import json, sys\nrows = [json.loads(line) for line in open(sys.argv[1])]\n"
            "with open(sys.argv[2], 'w') as out:\n    for row in rows:\n"
            f"{prep_body}        out.write(json.dumps(row) + '\\n')\n")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "prep_data.py").write_text(prep)
    script = "python3 prep_data.py data.jsonl tasks.jsonl\n" + STAGES
    return run_scripts(tmp_path, [script], checkpoint_of_script=[1], rows=rows)


LABELS = {"What is the chemical formula of table salt?": "NaCl",
          "Which scale measures how acidic a solution is?": "pH",
          "Which molecule carries a gene's code to the ribosome?": "mRNA",
          "Which online auction site was founded in 1995?": "eBay",
          "Which gas do plants take in from the air?": "CO2",
          "What is the capital of France?": "Paris"}


@pytest.mark.parametrize("tidy", [".strip().capitalize()", ".strip()"])
def test_labels_re_cased_by_the_preparation_script(tmp_path: Path, tidy: str) -> None:
    body = f"        row['expected_answer'] = str(row['expected_answer']){tidy}  # tidy the review tool's labels\n"
    run = prepared_run(tmp_path, body, final_answer_rows(LABELS))

    report = diagnose(run)

    if tidy == ".strip()":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "expected_answers_case_lost")
    assert top.title.endswith(" answers scored 0 only for their case: the expected answers lost theirs "
                              "(prep_data.py:5)"), top.title
    assert [line.where for line in top.evidence][1:] == ["prep_data.py:5"]
    assert "(drop its `.capitalize()`: trim them, keep their case)" in top.fix


NUMBERS_IN_WORDS = {"How many legs does a spider have? Write the number in words.": "eight",
                    "How many sides does a hexagon have? Write the number in words.": "six",
                    "How many days are in a week? Write the number in words.": "seven",
                    "How many players are on a football team on the pitch? Write the number in words.": "eleven",
                    "What is the capital of Italy?": "Rome"}


@pytest.mark.parametrize("to_digits", [True, False])
def test_number_word_labels_turned_into_digits_by_the_preparation_script(tmp_path: Path, to_digits: bool) -> None:
    body = ('        NUMBER_WORDS = {"six": "6", "seven": "7", "eight": "8", "eleven": "11"}  # for the dashboard\n'
            + ("        row['expected_answer'] = NUMBER_WORDS.get(row['expected_answer'], row['expected_answer'])\n"
               if to_digits else ""))
    run = prepared_run(tmp_path, body, final_answer_rows(NUMBERS_IN_WORDS, case_sensitive=False))

    report = diagnose(run)

    if not to_digits:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "numbers_written_otherwise_in_expected_answers")
    assert top.title.endswith(" answers scored 0 give their `expected_answer`'s number in words: prep_data.py:5 "
                              "turned the labels' words into digits (NUMBER_WORDS)"), top.title
    assert "(do not apply NUMBER_WORDS to `expected_answer`;" in top.fix


REVIEWED = {"What is the capital of Kenya?": "Nairobi", "Which metal is attracted by a magnet?": "Iron",
            "What is the largest ocean on Earth?": "Pacific", "Which country is Mount Fuji in?": "Japan",
            "What is the capital of Peru?": "Lima"}
DRAFTS = ("What is the largest ocean on Earth?", "What is the capital of Peru?")


@pytest.mark.parametrize("flag", [("false", "true"), (False, True)])
def test_drafts_kept_by_a_filter_on_a_flag_written_as_text(tmp_path: Path, flag: tuple) -> None:
    false, true = flag
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "review_export.jsonl").write_text("".join(
        json.dumps({"question": question, "answer": "TODO" if question in DRAFTS else answer,
                    "reviewed": false if question in DRAFTS else true}) + "\n" for question, answer in REVIEWED.items()))
    (tmp_path / "run" / "prep_data.py").write_text(
        "import json, sys\nwith open(sys.argv[1]) as export, open(sys.argv[2], 'w') as out:\n"
        "    for line in export:\n        item = json.loads(line)\n"
        "        if not item.get('reviewed'):\n            continue  # drafts are not evaluated\n"
        "        text = f\"{item['question']} End your response with 'Final answer: <answer>'.\"\n"
        "        out.write(json.dumps({'responses_create_params': {'input': [{'role': 'user', 'content': text}]},\n"
        "                              'expected_answer': item['answer'], 'extraction_mode': 'final_answer'}) + '\\n')\n")
    script = "python3 prep_data.py review_export.jsonl tasks.jsonl\n" + STAGES
    run = run_scripts(tmp_path, [script], checkpoint_of_script=[1], rows=final_answer_rows(REVIEWED, False))

    report = diagnose(run)

    if false is False:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "placeholder_labels")
    assert top.title == ("2 tasks of the run expect a placeholder ('TODO'): drafts reached the eval, and every answer "
                         "to them scored 0")
    assert [line.where for line in top.evidence] == ["rollouts_materialized_inputs.jsonl:7", "prep_data.py:5",
                                                     "review_export.jsonl:3"]
    assert "(review_export.jsonl writes `\"reviewed\": \"false\"`)" in top.fix


@pytest.mark.parametrize("column", ["reference_output", "reference_answer"])
def test_labels_taken_from_a_column_of_whole_answer_lines(tmp_path: Path, column: str) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "graded.jsonl").write_text("".join(
        json.dumps({"question": question, "reference_output": f"Final answer: {answer}", "reference_answer": answer})
        + "\n" for question, answer in REVIEWED.items()))
    (tmp_path / "run" / "prep_data.py").write_text(
        "import json, sys\nwith open(sys.argv[1]) as graded, open(sys.argv[2], 'w') as out:\n"
        "    for line in graded:\n        item = json.loads(line)\n"
        "        text = f\"{item['question']} End your response with 'Final answer: <answer>'.\"\n"
        "        out.write(json.dumps({'responses_create_params': {'input': [{'role': 'user', 'content': text}]},\n"
        f"                              'expected_answer': item['{column}'], 'extraction_mode': 'final_answer'}}) + "
        "'\\n')\n")
    script = "python3 prep_data.py graded.jsonl tasks.jsonl\n" + STAGES
    run = run_scripts(tmp_path, [script], checkpoint_of_script=[1], rows=final_answer_rows(REVIEWED, False))

    report = diagnose(run)

    if column == "reference_answer":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "labels_holding_the_answer_marker")
    assert top.title.endswith("answers scored 0 are their label's answer: the labels hold whole answer lines "
                              "(`Final answer: ...`), not answers (prep_data.py:7)"), top.title
    assert "take the answer out of `reference_output` of graded.jsonl" in top.fix


SUMS = [(0.1, 0.2), (1.1, 2.2), (0.7, 0.1), (2.5, 1.25), (0.2, 0.4)]


@pytest.mark.parametrize("written", ["str(a + b)", "str(round(a + b, 2))"])
def test_decimal_labels_written_with_binary_float_noise(tmp_path: Path, written: str) -> None:
    questions = {f"What is {a} plus {b}?": f"{round(a + b, 2):g}" for a, b in SUMS}
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "make_tasks.py").write_text(
        f"import json\nSUMS = {SUMS!r}\nwith open('tasks.jsonl', 'w') as out:\n    for a, b in SUMS:\n"
        "        text = f\"What is {a} plus {b}? End your response with 'Final answer: <answer>'.\"\n"
        "        out.write(json.dumps({'responses_create_params': {'input': [{'role': 'user', 'content': text}]},\n"
        f"                              'expected_answer': {written}, 'extraction_mode': 'final_answer'}}) + '\\n')\n")
    script = "python3 make_tasks.py\n" + STAGES
    run = run_scripts(tmp_path, [script], checkpoint_of_script=[1], rows=final_answer_rows(questions, False))

    report = diagnose(run)

    if "round" in written:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "labels_with_float_noise")
    assert top.title.endswith("answers scored 0 are their label's number without its floating-point noise "
                              "(`0.30000000000000004` for 0.3): make_tasks.py:7 writes them"), top.title


CAPITALS = {"What is the capital of Costa Rica?": "San José", "What is the capital of Cameroon?": "Yaoundé",
            "What is the capital of the Maldives?": "Malé", "What is the capital of Togo?": "Lomé",
            "What is the capital of Peru?": "Lima"}


@pytest.mark.parametrize("encoding", ["ascii:replace", "utf-8"])
def test_labels_printed_under_an_ascii_output_encoding_lose_their_accents(tmp_path: Path, encoding: str) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "node_env.sh").write_text(f"# the eval nodes' environment\nexport PYTHONIOENCODING={encoding}\n")
    (tmp_path / "run" / "prepare_data.py").write_text(
        "import json\nfor line in open('data.jsonl', encoding='utf-8'):\n"
        "    print(json.dumps(json.loads(line), ensure_ascii=False))\n")
    script = "source node_env.sh\npython3 prepare_data.py > tasks.jsonl\n" + STAGES
    run = run_scripts(tmp_path, [script], checkpoint_of_script=[1], rows=final_answer_rows(CAPITALS, False))

    report = diagnose(run)

    if encoding == "utf-8":  # the labels keep their accents (the policy's own misspellings may still score 0)
        assert "San José" in (run / "tasks.jsonl").read_text(encoding="utf-8")
        assert not [f for f in report.findings if f.id == "labels_with_non_ascii_replaced"]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "labels_with_non_ascii_replaced")
    assert top.title.endswith("which the labels have as `?`: node_env.sh:2 sets the environment's output encoding to "
                              "ASCII"), top.title
    assert "`unset PYTHONIOENCODING`" in top.fix


LATEX_LABELS = {"Write one half as a LaTeX fraction.": "\\frac{1}{2}",
                "Write the square root of two in LaTeX.": "\\sqrt{2}",
                "Write the circle constant in LaTeX.": "\\pi",
                "Write two thirds as a LaTeX fraction.": "\\frac{2}{3}",
                "What is the capital of Spain?": "Madrid"}


@pytest.mark.parametrize("escape", [True, False])
def test_labels_whose_backslashes_were_escaped_by_hand_before_json_dumps(tmp_path: Path, escape: bool) -> None:
    body = ("        row['expected_answer'] = row['expected_answer'].replace(\"\\\\\", \"\\\\\\\\\")  "
            "# escape backslashes for JSON\n" if escape else "")
    run = prepared_run(tmp_path, body, final_answer_rows(LATEX_LABELS))
    report = diagnose(run)
    if not escape:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert '"\\\\\\\\frac{1}{2}"' in (run / "tasks.jsonl").read_text()  # two backslashes in the label, escaped
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "labels_with_doubled_backslashes")
    assert top.title.endswith("the labels hold every backslash twice (prep_data.py:5 doubles them)"), top.title
    assert top.fix.startswith("In prep_data.py:5, drop the replace: `json.dumps` escapes each backslash itself")


CENTURIES = {"In which century did the printing press reach Venice? Answer with the number.": "15",
             "In which century did the French Revolution begin? Answer with the number.": "18",
             "Which Louis of France was called the Sun King? Answer with the number.": "14",
             "In which century was Charlemagne crowned emperor? Answer with the number.": "9",
             "What is the capital of Spain?": "Madrid"}


@pytest.mark.parametrize("roman", [True, False])
def test_labels_written_in_roman_numerals_by_the_preparation_script(tmp_path: Path, roman: bool) -> None:
    """The history team's answer key writes centuries and regnal numbers as historians do (`XV`), and the prep step
    keeps that: the model's right answers in digits score 0. Labels left in digits: healthy."""
    body = ("        numerals = {'15': 'XV', '18': 'XVIII', '14': 'XIV', '9': 'IX'}  # as the history key writes them\n"
            "        row['expected_answer'] = numerals.get(row['expected_answer'], row['expected_answer'])\n"
            if roman else "        pass\n")
    run = prepared_run(tmp_path, body, final_answer_rows(CENTURIES))

    report = diagnose(run)

    if not roman:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "labels_in_roman_numerals"), [f.title for f in report.causes]
    assert "give in digits the number their `expected_answer` writes in Roman numerals" in top.title
    assert "in digits, at their source" in top.fix


POSITIONS = {f"What is the position of the letter {letter} in the English alphabet? Answer with the number only.":
             str(ord(letter) - ord("A") + 1) for letter in "CJBHGL"}


@pytest.mark.parametrize("ordinal", [True, False])
def test_number_labels_exported_from_a_column_formatted_as_ordinals(tmp_path: Path, ordinal: bool) -> None:
    """The curriculum sheet shows its position column as ordinals, and the prep step takes the cells as shown
    (`3rd`): the model's right answers, the numbers the questions ask for, score 0. Plain numbers: healthy."""
    body = ("        n = int(row['expected_answer'])  # the sheet's cell as shown: 1st, 2nd, 3rd, 4th...\n"
            "        suffix = 'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')\n"
            "        row['expected_answer'] = f'{n}{suffix}'\n" if ordinal else "        pass\n")
    run = prepared_run(tmp_path, body, final_answer_rows(POSITIONS))

    report = diagnose(run)

    if not ordinal:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "labels_in_a_spreadsheets_display_format"), [
        f.title for f in report.causes]
    assert "writes them in a spreadsheet's ordinal format" in top.title
    assert "no ordinal suffix" in top.fix


@pytest.mark.parametrize("full_stops", [True, False])
def test_labels_copied_from_an_answer_key_with_sentence_full_stops(tmp_path: Path, full_stops: bool) -> None:
    """The labels are taken from an answer key written in sentences (`Nairobi.`): the model's right answers, which the
    verifier reads without the full stop, score 0. Labels without it: healthy."""
    body = ("        row['expected_answer'] += '.'  # copied from the answer key's sentences\n" if full_stops
            else "        pass\n")
    run = prepared_run(tmp_path, body, final_answer_rows(REVIEWED))

    report = diagnose(run)

    if not full_stops:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "wrapped_expected_answers"), [f.title for f in report.causes]
    assert "expected_answer='Nairobi.' extracted_answer='Nairobi'" in top.evidence[0].text
    assert "`Paris.` -> `Paris`, no full stop" in top.fix


@pytest.mark.parametrize("ported", [True, False])
def test_labels_with_cyrillic_letters_drawn_like_latin_ones(tmp_path: Path, ported: bool) -> None:
    """The answer key was ported from another language's benchmark and keeps Cyrillic `о` and `а` in Latin words: the
    model's right answers never equal them. Labels in Latin letters: healthy."""
    body = ("        row['expected_answer'] = row['expected_answer'].replace('o', '\\u043e').replace('a', '\\u0430')\n"
            if ported else "        pass\n")
    run = prepared_run(tmp_path, body, final_answer_rows(REVIEWED))

    report = diagnose(run)

    if not ported:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "expected_answers_in_other_typography"), [
        f.title for f in report.causes]
    assert "CYRILLIC SMALL LETTER" in top.title
    assert "The labels hold Cyrillic letters drawn like Latin ones" in top.fix


MULTI_WORD = {"What is the capital of India?": "New Delhi",
              "What is the capital of Argentina?": "Buenos Aires",
              "What is the capital of Malaysia?": "Kuala Lumpur",
              "Which city is called the Big Apple?": "New York",
              "What is the capital of Peru?": "Lima",
              "What is the capital of Kenya?": "Nairobi"}


@pytest.mark.parametrize("clean", ["''.join", "' '.join"])
def test_labels_cleaned_of_stray_spaces_by_removing_every_space(tmp_path: Path, clean: str) -> None:
    """The annotation tool leaves stray spaces in labels; the preparation script cleans them with
    `''.join(label.split())`, which glues multi-word labels (`NewDelhi`): the model's right answers to those score 0.
    Collapsing spaces with `' '.join(...)`: healthy."""
    body = f"        row['expected_answer'] = {clean}(row['expected_answer'].split())  # stray spaces\n"
    run = prepared_run(tmp_path, body, final_answer_rows(MULTI_WORD, case_sensitive=False))

    report = diagnose(run)

    if clean == "' '.join":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "expected_answers_without_spaces"), [
        f.title for f in report.causes]
    assert top.title.endswith(" answers of several words scored 0 are their `expected_answer` with spaces between "
                              "its words: the labels lost their spaces (prep_data.py:5 removes every space)"), top.title
    assert [line.where for line in top.evidence][1:] == ["prep_data.py:5"]
    assert top.fix.startswith("In prep_data.py line 5, keep one space between the words of the `expected_answer`")


@pytest.mark.parametrize("hyphenated", [True, False])
def test_labels_copied_from_a_web_page_keep_its_invisible_soft_hyphens(tmp_path: Path, hyphenated: bool) -> None:
    """Three labels of tasks.jsonl were copied from an encyclopedia's pages, whose text carries soft hyphens (U+00AD,
    break hints no editor shows): the model's right answers to them score 0. Typed labels: healthy."""
    labels = dict(REVIEWED)
    if hyphenated:
        for question in list(labels)[:3]:
            labels[question] = labels[question][:3] + "\u00ad" + labels[question][3:]
    tasks = "".join(json.dumps(row) + "\n" for row in final_answer_rows(labels))
    run = run_scripts(tmp_path, [STAGES], checkpoint_of_script=[1], rows=final_answer_rows(REVIEWED),
                      files={"tasks.jsonl": tasks})

    report = diagnose(run)

    if not hyphenated:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "invisible_characters_in_expected_answers"), [
        f.title for f in report.causes]
    assert top.title.endswith("but for characters that print as nothing (soft hyphen U+00AD)"), top.title
    assert top.fix.startswith("Remove the invisible characters (soft hyphen U+00AD) from `expected_answer` in "
                              "tasks.jsonl")


def test_a_weak_checkpoints_near_misses_on_rows_without_distractors_stay_healthy(tmp_path: Path) -> None:
    """Rows without `distractors` get the simulated policy's misspellings as wrong answers, one of them the label short
    of its last letter (`Buenos Aire`): the response gives that answer itself, so it is the model's miss, not an
    extraction that cut a right answer."""
    labels = MULTI_WORD | {"What is the capital of Chile?": "Santiago", "What is the capital of Egypt?": "Cairo",
                           "What is the capital of Norway?": "Oslo", "What is the capital of Japan?": "Tokyo"}
    rows = [row | {"difficulty": 5} for row in final_answer_rows(labels)]  # hard: mostly wrong answers
    run = run_scripts(tmp_path, ["cp data.jsonl tasks.jsonl\n" + STAGES.replace("--num-repeats 3", "--num-repeats 6")],
                      rows=rows)

    near_misses = [row for row in map(json.loads, (run / "rollouts.jsonl").read_text().splitlines())
                   if row.get("extracted_answer") and row["extracted_answer"] == row["expected_answer"][:-1]]
    assert len(near_misses) >= 3, "the weak checkpoint gave too few near misses to tell"
    report = diagnose(run)
    assert report.category == "healthy", [f.title for f in report.causes]


@pytest.mark.parametrize("tidy", [".replace(' ', '_')", ".strip()"])
def test_labels_made_slugs_by_the_preparation_script(tmp_path: Path, tidy: str) -> None:
    """The preparation script writes each label as the slug the team's answer pages use (`New_Delhi`): right answers
    of several words score 0. Named with the script's line; tidied with `.strip()` only, healthy."""
    body = f"        row['expected_answer'] = row['expected_answer']{tidy}  # as in the answer pages' URLs\n"
    run = prepared_run(tmp_path, body, final_answer_rows(MULTI_WORD, case_sensitive=False))

    report = diagnose(run)

    if tidy == ".strip()":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "expected_answers_without_spaces"), [
        f.title for f in report.causes]
    assert top.title.endswith("answers of several words scored 0 are their `expected_answer` with underscores between "
                              "the words instead of spaces: the labels are slugs, not the answers (prep_data.py:5)")
    assert top.fix.startswith("In prep_data.py line 5, take `expected_answer` from the answer itself, not from its "
                              "slug")


QUOTIENTS = {"What is 7 divided by 2?": "3.5", "What is 1 divided by 4?": "0.25", "What is 9 divided by 4?": "2.25",
             "What is 3 divided by 2?": "1.5", "What is 6 times 7?": "42", "What is 13 divided by 4?": "3.25"}


@pytest.mark.parametrize("locale", ["de_DE", "en_US"])
def test_labels_exported_by_a_spreadsheet_that_writes_decimal_commas(tmp_path: Path, locale: str) -> None:
    # a German-locale export separates columns with ';' and writes 3.5 as 3,5
    separator, point = (";", ",") if locale == "de_DE" else (",", ".")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "answer_sheet.csv").write_text(f"question{separator}answer\n" + "".join(
        f"{question}{separator}{answer.replace('.', point)}\n" for question, answer in QUOTIENTS.items()))
    (tmp_path / "run" / "prepare_data.py").write_text(
        "import csv, json\nwith open('answer_sheet.csv', newline='') as sheet:\n"
        "    header = sheet.readline()\n"
        "    rows = csv.reader(sheet, delimiter=';' if ';' in header else ',')\n"
        "    with open('tasks.jsonl', 'w') as out:\n        for question, answer in rows:\n"
        "            text = f\"{question} End your response with 'Final answer: <answer>'.\"\n"
        "            out.write(json.dumps({'responses_create_params': {'input': [{'role': 'user', 'content': text}]},\n"
        "                                  'expected_answer': answer, 'extraction_mode': 'final_answer'}) + '\\n')\n")
    script = "python3 prepare_data.py\n" + STAGES
    run = run_scripts(tmp_path, [script], checkpoint_of_script=[1], rows=final_answer_rows(QUOTIENTS, False))

    report = diagnose(run)

    if locale == "en_US":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "labels_in_a_spreadsheets_display_format"), top.title
    assert "in a spreadsheet's decimal comma format ('3,5' for 3.5)" in top.title, top.title
    assert "in prepare_data.py, turn the decimal comma into a point as it reads answer_sheet.csv" in top.fix, top.fix


CODES = {"What is James Bond's agent number, written with all three digits?": "007",
         "What is the ISO 3166-1 numeric code of Afghanistan?": "004",
         "What is the octal file mode for owner read and write only?": "0600",
         "What is the international call prefix used in most of Europe?": "00",
         "What is the capital of Peru?": "Lima", "Which HTTP status code means Not Found?": "404"}


@pytest.mark.parametrize("kept_as", ["text formula", "text"])
def test_codes_kept_by_a_spreadsheet_as_text_formulas_are_labels_no_answer_equals(tmp_path: Path, kept_as: str) -> None:
    # the sheet keeps the leading zeros of codes with `="007"` cells, and its CSV export writes the formula
    def cell(answer: str) -> str:
        return '"=""' + answer + '"""' if kept_as == "text formula" and answer.startswith("0") else answer
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "answers.csv").write_text("question,answer\n" + "".join(
        f'"{question}",{cell(answer)}\n' for question, answer in CODES.items()))
    (tmp_path / "run" / "prepare_data.py").write_text(
        "import csv, json\nwith open('answers.csv', newline='') as sheet, open('tasks.jsonl', 'w') as out:\n"
        "    for row in csv.DictReader(sheet):\n"
        "        text = f\"{row['question']} End your response with 'Final answer: <answer>'.\"\n"
        "        out.write(json.dumps({'responses_create_params': {'input': [{'role': 'user', 'content': text}]},\n"
        "                              'expected_answer': row['answer'], 'extraction_mode': 'final_answer'}) + '\\n')\n")
    run = run_scripts(tmp_path, ["python3 prepare_data.py\n" + STAGES], checkpoint_of_script=[1],
                      rows=final_answer_rows(CODES))

    report = diagnose(run)

    if kept_as == "text":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert '"expected_answer": "=\\"007\\""' in (run / "tasks.jsonl").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "labels_in_a_spreadsheets_display_format"), top.title
    assert "in a spreadsheet's text formula format" in top.title, top.title
    assert "Export the labels again from answers.csv" in top.fix and "`=\"007\"` to `007`" in top.fix, top.fix


POWERS = {f"What is 2 to the power of {n}?": str(2 ** n) for n in (60, 61, 62)} | {
    "What is 3 to the power of 40?": str(3 ** 40), "What is 2 to the power of 10?": "1024"}


@pytest.mark.parametrize("written_as", ["number", "string"])
def test_big_integer_labels_passed_through_jq_lose_their_last_digits(tmp_path: Path, written_as: str) -> None:
    # the annotation tool's export writes the answers as JSON numbers, or as strings; jq 1.6 reads numbers as doubles
    items = [{"question": question, "answer": int(answer) if written_as == "number" else answer}
             for question, answer in POWERS.items()]
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "export.json").write_text(json.dumps({"items": items}))
    (tmp_path / "run" / "prepare_data.py").write_text(
        "import json\nwith open('items.jsonl') as items, open('tasks.jsonl', 'w') as out:\n"
        "    for item in map(json.loads, items):\n"
        "        text = item['question'] + \" End your response with 'Final answer: <answer>'.\"\n"
        "        out.write(json.dumps({'responses_create_params': {'input': [{'role': 'user', 'content': text}]},\n"
        "                              'expected_answer': str(item['answer']), 'extraction_mode': 'final_answer'}) + '\\n')\n")
    script = "jq -c '.items[]' export.json > items.jsonl\npython3 prepare_data.py\n" + STAGES
    run = run_scripts(tmp_path, [script], checkpoint_of_script=[1], rows=final_answer_rows(POWERS, False))

    report = diagnose(run)

    if written_as == "string":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "integer_labels_rounded_through_a_double"), top.title
    assert "whose `expected_answer` lost its last digits ('" in top.title, top.title
    assert "Export the answers from export.json (read by run_eval.sh:" in top.fix, top.fix
    assert "passes them through `jq`" in top.cause, top.cause


ARRIVALS = {"A train leaves at 12:00 and takes 2 hours 30 minutes. When does it arrive? Answer as HH:MM.": "14:30",
            "A bus leaves at 10:45 and takes 30 minutes. When does it arrive? Answer as HH:MM.": "11:15",
            "A flight leaves at 20:15 and takes 2 hours 30 minutes. When does it land? Answer as HH:MM.": "22:45",
            "What is the capital of Peru?": "Lima", "What is 6 times 7?": "42"}


@pytest.mark.parametrize("quoted", [False, True])
def test_clock_time_labels_of_an_unquoted_yaml_answer_key_are_read_as_base_60(tmp_path: Path, quoted: bool) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "answers.yaml").write_text("# answer key, one per question\n" + "".join(
        f"q{n}: {json.dumps(answer) if quoted else answer}\n" for n, answer in enumerate(ARRIVALS.values(), 1)))
    (tmp_path / "run" / "prep_answers.py").write_text(
        "import json, yaml\nkey = yaml.safe_load(open('answers.yaml'))\nquestions = json.load(open('questions.json'))\n"
        "with open('tasks.jsonl', 'w') as out:\n    for n, question in enumerate(questions, 1):\n"
        "        text = question + \" End your response with 'Final answer: <answer>'.\"\n"
        "        out.write(json.dumps({'responses_create_params': {'input': [{'role': 'user', 'content': text}]},\n"
        "                              'expected_answer': str(key[f'q{n}']), 'extraction_mode': 'final_answer'}) + '\\n')\n")
    (tmp_path / "run" / "questions.json").write_text(json.dumps(list(ARRIVALS)))
    script = f"{sys.executable} prep_answers.py\n" + STAGES
    run = run_scripts(tmp_path, [script], checkpoint_of_script=[1], rows=final_answer_rows(ARRIVALS, False))

    report = diagnose(run)

    if quoted:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "clock_time_labels_read_as_base_60"), top.title
    assert top.evidence[1].where == "answers.yaml:2" and top.evidence[1].text == "q1: 14:30"
    assert "Quote the times in answers.yaml" in top.fix


@pytest.mark.parametrize("take", ["row['answers'][0]", "answers if isinstance(answers, str) else answers[0]"],
                         ids=["indexed", "string_kept"])
def test_labels_indexed_as_a_list_where_the_export_gives_a_string_keep_their_first_character(tmp_path: Path,
                                                                                            take: str) -> None:
    """The labelling tool's export gives a task with one accepted answer as a plain string, with several as a list; the
    preparation script takes `[0]`, the first accepted answer, and a string's first element is its first character:
    `Canberra` becomes `C`, and right answers score 0. Keeping a string whole, the run is healthy."""
    rows = final_answer_rows(REVIEWED)
    for row in rows:
        row["answers"] = row["expected_answer"]  # one accepted answer: a plain string
    rows[0]["answers"] = [rows[0]["expected_answer"], rows[0]["expected_answer"].lower()]
    body = (f"        answers = row['answers']\n        row['expected_answer'] = {take}  # the first accepted answer\n"
            "        del row['answers']\n")
    run = prepared_run(tmp_path, body, rows)

    report = diagnose(run)

    if take != "row['answers'][0]":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "labels_cut_to_their_first_character"), top.title
    assert "which is one character (`I`, `J`, `L`, `P`)" in top.title, top.title
    assert top.evidence[-1].where == "prep_data.py:6"
    assert "`answers if isinstance(answers, str) else answers[0]`" in top.fix


TITLES = {"Which country has Tbilisi as its capital?": "Georgia", "Which planet is closest to the Sun?": "Mercury",
          "Which country has Amman as its capital?": "Jordan", "Which planet has the Great Red Spot?": "Jupiter"}
QUALIFIERS = {"Georgia": "country", "Mercury": "planet", "Jordan": "country", "Jupiter": "planet"}


@pytest.mark.parametrize("keep_title", [True, False])
def test_labels_taken_from_article_titles_keep_their_qualifier(tmp_path: Path, keep_title: bool) -> None:
    """The preparation script takes each label from the linked article's title, `Georgia (country)`: the model's
    right answer `Georgia` scores 0, and the fix names the qualifier to drop. With the qualifier dropped, it is whole."""
    label = ("f\"{row['expected_answer']} ({QUALIFIERS[row['expected_answer']]})\"" if keep_title
             else "row['expected_answer']")
    body = f"        row['expected_answer'] = {label}  # the linked article's title\n"
    run = prepared_run(tmp_path, f"        QUALIFIERS = {QUALIFIERS!r}\n" + body, final_answer_rows(TITLES))

    report = diagnose(run)

    if not keep_title:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert top.category == "data_schema", top.title
    assert "parenthetical qualifier" in top.fix and "drop it (`re.sub(r\" \\([^)]*\\)$\", \"\", label)`)" in top.fix


GENES = {"Which human gene symbol names septin 2?": "SEPT2",
         "Which former human gene symbol named membrane associated ring-CH-type finger 1?": "MARCH1",
         "Which former human gene symbol named deleted in esophageal cancer 1?": "DEC1",
         "What is the gene symbol of tumor protein p53?": "TP53",
         "What is the gene symbol of the epidermal growth factor receptor?": "EGFR"}


@pytest.mark.parametrize("as_dates", [True, False])
def test_gene_symbols_a_shared_sheet_turned_into_dates(tmp_path: Path, as_dates: bool) -> None:
    """The labels live in the team's shared sheet, which read `SEPT2` as the 2nd of September and shows `2-Sep`; the
    prep step takes the cells as shown: the model's right answers score 0. With the column formatted as text, the
    symbols stay: healthy."""
    body = ("        import re\n"
            "        symbol = re.fullmatch(r'(SEPT|MARCH|DEC)(\\d+)', row['expected_answer'])  # the cell as shown\n"
            "        if symbol:\n"
            "            row['expected_answer'] = f'{int(symbol[2])}-{symbol[1][:3].title()}'\n" if as_dates
            else "        pass\n")
    run = prepared_run(tmp_path, body, final_answer_rows(GENES))

    report = diagnose(run)

    if not as_dates:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "2-Sep" in (run / "tasks.jsonl").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "labels_read_as_dates"), [f.title for f in report.causes]
    assert "a spreadsheet turned the labels into dates" in top.title
    assert "written `" in top.fix and "format the column as text" in top.fix
