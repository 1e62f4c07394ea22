"""Settings rendered from a template with sed, run for real: `sed "s/@ENDPOINT@/$POLICY/"` breaks on the slashes of
the URL (sed: unknown option to `s'), the rendered file is left empty, and the collection goes to the script's
default URL, where nothing serves (config: the sed line and the value named). With `s|...|...|`, the settings are
rendered and the run is healthy."""

from __future__ import annotations

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose


@pytest.mark.parametrize("delimiter", ["/", "|"])
def test_a_url_filled_in_with_sed_slashes_leaves_the_settings_empty(tmp_path, delimiter: str) -> None:
    d = delimiter
    # (run_scripts puts the policy's address where a script says URL: the names here avoid the word)
    run = run_scripts(tmp_path, [f'POLICY="URL"  # this week\'s policy server\nsed "s{d}@ENDPOINT@{d}$POLICY{d}" '
                                 "eval.env.in > eval.env\nsource eval.env\n" + MATERIALIZE
                                 + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
                                 '--model-url "${ENDPOINT:-http://127.0.0.1:9/v1}" --env string_match\n'],
                      files={"eval.env.in": "ENDPOINT=@ENDPOINT@\n"})

    report = diagnose(run)

    if delimiter == "|":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "unknown option to `s'" in (run / "logs" / "run_eval_0.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "sed_replacement_holds_its_delimiter"), [f.title for f in report.causes]
    assert top.title == ("run_eval.sh:3 fills in $POLICY with sed's `s/.../`, and its value holds `/`: sed refused the "
                         "command and wrote nothing into eval.env")
    assert "`s|@ENDPOINT@|$POLICY|`" in top.fix


BANDS = {"Which duo sang 'The Sound of Silence'?": "Simon & Garfunkel",
         "Which company makes Tide detergent?": "Procter & Gamble",
         "Which duo recorded 'Hey Ya!'? Give the band name.": "OutKast",
         "Which band sang 'Bohemian Rhapsody'?": "Queen"}


@pytest.mark.parametrize("escape", ["", 'answer=${answer//&/\\\\&}\n  '], ids=["raw", "escaped"])
def test_labels_filled_in_with_sed_paste_the_placeholder_for_an_ampersand(tmp_path, escape: str) -> None:
    """prep.sh renders each task from a template with `sed "s|__ANSWER__|$answer|"`: `&` in a replacement stands for
    the matched text, so `Simon & Garfunkel` becomes `Simon __ANSWER__ Garfunkel` and the right answers score 0
    (data, the sed line named). With `&` escaped first, the labels are the answers: healthy."""
    rows = [{"responses_create_params": {"input": [{"role": "user", "content": f"{question} End your response with "
                                                                              "'Final answer: <answer>'."}]},
             "expected_answer": answer} for question, answer in BANDS.items()]
    template = ('{"responses_create_params": {"input": [{"role": "user", "content": "__QUESTION__ End your response '
                "with 'Final answer: <answer>'.\"}]}, \"expected_answer\": \"__ANSWER__\"}\n")
    key = "question|answer\n" + "".join(f"{question}|{answer}\n" for question, answer in BANDS.items())
    prep = ("tail -n +2 answer_key.txt | while IFS='|' read -r question answer; do\n"
            f"  {escape}sed -e \"s|__QUESTION__|$question|\" -e \"s|__ANSWER__|$answer|\" task_template.json\n"
            "done > tasks.jsonl\n")
    run = run_scripts(tmp_path, ["bash prep.sh\n" + MATERIALIZE.replace("data.jsonl", "tasks.jsonl")
                                 + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
                                 "--model-url URL --env string_match --concurrency 4\n"],
                      rows=rows, files={"prep.sh": prep, "task_template.json": template, "answer_key.txt": key})

    report = diagnose(run)

    if escape:
        assert "__ANSWER__" not in (run / "tasks.jsonl").read_text()
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "Simon __ANSWER__ Garfunkel" in (run / "tasks.jsonl").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "sed_replacement_ampersand_pastes_the_placeholder"), [
        f.title for f in report.causes]
    assert top.title.startswith("prep.sh:2 fills labels in with sed's `s|__ANSWER__|$answer|`")
    assert "`answer=${answer//&/\\\\&}`" in top.fix
