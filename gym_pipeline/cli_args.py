"""Argument types of `gym-pipeline`: a bad value is refused before any work starts.

Each type raises `argparse.ArgumentTypeError`, which argparse reports as one line naming the
option (`gym-pipeline collect: error: argument --concurrency: must be an integer from 1 to 4096, got '0'`)
and exit code 2, like every other bad input of the command.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn
from urllib.parse import urlsplit

from gym_pipeline.config import MAX_CONCURRENCY, check_safe_name
from gym_pipeline.core.run_lock import dangling_link

MAX_PORT = 65535
MAX_DEMO_CHECKPOINTS = 1000  # each one is a folder and a partition: more is a typo, not a demo
_ENV_VAR_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


_GIVEN = "_options_given"  # the namespace attribute that holds, while parsing, the options already given


class _StoreOnce(argparse._StoreAction):
    """An option that takes one value refuses a second: argparse's own would keep the last without a word (`--input
    a.jsonl --input b.jsonl` reads only b.jsonl)."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = getattr(namespace, _GIVEN, None)
        if given is None:
            given = set()
            setattr(namespace, _GIVEN, given)
        if option_string is not None and self.dest in given:
            parser.error(f"{option_string} given twice: it takes one value, and the last would replace the first")
        given.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


class ArgumentParser(argparse.ArgumentParser):
    """Reports a usage error as one line (no usage dump), exit code 2; an option that takes one value, given twice, is
    such an error; subcommands inherit both."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", None, _StoreOnce)
        self.register("action", "store", _StoreOnce)

    def parse_known_args(self, args=None, namespace=None):
        parsed, extras = super().parse_known_args(args, namespace)
        if hasattr(parsed, _GIVEN):
            delattr(parsed, _GIVEN)
        return parsed, extras

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def bounded_int(low: int, high: int | None = None) -> Callable[[str], int]:
    """An integer in [low, high] (no upper bound when `high` is None)."""
    wanted = f"an integer from {low} to {high}" if high is not None else f"an integer >= {low}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {wanted}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {wanted}, got {text!r}")
        return value

    parse.__name__ = "integer"
    return parse


positive_int = bounded_int(1)
concurrency = bounded_int(1, MAX_CONCURRENCY)
demo_checkpoints = bounded_int(1, MAX_DEMO_CHECKPOINTS)
port = bounded_int(1, MAX_PORT)


def repeats(text: str) -> int | dict[str, int]:
    """Gym's num_repeats: an integer >= 1, or a JSON object of agent name to integer (`{"a": 2, "_default": 1}`)."""
    if text.strip().startswith("{"):
        value = json_object(text)
        if all(type(n) is int and n >= 1 for n in value.values()):
            return value
        raise argparse.ArgumentTypeError(f"every count must be an integer >= 1, got {text!r}")
    return positive_int(text)


def json_object(text: str) -> dict:
    """A JSON object, e.g. an agent map `{"old_agent": "new_agent", "_default": "agent"}`."""
    import orjson

    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as error:
        raise argparse.ArgumentTypeError(f"must be a JSON object ({error}), got {text!r}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"must be a JSON object, got {text!r}")
    return value


def safe_name(what: str) -> Callable[[str], str]:
    """A name that may become a folder name or a partition key (see `config.check_safe_name`)."""

    def parse(text: str) -> str:
        try:
            return check_safe_name(text, what)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    parse.__name__ = what
    return parse


def env_var_name(text: str) -> str:
    """The name of an environment variable (never its value: keys stay out of argv and logs)."""
    if not _ENV_VAR_NAME.match(text):
        raise argparse.ArgumentTypeError(
            f"must be the name of an environment variable (letters, digits, '_'), got {text!r}"
        )
    return text


def http_url(text: str) -> str:
    """An http(s) base URL with a host."""
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (raises ValueError on a bad port)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"not a valid URL ({error})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError("must be an http:// or https:// URL with a host, e.g. http://127.0.0.1:8000/v1")
    return text


def _refuse_dangling_link(path: Path) -> None:
    if problem := dangling_link(path):
        raise argparse.ArgumentTypeError(problem)


def output_file(text: str) -> Path:
    """A file to write: refused when a folder already has that name (it would never be replaced)."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} is a folder, expected a file name")
    _refuse_dangling_link(path)
    return path


def existing_folder(text: str) -> Path:
    """A folder that must exist, made absolute (it is read from another working directory)."""
    path = Path(text).resolve()
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} is not a folder")
    return path


def folder(text: str) -> Path:
    """A folder to read or create: refused when a file already has that name."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} is a file, expected a folder")
    _refuse_dangling_link(path)
    return path
