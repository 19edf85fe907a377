from pennies import Money, format_money
from pennies.currency import CHF, EUR, GBP, USD


def test_symbol_before_or_after():
    assert format_money(Money(123450, USD)) == "$1,234.50"
    assert format_money(Money(1250, EUR)) == "12.50 €"
    assert format_money(Money(1250, CHF)) == "CHF 12.50"


def test_negative_amounts_put_the_sign_first():
    assert format_money(Money(-300, GBP)) == "-£3.00"
    assert format_money(Money(-5, EUR)) == "-0.05 €"


def test_grouping_and_decimal_point():
    euros = Money(123456789, EUR)
    assert format_money(euros, grouping=".", decimal_point=",") == "1.234.567,89 €"
    assert format_money(euros, grouping=" ", decimal_point=",") == "1 234 567,89 €"
    assert format_money(Money(99, USD)) == "$0.99"


def test_code_instead_of_symbol():
    assert format_money(Money(123450, USD), symbol=False) == "1,234.50 USD"
