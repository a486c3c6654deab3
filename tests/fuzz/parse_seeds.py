#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_parse from the parse cases: the data of every
payload of tests/cases/parse/*.json, one file each, named
case-<file>-<case name>[-<item>] (the item number only when a case has more
than one payload), into tests/fuzz/corpus/fuzz_parse/. Data that an earlier
case already holds is not written twice. Only case-* files are removed and
written: seeds of other names there stay.

    tests/fuzz/parse_seeds.py
"""

import glob
import json
import os

fuzz_dir = os.path.dirname(os.path.abspath(__file__))
cases_dir = os.path.join(fuzz_dir, "..", "cases", "parse")
corpus_dir = os.path.join(fuzz_dir, "corpus", "fuzz_parse")

os.makedirs(corpus_dir, exist_ok=True)
for old in glob.glob(os.path.join(corpus_dir, "case-*")):
    os.remove(old)

seen = set()
for case_file in sorted(glob.glob(os.path.join(cases_dir, "*.json"))):
    stem = os.path.splitext(os.path.basename(case_file))[0]
    for case in json.load(open(case_file, encoding="utf-8")):
        payloads = case["request"]["codes"]
        for index, payload in enumerate(payloads):
            data = payload["data"].encode("utf-8")
            if data in seen:
                continue
            seen.add(data)
            name = f"case-{stem}-{case['name']}" + (f"-{index}" if len(payloads) > 1 else "")
            with open(os.path.join(corpus_dir, name), "wb") as seed:
                seed.write(data)
print(f"{len(seen)} seeds in {os.path.relpath(corpus_dir)}")
