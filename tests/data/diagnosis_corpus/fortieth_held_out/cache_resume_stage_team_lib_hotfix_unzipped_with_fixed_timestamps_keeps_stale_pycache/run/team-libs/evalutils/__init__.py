"""evalutils: answer normalization shared by the team's verifiers."""
__version__ = "1.4.1"
