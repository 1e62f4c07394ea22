from pathlib import Path


def test_output_exists():
    assert Path('/app').exists()
