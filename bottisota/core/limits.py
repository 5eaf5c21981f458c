"""Comparing a quantity against a rule's limit (D35).

D35: a quantity equal to a rule's limit within LIMIT_TOLERANCE (cm, or
degrees for angles) meets the limit, so decimal arithmetic never decides a
ruling: 1 + 3 + 0.05 computes as 4.050000000000001 and is still 4.05 cm
from a blast centre. Every comparison of a measured quantity against a
limit in the rules (contact, blast reach, level differences, ranges, arcs,
movement sums, mine and marker areas) goes through these four words, which
take a float or a numpy array of them alike.
"""
from __future__ import annotations

from typing import overload

import numpy as np

LIMIT_TOLERANCE = 1e-6      # D35: cm, or degrees for angles

@overload
def within(quantity: float, limit: float) -> bool: ...
@overload
def within(quantity: np.ndarray, limit: float | np.ndarray) -> np.ndarray: ...
def within(quantity: float | np.ndarray, limit: float | np.ndarray) -> bool | np.ndarray:
    """The quantity is at most the limit (the limit itself included, D35)."""
    return quantity <= limit + LIMIT_TOLERANCE


@overload
def beyond(quantity: float, limit: float) -> bool: ...
@overload
def beyond(quantity: np.ndarray, limit: float | np.ndarray) -> np.ndarray: ...
def beyond(quantity: float | np.ndarray, limit: float | np.ndarray) -> bool | np.ndarray:
    """The quantity is more than the limit (not `within` it, D35)."""
    return quantity > limit + LIMIT_TOLERANCE


@overload
def reaches(quantity: float, limit: float) -> bool: ...
@overload
def reaches(quantity: np.ndarray, limit: float | np.ndarray) -> np.ndarray: ...
def reaches(quantity: float | np.ndarray, limit: float | np.ndarray) -> bool | np.ndarray:
    """The quantity is at least the limit (the limit itself included, D35)."""
    return quantity >= limit - LIMIT_TOLERANCE


@overload
def short_of(quantity: float, limit: float) -> bool: ...
@overload
def short_of(quantity: np.ndarray, limit: float | np.ndarray) -> np.ndarray: ...
def short_of(quantity: float | np.ndarray, limit: float | np.ndarray) -> bool | np.ndarray:
    """The quantity is less than the limit (does not `reach` it, D35)."""
    return quantity < limit - LIMIT_TOLERANCE
