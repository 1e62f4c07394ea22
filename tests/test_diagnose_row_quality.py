"""Quiet data faults only the rows show (diagnose/row_quality.py): what counts, and what must not."""

from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.row_quality import RowQuality, note_materialized_row, note_rollout_row


def prompt_row(text: str, task: int, repeat: int, **fields) -> dict:
    return {"responses_create_params": {"input": [{"role": "user", "content": text}]},
            "_ng_task_index": task, "_ng_rollout_index": repeat, **fields}


def test_repeats_of_one_task_share_its_index_but_two_prompts_do_not():
    quality = RowQuality()
    for line, row in enumerate([prompt_row("2+2?", 0, 0), prompt_row("2+2?", 0, 1), prompt_row("Capital of Peru?", 1, 0),
                                prompt_row("3+3?", 0, 2), prompt_row("3+3?", 0, 3)], start=1):
        note_materialized_row(quality, row, (row["_ng_task_index"], row["_ng_rollout_index"]), line, 20)
    assert quality.shared_task_indices == {0}
    [example] = quality.shared_examples  # one example per task, however many rows repeat it
    assert (example.first_line, example.line) == (1, 4) and "2+2?" in example.first_prompt and "3+3?" in example.prompt


def scored(expected: str, extracted: str, reward: float) -> dict:
    return {"reward": reward, "failure_kind": None, "expected_answer": expected, "extracted_answer": extracted}


def test_an_answer_scored_0_counts_only_when_the_extracted_text_holds_the_expected_answer_and_more():
    quality = RowQuality()
    rows = [scored("1024", "Final answer: 1024", 0.0),  # counts
            scored("1024", "1024", 1.0),  # right
            scored("12", "120", 0.0),  # a wrong number that contains the digits
            scored("Paris", "paris", 0.0),  # case-sensitive verifier: a real miss, not the extraction
            scored("B", "I pick B", 0.0),  # one letter is too short to tell
            scored("Leonardo da Vinci", "So the answer is \\boxed{Leonardo da Vinci}.", 0.0)]  # counts
    for line, row in enumerate(rows, start=1):
        note_rollout_row(quality, row, (line, 0), "rollouts.jsonl", line)
    assert (quality.unextracted_answers, quality.scored_rows) == (2, 6)
    assert quality.unextracted_example.line == 1


def test_a_failure_reason_that_quotes_the_row_value_of_a_field_it_names_is_the_rows_fault():
    quality = RowQuality()
    reason = "VerifierInputError: field 'expected_answer': 'FRANCE' is not one of the option letters"
    failed = {"reward": 0.0, "failure_kind": "verifier_error", "failure_reason": reason}
    note_rollout_row(quality, failed, (1, 0), "rollouts.jsonl", 4)  # the result row has no expected_answer
    assert not quality.refused_fields and (1, 0) in quality.reasons_to_check
    note_materialized_row(quality, prompt_row("Capital of France?", 1, 0, expected_answer="France"), (1, 0), 3, 20)
    assert quality.refused_fields == {"expected_answer": 1}
    assert quality.refused_examples["expected_answer"] == EvidenceLine(
        file="rollouts.jsonl", line=4, text=f"task 1 rollout 0: failure_reason={reason!r}; the row's expected_answer='France'")


def test_a_verifier_bug_naming_a_field_without_its_value_is_not_the_rows_fault():
    quality = RowQuality()
    failed = {"reward": 0.0, "failure_kind": "verifier_error", "expected_answer": "42",
              "failure_reason": "AttributeError: 'NoneType' object has no attribute 'strip' (expected_answer)"}
    note_rollout_row(quality, failed, (0, 0), "rollouts.jsonl", 1)
    note_materialized_row(quality, prompt_row("6*7?", 0, 0, expected_answer="42"), (0, 0), 1, 20)
    assert not quality.refused_fields


def test_scores_that_cannot_be_right_are_counted_and_markup_is_told_apart():
    quality = RowQuality()
    rows = [scored("36", "36", 0.0),  # the very answer, scored 0
            scored("$36$", "36", 0.0),  # the expected answer in LaTeX the answer lacks
            scored("\\boxed{7}", "7", 0.0),
            scored("36", "35", 0.0),  # simply wrong
            scored("36", "36", 100.0)]  # a percentage
    for line, row in enumerate(rows, start=1):
        note_rollout_row(quality, row, (line, 0), "rollouts.jsonl", line)
    assert (quality.matching_scored_zero, quality.wrapped_expected, quality.out_of_range) == (1, 2, 1)
    assert quality.reward_range == (0.0, 100.0) and quality.out_of_range_example.line == 5


def test_rows_scored_by_another_environment_but_not_by_a_variant_of_theirs():
    quality = RowQuality()
    crossed = {"reward": 0.0, "agent_ref": {"name": "string_match_simple_agent"},
               "_ng_environment_server": "mcqa_environment_server"}
    variant = {"reward": 0.0, "agent_ref": {"name": "string_match_simple_agent"},
               "_ng_environment_server": "string_match_raises_environment_server"}
    note_rollout_row(quality, crossed, (0, 0), "rollouts.jsonl", 1)
    note_rollout_row(quality, variant, (1, 0), "rollouts.jsonl", 2)
    assert quality.crossed_environments == {("string_match_simple_agent", "mcqa_environment_server"): 1}


def test_rows_per_task_show_a_row_repeated_in_the_data():
    quality = RowQuality()
    keys = [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1)]
    for line, key in enumerate(keys, start=1):
        note_materialized_row(quality, prompt_row(f"task {key[0]}", *key), key, line, 20)
    assert quality.rows_of_task == {0: 2, 1: 4, 2: 2}


def answered(extracted: str, reward: float, last_line: str = "") -> dict:
    """A result row as a workspace verifier leaves it: what it returned, not the row's expected_answer."""
    row = {"reward": reward, "failure_kind": None, "extracted_answer": extracted}
    if last_line:
        row["response"] = {"output": [{"type": "message", "content": [{"type": "output_text",
                                                                        "text": f"Let me think.\n\n{last_line}"}]}]}
    return row


def test_answers_of_rows_without_their_expected_answer_are_judged_when_the_materialized_row_gives_it():
    quality = RowQuality()
    for line, extracted in enumerate(["54", "Lima", "7"], start=1):  # a stub verifier: every answer scores 1
        note_rollout_row(quality, answered(extracted, 1.0), (line, 0), "rollouts.jsonl", line)
    assert quality.wrong_scored_full == 0 and len(quality.answers_to_check) == 3
    for line, expected in enumerate(["18", "Paris", "7"], start=1):
        note_materialized_row(quality, prompt_row("q", line, 0, expected_answer=expected), (line, 0), line, 20)
    assert (quality.wrong_scored_full, quality.matching_scored_one) == (2, 1) and not quality.answers_to_check
    assert quality.wrong_scored_full_example.text == "task 1 rollout 0: reward=1.0 expected_answer='18' extracted_answer='54'"


def test_an_answer_on_the_last_line_scored_0_counts_only_when_the_extraction_missed_it():
    quality = RowQuality()
    rows = [answered("First I restate the question.", 0.0, "Final answer: 273.15"),  # counts: read the first line
            answered("273.15", 0.0, "Final answer: 273.15"),  # extracted right, scored 0: another fault
            answered("First I restate the question.", 0.0, "Final answer: 300"),  # a wrong answer
            answered("Final answer: 273.15", 1.0, "Final answer: 273.15")]  # right
    for line, row in enumerate(rows, start=1):
        note_rollout_row(quality, row, (line, 0), "rollouts.jsonl", line)
        note_materialized_row(quality, prompt_row("q", line, 0, expected_answer="273.15"), (line, 0), line, 20)
    assert quality.last_line_answers_scored_zero == 1 and quality.last_line_example.line == 1
    assert quality.matching_scored_zero == 1


def test_an_answer_in_other_typography_counts_on_the_side_that_is_not_plain():
    quality = RowQuality()
    rows = [scored("O\u2019Neill", "O'Neill", 0.0),  # a curly apostrophe in the label
            scored("Dvor\u030c\u00e1k", "Dvo\u0159\u00e1k", 0.0),  # the label's accent decomposed
            scored("Roald  Amundsen", "Roald Amundsen", 0.0),  # a doubled space in the label
            scored("Jean-Paul Sartre", "Jean\u2013Paul Sartre", 0.0),  # the answer's en dash
            scored("Jean-Paul Sartre", "Jean-Paul Sartre", 1.0),  # equal: no finding
            scored("O'Neill", "O'Neil", 0.0)]  # another spelling is a wrong answer, not typography
    for line, row in enumerate(rows, start=1):
        note_rollout_row(quality, row, (line, 0), "rollouts.jsonl", line)
    assert (quality.typographic_expected, quality.typographic_answers) == (3, 1)
    assert quality.typographic_expected_example.line == 1 and quality.typographic_answers_example.line == 4


def test_fractions_against_spreadsheet_dates_and_decimals_against_their_integer_part_count():
    quality = RowQuality()
    rows = [scored("4-Mar", "3/4", 0.0), scored("Mar-04", "3/4", 0.0),  # a spreadsheet's dates
            scored("273", "273.15", 0.0), scored("0", "0.375", 0.0),  # labels cut to integers
            scored("3", "3.5", 1.0),  # scored right: a lenient verifier, no finding
            scored("4", "3.5", 0.0),  # a wrong answer
            scored("2-Sep", "SEPT2", 0.0), scored("1-Mar", "MARCH1", 0.0),  # gene symbols read as dates
            scored("2-Sep", "SEPT9", 0.0)]  # another day: a wrong answer
    for line, row in enumerate(rows, start=1):
        note_rollout_row(quality, row, (line, 0), "rollouts.jsonl", line)
    assert (quality.date_labels, quality.truncated_labels) == (4, 2)
    assert quality.date_label_example.line == 1 and quality.truncated_label_example.line == 3


def test_numbers_against_labels_in_a_spreadsheets_display_format_count_per_format():
    quality = RowQuality()
    rows = [scored("3.2E+07", "31536000", 0.0), scored("1.0E+06", "1,048,576", 0.0),  # rounded by a narrow column
            scored("25%", "0.25", 0.0), scored("12.5 %", "0.125", 0.0),  # Percentage
            scored("(8)", "-8", 0.0), scored("$1,234.00", "1234", 0.0), scored("120 €", "120", 0.0),
            scored("3.1E+07", "31536000", 0.0), scored("25%", "25", 0.0), scored("(8)", "8", 0.0),  # other numbers
            scored("1E+03", "1000", 0.0)]  # the same number written otherwise: not a display format
    for line, row in enumerate(rows, start=1):
        note_rollout_row(quality, row, (line, 0), "rollouts.jsonl", line)
    assert quality.formatted_labels == {"scientific notation": 2, "percentage": 2, "accounting": 1, "currency": 2}
    assert quality.number_written_otherwise == 1
    example, label, answer = quality.formatted_label_examples["percentage"]
    assert (example.line, label, answer) == (3, "25%", "0.25")


def answered_on_last_line(expected: str, last_line: str, reward: float) -> dict:
    """A scored row of a verifier that keeps no extracted answer: the response's last line is what was answered."""
    return {"reward": reward, "failure_kind": None, "expected_answer": expected,
            "response": {"output": [{"type": "message", "content": [{"type": "output_text", "text": last_line}]}]}}


def test_a_marked_answer_other_than_the_expected_one_scored_full_counts():
    quality = RowQuality()
    rows = [answered_on_last_line("Mercury", "So the answer is \\boxed{Mercuryy}.", 1.0),  # contains the label: counts
            answered_on_last_line("Hydrogen", "Final answer: Hydrogens", 1.0),  # counts
            answered_on_last_line("Paris", "Final answer: paris.", 1.0),  # the same answer, leniently compared
            answered_on_last_line("0.5", "Final answer: 0.50", 1.0),  # the same number
            answered_on_last_line("Tokyo", "I think it is Tokyo.", 1.0)]  # nothing marked as the answer: not judged
    for line, row in enumerate(rows, start=1):
        note_rollout_row(quality, row, (line, 0), "rollouts.jsonl", line)
    assert quality.credited_other == 2 and quality.credited_other_example.line == 1


def test_yes_no_answers_against_labels_a_yaml_loader_read_as_booleans_count():
    """The labels come from a YAML sheet loaded for real with PyYAML: `answer: yes` unquoted is the boolean true, and
    `str()` of it is `True`; quoted, it stays `yes` and matches."""
    import yaml

    sheet = yaml.safe_load('- {answer: yes}\n- {answer: no}\n- {answer: "yes"}\n- {answer: 42}\n')
    labels = [str(item["answer"]) for item in sheet]
    assert labels == ["True", "False", "yes", "42"]
    quality = RowQuality()
    rows = [scored(labels[0], "yes", 0.0), scored(labels[1], "No.", 0.0), scored(labels[2], "yes", 1.0),
            scored(labels[3], "41", 0.0), scored("True", "no", 0.0)]  # a wrong answer to a boolean label
    for line, row in enumerate(rows, start=1):
        note_rollout_row(quality, row, (line, 0), "rollouts.jsonl", line)
    assert quality.boolean_labels == 2 and quality.boolean_label_example.line == 1
