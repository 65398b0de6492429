"""The string literals of a JavaScript module, and which of them go through the
translation functions (``t()``, ``tn()``, ``tp()`` of ``static/js/i18n.js``).

A small tokenizer, enough for the project's own modules: it skips comments and regular
expression literals, reads quoted strings and the text parts of template literals
(including nested ones), and tells a literal that is an argument of a translation
call from every other literal.

>>> [(text, kind) for _, text, kind in literals('say(t("Hi {n}", { n }), `a${b}c`); // "no"')]
[('Hi {n}', 'str'), ('a', 'tpl'), ('c', 'tpl')]
>>> source = 'x = tn("{n} move", "{n} moves", k) + "moves";'
>>> [text for start, text, _ in literals(source) if not translated(source, start)]
['moves']
"""

from __future__ import annotations

import re

_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^")
_REGEX_AFTER_WORDS = {"return", "typeof", "case", "of", "in", "do", "else", "void", "yield", "await"}
_CALL = re.compile(r"\b(?:t|tn|tp)\(\s*$")
_SECOND_ARGUMENT = re.compile(r"\b(?:tn|tp)\(\s*(?:\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')\s*,\s*$")


def literals(source: str) -> list[tuple[int, str, str]]:
    """``(offset, text, kind)`` of every literal: kind ``str`` (quoted) or ``tpl`` (a text
    part of a template literal)."""
    out: list[tuple[int, str, str]] = []
    i, n = 0, len(source)
    last, word = "", ""
    templates: list[int] = []  # open braces inside each ${...} being read
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
            continue
        if source.startswith("/*", i):
            i = source.index("*/", i) + 2
            continue
        if c in "\"'":
            j, text = i + 1, []
            while source[j] != c:
                step = 2 if source[j] == "\\" else 1
                text.append(source[j : j + step])
                j += step
            out.append((i, "".join(text), "str"))
            i, last = j + 1, c
            continue
        if c == "`" or (c == "}" and templates and templates[-1] == 0):
            if c == "}":
                templates.pop()
            j, text = i + 1, []
            while True:
                if source[j] == "\\":
                    text.append(source[j : j + 2])
                    j += 2
                elif source[j] == "`":
                    end, opened = j + 1, False
                    break
                elif source.startswith("${", j):
                    end, opened = j + 2, True
                    break
                else:
                    text.append(source[j])
                    j += 1
            out.append((i, "".join(text), "tpl"))
            if opened:
                templates.append(0)
            i, last = end, "`"
            continue
        if templates and c == "{":
            templates[-1] += 1
        elif templates and c == "}":
            templates[-1] -= 1
        if c == "/" and (last in _REGEX_AFTER or word in _REGEX_AFTER_WORDS or last == ""):
            j, in_class = i + 1, False
            while True:
                if source[j] == "\\":
                    j += 2
                    continue
                if source[j] == "[":
                    in_class = True
                elif source[j] == "]":
                    in_class = False
                elif source[j] == "/" and not in_class:
                    break
                j += 1
            i = j + 1
            while i < n and source[i].isalpha():
                i += 1
            last, word = "r", ""
            continue
        if c.isalnum() or c in "_$":
            match = re.match(r"[\w$]+", source[i:])
            word = match.group(0)
            i += len(word)
            last = "w"
            continue
        if not c.isspace():
            last, word = c, ""
        i += 1
    return out


def translated(source: str, offset: int) -> bool:
    """Whether the literal at ``offset`` is a message id of ``t()``, ``tn()`` or ``tp()``."""
    before = source[:offset]
    return bool(_CALL.search(before) or _SECOND_ARGUMENT.search(before))


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def unescape(text: str) -> str:
    """A literal's text as JavaScript reads it (``"\\u2026"`` is an ellipsis).

    >>> unescape(r"Dealing\\u2026 \\"now\\" \\u{1F0A1}")
    'Dealing… "now" 🂡'
    """

    def one(match: re.Match) -> str:
        escape = match.group(1)
        if escape.startswith("u{"):
            return chr(int(escape[2:-1], 16))
        if escape[0] in "ux" and len(escape) > 1:
            return chr(int(escape[1:], 16))
        return _ESCAPES.get(escape, escape)

    return re.sub(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)", one, text, flags=re.S)
