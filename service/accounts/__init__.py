"""Accounts (a person's or a bot's lasting name and API key) and what hangs on them: the
account RPCs (accounts.py) and the keys (keys.py)."""

from .accounts import AccountCaller, Accounts
from .keys import KEY_PREFIX, is_account_key, new_account_key

__all__ = ["KEY_PREFIX", "AccountCaller", "Accounts", "is_account_key", "new_account_key"]
