"""Running means with a 95% confidence interval (normal approximation)."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass
class Moments:
    """Count, sum and sum of squares of a series; merged in a fixed order for exact repeats."""

    count: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, value: float) -> None:
        self.count += 1
        self.total += value
        self.squares += value * value

    def merge(self, other: Moments) -> None:
        self.count += other.count
        self.total += other.total
        self.squares += other.squares

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else math.nan

    @property
    def half_width(self) -> float:
        """Half the width of the 95% interval of the mean: ``1.96 * s / sqrt(n)``."""
        if self.count < 2:
            return math.nan
        variance = (self.squares - self.total * self.total / self.count) / (self.count - 1)
        return Z95 * math.sqrt(max(variance, 0.0) / self.count)
