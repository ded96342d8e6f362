"""Table codes people can read aloud, join keys nobody can guess, and tokens stored only as hashes."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

# No 0/O, no 1/I/L: every character survives being read aloud across a noisy table.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 5  # 31**5 = 28.6 million codes; the code alone never lets anyone in
KEY_LENGTH = 8  # 31**8 = 8.5e11 join keys: guessing one is out of reach


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def new_join_key() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(KEY_LENGTH))


def normalise(text: object, length: int) -> str | None:
    """What a person typed ('k7p x2', 'K7PX-2') as a code of our alphabet, or None if it cannot be one."""
    if not isinstance(text, str) or len(text) > 4 * length:
        return None
    cleaned = "".join(text.split()).replace("-", "").upper()
    if len(cleaned) != length or any(char not in ALPHABET for char in cleaned):
        return None
    return cleaned


def spaced(key: str) -> str:
    """A join key in two groups of four, the way the host screen shows it."""
    return f"{key[:4]} {key[4:]}"


def new_token() -> str:
    """A bearer token for a seat or the host: 256 random bits."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """Only this hash is stored, so a copy of the database gives nobody a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


def follow_token(secret: str, old_hash: str, code: str) -> str:
    """The token that opens the same seat at the next game (Play again), made from the old seat's stored hash.

    The server makes it twice: from the hash when it sets up the next table (it stores only the new token's hash),
    and again when a phone shows its old token, to hand that phone the new one; nobody without the server's secret
    key can make it.
    """
    digest = hmac.new(secret.encode(), f"{old_hash}:{code}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def same(a: str | None, b: str | None) -> bool:
    """Constant-time comparison for secrets."""
    return a is not None and b is not None and hmac.compare_digest(a, b)
