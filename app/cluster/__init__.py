"""Running several server processes as one cluster, sharing one PostgreSQL database and one Redis."""
