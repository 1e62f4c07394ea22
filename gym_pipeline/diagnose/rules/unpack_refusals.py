"""Step 5: this week's data unpacked beside last week's copy, by a tool that does not replace files it finds.

Unpacking without a terminal to ask, `gunzip -k tasks.jsonl.gz` (and bunzip2, unxz, zstd) will not write over a
`tasks.jsonl` already there: it says so on stderr (`gzip: tasks.jsonl already exists; not overwritten`) and moves on;
`unzip` reads no answer to its `replace tasks.jsonl?` question and takes it as "none"; `tar -k` keeps the old file.
A script without `set -e` goes on, and the run reads last week's rows and scores against their labels. Named from
the tool's own line in a log, when the file it kept is one the run's scripts or manifest read.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

# each tool's own words for the file it kept (run by hand: gzip 1.12, bzip2 1.0.8, xz 5.4, zstd 1.5, unzip 6.0, tar 1.34)
_KEPT = re.compile(
    r"^(?:(?P<gzip>gzip|gunzip|pigz|zstd|unzstd): (?P<gz_file>\S+) already exists;\s*(?:overwrite \(y/n\) \? )?"
    r"[Nn]ot overwritten"
    r"|(?P<bzip2>bunzip2|bzip2): Output file (?P<bz_file>\S+) already exists\."
    r"|(?P<xz>unxz|xz|unlzma): (?P<xz_file>\S+): File exists"
    r"|(?P<tar>tar): (?P<tar_file>\S+): Cannot open: File exists"
    r"|replace (?P<zip_file>\S+)\? \[y\]es, \[n\]o, \[A\]ll, \[N\]one, \[r\]ename:\s+NULL)", re.M)
# the option that lets each tool replace the file it finds, and the tool's family (the log names gzip for gunzip)
_FORCE = {"gzip": "-f", "zstd": "-f", "bzip2": "-f", "xz": "-f", "tar": "--overwrite", "unzip": "-o"}
_FAMILY = {"gunzip": "gzip", "pigz": "gzip", "unzstd": "zstd", "bunzip2": "bzip2", "unxz": "xz", "unlzma": "xz"}
_UNPACKS = re.compile(r"^\s*(?:[\w./-]*/)?(?P<tool>gunzip|gzip|pigz|unzstd|zstd|bunzip2|bzip2|unxz|xz|unlzma|tar|unzip)"
                      r"\b[^#\n]*")


def rule_data_kept_by_an_unpacking_tool(ev: Evidence) -> list[Finding]:
    said = ev.first_in_log_heads(_KEPT)
    if said is None:
        return []
    line, match = said
    logged = next((match[name] for name in ("gzip", "bzip2", "xz", "tar") if match[name]), "unzip")
    family = _FAMILY.get(logged, logged)
    name = PurePath(next(match[group] for group in ("gz_file", "bz_file", "xz_file", "tar_file", "zip_file")
                         if match[group])).name
    unpacks = [hit for hit in lines_matching(ev.user_files, _UNPACKS)
               if _FAMILY.get(hit[3]["tool"], hit[3]["tool"]) == family]
    unpack = next((hit for hit in unpacks if PurePath(name).stem in hit[2]), unpacks[0] if unpacks else None)
    mentions = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])")
    reads = [hit for hit in lines_matching(ev.user_files, mentions) if not _UNPACKS.match(hit[2])]
    read = next((hit for hit in reads if "input" in hit[2]), reads[0] if reads else None)  # `--input`, if any
    if read is None and PurePath(ev.manifest.source or "").name != name:
        return []  # a file the run did not read
    tool = unpack[3]["tool"] if unpack else logged
    where = f"{unpack[0].name}:{unpack[1]}" if unpack else None
    return [Finding(
        category=CACHE_RESUME,
        title=f"{tool} did not replace the {name} already there{f' ({where})' if where else ''}: the run read the old "
              f"{name}",
        evidence=[line, *([EvidenceLine(file=unpack[0].name, line=unpack[1], text=unpack[2].strip())] if unpack else []),
                  *([EvidenceLine(file=read[0].name, line=read[1], text=read[2].strip())] if read else [])],
        cause=f"{tool} unpacked the new archive beside a {name} left from before and, with nobody to answer whether to "
              f"replace it, kept the old file ({line.file}:{line.line}); the script went on, so the run's rows and "
              "labels are those of the earlier copy, and every command after it exits 0.",
        fix=f"Let the unpacking replace the file: `{tool} {_FORCE[family]}`{f' in {where}' if where else ''} (or remove "
            f"the old {name} first, and stop the script on errors with `set -e`); then materialize, collect and "
            "profile again: the rollouts were scored against the old labels.",
    )]
