"""Proof of work for sign-in (ALTCHA v1, with the ``altcha`` package): a name under
guessing does not lock its owner out; it asks each sign-in for a second of the browser's
work instead.

A challenge is an ALTCHA v1 challenge (``algorithm``, ``challenge``, ``salt``,
``signature``, ``maxnumber``): find the number ``n`` (at most ``maxnumber``) whose
SHA-256 of ``salt + n`` is ``challenge``. Its salt carries when it expires and a tag of
the name it was issued for, both under the server's HMAC signature, so a solution
is good for that name only, until then, and once (the rate-limit counts remember the
used ones, shared by every server when they are). The page solves it with WebCrypto
(``static/js/altcha.js``) and sends back the solved payload: base64 of the JSON
``algorithm``, ``challenge``, ``number``, ``salt``, ``signature``.

>>> proof = ProofOfWork(b"k" * 32, max_number=1000, seconds=60, once=lambda key, seconds: True)
>>> challenge = proof.challenge("Ada")
>>> sorted(challenge), challenge["maxnumber"]
(['algorithm', 'challenge', 'maxnumber', 'salt', 'signature'], 1000)
>>> payload = solved(challenge)
>>> proof.refusal(payload, "ada") is None   # names are compared as sign-in counts them
True
>>> str(proof.refusal(payload, "bob"))
'this check was made for another name'
>>> str(proof.refusal("bm90IGpzb24=", "ada"))
'this check could not be read'
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import hashlib
import hmac
import json
from typing import Any, Callable, TypedDict

from altcha import v1 as altcha

from winnable.web.errors import ApiError, Forbidden, Problem, TooManyRequests, Unauthorized, localized
from winnable.web.pages.i18n import N_, Message

ALGORITHM: altcha.AlgoType = "SHA-256"
PAYLOAD_MAX = 1024
"""Characters of a solved payload (base64): anything longer is refused unread."""


def name_key(name: str) -> str:
    """The name as sign-in counts it (per name, whatever its case)."""
    return name.lower()[:64]


class AltchaChallenge(TypedDict):
    """A challenge as the JSON answers carry it (the API's ``AltchaChallenge``)."""

    algorithm: altcha.AlgoType
    challenge: str
    maxnumber: int
    salt: str
    signature: str


class ProofProblem(Problem):
    """An error's body with a challenge to solve (the API's ``ProofProblem``)."""

    altcha: AltchaChallenge


class ProofOfWork:
    """Challenges bound to a name, and the check of their solutions.

    ``once(key, seconds)`` is true the first time ``key`` is seen in ``seconds`` (shared
    by every server: :meth:`winnable.web.security.ratelimit.RateLimits.once`)."""

    def __init__(self, key: bytes, max_number: int, seconds: float, once: Callable[[str, int], bool]) -> None:
        self.key = key
        self.max_number = max_number
        self.seconds = seconds
        self.once = once

    def tag(self, name: str) -> str:
        """A short keyed digest of the name: in the salt, without the name itself."""
        return hmac.new(self.key, b"altcha-name\0" + name_key(name).encode(), hashlib.sha256).hexdigest()[:24]

    def challenge(self, name: str) -> AltchaChallenge:
        """A fresh challenge for a sign-in of ``name``, as the JSON answers carry it."""
        expires = dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=self.seconds)
        made = altcha.create_challenge(
            altcha.ChallengeOptions(
                algorithm=ALGORITHM, max_number=self.max_number, hmac_key=self.key, expires=expires, params={"name": self.tag(name)}
            )
        )
        return {
            "algorithm": made.algorithm,
            "challenge": made.challenge,
            "maxnumber": made.max_number,
            "salt": made.salt,
            "signature": made.signature,
        }

    def refusal(self, payload: str, name: str) -> Message | None:
        """None if ``payload`` solves a challenge this server made for ``name``, not yet
        expired nor used (it is used now); else why not."""
        if not isinstance(payload, str) or len(payload) > PAYLOAD_MAX:
            return N_("this check could not be read")
        try:
            data = json.loads(base64.b64decode(payload, validate=True).decode("utf-8"))
        except (binascii.Error, UnicodeDecodeError, ValueError):
            return N_("this check could not be read")
        fields = {"algorithm": str, "challenge": str, "number": int, "salt": str, "signature": str}
        if not isinstance(data, dict) or any(type(data.get(field)) is not kind for field, kind in fields.items()):
            return N_("this check could not be read")
        if data["algorithm"] != ALGORITHM or not 0 <= data["number"] <= self.max_number:
            return N_("this check was not made by this server")
        solution = altcha.Payload(ALGORITHM, data["challenge"], data["number"], data["salt"], data["signature"])
        _, expires, salt_params = solution.parse_salt()
        if expires is None:
            return N_("this check was not made by this server")
        good, reason = altcha.verify_solution(solution, self.key, check_expires=True)
        if reason is not None and "expired" in reason:
            return N_("this check has expired")
        if not good:
            return N_("this check was not made by this server, or not solved")
        if salt_params.get("name") != [self.tag(name)]:
            return N_("this check was made for another name")
        if not self.once(f"altcha/{data['challenge']}", int(self.seconds) + 1):
            return N_("this check has already been used")
        return None


def solved(challenge: AltchaChallenge) -> str:
    """The solved payload of ``challenge`` (what the page sends back): for tests and the
    bench; the browser does the same with WebCrypto."""
    found = altcha.solve_challenge(challenge["challenge"], challenge["salt"], challenge["algorithm"], challenge["maxnumber"])
    if found is None:
        raise ValueError("no solution below maxnumber")
    payload = {
        "algorithm": challenge["algorithm"],
        "challenge": challenge["challenge"],
        "number": found.number,
        "salt": challenge["salt"],
        "signature": challenge["signature"],
    }
    return base64.b64encode(json.dumps(payload).encode()).decode()


class _WithChallenge(ApiError):
    """An API error whose JSON body also carries ``altcha``: a challenge to solve."""

    altcha: AltchaChallenge

    def body(self, locale: str = "en") -> ProofProblem:
        return {"code": self.code, "detail": localized(self.code, self.detail, locale), "altcha": self.altcha}

    def response(self, locale: str = "en") -> Any:
        from starlette.responses import Response

        return Response(
            json.dumps(self.body(locale), ensure_ascii=False).encode("utf-8"),
            status_code=self.status,
            media_type="application/json",
            headers={**self.headers, "Content-Language": locale},
        )


class UnauthorizedWithProof(_WithChallenge, Unauthorized):
    """401 ``bad_credentials`` for a name under guessing: the next try needs this proof."""

    def __init__(self, error: Unauthorized, challenge: AltchaChallenge) -> None:
        Unauthorized.__init__(self, error.detail, code=error.code, headers=error.headers)
        self.altcha = challenge


class TooManyWithProof(_WithChallenge, TooManyRequests):
    """429 for a name under guessing: with the proof solved, a sign-in is counted apart."""

    def __init__(self, error: TooManyRequests, challenge: AltchaChallenge) -> None:
        TooManyRequests.__init__(self, error.detail, code=error.code, retry_after=error.retry_after)
        self.altcha = challenge


class ProofRefused(_WithChallenge, Forbidden):
    """403 ``altcha_invalid``: the proof sent is expired, used, for another name or
    wrong; here is a fresh one."""

    def __init__(self, reason: Message, challenge: AltchaChallenge) -> None:
        Forbidden.__init__(self, reason, code="altcha_invalid")
        self.altcha = challenge
