#!/usr/bin/env bash
# Install NeMo Gym (PyPI `nemo-gym`, CLI `gym`) for gym_pipeline's nemo_gym engine, idempotently.
#
#   GYM_PIPELINE_NEMO_GYM_HOME  where to install (default: ~/.cache/gym-pipeline/nemo-gym); the venv is <home>/venv
#   NEMO_GYM_VERSION            the version (default: 0.7.0)
#   NEMO_GYM_PYTHON             the interpreter (default: python3.14/3.13/3 on PATH, then pyenv's; must be >= 3.13)
#
# NeMo Gym 0.7.0 declares Python >= 3.13.14. With an older 3.13 the install uses --ignore-requires-python;
# the engine then runs Gym's servers from this same venv (`++skip_venv_if_present=true`), so Gym never
# builds per-server venvs (which would fail on that version check). About 1.4 GB (Ray included).
# The last line printed is what to export:  export GYM_PIPELINE_NEMO_GYM=<home>/venv/bin/gym
set -euo pipefail

version="${NEMO_GYM_VERSION:-0.7.0}"
home="${GYM_PIPELINE_NEMO_GYM_HOME:-${HOME}/.cache/gym-pipeline/nemo-gym}"
venv="${home}/venv"

installed_version() {
    [ -x "${venv}/bin/gym" ] && [ -x "${venv}/bin/python" ] || return 1
    "${venv}/bin/python" -c 'import importlib.metadata as m; print(m.version("nemo-gym"))' 2>/dev/null
}

if [ "$(installed_version || true)" = "${version}" ]; then
    echo "nemo-gym ${version} already installed in ${venv}" >&2
else
    python="${NEMO_GYM_PYTHON:-}"
    if [ -z "${python}" ]; then
        # PATH first, then pyenv's installed versions (a pyenv shim answers only for the selected version).
        for candidate in python3.14 python3.13 python3 \
            "${PYENV_ROOT:-${HOME}/.pyenv}"/versions/3.1[3-9]*/bin/python3; do
            if command -v "${candidate}" >/dev/null 2>&1 \
                && "${candidate}" -c 'import sys; sys.exit(sys.version_info < (3, 13))' 2>/dev/null; then
                python="$(command -v "${candidate}")"
                break
            fi
        done
    fi
    if [ -z "${python}" ]; then
        echo "error: NeMo Gym ${version} needs Python >= 3.13 (3.13.14+ declared); none found." >&2
        echo "Install one (e.g. 'uv python install 3.13' or pyenv) and set NEMO_GYM_PYTHON to it." >&2
        exit 1
    fi
    pip_flags=()
    if ! "${python}" -c 'import sys; sys.exit(sys.version_info < (3, 13, 14))'; then
        echo "note: $("${python}" -V) is older than the 3.13.14 nemo-gym declares; installing with" \
             "--ignore-requires-python (the engine runs every server from this venv)" >&2
        pip_flags+=(--ignore-requires-python)
    fi
    mkdir -p "${home}"
    rm -rf "${venv}"  # a half-made venv from an interrupted run: start over (a venv cannot be moved into place)
    "${python}" -m venv "${venv}"
    # Its dependencies (Ray among them) pinned as tested: scripts/nemo-gym-constraints.txt is a pip freeze of
    # a working 0.7.0 install; regenerate it when NEMO_GYM_VERSION changes.
    constraints=()
    [ "${version}" = "0.7.0" ] && constraints=(-c "$(dirname "$0")/nemo-gym-constraints.txt")
    "${venv}/bin/python" -m pip install --quiet --disable-pip-version-check "${pip_flags[@]}" "${constraints[@]}" \
        "nemo-gym==${version}"
    if [ "$(installed_version || true)" != "${version}" ]; then
        echo "error: nemo-gym ${version} did not install into ${venv}" >&2
        exit 1
    fi
fi

"${venv}/bin/gym" --help >/dev/null
echo "export GYM_PIPELINE_NEMO_GYM=${venv}/bin/gym"
