"""Read money amounts as people write them: "$12.50", "1.234,56 EUR", "-£3", "¥500"."""

from __future__ import annotations

import re

from .currency import by_symbol, currency_for
from .money import Money, MoneyError

_AMOUNT = re.compile(
    r"""
    ^\s*
    (?P<sign>[-+])?
    \s*
    (?:(?P<prefix>[$€£¥])|(?P<code_first>[A-Za-z]{3})\s)?
    \s*
    (?P<number>\d[\d,.' _]*)
    \s*
    (?P<suffix>[$€£¥]|[A-Za-z]{3})?
    \s*$
    """,
    re.VERBOSE,
)


class ParseError(ValueError):
    """Raised for text that is not a money amount."""


def _plain_number(number: str) -> str:
    """The number without grouping, with "." as the decimal point.

    The last "." or "," is the decimal point when the other one appears before it
    ("1,234.5" and "1.234,5" are 1234.5) or when it appears once and is not followed
    by exactly three digits ("12,50" is 12.50); "1,234" and "1.234.567" are grouped
    thousands. Spaces, apostrophes and underscores always separate groups.
    """
    number = number.replace(" ", "").replace("'", "").replace("_", "")
    last = max(number.rfind("."), number.rfind(","))
    if last < 0:
        return number
    separator = number[last]
    other = "," if separator == "." else "."
    whole, fraction = number[:last], number[last + 1 :]
    if other in whole:
        is_decimal_point = True
    elif number.count(separator) > 1:
        is_decimal_point = False
    else:
        is_decimal_point = len(fraction) != 3 or whole == "0"
    if not is_decimal_point:
        return number.replace(separator, "")
    return whole.replace(other, "") + "." + fraction


def parse_money(text: str, default_currency: str | None = None) -> Money:
    """Money from text such as "$12.50", "12.50 USD", "USD 12.50" or "12,50 €".

    Text without a symbol or code is in default_currency; without one, it is an error.
    """
    match = _AMOUNT.match(text)
    if match is None:
        raise ParseError(f"not a money amount: {text!r}")
    written = match["prefix"] or match["code_first"] or match["suffix"]
    if written is not None:
        currency = by_symbol(written) or currency_for(written)
    elif default_currency is not None:
        currency = currency_for(default_currency)
    else:
        raise ParseError(f"no currency in {text!r} and no default currency")
    number = _plain_number(match["number"].strip())
    if match["sign"] == "-":
        number = "-" + number
    try:
        return Money.of(number, currency)
    except MoneyError as exc:
        raise ParseError(f"not a money amount: {text!r} ({exc})") from None
