"""Strict JSON decoding, shared by records (RULES.md section 8) and views (PROTOCOL.md).

Stricter than :func:`json.loads`, so that a record or a view means one thing
to every implementation: ``NaN`` and ``Infinity`` are refused (they are not
JSON), and so are duplicate keys (which value wins differs between decoders).

>>> decode_json('{"a": [1, 2]}')
{'a': [1, 2]}
>>> decode_json('{"a": 1, "a": 2}')
Traceback (most recent call last):
...
matador.core.errors.RecordError: record: not valid JSON (duplicate key 'a' in an object)
"""

from __future__ import annotations

import json
import sys
from typing import Any

from matador.core.errors import RecordError, quote


class _NotJson(ValueError):
    """Text that Python's decoder would accept but RFC 8259 JSON does not."""


def _reject_constant(name: str) -> Any:
    raise _NotJson(f"{name} is not a JSON value")


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _NotJson(f"duplicate key {quote(key)} in an object")
        out[key] = value
    return out


def decode_json(data: str | bytes) -> Any:
    """Decode UTF-8 JSON strictly, raising :class:`RecordError` at ``record``.

    Stricter than :func:`json.loads`, so that a record means one thing to
    every implementation: ``NaN`` and ``Infinity`` are refused (they are not
    JSON), and so are duplicate keys (which value wins differs between
    decoders). A leading byte order mark is ignored.
    """
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise RecordError("record", f"not valid JSON (not UTF-8: {e})") from None
    else:
        text = data.removeprefix("\ufeff")
    try:
        return json.loads(text, parse_constant=_reject_constant,
                          object_pairs_hook=_no_duplicate_keys)
    except RecursionError:
        raise RecordError("record", "not valid JSON (nested too deeply)") from None
    except ValueError as e:  # JSONDecodeError, _NotJson, an integer with too many digits
        why = str(e)
        if "integer string conversion" in why:  # Python's limit, sys.get_int_max_str_digits()
            why = f"a number of more than {sys.get_int_max_str_digits()} digits"
        raise RecordError("record", f"not valid JSON ({why})") from None


__all__ = ["decode_json"]
