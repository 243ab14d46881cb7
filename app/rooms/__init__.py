"""Rooms: seats, connections and the order of actions, in memory."""
