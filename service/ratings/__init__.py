"""Ratings of accounts by rated games (ratings.py)."""

from .ratings import Ratings

__all__ = ["Ratings"]
