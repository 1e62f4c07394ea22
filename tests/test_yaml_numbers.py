import pytest

from gym_pipeline.core.yaml_numbers import octal_numbers


@pytest.mark.parametrize(("text", "expected"), [
    ("num_repeats: 010\n", [(1, "num_repeats", "010", 8, 10)]),
    ("a: 1\n  - limit: 0017  # padded\n", [(2, "limit", "0017", 15, 17)]),
    ("seed: 0\nport: 00\nstep: 08\nname: step_0100\nquoted: '010'\n", []),  # the same number, not octal, text
])
def test_zero_padded_integers_that_yaml_reads_as_octal(text, expected):
    assert [(n.line, n.key, n.written, n.read, n.meant) for n in octal_numbers(text)] == expected
