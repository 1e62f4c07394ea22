"""The team's answer-matching package, deployed for evals by a script that copies it into site/ (on the eval's
PYTHONPATH), run for real against the simulated policy: the user fixes the label's field name in the package's source
but does not deploy again, so the eval imports last month's copy and every right answer scores 0. Deployed again after the
fix, the eval scores with the fixed code and is healthy."""

import sys
from pathlib import Path

import pytest
from script_support import MATERIALIZE, run_scripts

PACKAGE = '''"""mymatch: the team's answer matching for evals, on the stock string matching."""
from gym_pipeline.environments import StringMatchEnvironment

LABEL_FIELD = "answer"  # the label's field in the team's data


class Match(StringMatchEnvironment):
    def verify(self, row, response_text):
        return super().verify({**row, "expected_answer": str(row.get(LABEL_FIELD, ""))}, response_text)
'''
COLLECTOR = '''"""Collect on the built-in engine with the team's environment."""
import asyncio
import sys
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from mymatch import Match

inputs, output, url = sys.argv[1:4]
summary = asyncio.run(collect(Path(inputs), Path(output), Match(), CollectorSettings(model_url=url, concurrency=4)))
print(f"{summary.collected} collected of {summary.total}")
'''


@pytest.mark.parametrize("deployed_again", [False, True])
def test_a_package_fixed_in_its_source_but_not_deployed_again_is_named_with_the_copy(tmp_path: Path,
                                                                                    deployed_again: bool) -> None:
    from gym_pipeline.diagnose import diagnose

    source = tmp_path / "run" / "mymatch" / "mymatch"
    source.mkdir(parents=True)
    (source / "__init__.py").write_text(PACKAGE)
    deploy = "# deploy the team's eval libraries (the eval runs with PYTHONPATH=site)\nbash deploy_libs.sh\n"
    fix = "sed -i 's/^LABEL_FIELD = \"answer\"/LABEL_FIELD = \"expected_answer\"/' mymatch/mymatch/__init__.py\n"
    run = run_scripts(tmp_path, [deploy, fix + (deploy if deployed_again else ""),
                                 MATERIALIZE + f"PYTHONPATH=site {sys.executable} collect_eval.py "
                                               "rollouts_materialized_inputs.jsonl rollouts.jsonl URL\n"],
                      files={"deploy_libs.sh": "#!/bin/bash\nmkdir -p site\n"
                                               "rm -rf site/mymatch && cp -r mymatch/mymatch site/\n",
                             "collect_eval.py": COLLECTOR})

    report = diagnose(run)

    if deployed_again:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert 'LABEL_FIELD = "expected_answer"' in (source / "__init__.py").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "package_imported_from_a_stale_deployed_copy"), [
        f.title for f in report.causes]
    assert top.title == ("The run imports mymatch from the copy deploy_libs.sh:3 deployed to site/mymatch, which "
                         "differs from its source mymatch/mymatch (site/mymatch/__init__.py:4): a fix of the source "
                         "never reached the run")
    assert top.fix.startswith("Deploy again: run deploy_libs.sh (line 3: `rm -rf site/mymatch && cp -r mymatch/mymatch "
                              "site/`)")
