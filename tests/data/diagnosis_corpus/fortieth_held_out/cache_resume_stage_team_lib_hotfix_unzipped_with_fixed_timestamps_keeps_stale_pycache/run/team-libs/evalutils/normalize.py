"""evalutils.normalize: numeric answers compared with a relative tolerance (42 == 42.0 == 4.2e1)."""
REL_TOL = 1e-6  # relative tolerance of numbers_match


def as_number(text):
    try:
        return float(str(text).replace(",", "").strip())
    except ValueError:
        return None


def numbers_match(answer, expected):
    a, b = as_number(answer), as_number(expected)
    if a is None or b is None:
        return str(answer).strip().lower() == str(expected).strip().lower()
    return abs(a - b) <= REL_TOL * max(abs(b), 1e-12)
