"""What an exception says about the code that raised it, for the fix: the name it lacked, what it parsed.

A traceback's class and message often say which line of a user's verifier to change: a config field
the config class does not define, answers parsed as JSON that are plain text, a comparison of two
types. These hints are added to a fix; they never place an error (that is `origin.place`'s job).
"""

from __future__ import annotations

import re

_HINTS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(pattern), hint) for pattern, hint in (
    (r"'(?P<cls>\w*Config\w*)' object has no attribute '(?P<attr>\w+)'",
     "The code reads `{attr}` from its config (`{cls}`), which does not define it: add `{attr}` to the config class "
     "and set it in the server's YAML config, or correct the name."),
    (r"'(?P<cls>\w+)' object has no attribute '(?P<attr>\w+)'",
     "The code reads `{attr}` from a `{cls}`, which has no such attribute: a misspelt name or another object than "
     "the code expects."),
    (r"NameError: name '(?P<name>\w+)' is not defined",
     "The code uses `{name}` without defining or importing it: add `import {name}` (or the definition) at the top "
     "of the module."),
    (r"KeyError\(?:? ?['\"](?P<key>[\w.-]+)['\"]",
     "The code looks up `{key}` in a mapping that lacks it (a table of modes, a row's field, a config key): add "
     "`{key}` to that mapping, or look it up with a default."),
    (r"JSONDecodeError|Expecting value: line \d+ column \d+",
     "The code parses text as JSON (`json.loads`) that is not JSON, such as plain-text answers: parse only what "
     "is structured, or catch `json.JSONDecodeError` and score the answer 0."),
    (r"'(?P<op>[<>]=?)' not supported between instances of '(?P<a>\w+)' and '(?P<b>\w+)'",
     "The code compares a `{a}` with a `{b}`: convert both to one type (`float(...)`) before comparing."),
    (r"invalid normalization form",
     "The code passes `unicodedata.normalize` a form it does not know: it takes only 'NFC', 'NFD', 'NFKC' or 'NFKD'; "
     "correct the form string (often a misspelling of one of them)."),
    (r"Object of type '?(?P<cls>int64|int32|float64|float32|bool_|ndarray)'? is not JSON serializable",
     "The code hands JSON a numpy `{cls}`: convert it to a plain value first (`float(x)`, `bool(x)`, `.tolist()`)."),
    (r"Object of type '?(?P<cls>\w+)'? is not JSON serializable",
     "The code passes a `{cls}` object to `json.dumps`, which takes only plain values: for a pydantic model (a "
     "request or response) dump it first, `json.dumps(body.model_dump())` or `body.model_dump_json()`; convert "
     "other objects to dicts or strings."),
    (r"(?P<owner>\w+)\.(?P<method>\w+)\(\) takes (?P<taken>\d+) positional arguments? but \d+ were given",
     "The code calls `{method}` of `{owner}` as a method, which passes the instance (`self`) first, and `{method}` "
     "was defined without `self`: add `self` as its first parameter (`def {method}(self, ...)`), or mark it "
     "`@staticmethod`."),
    (r"ZeroDivisionError",
     "The code divides by zero for some input (an empty answer, list or count): guard the denominator."),
    (r"\bSystemExit\b",
     "The code calls `sys.exit()`: inside a server or the collector it ends the whole process; raise an exception "
     "or return reward 0 instead."),
))


def code_fix_hint(text: str) -> str:
    """A sentence saying what to change in the code that raised `text`'s error ("" when nothing is known)."""
    for pattern, hint in _HINTS:
        if match := pattern.search(text):
            return re.sub(r"\{(\w+)\}", lambda m: match.groupdict().get(m[1]) or "", hint)
    return ""
