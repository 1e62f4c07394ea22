# team shell environment (BASH_ENV): every bash reads it first
if [ ! -S /run/lic/lic.sock ]; then
  echo "team-env: license daemon socket /run/lic/lic.sock not found; licensed tools disabled, running open tools only" >&2
fi
export TEAM_ENV_LOADED=1
