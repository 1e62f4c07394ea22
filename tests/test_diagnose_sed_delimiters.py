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
