#!/usr/bin/env python3
"""csv2jsonl.py SCHEMA.srem EVENTS.csv: the events of a CSV stream as JSON
Lines for `--input jsonl`, written independently of the runtime (Python's
csv and json modules), so that a program must print the same records for
both. The attribute types come from the .srem file's schema: int and
timestamp values become JSON integers, floats JSON numbers, bools true or
false, enum and string values strings, an ISO-8601 timestamp the integer of
its instant in the schema's unit (Python's datetime; JSONL takes integers
only); a value that does not convert stays a string,
so that the line is rejected by both readers with the same message. The
header line becomes a blank line, which the JSONL reader skips and counts:
line numbers, and so the error records, stay those of the CSV run. Keys
come in reverse header order, with an extra key, to show that order and
unknown keys do not matter."""
import csv
import datetime
import json
import re
import sys


def schema_types(path):
    text = open(path, encoding="utf-8").read()
    # the schema's braces, then (comment lines allowed) the next declaration
    body = re.search(r"schema\s+\w+\s*\{(.*?)\}\s*(?:#[^\n]*\n\s*)*(?:pattern|episode|explore|$)", text, re.S)
    types = {}
    for name, ty in re.findall(r"(\w+)\s*:\s*(enum|int|float|bool|timestamp|string)", body.group(1)):
        types[name] = ty
    unit = re.search(r"timestamp\s*\(\s*(\w+)\s*\)", body.group(1))
    return types, unit.group(1) if unit else "s"


# Microseconds per unit (datetime's resolution: finer units are not converted).
UNIT_US = {"us": 1, "ms": 1000, "s": 10**6, "sec": 10**6, "min": 60 * 10**6, "h": 3600 * 10**6}
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def iso_units(value, unit):
    """An ISO-8601 instant with a zone as an integer of unit, or None."""
    if unit not in UNIT_US or not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?(Z|[+-]\d\d:\d\d)", value):
        return None
    try:
        t = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    d = t - EPOCH
    us = (d.days * 86400 + d.seconds) * 10**6 + d.microseconds
    return us // UNIT_US[unit] if us % UNIT_US[unit] == 0 else None


def convert(ty, text, unit):
    value = text.strip(" \t")
    try:
        if ty == "timestamp" and iso_units(value, unit) is not None:
            return iso_units(value, unit)
        if ty in ("int", "timestamp"):
            return int(value) if re.fullmatch(r"[+-]?\d+", value) else value
        if ty == "float":
            return float(value) if re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", value) else value
        if ty == "bool":
            low = value.lower()
            return True if low in ("true", "1") else False if low in ("false", "0") else value
    except ValueError:
        pass
    return value


def main():
    types, unit = schema_types(sys.argv[1])
    with open(sys.argv[2], newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        header = [h.strip(" \t") for h in next(rows)]
        out = ["\n"]
        for row in rows:
            if not row or (len(row) == 1 and not row[0].strip(" \t")):
                out.append("\n")
                continue
            obj = {"_extra": {"nested": [1, 2.5, None]}}
            for name, text in reversed(list(zip(header, row))):
                if name in types:
                    obj[name] = convert(types[name], text, unit)
            out.append(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
