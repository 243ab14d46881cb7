"""Bots: each sees exactly what a client of its seat sees (the seat's view and legal actions) and
answers one legal action (``base.Bot``). They import engines for rules helpers, never the server.

``registry.make_bot(game, level)`` builds one; ``random_bot`` is the ``random`` level of every
game; ``hazari`` holds the Hazari ``strong`` and ``greedy`` bots and the arrangement hint
(``suggest_arrangement``).
"""
