"""Rules engines: pure, deterministic, transport-free."""
