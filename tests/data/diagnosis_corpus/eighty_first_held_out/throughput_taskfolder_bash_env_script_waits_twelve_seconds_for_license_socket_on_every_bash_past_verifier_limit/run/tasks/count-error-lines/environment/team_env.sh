# team shell environment (BASH_ENV): every bash reads it first
# wait for the license daemon's socket, as on the build farm where it starts with the container (up to 12 s)
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
  [ -S /run/lic/lic.sock ] && break
  sleep 1
done
export TEAM_ENV_LOADED=1
