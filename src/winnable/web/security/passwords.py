"""What a password is: any characters a person can type and see, compared in one form.

A password is normalised to Unicode NFKC before it is hashed or checked, so that the
same password typed on another keyboard or system (a precomposed ``é`` or ``e`` with a
combining accent, full-width ``ｐａｓｓ``, the ligature ``ﬁ``) is the same password
(NIST SP 800-63B 5.1.1.2). Its length (8 to 128) is counted as the player typed it
(canonically composed, NFC: ``e`` with a combining accent is one character, and so is
``\ufdfa``, which NFKC spells out in 18); spaces, quotes and every language are welcome,
control characters are not, and it needs at least one visible character that is not a
combining mark: eight zero-width spaces, only spaces, or eight accents on nothing are no
password.

>>> check_password("ｐａｓｓｗｏｒｄ１２") == "password12"
True
>>> check_password("\\u200b" * 8)
Traceback (most recent call last):
...
winnable.web.errors.Unprocessable: a password needs at least one visible character, not only spaces or invisible characters
>>> len(check_password("\\ufdfa" * 10))   # ten characters typed, 180 once NFKC spells them out
180
>>> check_password("\\u0301" * 8)
Traceback (most recent call last):
...
winnable.web.errors.Unprocessable: a password needs at least one letter, digit or sign, not only combining accents
>>> visible("\\u3164\\u00a0\\u2800 \\ufe0f"), visible("   x")
(False, True)
>>> normalized("e\\u0301te\\u0301 \\ufb01n") == "été fin", normalized("x" * 600)
(True, None)
"""

from __future__ import annotations

import unicodedata
from typing import Any

from winnable.web.errors import Unprocessable
from winnable.web.pages.i18n import N_

PASSWORD_MIN, PASSWORD_MAX = 8, 128
"""Characters of a password, counted as typed (NFC, see :func:`typed_length`)."""
RAW_MAX = 4 * PASSWORD_MAX
"""Characters a password may be sent as before normalising (NFKC composes some
sequences into one character): anything longer is refused without more work."""

_INVISIBLE_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Cn"})
"""Separators, controls, format characters (zero-width spaces and joiners, bidi marks),
surrogates and unassigned code points: none of them shows a mark."""
_IGNORABLE = (  # Unicode's Default_Ignorable_Code_Point ranges outside Cf, and blanks
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def _shows(char: str) -> bool:
    if unicodedata.category(char) in _INVISIBLE_CATEGORIES:
        return False
    code = ord(char)
    return not any(low <= code <= high for low, high in _IGNORABLE)


def typed_length(password: str) -> int:
    """The characters of ``password`` as the player typed them: its canonical composition
    (NFC) counted, never its compatibility form (NFKC may spell one character out in
    many: U+FDFA is 18 letters in NFKC).

    >>> typed_length("\\ufdfa" * 10), typed_length("cafe\\u0301"), typed_length("\\ufb01")
    (10, 4, 1)
    """
    return len(unicodedata.normalize("NFC", password))


def only_marks(text: str) -> bool:
    """True if every character of ``text`` that shows is a combining mark (accents on
    nothing): what is left once invisible characters are set aside has no base."""
    return not any(_shows(char) and not unicodedata.category(char).startswith("M") for char in text)


def visible(text: str) -> bool:
    """True if ``text`` has a character that leaves a mark (not a space, a format or
    control character, a variation selector, a Hangul filler or the blank Braille cell)."""
    return any(_shows(char) for char in text)


def normalized(password: Any) -> str | None:
    """``password`` in NFKC, or None if it cannot be one (not text, too long, lone
    surrogates): what sign-in compares."""
    if not isinstance(password, str) or len(password) > RAW_MAX:
        return None
    try:
        password.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return unicodedata.normalize("NFKC", password)


def check_password(password: Any) -> str:
    """A new password in the form it is hashed in (NFKC), or 422: ``bad_password`` for
    its length or characters, ``blank_password`` when nothing of it is visible."""
    too_long_or_short = Unprocessable(
        N_("a password must be {low} to {high} characters long", low=PASSWORD_MIN, high=PASSWORD_MAX), code="bad_password"
    )
    if not isinstance(password, str) or len(password) > RAW_MAX:
        raise too_long_or_short
    try:
        password.encode("utf-8")
    except UnicodeEncodeError:
        raise Unprocessable(N_("a password cannot hold lone surrogate characters"), code="bad_password") from None
    if not PASSWORD_MIN <= typed_length(password) <= PASSWORD_MAX:
        raise too_long_or_short
    form = unicodedata.normalize("NFKC", password)
    if any(unicodedata.category(char) == "Cc" for char in form):
        raise Unprocessable(N_("a password cannot hold control characters (tabs, new lines, NUL...)"), code="bad_password")
    if not visible(form):
        raise Unprocessable(
            N_("a password needs at least one visible character, not only spaces or invisible characters"), code="blank_password"
        )
    if only_marks(form):
        raise Unprocessable(N_("a password needs at least one letter, digit or sign, not only combining accents"), code="blank_password")
    return form
