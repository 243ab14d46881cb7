#!/usr/bin/env bash
# Restore a backup of scripts/backup.sh into an empty PostgreSQL database, in one transaction: on
# any error nothing is restored.
#
#   scripts/restore.sh FILE DATABASE_URL
#
# Create the database first (createdb NAME, or CREATE DATABASE); a database that already holds
# tables is refused. Then point CARDROOM_DATABASE_URL at it and start the server; `cardroom migrate`
# brings a backup taken by an older version to the current schema.
set -euo pipefail

usage() { echo "usage: scripts/restore.sh FILE DATABASE_URL" >&2; exit 2; }
[[ $# -eq 2 ]] || usage
file=$1
url=${2/postgresql+asyncpg:/postgresql:}
[[ $url == postgresql* ]] || { echo "restore: DATABASE_URL must be a PostgreSQL address, got '$2'" >&2; exit 2; }
for tool in pg_restore psql; do
  command -v "$tool" >/dev/null || { echo "restore: $tool is missing (Debian: apt-get install postgresql-client)" >&2; exit 2; }
done
[[ -r $file ]] || { echo "restore: cannot read the backup $file" >&2; exit 2; }
pg_restore --list "$file" >/dev/null 2>&1 || { echo "restore: $file is not a backup of scripts/backup.sh (pg_dump's custom format)" >&2; exit 2; }

tables=$(psql --dbname="$url" --no-psqlrc --tuples-only --no-align --quiet \
  --command="select count(*) from pg_catalog.pg_tables where schemaname not in ('pg_catalog', 'information_schema')")
if [[ $tables != 0 ]]; then
  echo "restore: the database already holds $tables tables; restore into a new, empty database" >&2
  exit 1
fi
pg_restore --no-owner --no-privileges --exit-on-error --single-transaction --dbname="$url" "$file"
echo "restore: $file restored" >&2
