"""Split an amount into parts without losing a cent."""

from __future__ import annotations

from collections.abc import Sequence

from .money import Money, MoneyError


def allocate(money: Money, ratios: Sequence[int]) -> list[Money]:
    """Split money in proportion to ratios; the parts add up to money exactly.

    Each part gets its share rounded down; the minor units left over go one each
    to the parts with the largest remainders, earlier parts first on a tie.
    Ratios are whole numbers, none negative, at least one positive.

    >>> [str(m) for m in allocate(Money.of("0.05", "USD"), [3, 7])]
    ['0.02 USD', '0.03 USD']
    """
    if any(ratio < 0 for ratio in ratios):
        raise MoneyError(f"ratios must not be negative: {list(ratios)}")
    total = sum(ratios)
    if total <= 0:
        raise MoneyError("ratios must contain a positive number")
    shares = [money.minor * ratio // total for ratio in ratios]
    remainders = [money.minor * ratio % total for ratio in ratios]
    left = money.minor - sum(shares)
    by_remainder = sorted(range(len(ratios)), key=lambda i: -remainders[i])
    for index in by_remainder[:left]:
        shares[index] += 1
    return [Money(share, money.currency) for share in shares]


def allocate_evenly(money: Money, parts: int) -> list[Money]:
    """Split money into equal parts; they differ by at most one minor unit.

    >>> [str(m) for m in allocate_evenly(Money.of("1", "EUR"), 3)]
    ['0.34 EUR', '0.33 EUR', '0.33 EUR']
    """
    if parts < 1:
        raise MoneyError(f"cannot split into {parts} parts")
    return allocate(money, [1] * parts)
