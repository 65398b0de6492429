"""Device cookies (OWASP's "Slow down online guessing attacks with device cookies"): a
browser that signed in to an account before proves it at the next sign-in, so that
password guessing from elsewhere, which locks the name's shared count, does not lock
its owner out.

A successful sign-in (or sign-up) gives the browser a device token for that account:
``<user id>.<nonce>.<signature>``, the signature an HMAC of the account (its id, name
and creation time: an account deleted and made again under the same name is another
account) and the nonce. A browser keeps up to :data:`KEPT` tokens, one per account,
newest first, in one HttpOnly cookie sent to ``/api/auth`` only. At sign-in:

* a valid token for the account named: the attempt counts against *that token's*
  limit (``WINNABLE_LIMIT_LOGIN_DEVICE``), not against the name's; a token that tries
  too often is locked by itself, until its window ends;
* no valid token ("an untrusted client"): the attempt counts against the name's limit,
  shared by every untrusted client (``WINNABLE_LIMIT_LOGIN_NAME``);
* both also count against the address's limit (``WINNABLE_LIMIT_LOGIN``).

Each success gives a fresh token (a fresh count).

>>> keys = DeviceKeys(b"k" * 32)
>>> account = Account(7, "ada", 1764590400000000)
>>> token = keys.issue(account)
>>> keys.device(token, account) == token.rsplit(".", 1)[0]
True
>>> keys.device(token, Account(7, "ada", 1764590400000001)) is None   # the name made again
True
>>> jar = kept(token, "8.x.y")
>>> find(jar, 7) == token, find(jar, 9)
(True, None)
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import secrets

COOKIE = "winnable_device"
"""The device cookie's name (path ``/api/auth``: no other request carries it)."""
KEPT = 4
"""Accounts a browser keeps device tokens for (a family's shared computer)."""
SEPARATOR = "~"


@dataclasses.dataclass(frozen=True, slots=True)
class Account:
    """What a device token is bound to: the account's id, its name (folded) and the
    microsecond it was made."""

    user_id: int
    name_key: str
    created_us: int


class DeviceKeys:
    """Signs and checks device tokens with the server's secret."""

    def __init__(self, secret: bytes) -> None:
        self._key = hmac.new(secret, b"winnable device cookies", hashlib.sha256).digest()

    def _sign(self, account: Account, nonce: str) -> str:
        message = f"{account.user_id}:{account.name_key}:{account.created_us}:{nonce}".encode()
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()[:43]

    def issue(self, account: Account) -> str:
        """A new device token for ``account``."""
        nonce = secrets.token_urlsafe(12)
        return f"{account.user_id}.{nonce}.{self._sign(account, nonce)}"

    def device(self, token: str | None, account: Account) -> str | None:
        """The device's identity (``<user id>.<nonce>``: what its sign-ins are counted
        by) if ``token`` is a valid token of ``account``, else None."""
        if not token or len(token) > 100:
            return None
        parts = token.split(".")
        if len(parts) != 3 or parts[0] != str(account.user_id):
            return None
        if not hmac.compare_digest(parts[2], self._sign(account, parts[1])):
            return None
        return f"{parts[0]}.{parts[1]}"


def find(cookie: str | None, user_id: int) -> str | None:
    """The token for the account ``user_id`` among those the cookie keeps."""
    if not cookie or len(cookie) > 1000:
        return None
    prefix = f"{user_id}."
    for token in cookie.split(SEPARATOR)[:KEPT]:
        if token.startswith(prefix):
            return token
    return None


def kept(token: str, cookie: str | None) -> str:
    """The cookie's new value: ``token`` first, then the others (not of its account),
    at most :data:`KEPT`."""
    account = token.split(".", 1)[0] + "."
    others = [item for item in (cookie or "")[:1000].split(SEPARATOR)[:KEPT] if item and not item.startswith(account)]
    return SEPARATOR.join([token, *others][:KEPT])
