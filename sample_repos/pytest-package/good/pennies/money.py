"""The Money value type."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from .currency import Currency, get_currency

Amount = str | int | Decimal
CurrencyLike = str | Currency


class MoneyError(ValueError):
    """Raised for amounts that are not numbers and for mixing currencies."""


def _to_decimal(amount: Amount) -> Decimal:
    if isinstance(amount, float):
        raise MoneyError("use a str or a Decimal for amounts, not a float")
    try:
        value = amount if isinstance(amount, Decimal) else Decimal(str(amount).strip())
    except InvalidOperation:
        raise MoneyError(f"not an amount: {amount!r}") from None
    if not value.is_finite():
        raise MoneyError(f"not a finite amount: {amount!r}")
    return value


def _to_minor(value: Decimal, currency: Currency) -> int:
    """A decimal amount of major units as a whole number of minor units.

    Half a minor unit rounds away from zero, as a cash register does.
    """
    scaled = value.scaleb(currency.exponent)
    return int(scaled.quantize(Decimal(1), rounding=ROUND_HALF_UP))


@dataclass(frozen=True)
class Money:
    """An amount of money: a whole number of minor units of one currency.

    Money values are immutable and compare equal when both the amount and the
    currency are equal. Adding or comparing two currencies raises MoneyError.
    """

    minor: int
    currency: Currency

    @classmethod
    def of(cls, amount: Amount, currency: CurrencyLike) -> Money:
        """Money from an amount of major units: Money.of("12.50", "USD")."""
        cur = get_currency(currency)
        return cls(_to_minor(_to_decimal(amount), cur), cur)

    @classmethod
    def zero(cls, currency: CurrencyLike) -> Money:
        """No money, in the given currency."""
        return cls(0, get_currency(currency))

    @property
    def amount(self) -> Decimal:
        """The amount in major units, exactly: Decimal("12.50")."""
        return Decimal(self.minor).scaleb(-self.currency.exponent)

    def _same_currency(self, other: Money) -> None:
        if other.currency != self.currency:
            raise MoneyError(f"cannot combine {self.currency.code} with {other.currency.code}")

    def __add__(self, other: object) -> Money:
        if not isinstance(other, Money):
            return NotImplemented
        self._same_currency(other)
        return Money(self.minor + other.minor, self.currency)

    def __sub__(self, other: object) -> Money:
        if not isinstance(other, Money):
            return NotImplemented
        self._same_currency(other)
        return Money(self.minor - other.minor, self.currency)

    def __mul__(self, factor: object) -> Money:
        if isinstance(factor, bool) or not isinstance(factor, (int, Decimal)):
            return NotImplemented
        if isinstance(factor, int):
            return Money(self.minor * factor, self.currency)
        return Money(_to_minor(self.amount * factor, self.currency), self.currency)

    __rmul__ = __mul__

    def __neg__(self) -> Money:
        return Money(-self.minor, self.currency)

    def __lt__(self, other: Money) -> bool:
        self._same_currency(other)
        return self.minor < other.minor

    def __le__(self, other: Money) -> bool:
        self._same_currency(other)
        return self.minor <= other.minor

    def __bool__(self) -> bool:
        return self.minor != 0

    def __str__(self) -> str:
        return f"{self.amount} {self.currency.code}"
