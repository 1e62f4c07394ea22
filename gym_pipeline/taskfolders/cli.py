"""`gym-pipeline tasks validate DIR [--json]`: the oracle run of a taskset (exit 0: every task passed; 1: some
task failed or was skipped; 2: bad input, such as a folder that is not a taskset or a dataset.toml that
does not parse)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

EXIT_ALL_PASSED, EXIT_SOME_FAILED, EXIT_BAD_INPUT = 0, 1, 2
# not __doc__, which Python run with -OO (PYTHONOPTIMIZE=2) strips
VALIDATE_HELP = "The oracle run of a taskset: every task's solution, checked by its own test."
VALIDATE_DESCRIPTION = (f"{VALIDATE_HELP} Exit 0: every task passed; 1: some task failed or was skipped; 2: bad input, "
                        "such as a folder that is not a taskset or a dataset.toml that does not parse.")


def add_tasks_parser(commands: argparse._SubParsersAction, positive_int) -> None:
    tasks = commands.add_parser("tasks", help="Task folders in Harbor's format.",
                                description="Task folders in Harbor's format.")
    actions = tasks.add_subparsers(dest="tasks_command", required=True, metavar="ACTION")
    validate = actions.add_parser("validate", help=VALIDATE_HELP, description=VALIDATE_DESCRIPTION)
    validate.set_defaults(handler=cmd_tasks_validate)
    validate.add_argument("tasks_dir", type=Path, help="a task folder or a folder of them")
    validate.add_argument("--json", action="store_true", help='print {"tasks": [...]} instead of a table')
    validate.add_argument("--output-dir", type=Path, default=None,
                          help="where the run's files go (default results/validation/<taskset> here)")
    validate.add_argument("--concurrency", type=positive_int, default=2, help="episodes at once (default 2)")
    validate.add_argument("--allow-internet", action="store_true",
                          help="let tasks that ask for the internet have the host's network")


def cmd_tasks_validate(args: argparse.Namespace) -> int:
    from gym_pipeline.taskfolders.loader import TaskLoadError
    from gym_pipeline.taskfolders.validate import all_passed, validate_taskset

    stderr = Console(stderr=True)
    output_dir = args.output_dir or Path("results") / "validation" / Path(args.tasks_dir).resolve().name
    try:
        report = validate_taskset(args.tasks_dir, output_dir, args.concurrency, args.allow_internet)
    except TaskLoadError as error:
        stderr.print(f"[red]error:[/red] {escape(str(error))}", highlight=False, soft_wrap=True)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps({"tasks": report["tasks"]}, indent=1))
    else:
        table = Table(title=f"oracle validation of {report['taskset']}")
        for column in ("task", "status", "reward", "failure_kind", "reason"):
            table.add_column(column, overflow="fold")
        for entry in report["tasks"]:
            table.add_row(entry["task"], entry["status"], "-" if entry["reward"] is None else f"{entry['reward']:g}",
                          entry["failure_kind"] or "", escape(entry["reason"] or ""))
        Console().print(table)
        Console().print(f"Run files: {report['output_dir']}", highlight=False)
    return EXIT_ALL_PASSED if all_passed(report) else EXIT_SOME_FAILED
