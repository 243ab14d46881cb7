"""The HTTP and WebSocket edge."""
