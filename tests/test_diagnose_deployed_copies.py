"""The team's answer-matching package, deployed for evals by a script that copies it into site/ (on the eval's
PYTHONPATH), run for real against the simulated policy: the user fixes the label's field name in the package's source
but does not deploy again, so the eval imports last month's copy and every right answer scores 0. Deployed again after the
fix, the eval scores with the fixed code and is healthy. The same package released as a wheel and installed with `pip
install --target site` over last week's copy: without --upgrade, pip keeps the old one."""

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


def _wheel(folder: Path, version: str, label_field: str) -> Path:
    """The team's mymatch as a wheel of `version` (a zip pip installs: the package, its METADATA, WHEEL and RECORD)."""
    import zipfile

    folder.mkdir(parents=True, exist_ok=True)
    wheel = folder / f"mymatch-{version}-py3-none-any.whl"
    info = f"mymatch-{version}.dist-info"
    files = {"mymatch/__init__.py": PACKAGE.replace('LABEL_FIELD = "answer"', f'LABEL_FIELD = "{label_field}"')
             + f'__version__ = "{version}"\n',
             f"{info}/METADATA": f"Metadata-Version: 2.1\nName: mymatch\nVersion: {version}\n",
             f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: the team's release script\nRoot-Is-Purelib: true\n"
                              "Tag: py3-none-any\n"}
    files[f"{info}/RECORD"] = "".join(f"{name},,\n" for name in [*files, f"{info}/RECORD"])
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return wheel


@pytest.mark.parametrize("upgrade", ["", "--upgrade "])
def test_a_package_installed_with_pip_target_over_last_weeks_copy_is_kept(tmp_path: Path, upgrade: str) -> None:
    """Last week's mymatch 1.0.0 reads the label from `answer`; 1.0.1 fixes it to `expected_answer`. The eval installs
    it with `pip install --target site` before every run: without --upgrade pip keeps 1.0.0 (it only warns), and every
    right answer scores 0. With --upgrade, the eval scores with 1.0.1 and is healthy."""
    from gym_pipeline.diagnose import diagnose

    old, new = _wheel(tmp_path / "run" / "wheels", "1.0.0", "answer"), _wheel(tmp_path / "run" / "wheels", "1.0.1",
                                                                              "expected_answer")
    pip = f"{sys.executable} -m pip install --no-index --no-deps --quiet {upgrade}--target site"
    run = run_scripts(tmp_path, [f"{pip} wheels/{old.name}\n",
                                 f"{pip} wheels/{new.name}\n"
                                 + MATERIALIZE + f"PYTHONPATH=site {sys.executable} collect_eval.py "
                                                 "rollouts_materialized_inputs.jsonl rollouts.jsonl URL\n"],
                      files={"collect_eval.py": COLLECTOR})

    report = diagnose(run)

    if upgrade:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "Specify --upgrade to force replacement" in (run / "logs" / "run_eval_1.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "package_kept_by_pip_target"), [f.title for f in report.causes]
    assert top.title == ("run_eval.sh:2 installs with `pip install --target site` without --upgrade: pip kept the "
                         "mymatch already there, so the run used last time's code")
    assert top.fix.startswith("In run_eval.sh:2, install with `pip install --upgrade --target site ...`")
