#!/usr/bin/env bash
# Back up cardroom's PostgreSQL database into one file (pg_dump's custom format, compressed), while
# the server runs: the dump is one consistent snapshot.
#
#   scripts/backup.sh FILE [DATABASE_URL]
#
# DATABASE_URL defaults to $CARDROOM_DATABASE_URL; cardroom's own form
# (postgresql+asyncpg://user:password@host:5432/name) is taken as it is. Restore with
# scripts/restore.sh. Needs pg_dump (Debian: postgresql-client) of the server's major version or newer.
set -euo pipefail

usage() { echo "usage: scripts/backup.sh FILE [DATABASE_URL]" >&2; exit 2; }
[[ $# -ge 1 && $# -le 2 ]] || usage
file=$1
url=${2:-${CARDROOM_DATABASE_URL:-}}
[[ -n $url ]] || { echo "backup: no database: give DATABASE_URL or set CARDROOM_DATABASE_URL" >&2; exit 2; }
[[ $url == postgresql* ]] || { echo "backup: only a PostgreSQL database is backed up this way (for SQLite, copy the file while the server is stopped)" >&2; exit 2; }
command -v pg_dump >/dev/null || { echo "backup: pg_dump is missing (Debian: apt-get install postgresql-client)" >&2; exit 2; }
url=${url/postgresql+asyncpg:/postgresql:}

# Written beside the target first, so that a failed dump never leaves a truncated backup under its name.
partial="$file.partial"
trap 'rm -f "$partial"' EXIT
pg_dump --format=custom --no-owner --no-privileges --file="$partial" --dbname="$url"
mv "$partial" "$file"
trap - EXIT
echo "backup: $(pg_restore --list "$file" | grep -c ' TABLE DATA ') tables written to $file" >&2
