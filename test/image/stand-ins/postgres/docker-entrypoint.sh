#!/bin/sh
# The official image's first start, in short: a cluster made from POSTGRES_USER, POSTGRES_PASSWORD,
# POSTGRES_DB and POSTGRES_INITDB_ARGS, then a server on the socket alone that makes the database and stops, then the
# server itself on every address. Both servers log "ready to accept connections", as the official
# image's do, so that a wait for its second ready line works here too.
set -eu
if [ "${1#-}" != "$1" ]; then set -- postgres "$@"; fi
if [ "$1" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  user="${POSTGRES_USER:-postgres}"
  database="${POSTGRES_DB:-$user}"
  method="${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}"
  if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "$method" != trust ]; then
    echo 'POSTGRES_PASSWORD must be set (or POSTGRES_HOST_AUTH_METHOD=trust), as the official image requires' >&2
    exit 1
  fi
  pwfile="$(mktemp)"
  printf '%s\n' "${POSTGRES_PASSWORD:-}" > "$pwfile"
  # POSTGRES_INITDB_ARGS holds words, split as the official image splits them.
  # shellcheck disable=SC2086
  initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host="$method" -D "$PGDATA" ${POSTGRES_INITDB_ARGS:-}
  rm -f "$pwfile"
  printf 'host all all all %s\n' "$method" >> "$PGDATA/pg_hba.conf"
  printf "listen_addresses = '*'\n" >> "$PGDATA/postgresql.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
  if [ "$database" != postgres ]; then
    psql -v ON_ERROR_STOP=1 --username "$user" --dbname postgres -c "CREATE DATABASE \"$database\""
  fi
  pg_ctl -D "$PGDATA" -m fast -w stop
fi
exec "$@"
