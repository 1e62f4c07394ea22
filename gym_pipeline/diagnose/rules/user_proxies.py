"""A user's own proxy between the run and the model server that changes what passes through it.

Teams put a small forwarder in front of the model server (a gateway with a cost guard, a proxy that logs each
completion). When it rewrites the exchange, the model is blamed for what the proxy did:
- it caps `max_tokens` (a playground's cost guard): every answer is cut at the cap, before its final answer;
- it writes a shortened text back into the response (a preview meant for its log line): every answer is cut at one
  length, and scores 0;
- it rewrites the request's messages (a safety template taking the question out of the user turn, an injection
  filter deleting the task's answer format): the model answers what the proxy sent;
- it applies a substitution of its own to every reply (a chat UI's decimal commas, a filter masking digits): the
  answers scored 0 are their labels substituted the same way;
- it appends a text of its own to every reply (a chat UI's disclaimer footer): answers that end the reply take it
  along into the final answer;
- it writes any other edit of the text back (a chat UI's clean-up: letters beyond ASCII dropped, markdown fences
  taken out), behind a switch of its own (`ASCII_ONLY = True`): the verifier, or the agent reading a command from a
  fenced block, meets text the model never wrote, and most rollouts score 0.
The proxy is a Python file in the run folder that both serves HTTP and forwards requests. Whatever else a model-serving
or throughput finding blames, such a proxy is named in its fix with its own settings (`DEFAULT_MODEL = "..."`,
`HEDGE_REQUESTS = 2`) and its server class when it serves one request at a time: the requests met it first.
"""

from __future__ import annotations

import ast
import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt, line_of_match
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SERVES_HTTP, UserFile, lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

_FORWARDS = re.compile(r"urlopen\(|ClientSession\(|httpx\.|requests\.(?:post|get|request)\(")
_CAPS_MAX_TOKENS = re.compile(r"\[\s*[\"']max_(?:tokens|completion_tokens|output_tokens)[\"']\s*\]\s*=")
_SLICES_TEXT = re.compile(r"\[\s*(?:\"(?:content|text)\"|'(?:content|text)')\s*\]\s*=.*\[\s*:\s*(?P<limit>\w+)\s*\]")
_REWRITES_TEXT = re.compile(r"\[\s*(?:\"(?:content|text)\"|'(?:content|text)')\s*\]\s*=(?!=)")
_SWITCH = re.compile(r"^(?P<name>[A-Z][A-Z0-9_]{2,})\s*=\s*True\b")
_CONSTANT = r"^\s*{name}\s*=\s*(?P<value>\d+)"
ONE_LENGTH_SHARE = 0.6  # of the answers, cut at the same length
MIN_ROWS = 6
MOSTLY_ZERO = 0.6  # of the scored rollouts, for a rewrite of the text to be what failed them


def _proxies(ev: Evidence) -> list[UserFile]:
    return [file for file in ev.user_files if file.suffix == ".py" and SERVES_HTTP.search(file.text)
            and _FORWARDS.search(file.text)]


CONSTANT_NAME = re.compile(r"\b[A-Z][A-Z0-9_]{2,}\b")  # how a module's settings are named: UPSTREAM, FIXED_SEED
_DEFINED = re.compile(r"^(?P<name>[A-Z][A-Z0-9_]{2,})\s*=", re.M)


def setting_used(file: UserFile, lines: list[str]) -> tuple[str, int, str] | None:
    """(name, line, the line) of the first module-level UPPER_CASE setting of `file` that `lines` name, in order."""
    text = file.text.splitlines()
    defined: dict[str, int] = {}
    for at, line in enumerate(text, 1):
        if match := _DEFINED.match(line):
            defined.setdefault(match["name"], at)
    name = next((name for line in lines for name in CONSTANT_NAME.findall(line) if name in defined), None)
    return (name, defined[name], text[defined[name] - 1].strip()) if name else None


def _constant(file: UserFile, line: str) -> tuple[str, int, int] | None:
    """(name, value, line number) of the first UPPER_CASE constant `line` uses that `file` sets to a number."""
    for name in CONSTANT_NAME.findall(line):
        found = re.search(_CONSTANT.format(name=name), file.text, re.M)
        if found:
            return name, int(found["value"]), file.text[:found.start()].count("\n") + 1
    return None


def rule_proxy_rewrites_the_exchange(ev: Evidence) -> list[Finding]:
    for proxy in _proxies(ev):
        if (finding := _caps_max_tokens(ev, proxy) or _cuts_answers(ev, proxy) or _rewrites_requests(ev, proxy)
                or _appends_to_answers(ev, proxy) or _substitutes_in_answers(ev, proxy)
                or _rewrites_answers(ev, proxy)) is not None:
            return [finding]
    return []


def _caps_max_tokens(ev: Evidence, proxy: UserFile) -> Finding | None:
    a = ev.artifacts
    if not a.rollouts.valid_rows or a.truncated_rollouts < 0.5 * a.rollouts.valid_rows or a.truncation_limit:
        return None  # not cut, or cut at the run's own limit
    cap = next(iter(lines_matching([proxy], _CAPS_MAX_TOKENS)), None)
    if cap is None:
        return None
    _, number, line, _ = cap
    constant = _constant(proxy, line)
    named = f" ({constant[0]} = {constant[1]}, line {constant[2]})" if constant else ""
    return Finding(
        category=MODEL_SERVING,
        title=f"{proxy.name}, the proxy before the model server, caps max_tokens{named}: {a.truncated_rollouts} of "
              f"{a.rollouts.valid_rows} answers were cut at the limit",
        evidence=[EvidenceLine(file=proxy.name, line=number, text=line.strip()),
                  *([a.truncated_example] if a.truncated_example else [])],
        cause=f"The run asked for no output limit of its own, and the answers still stopped at the token limit: "
              f"{proxy.name} line {number} rewrites every request's max_tokens{named} before forwarding it, so the "
              "model stopped before its final answer and the verifier scored what was left.",
        fix=f"Take the cap out of {proxy.name}" + (f" (`{constant[0]}`, line {constant[2]})" if constant else "")
            + " for eval traffic, or send the run straight to the model server; then collect again on a clean output "
            "path and profile.",
    )


def _cuts_answers(ev: Evidence, proxy: UserFile) -> Finding | None:
    cut = next(iter(lines_matching([proxy], _SLICES_TEXT)), None)
    if cut is None:
        return None
    _, number, line, slicing = cut
    limit = int(slicing["limit"]) if slicing["limit"].isdigit() else None
    constant = None if limit is not None else _constant(proxy, line)
    limit = limit if limit is not None else (constant[1] if constant else None)
    texts = ev.answer_texts
    at_limit = [(row, text, reward) for row, _, text, reward in texts if len(text) == limit]
    if limit is None or len(texts) < MIN_ROWS or len(at_limit) < ONE_LENGTH_SHARE * len(texts):
        return None
    scored_zero = sum(1 for _, _, reward in at_limit if reward == 0)
    row, text, _ = at_limit[0]
    return Finding(
        category=MODEL_SERVING,
        title=f"{proxy.name}, the proxy before the model server, cuts each answer to {limit} characters: "
              f"{len(at_limit)} of {len(texts)} answers are exactly that long",
        evidence=[EvidenceLine(file=proxy.name, line=number, text=line.strip()),
                  *([EvidenceLine(file=proxy.name, line=constant[2], text=f"{constant[0]} = {constant[1]}")]
                    if constant else []),
                  EvidenceLine(file=ev.rel(ev.artifacts.files.rollouts), line=row,
                               text=f"the answer's text, {len(text)} characters: {excerpt(text, 80)!r}")],
        cause=f"{proxy.name} line {number} writes a shortened text ({limit} characters) back into the response it "
              f"forwards, so the answers reached the verifier cut before their final answer ({scored_zero} of them "
              "scored 0). The model answered in full; the proxy cut it.",
        fix=f"In {proxy.name}, shorten a copy for the log line and forward the response unchanged (not "
            f"`{line.strip()}`" + (f", with {constant[0]}" if constant else "") + "), or send the run straight to "
            "the model server; then collect again on a clean output path and profile.",
    )


def _enclosing_def(lines: list[str], number: int) -> int | None:
    """The line of the `def` that line `number` of `lines` is in, if any comes before it."""
    return max((n for n in range(1, number) if lines[n - 1].lstrip().startswith("def ")), default=None)


def _setting_going_to(lines: list[str], number: int, value: str) -> tuple[int, str] | None:
    """(line, text) of the first UPPER_CASE setting named between line `number`'s enclosing def and it that the file
    sets to a value starting as `value` (a pattern) says: what that line goes by."""
    start = _enclosing_def(lines, number) or number
    names = dict.fromkeys(CONSTANT_NAME.findall("\n".join(lines[start - 1:number])))
    return next(((at, text) for name in names for at, text in enumerate(lines, 1)
                 if re.match(rf"{name}\s*=\s*{value}", text)), None)


def _rewrites_answers(ev: Evidence, proxy: UserFile) -> Finding | None:
    """A switch of the proxy's (`ASCII_ONLY = True`) turning on a rewrite of the answer's text, and most rollouts
    scored 0."""
    quality = ev.artifacts.quality
    if not quality.scored_rows or quality.zero_rewards < MOSTLY_ZERO * quality.scored_rows:
        return None
    rewrite = next((found for found in lines_matching([proxy], _REWRITES_TEXT) if not _SLICES_TEXT.search(found[2])),
                   None)
    if rewrite is None:
        return None
    _, number, line, _ = rewrite
    lines = proxy.text.splitlines()
    switches = {m["name"]: at for at, text in enumerate(lines, 1) if (m := _SWITCH.match(text))}
    # the switch the rewrite's function tests
    start = _enclosing_def(lines, number) or 1
    switch = next((name for name in switches if any(name in text for text in lines[start - 1:number])), None)
    if switch is None:
        return None
    return Finding(
        category=MODEL_SERVING,
        title=f"{proxy.name}, the proxy before the model server, rewrites every answer's text ({switch} = True): "
              f"{quality.zero_rewards} of {quality.scored_rows} rollouts scored 0",
        evidence=[EvidenceLine(file=proxy.name, line=switches[switch], text=lines[switches[switch] - 1].strip()),
                  EvidenceLine(file=proxy.name, line=number, text=line.strip())],
        cause=f"With {switch} on, {proxy.name} line {number} (`{excerpt(line.strip(), 100)}`) writes an edited text "
              "back into each response it forwards: what the verifier (or the agent, reading commands out of the "
              "answer) met is not what the model wrote, and most rollouts scored 0. The model answered; the proxy "
              "changed it.",
        fix=f"Set `{switch} = False` in {proxy.name} (or edit only a copy for its own use, and forward the response "
            "unchanged), or send the run straight to the model server; then collect again on a clean output path and "
            "profile.",
    )


_REPLACES_MESSAGES = re.compile(r"\[\s*[\"']messages[\"']\s*\]\s*=(?!=)")
_READS_MESSAGES = re.compile(r"[\"']messages[\"']")
REQUEST_CONTEXT_LINES = 4  # above a `["content"] =`, where the loop over the request's messages is


def _rewrites_requests(ev: Evidence, proxy: UserFile) -> Finding | None:
    """The proxy rewrites the request's `messages` before forwarding them (a safety template, an injection filter
    deleting sentences), and most rollouts scored 0: the model answered what the proxy sent, not the task."""
    quality = ev.artifacts.quality
    if not quality.scored_rows or quality.zero_rewards < MOSTLY_ZERO * quality.scored_rows:
        return None
    lines = proxy.text.splitlines()
    rewrite = next(((number, line) for number, line in enumerate(lines, 1) if not line.lstrip().startswith("#") and (
        _REPLACES_MESSAGES.search(line) or _REWRITES_TEXT.search(line) and any(
            _READS_MESSAGES.search(above) for above in lines[max(0, number - 1 - REQUEST_CONTEXT_LINES):number - 1]))),
        None)
    if rewrite is None:
        return None
    number, line = rewrite
    start = _enclosing_def(lines, number) or 1
    # the setting the rewrite itself uses (a template, a filter), else one its function tests (a switch)
    setting = setting_used(proxy, [lines[number - 1], *lines[start - 1:number - 1]])
    used = setting[0] if setting else None
    with_constant = f", with {used}" if used else ""
    return Finding(
        category=MODEL_SERVING,
        title=f"{proxy.name}, the proxy before the model server, rewrites every request's messages (line {number}"
              f"{with_constant}): {quality.zero_rewards} of {quality.scored_rows} rollouts scored 0",
        evidence=[*([EvidenceLine(file=proxy.name, line=setting[1], text=setting[2])] if setting else []),
                  EvidenceLine(file=proxy.name, line=number, text=line.strip())],
        cause=f"{proxy.name} line {number} (`{excerpt(line.strip(), 100)}`) changes the `messages` of each chat request "
              f"before forwarding it{with_constant}: the model answered the prompt the proxy made, not the task's "
              "(a question moved out of the user turn, or the task's own instructions, such as the answer format "
              "the verifier reads, taken out), and most rollouts scored 0. The model server did what it was asked.",
        fix=f"Forward the request's `messages` unchanged in {proxy.name} (line {number})"
            + (f", or keep {used} from touching the task's own turns (the question stays the user turn, its "
               "instructions whole)" if used else "")
            + "; check one prompt as the model server receives it (its log, or a request sent through the proxy), "
              "or send the run straight to the model server; then collect again on a clean output path and profile.",
    )


_TEXT_CONSTANT = re.compile(r"^(?P<name>[A-Z][A-Z0-9_]{2,})\s*=\s*(?P<value>[\"'].*[\"'])\s*(?:#.*)?$")
MIN_APPENDED_CHARS = 15  # an appended text this long ending most answers is no coincidence
APPENDED_SHARE = 0.6  # of the answers, ending with it
APPENDED_ZERO_SHARE = 0.2  # of those, scored 0: what the verifier did with the text


def _appends_to_answers(ev: Evidence, proxy: UserFile) -> Finding | None:
    """A text constant of the proxy's (a disclaimer footer) that most answers end with: the proxy adds it to every
    reply, and the verifier reads it as part of the answer."""
    texts = ev.answer_texts
    if len(texts) < MIN_ROWS:
        return None
    lines = proxy.text.splitlines()
    for at, line in enumerate(lines, 1):
        if not (match := _TEXT_CONSTANT.match(line)):
            continue
        try:
            value = ast.literal_eval(match["value"])
        except (ValueError, SyntaxError):
            continue
        if not isinstance(value, str) or len(value.strip()) < MIN_APPENDED_CHARS:
            continue
        ending = [answer for answer in texts if answer.text.rstrip().endswith(value.strip())]
        zeros = sum(1 for answer in ending if answer.reward == 0)
        if len(ending) < APPENDED_SHARE * len(texts) or zeros < APPENDED_ZERO_SHARE * len(ending):
            continue
        name = match["name"]
        added = next(((number, text.strip()) for number, text in enumerate(lines, 1)
                      if re.search(rf"\+=?\s*{name}\b|\b{name}\s*\+|\{{{name}\}}", text)), None)
        return Finding(
            category=MODEL_SERVING,
            title=f"{proxy.name}, the proxy before the model server, adds {name} to every answer: {len(ending)} of "
                  f"{len(texts)} answers end with it, and {zeros} of those scored 0",
            evidence=[EvidenceLine(file=proxy.name, line=at, text=line.strip()),
                      *([EvidenceLine(file=proxy.name, line=added[0], text=added[1])] if added else []),
                      EvidenceLine(file=ev.rel(ev.artifacts.files.rollouts), line=ending[0].line,
                                   text=f"the answer ends: {excerpt(ending[0].text.rstrip()[-120:], 120)!r}")],
            cause=f"{proxy.name} appends {name} ({excerpt(value.strip(), 60)!r}) to each reply it forwards, so the "
                  "answers the run scored end with text the model never wrote: where the answer ends the reply, "
                  "the final-answer extraction takes the added text along, and those rollouts scored 0. The model "
                  "answered; the proxy changed the reply.",
            fix=f"Forward the replies unchanged in {proxy.name} (" + (f"line {added[0]}: `{added[1]}`" if added else
                                                                       f"its use of {name}")
                + f"; add {name} in the chat UI that wants it, or only for requests that are not the eval's), or send "
                  "the run straight to the model server; then collect again on a clean output path and profile.",
        )
    return None


_SUBSTITUTES = re.compile(r"\[\s*[\"']content[\"']\s*\]\s*=\s*(?P<name>[A-Z][A-Z0-9_]{2,})\.sub\(\s*"
                          r"(?P<replacement>r?(?P<q>[\"'])[^\"']*(?P=q))")
_COMPILED = r"^{name}\s*=\s*re\.compile\(\s*(?P<pattern>r?(?P<q>[\"'])[^\"']*(?P=q))"
MIN_SUBSTITUTED = 2  # answers scored 0 that are their label with the proxy's substitution


def _substitutes_in_answers(ev: Evidence, proxy: UserFile) -> Finding | None:
    """A regular-expression substitution of the proxy's applied to every reply (`DECIMAL_POINT.sub(r"\\1,\\2", ...)`
    for a chat UI's locale) that turns correct answers into what the verifier then refused: the label, substituted
    the same way, is the extracted answer."""
    for _, number, line, match in lines_matching([proxy], _SUBSTITUTES):
        compiled = re.search(_COMPILED.format(name=match["name"]), proxy.text, re.M)
        if compiled is None:
            continue
        try:
            pattern = re.compile(ast.literal_eval(compiled["pattern"]))
            replacement = ast.literal_eval(match["replacement"])
            changed = [(answer.line, answer.expected, answer.extracted) for answer in ev.graded_answers
                       if answer.reward == 0 and answer.expected != answer.extracted
                       and pattern.sub(replacement, answer.expected) == answer.extracted]
        except (ValueError, SyntaxError, re.error):
            continue
        if len(changed) < MIN_SUBSTITUTED:
            continue
        row, expected, extracted = changed[0]
        defined = proxy.text[:compiled.start()].count("\n") + 1
        return Finding(
            category=MODEL_SERVING,
            title=f"{proxy.name}, the proxy before the model server, rewrites every reply with {match['name']}: "
                  f"{len(changed)} answers scored 0 are their label rewritten so ({expected!r} became {extracted!r})",
            evidence=[EvidenceLine(file=proxy.name, line=defined, text=proxy.text.splitlines()[defined - 1].strip()),
                      EvidenceLine(file=proxy.name, line=number, text=line.strip()),
                      EvidenceLine(file=ev.rel(ev.artifacts.files.rollouts), line=row,
                                   text=f"expected_answer={expected!r} extracted_answer={extracted!r}")],
            cause=f"{proxy.name} line {number} applies {match['name']} to the text of each reply it forwards: the "
                  f"model's answers reached the verifier rewritten ({expected!r} as {extracted!r}: the label, "
                  "substituted the same way, is what the verifier extracted), and those scored 0. The model answered "
                  "right; the proxy changed the reply.",
            fix=f"Forward the replies unchanged in {proxy.name} (line {number}: apply {match['name']} only for the "
                "chat UI that wants it, not to the eval's requests), or send the run straight to the model server; "
                "then collect again on a clean output path and profile.",
        )
    return None


_SLEEPS = re.compile(r"\b(?:time|asyncio)\.sleep\(")
_SEMAPHORE = re.compile(r"Semaphore\(\s*(?P<name>[A-Z][A-Z0-9_]{2,})\s*\)")


def pacing_proxy(ev: Evidence) -> tuple[EvidenceLine, EvidenceLine | None] | None:
    """(the line that holds requests back, the numeric UPPER_CASE setting it goes by) of a user's proxy with a limit
    of its own, which no error reports: a sleep pacing each request to a rate, or a semaphore letting only so many
    through at once."""
    for proxy in _proxies(ev):
        lines = proxy.text.splitlines()
        held = next(iter(lines_matching([proxy], _SEMAPHORE)), None) or next(iter(lines_matching([proxy], _SLEEPS)),
                                                                             None)
        if held is None:
            continue
        _, number, line, _ = held
        setting = _setting_going_to(lines, number, r"[\d.]")
        return (EvidenceLine(file=proxy.name, line=number, text=line.strip()),
                EvidenceLine(file=proxy.name, line=setting[0], text=setting[1].strip()) if setting else None)
    return None


# a length taken of a text that is then encoded (`length, data = len(data), data.encode("utf-8")`): characters, not bytes
_LENGTH_OF_TEXT = re.compile(r"\blen\((?P<name>\w+)\)")
# what a client says of a body shorter than its Content-Length promised
_BODY_CUT = re.compile(r"unexpected end of data|IncompleteRead|ContentLengthError|Response payload is not completed"
                       r"|Unterminated string")


def rule_proxy_counts_content_length_in_characters(ev: Evidence) -> list[Finding]:
    """A proxy whose Content-Length is the length of the reply's text in characters, sent encoded as UTF-8: a reply
    with a non-ASCII character is longer in bytes, so clients read it cut short (a JSON error, an answer missing its
    last letters)."""
    said = ev.first_in_log_heads(_BODY_CUT)
    if said is None and not ev.artifacts.quality.label_cut_answers:
        return []
    for proxy in _proxies(ev):
        if "Content-Length" not in proxy.text:
            continue
        lines = proxy.text.splitlines()
        for number, line in enumerate(lines, 1):
            counted = next((m for m in _LENGTH_OF_TEXT.finditer(line)
                            if re.search(rf"\b{m['name']}\.encode\(", "\n".join(lines[number - 1:number + 2]))), None)
            if counted is None:
                continue
            evidence = [EvidenceLine(file=proxy.name, line=number, text=line.strip())]
            if said is not None:
                evidence.append(said[0])
            return [Finding(
                category=MODEL_SERVING,
                title=f"{proxy.name}:{number}, the proxy before the model server, sets Content-Length to the length "
                      f"of the reply's text in characters (`len({counted['name']})`), not in bytes: replies with "
                      "non-ASCII characters reach the run cut short",
                evidence=evidence,
                cause=f"{proxy.name} counts `len({counted['name']})` before encoding it as UTF-8; every non-ASCII "
                      "character (é, ü, a CJK letter) is two to four bytes, so the Content-Length it sends is short of "
                      "the body and clients stop reading early: the JSON ends too soon (a decode error, the request "
                      "fails) or the answer loses its last letters and scores 0. ASCII replies pass whole.",
                fix=f"In {proxy.name}:{number}, encode first and count the bytes: `data = {counted['name']}.encode("
                    "\"utf-8\")` then `Content-Length: len(data)`; check with a reply holding `é`; then collect "
                    "again on a clean output path and profile.",
            )]
    return []


# work a proxy or a verifier does again on every call that costs far more than the call: (pattern, what it does,
# how to avoid it)
_COSTLY_PER_CALL = (
    (re.compile(r"\bhashlib\.(?:pbkdf2_hmac|scrypt)\(|\bbcrypt\.(?:hashpw|checkpw|kdf)\(|\bargon2\b"),
     "derives a password hash (key stretching, slow on purpose) on every call",
     "check it once per key: cache the result by the key's digest (`functools.lru_cache`), or compare a fast keyed "
     "hash (`hmac` of SHA-256) for API keys"),
    (re.compile(r"\bsubprocess\.(?:run|Popen|check_output|check_call|call)\(|\bos\.(?:system|popen)\("),
     "starts a new process (and its imports) on every call",
     "do the work in the process that is already running (import what it needs once, at module level), or keep one "
     "worker process and send it the calls"),
)


def costly_work_per_call(ev: Evidence) -> tuple[EvidenceLine, str, str, str, EvidenceLine | None] | None:
    """(the line, the call, what it does, how to avoid it, the UPPER_CASE setting it goes by) of work inside a
    function of a user's proxy or verifier that costs far more than the call it serves, done again on every call."""
    files = _proxies(ev) + [UserFile(ev.rel(path), path.read_bytes()) for path in ev.verifier_sources
                            if path.is_file() and path.stat().st_size < 1 << 20]
    for file in files:
        lines = file.text.splitlines()
        for number, line in enumerate(lines, 1):
            found = next(((called[0].rstrip("("), does, avoid) for pattern, does, avoid in _COSTLY_PER_CALL
                          if (called := pattern.search(line))), None)
            if found is None or not line.startswith((" ", "\t")) or _enclosing_def(lines, number) is None:
                continue  # once, at import: not per call
            setting = _setting_going_to(lines, number, r"[\d.]")
            return (EvidenceLine(file=file.name, line=number, text=line.strip()), *found,
                    EvidenceLine(file=file.name, line=setting[0], text=setting[1].strip()) if setting else None)
    return None


_TABLE = re.compile(r"^(?P<name>[A-Z][A-Z0-9_]{2,})\s*=\s*(?:\{\}|dict\(\)|OrderedDict\(\))")


def shared_replies(ev: Evidence) -> tuple[str, EvidenceLine, EvidenceLine] | None:
    """(the proxy's name, its table's line, the line that looks a request up in it) of a user's proxy that keeps
    replies (or requests in flight) in a module-level table keyed by the request: identical requests get one reply."""
    for proxy in _proxies(ev):
        lines = proxy.text.splitlines()
        for at, line in enumerate(lines, 1):
            if not (table := _TABLE.match(line)):
                continue
            name = table["name"]
            looked_up = next(((number, text.strip()) for number, text in enumerate(lines, 1)
                              if re.search(rf"\b{name}(?:\.get\(|\.setdefault\(|\[)", text)), None)
            if looked_up is not None:
                return (proxy.name, EvidenceLine(file=proxy.name, line=at, text=line.strip()),
                        EvidenceLine(file=proxy.name, line=looked_up[0], text=looked_up[1]))
    return None


_FILE_SETTING = re.compile(r"^(?P<name>[A-Z][A-Z0-9_]{2,})\s*=\s*[rf]?[\"'](?P<path>[^\"']+\.\w+)[\"']", re.M)


def replies_kept_on_disk(ev: Evidence) -> tuple[str, EvidenceLine, EvidenceLine, str] | None:
    """(the proxy's name, its table's line, the line setting the file it keeps the table in, that file's path) of a
    user's proxy whose table of replies (`shared_replies`) is written to a file and read back when it starts: its
    replies outlive the proxy, and a later run is answered from an earlier one's."""
    shared = shared_replies(ev)
    if shared is None:
        return None
    name, table, _ = shared
    proxy = next(file for file in _proxies(ev) if file.name == name)
    for setting in _FILE_SETTING.finditer(proxy.text):
        variable = setting["name"]
        written = re.search(rf"open\(\s*{variable}\s*,\s*[\"'][aw]", proxy.text)
        read = re.search(rf"open\(\s*{variable}\s*(?:\)|,\s*[\"']r)|(?:shelve|dbm)\.open\(\s*{variable}\b|"
                         rf"sqlite3\.connect\(\s*{variable}\b", proxy.text)
        if (written and read) or (read and not read[0].startswith("open")):
            return name, table, line_of_match(name, proxy.text, setting), setting["path"]
    return None


def proxy_behind_reply(ev: Evidence, status: int | None) -> tuple[str, EvidenceLine, EvidenceLine | None] | None:
    """(the proxy's name, the line that answers so, the UPPER_CASE setting it goes by) of a user's proxy that sent
    the HTTP `status` a failed request got, or, for a reply that was no completion (`status` None), of a switch of
    the proxy's turned on (`LEGACY_FORMAT = True`): where to change what answered at the model URL."""
    for proxy in _proxies(ev):
        lines = proxy.text.splitlines()
        if status is None:
            switches = [(at, text) for at, text in enumerate(lines, 1) if (match := _SWITCH.match(text))
                        and len(re.findall(rf"\b{match['name']}\b", proxy.text)) > 1]
            if switches:
                at, text = switches[0]
                return proxy.name, EvidenceLine(file=proxy.name, line=at, text=text.strip()), None
            continue
        sent = next(((at, text) for at, text in enumerate(lines, 1)
                     if re.search(rf"\b{status}\b", text) and not text.lstrip().startswith("#")), None)
        if sent is None:
            continue
        setting = _setting_going_to(lines, sent[0], r"(?:[\d.]|True\b|False\b)")
        return (proxy.name, EvidenceLine(file=proxy.name, line=sent[0], text=sent[1].strip()),
                EvidenceLine(file=proxy.name, line=setting[0], text=setting[1].strip()) if setting else None)
    return None


_SETTING = re.compile(r"^(?P<name>[A-Z][A-Z0-9_]{2,})\s*=\s*(?P<value>[-\d.]+|True|False|[\"'][^\"']*[\"']|\{.*\}|\[.*\])"
                      r"\s*(?:#.*)?$")
_ONE_AT_A_TIME = re.compile(r"\b(?:HTTPServer|socketserver\.TCPServer|TCPServer)\(")
MAX_SETTINGS_SHOWN = 3


_CALLS_OUT = re.compile(r"\b(?:urlopen|Request|post|get)\(\s*(?:urllib\.request\.Request\(\s*)?(?P<name>[A-Z][A-Z0-9_]{2,})\b"
                        r"(?!\s*\+\s*self\.path)")


def _side_call(lines: list[str]) -> tuple[int, str, str] | None:
    """(line, its text, the URL setting) of a call the proxy makes to another service than the one it forwards to
    (`urlopen(Request(AUDIT_URL, ...))` beside `UPSTREAM + self.path`)."""
    forwards_to = {match[1] for line in lines if (match := re.search(r"([A-Z][A-Z0-9_]{2,})\s*\+\s*self\.path", line))}
    return next(((number, line.strip(), match["name"]) for number, line in enumerate(lines, 1)
                 if (match := _CALLS_OUT.search(line)) and match["name"] not in forwards_to
                 and not line.lstrip().startswith("#")), None)


def _serving_line(lines: list[str]) -> tuple[int, str] | None:
    """(line, its text) where a proxy starts a server that serves one request at a time."""
    return next(((at, text.strip()) for at, text in enumerate(lines, 1)
                 if _ONE_AT_A_TIME.search(text) and not text.lstrip().startswith(("#", "from", "import"))), None)


def one_at_a_time_proxy(ev: Evidence) -> EvidenceLine | None:
    """The line where the user's proxy before the model server starts a server serving one request at a time
    (`HTTPServer`): the model calls queue behind each other there, and callers past its listen backlog are reset."""
    for proxy in _proxies(ev):
        if serial := _serving_line(proxy.text.splitlines()):
            return EvidenceLine(file=proxy.name, line=serial[0], text=serial[1])
    return None


def proxy_in_the_path(ev: Evidence) -> tuple[str, str] | None:
    """(the proxy's name, a sentence for a model-serving or throughput fix) when the run folder holds a user's proxy
    before the model server: what it does to every request is the first thing to rule out. Names its server class
    when it serves one request at a time (`HTTPServer`, not `ThreadingHTTPServer`), and its own settings (the literal
    UPPER_CASE constants it uses: `DEFAULT_MODEL = "..."`, `HEDGE_REQUESTS = 2`)."""
    for proxy in _proxies(ev):
        lines = proxy.text.splitlines()
        settings = [(at, text.split("#", 1)[0].strip()) for at, text in enumerate(lines, 1)
                    if (match := _SETTING.match(text)) and len(re.findall(rf"\b{match['name']}\b", proxy.text)) > 1]
        serial = _serving_line(lines)
        side = _side_call(lines)
        waits = (f" On every request {proxy.name} also calls {side[2]} (line {side[0]}: `{side[1]}`) and waits for "
                 f"its answer: a slow or one-at-a-time service there holds every model call." if side else "")
        if not settings and serial is None:
            return proxy.name, (f" The run's model calls go through {proxy.name}, the proxy before the model server: "
                                "send one request straight to the model server to tell the two apart." + waits)
        one_at_a_time = (f" {proxy.name} serves one request at a time (line {serial[0]}: `{serial[1]}`): each waits "
                         "for the one before; serve it with `ThreadingHTTPServer` (or an async server)."
                         if serial else "")
        shown = "; ".join(f"`{text}` (line {at})" for at, text in settings[:MAX_SETTINGS_SHOWN])
        return proxy.name, (f" The run's model calls go through {proxy.name}, the proxy before the model server"
                            + (f"; its settings: {shown}" if shown else "") + ". Rule out what it does to every "
                            "request first (send one straight to the model server to compare)." + one_at_a_time
                            + waits)
    return None
