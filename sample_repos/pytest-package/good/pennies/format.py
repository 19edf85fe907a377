"""Write money for people: "$1,234.50", "1.234,50 €", "-£3.00"."""

from __future__ import annotations

from .money import Money


def _group(digits: str, separator: str) -> str:
    """Digits with a separator between groups of three: "1234567" -> "1,234,567"."""
    head = len(digits) % 3 or 3
    groups = [digits[:head]]
    groups += [digits[i : i + 3] for i in range(head, len(digits), 3)]
    return separator.join(groups)


def format_money(
    money: Money,
    *,
    symbol: bool = True,
    grouping: str = ",",
    decimal_point: str = ".",
) -> str:
    """Money as text: "$1,234.50", "12.50 €", or "1,234.50 USD" with symbol=False.

    The sign comes first ("-$3.00"), the symbol goes where the currency puts it,
    and all decimal places of the minor unit are written.
    """
    currency = money.currency
    sign = "-" if money.minor < 0 else ""
    whole, fraction = divmod(abs(money.minor), currency.factor)
    number = _group(str(whole), grouping)
    if currency.exponent:
        number += decimal_point + str(fraction).zfill(currency.exponent)
    if not symbol:
        return f"{sign}{number} {currency.code}"
    if currency.symbol_first:
        return f"{sign}{currency.symbol}{number}"
    return f"{sign}{number} {currency.symbol}"
