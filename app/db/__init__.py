"""Storage: SQLAlchemy models, the database connection and the queries the server makes."""
