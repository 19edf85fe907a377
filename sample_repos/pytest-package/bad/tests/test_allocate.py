import pytest

from pennies import Money, MoneyError, allocate, allocate_evenly
from pennies.currency import EUR, USD


def test_parts_add_up():
    parts = allocate(Money.of("100", "EUR"), [1, 1, 1])
    assert parts == [Money(3334, EUR), Money(3333, EUR), Money(3333, EUR)]
    assert sum(p.minor for p in parts) == 10000


def test_largest_remainder_gets_the_cent():
    assert allocate(Money.of("0.05", "USD"), [3, 7]) == [Money(2, USD), Money(3, USD)]
    assert allocate(Money(10, USD), [1, 2, 7]) == [Money(1, USD), Money(2, USD), Money(7, USD)]


def test_negative_amounts():
    parts = allocate(Money(-100, USD), [1, 1, 1])
    assert parts == [Money(-33, USD), Money(-33, USD), Money(-34, USD)]


def test_zero_ratio_gets_nothing():
    assert allocate(Money(101, USD), [0, 1, 1]) == [Money(0, USD), Money(51, USD), Money(50, USD)]


def test_needs_a_positive_ratio():
    with pytest.raises(MoneyError):
        allocate(Money(100, USD), [])
    with pytest.raises(MoneyError):
        allocate(Money(100, USD), [0, 0])


def test_allocate_evenly():
    assert allocate_evenly(Money(100, USD), 3) == [Money(34, USD), Money(33, USD), Money(33, USD)]
    assert allocate_evenly(Money(-7, EUR), 2) == [Money(-3, EUR), Money(-4, EUR)]
    with pytest.raises(MoneyError):
        allocate_evenly(Money(100, USD), 0)
