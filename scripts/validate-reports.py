#!/usr/bin/env python3
"""Validates lift reports (JSON Lines or JSON files) against the contract's
JSON Schema (draft 2020-12, with format checking), so that every report the
project emits is checked by the real validator, not by a hand-written copy.

Usage: validate-reports.py SCHEMA FILE...   (a FILE of '-' reads stdin)
Prints one line per invalid report and a total; exit 1 if any is invalid.
"""
import json
import sys

from jsonschema import Draft202012Validator, FormatChecker

schema = json.load(open(sys.argv[1]))
validator = Draft202012Validator(schema, format_checker=FormatChecker())
checked = invalid = 0
for path in sys.argv[2:]:
    stream = sys.stdin if path == "-" else open(path)
    text = stream.read()
    docs = [text] if path.endswith(".json") else [l for l in text.splitlines() if l.strip()]
    for n, doc in enumerate(docs, 1):
        checked += 1
        errors = list(validator.iter_errors(json.loads(doc)))
        if errors:
            invalid += 1
            print(f"{path}:{n}: {errors[0].message} at {list(errors[0].absolute_path)}")
print(f"validate-reports: {checked} reports, {invalid} invalid")
sys.exit(1 if invalid else 0)
