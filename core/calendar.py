"""Game turns and months (4.0: "Each GT represents one month").

GT 1 is June 1940 (28.0 Desert War starts GT 1), GT 10 is March 1941
(26.0 Sonnenblume), GT 30 is November 1942 (29.0 Run for Tunis, Operation Torch).
"""

from __future__ import annotations

from dataclasses import dataclass

MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)

#: GT 1 = June 1940.
FIRST_YEAR, FIRST_MONTH = 1940, 6

#: 21.1: winter affects operations in December, January, February and March.
WINTER_MONTHS = frozenset({12, 1, 2, 3})

#: 6.3: Ghiblis can only occur in May, June, September and October.
GHIBLI_MONTHS = frozenset({5, 6, 9, 10})


@dataclass(frozen=True)
class Month:
    year: int
    month: int  # 1..12

    @property
    def name(self) -> str:
        return MONTH_NAMES[self.month - 1]

    def __str__(self) -> str:
        return f"{self.name} {self.year}"


def month_of(gt: int) -> Month:
    """The calendar month of game turn ``gt`` (GT 1 = June 1940)."""
    if gt < 1:
        raise ValueError(f"GT {gt} does not exist; the Turn Record Track starts at GT 1 (4.0)")
    index = (FIRST_MONTH - 1) + (gt - 1)
    return Month(FIRST_YEAR + index // 12, index % 12 + 1)


def gt_of(year: int, month: int) -> int:
    """The game turn of a calendar month (inverse of :func:`month_of`)."""
    gt = (year - FIRST_YEAR) * 12 + (month - FIRST_MONTH) + 1
    if gt < 1:
        raise ValueError(f"{MONTH_NAMES[month - 1]} {year} is before GT 1 (June 1940)")
    return gt


def is_winter(gt: int) -> bool:
    """21.1: December, January, February and March."""
    return month_of(gt).month in WINTER_MONTHS


def ghibli_possible(gt: int) -> bool:
    """6.3: Ghiblis occur only in May, June, September and October."""
    return month_of(gt).month in GHIBLI_MONTHS
