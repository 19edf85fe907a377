import pytest

from pennies import Money, ParseError, parse_money
from pennies.currency import CHF, EUR, GBP, USD


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$12.50", Money(1250, USD)),
        ("12.50 USD", Money(1250, USD)),
        ("usd 12.5", Money(1250, USD)),
        ("-£3", Money(-300, GBP)),
        ("12,50 €", Money(1250, EUR)),
        ("1.234,56 EUR", Money(123456, EUR)),
        ("$1,234.56", Money(123456, USD)),
        ("$1,234", Money(123400, USD)),
        ("1 234 567,89 €", Money(123456789, EUR)),
        ("1'234.50 CHF", Money(123450, CHF)),
        ("$0.5", Money(50, USD)),
    ],
)
def test_parse(text, expected):
    assert parse_money(text) == expected


def test_default_currency():
    assert parse_money("7.25", default_currency="GBP") == Money(725, GBP)
    with pytest.raises(ParseError, match="no currency"):
        parse_money("7.25")


@pytest.mark.parametrize("text", ["", "$", "twelve dollars", "12.50 US Dollars", "$$5"])
def test_not_money(text):
    with pytest.raises(ParseError):
        parse_money(text)
