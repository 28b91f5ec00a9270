#!/usr/bin/env python3
"""csv2jsonl.py SCHEMA.srem EVENTS.csv: the events of a CSV stream as JSON
Lines for `--input jsonl`, written independently of the runtime (Python's
csv and json modules), so that a program must print the same records for
both. The attribute types come from the .srem file's schema: int and
timestamp values become JSON integers, floats JSON numbers, bools true or
false, enum and string values strings; a value that does not convert stays a string,
so that the line is rejected by both readers with the same message. The
header line becomes a blank line, which the JSONL reader skips and counts:
line numbers, and so the error records, stay those of the CSV run. Keys
come in reverse header order, with an extra key, to show that order and
unknown keys do not matter."""
import csv
import json
import re
import sys


def schema_types(path):
    text = open(path, encoding="utf-8").read()
    body = re.search(r"schema\s+\w+\s*\{(.*?)\}\s*(?:pattern|episode|explore|$)", text, re.S)
    types = {}
    for name, ty in re.findall(r"(\w+)\s*:\s*(enum|int|float|bool|timestamp|string)", body.group(1)):
        types[name] = ty
    return types


def convert(ty, text):
    value = text.strip(" \t")
    try:
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
    types = schema_types(sys.argv[1])
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
                    obj[name] = convert(types[name], text)
            out.append(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
