"""Currencies and the registry that maps ISO 4217 codes to them."""

from __future__ import annotations

from dataclasses import dataclass


class UnknownCurrency(KeyError):
    """Raised for a currency code that is not registered."""

    def __str__(self) -> str:
        return f"unknown currency: {self.args[0]!r}"


@dataclass(frozen=True)
class Currency:
    """A currency.

    code: the ISO 4217 code, e.g. "USD".
    exponent: the number of decimal places of the minor unit (2 for cents).
    symbol: what format_money writes, e.g. "$".
    symbol_first: whether the symbol goes before the number ("$5") or after ("5 €").
    """

    code: str
    exponent: int
    symbol: str
    symbol_first: bool = True

    @property
    def factor(self) -> int:
        """How many minor units make one major unit (100 for cents)."""
        return 10**self.exponent


_REGISTRY: dict[str, Currency] = {}


def register(currency: Currency) -> Currency:
    """Add a currency to the registry, replacing one with the same code."""
    if len(currency.code) != 3 or not currency.code.isalpha():
        raise ValueError(f"not an ISO 4217 code: {currency.code!r}")
    if currency.exponent < 0:
        raise ValueError(f"negative exponent for {currency.code}")
    _REGISTRY[currency.code.upper()] = currency
    return currency


def get_currency(code: str | Currency) -> Currency:
    """The registered currency for an ISO code (in any case), or the currency itself."""
    if isinstance(code, Currency):
        return code
    try:
        return _REGISTRY[code.upper()]
    except KeyError:
        raise UnknownCurrency(code) from None


def known_codes() -> list[str]:
    """The codes of all registered currencies, sorted."""
    return sorted(_REGISTRY)


USD = register(Currency("USD", 2, "$"))
EUR = register(Currency("EUR", 2, "€", symbol_first=False))
GBP = register(Currency("GBP", 2, "£"))
CHF = register(Currency("CHF", 2, "CHF "))
