"""The simulator behind ``cardroom simulate``: bots play deals through the engines in memory.

``simulate.simulate(SimConfig(...))`` returns a :class:`~app.sim.simulate.SimResult` (per seat or
team: the mean points or chips per deal with a 95% interval, the share of points, the matches
won; the speed); ``report.format_table`` prints it; ``play`` holds the loop that drives an engine
exactly as the room does.
"""

from app.sim.simulate import SimConfig, SimResult, simulate

__all__ = ["SimConfig", "SimResult", "simulate"]
