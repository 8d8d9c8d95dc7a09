"""Account API keys: a recognisable prefix and 256 random bits. Only the SHA-256 digest is
stored (a key has the entropy of a random token, so a plain digest cannot be reversed by
guessing: no salt or slow hash is needed, and a key is found by its digest in one indexed
read)."""

from __future__ import annotations

import secrets

from .. import auth

# Tells an account key from a seat or host token (those are bare urlsafe base64) without a
# store read, and lets secret scanners find a key pasted where it should not be.
KEY_PREFIX = "brass_ak_"


def new_account_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(auth.TOKEN_BYTES)


def is_account_key(token: str | None) -> bool:
    return token is not None and token.startswith(KEY_PREFIX)


def new_account_id() -> str:
    """16 hex digits; ids are public (seats show them), keys are the secrets."""
    return "a" + secrets.token_hex(8)
