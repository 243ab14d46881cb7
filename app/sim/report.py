"""The simulator's readable table."""

from __future__ import annotations

from app.sim.simulate import SimResult


def _fixed(value: float | None, digits: int = 2, sign: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def format_table(result: SimResult) -> str:
    """One line per seat (or team): mean per deal, its 95% interval, share, matches won; then the
    difference between the two kinds of player if there are two, and the speed."""
    data = result.to_json()
    unit, matches = data["unit"], data["matches"]
    lines = [f"{data['game']}: {data['deals']} deals, seats {','.join(data['seats'])}, "
             f"seed {data['seed']}",
             f"{'team' if result.teams else 'seat':<5} {'bots':<14} {unit + '/deal':>12} "
             f"{'95% CI':>9} {'low':>9} {'high':>9} {'share':>7} {'won':>12}"]
    for entry in data["units"]:
        mean, half = entry["mean"], entry["ci95"]
        low = None if mean is None or half is None else mean - half
        high = None if mean is None or half is None else mean + half
        share = "-" if entry["share"] is None else f"{100 * entry['share']:.1f}%"
        name = "+".join(map(str, entry["seats"])) if result.teams else str(entry["index"])
        lines.append(f"{name:<5} {entry['bots']:<14} {_fixed(mean):>12} "
                     f"{'±' + _fixed(half):>9} {_fixed(low):>9} {_fixed(high):>9} {share:>7} "
                     f"{str(entry['wins']) + ' of ' + str(matches):>12}")
    if data["unfinished_matches"]:
        lines.append(f"matches: {matches} finished; {data['unfinished_matches']} cut off at the "
                     f"end of a chunk of {data['chunk']} deals (not counted in 'won')")
    difference = data["difference"]
    if difference is not None:
        lines.append(f"difference {difference['first']} - {difference['second']}: "
                     f"{_fixed(difference['mean'], sign=True)} ±{_fixed(difference['ci95'])} "
                     f"{unit}/deal (95% CI, paired by deal)")
    speed = data["speed"]
    lines.append(f"speed: {_fixed(speed['deals_per_second'], 1)} deals/s, "
                 f"{_fixed(speed['deals_per_second_per_core'], 1)} deals/s per core (CPU time) "
                 f"({speed['jobs']} job{'s' if speed['jobs'] != 1 else ''}, "
                 f"{speed['seconds']:.1f} s)")
    return "\n".join(lines)
