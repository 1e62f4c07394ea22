# shell settings shared with the CI jobs (sourced by the run scripts)
export PYTHONWARNINGS=error     # catch deprecations early
export PYTHONDONTWRITEBYTECODE=1
export LC_ALL=C.UTF-8
