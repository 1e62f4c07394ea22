import pytest

from gym_pipeline.core.yaml_pitfalls import duplicate_keys, octal_numbers


@pytest.mark.parametrize(("text", "expected"), [
    ("num_repeats: 010\n", [(1, "num_repeats", "010", 8, 10)]),
    ("a: 1\n  - limit: 0017  # padded\n", [(2, "limit", "0017", 15, 17)]),
    ("seed: 0\nport: 00\nstep: 08\nname: step_0100\nquoted: '010'\n", []),  # the same number, not octal, text
])
def test_zero_padded_integers_that_yaml_reads_as_octal(text, expected):
    assert [(n.line, n.key, n.written, n.read, n.meant) for n in octal_numbers(text)] == expected


def test_keys_given_twice_in_one_mapping():
    text = ("num_repeats: 8\nlaunchers:\n  collect: {kind: local}\n  collect: {kind: slurm}\n"
            "environments:\n- name: a\n  limit: 3\n  limit: 5\nnum_repeats: 1\n")
    assert [(d.key, d.lines, d.kept) for d in duplicate_keys(text)] == [
        ("num_repeats", (1, 9), "`1`"), ("launchers.collect", (3, 4), "a mapping or list"),
        ("environments.0.limit", (7, 8), "`5`")]
    assert duplicate_keys("a: 1\nb: {a: 2}\n") == [] and duplicate_keys("a: [\n") == []


def test_anchors_and_aliases_are_walked_once_even_when_a_node_holds_itself():
    assert duplicate_keys("a: &x [1, *x]\nb: *x\n") == []
    assert [d.key for d in duplicate_keys("base: &b {k: 1, k: 2}\nother: *b\n")] == ["base.k"]
