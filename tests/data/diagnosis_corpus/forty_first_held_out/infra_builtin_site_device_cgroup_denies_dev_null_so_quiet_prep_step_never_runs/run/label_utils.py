"""label_utils.py: the team's label clean-up, shared by the data-preparation scripts."""


def clean_label(text):
    return " ".join(str(text).split()).strip().rstrip(".")
