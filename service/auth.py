"""Seat tokens: random bearer secrets, stored only as SHA-256 digests, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

from .errors import ServiceError
from .i18n import Text

# 32 random bytes = 256 bits, well above the 128-bit floor.
TOKEN_BYTES = 32
_MAX_TOKEN_CHARS = 512


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def bearer_token(authorization: str | None) -> str | None:
    """Extracts the token of an `Authorization: Bearer <token>` value; None when absent."""
    if authorization is None or authorization.strip() == "":
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > _MAX_TOKEN_CHARS:
        raise ServiceError(
            "UNAUTHENTICATED", Text("bad_authorization")
        )
    return token


def token_matches(token: str | None, digest: str | None) -> bool:
    """Whether `token` is the one whose digest is `digest` (None: there is none). Digests
    are compared, in constant time."""
    if token is None or digest is None:
        return False
    return hmac.compare_digest(hash_token(token), digest)


def is_operator(token: str | None, operator_digest: str | None) -> bool:
    """Whether `token` is the server's operator token (given as its digest; None when the
    server has none)."""
    return token_matches(token, operator_digest)


def seat_of_token(token: str, token_hashes: Sequence[str]) -> int | None:
    """The seat whose stored digest matches the token, or None.

    Every seat is compared (no early exit) so the time taken does not depend on which seat,
    if any, matched.
    """
    digest = hash_token(token)
    found: int | None = None
    for seat, stored in enumerate(token_hashes):
        if hmac.compare_digest(digest, stored):
            found = seat
    return found


def holds_seat(digest: str, token_hashes: Sequence[str], seat: int) -> bool:
    """Whether the token whose digest is `digest` still holds `seat` (compared in constant
    time; an open, revoked or reissued seat has another digest or none)."""
    return 0 <= seat < len(token_hashes) and hmac.compare_digest(digest, token_hashes[seat])
