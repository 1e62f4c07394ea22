"""Step 1: a batch script sbatch refused because of how it was saved: Windows (CRLF) line endings.

Edited on a Windows machine (or checked out with `core.autocrlf`), the script ends every line with `\r\n`; sbatch
refuses it outright ("Batch script contains DOS line breaks"), so no job was submitted and nothing ran. The script is
the user's to fix.
"""

from __future__ import annotations

from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import crlf_inputs
from gym_pipeline.diagnose.vocabulary import CONFIG

_BATCH_SUFFIXES = (".sbatch", ".slurm", ".sh", ".job")


def rule_batch_script_with_windows_line_endings(ev: Evidence) -> list[Finding]:
    hits = ev.hits("sbatch_dos_line_breaks")
    if not hits:
        return []
    scripts = [name for name in crlf_inputs(ev.user_files) if Path(name).suffix in _BATCH_SUFFIXES]
    script = scripts[0] if scripts else "the batch script"
    return [Finding(
        category=CONFIG,
        title=f"sbatch refused {script}: it has Windows (CRLF) line endings, so no job was submitted",
        evidence=[hits[0].evidence(),
                  *([EvidenceLine(file=script, text="Windows (CRLF) line endings (\\r\\n)")] if scripts else [])],
        cause=f"{script} ends its lines with `\\r\\n` (saved on Windows, or checked out with git's core.autocrlf), "
              "and sbatch refuses such a script before queueing it: nothing ran, and whatever waited for the job "
              "found no output.",
        fix=f"Convert {script} to Unix line endings (`sed -i 's/\\r$//' {script}` or `dos2unix {script}`; for git, "
            "`* text eol=lf` in .gitattributes keeps it so), check with `file " + script + "` (no \"CRLF\"), then "
            "submit again.",
        explains=frozenset({"sbatch_dos_line_breaks"}),
    )]
