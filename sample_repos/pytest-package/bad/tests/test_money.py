from decimal import Decimal

import pytest

from pennies import Money, MoneyError, UnknownCurrency
from pennies.currency import EUR, USD


def test_of_reads_major_units():
    assert Money.of("12.50", "USD") == Money(1250, USD)
    assert Money.of(3, "eur") == Money(300, EUR)
    assert Money.of(Decimal("-0.07"), USD) == Money(-7, USD)


def test_of_rounds_half_a_cent_away_from_zero():
    assert Money.of("0.125", "USD").minor == 13
    assert Money.of("-0.125", "USD").minor == -13
    assert Money.of("2.674", "USD").minor == 267


def test_of_rejects_floats_and_garbage():
    with pytest.raises(MoneyError):
        Money.of(0.1, "USD")  # type: ignore[arg-type]
    with pytest.raises(MoneyError):
        Money.of("twelve", "USD")
    with pytest.raises(MoneyError):
        Money.of("Infinity", "USD")


def test_unknown_currency():
    with pytest.raises(UnknownCurrency, match="XYZ"):
        Money.of("1", "XYZ")


def test_amount_is_exact():
    assert Money(1250, USD).amount == Decimal("12.50")
    assert str(Money(-5, EUR)) == "-0.05 EUR"


def test_str_keeps_all_decimal_places():
    assert str(Money.of("12.5", "USD")) == "12.50 USD"
    assert str(Money.of("7", "EUR")) == "7.00 EUR"


def test_add_and_subtract():
    total = Money.of("10.10", "USD") + Money.of("0.95", "USD")
    assert total == Money(1105, USD)
    assert total - Money.of("11.05", "USD") == Money.zero("USD")
    assert not Money.zero("USD")


def test_mixing_currencies_is_an_error():
    with pytest.raises(MoneyError, match="USD"):
        Money.of("1", "USD") + Money.of("1", "EUR")
    with pytest.raises(MoneyError):
        assert Money.of("1", "USD") < Money.of("2", "EUR")


def test_multiply():
    assert Money.of("2.50", "USD") * 3 == Money(750, USD)
    assert 3 * Money.of("2.50", "USD") == Money(750, USD)
    assert Money.of("19.99", "USD") * Decimal("0.075") == Money(150, USD)
    assert -Money.of("1", "EUR") == Money(-100, EUR)


def test_compare():
    assert Money.of("1.99", "USD") < Money.of("2", "USD")
    assert Money.of("2", "USD") <= Money.of("2.00", "USD")
    assert max(Money.of("5", "EUR"), Money.of("7", "EUR")) == Money(700, EUR)
