"""4.0 (one GT = one month), 21.1 winter months, 6.3 Ghibli months."""

import pytest

from core import calendar


@pytest.mark.parametrize("gt,year,month", [(1, 1940, 6), (10, 1941, 3), (30, 1942, 11), (38, 1943, 7), (7, 1940, 12)])
def test_gt_to_month_4_0(gt, year, month):
    m = calendar.month_of(gt)
    assert (m.year, m.month) == (year, month)
    assert calendar.gt_of(year, month) == gt


def test_gt10_is_march_1941_sonnenblume_26_0():
    assert str(calendar.month_of(10)) == "March 1941"


def test_winter_months_21_1():
    winter = [gt for gt in range(1, 39) if calendar.is_winter(gt)]
    assert {calendar.month_of(g).month for g in winter} == {12, 1, 2, 3}
    assert calendar.is_winter(7) and not calendar.is_winter(6)  # Dec 1940 yes, Nov 1940 no


def test_ghibli_months_6_3():
    assert {calendar.month_of(g).month for g in range(1, 39) if calendar.ghibli_possible(g)} == {5, 6, 9, 10}


def test_gt_zero_refused():
    with pytest.raises(ValueError, match="4.0"):
        calendar.month_of(0)
