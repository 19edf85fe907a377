"""pennies: exact money amounts with currencies.

Amounts are whole numbers of the currency's minor unit (cents for USD), so adding,
splitting and formatting never gains or loses a cent.
"""

from .allocate import allocate
from .currency import Currency, UnknownCurrency, get_currency, known_codes, register
from .format import format_money
from .money import Money, MoneyError
from .parse import ParseError, parse_money

__all__ = [
    "Currency",
    "Money",
    "MoneyError",
    "ParseError",
    "UnknownCurrency",
    "allocate",
    "format_money",
    "get_currency",
    "known_codes",
    "parse_money",
    "register",
]

__version__ = "0.2.0"
