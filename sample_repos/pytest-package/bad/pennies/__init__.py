"""pennies: exact money amounts with currencies.

Amounts are whole numbers of the currency's minor unit (cents for USD), so adding,
splitting and formatting never gains or loses a cent.

    >>> from pennies import Money, format_money
    >>> format_money(Money.of("1234.5", "USD"))
    '$1,234.50'
"""

from .allocate import allocate, allocate_evenly
from .currency import Currency, UnknownCurrency, currency_for, known_codes, register
from .format import format_compact, format_money
from .money import Money, MoneyError
from .parse import ParseError, parse_money

__all__ = [
    "Currency",
    "Money",
    "MoneyError",
    "ParseError",
    "UnknownCurrency",
    "allocate",
    "allocate_evenly",
    "currency_for",
    "format_compact",
    "format_money",
    "known_codes",
    "parse_money",
    "register",
]

__version__ = "0.3.0"
