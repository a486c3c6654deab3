#!/usr/bin/env python3
"""The cases of syntax_engine_links.tsv: made here, passed through GS1's Syntax
Engine by gs1_syntax_engine_links.c, then through the service. regenerate.sh
runs the whole chain; this script makes the cases and sorts them out:

  reference_cases.py generate --seed N --count N > cases.tsv
      Seeded random Digital Link cases, one a line: <stem> TAB <AI data in the
      Syntax Engine's bracketed syntax>. Each has a primary key, perhaps key
      qualifiers, and at least two data attributes, mixing AIs of a pre-defined
      length (11, 17, 3103, 410, ...) with others (3922, 4300, 7003, 8008, ...),
      in shuffled order, qualifiers among them. Every case is meant to be valid
      under the GS1 Barcode Syntax Dictionary (formats, linters, requires and
      excludes), so a refusal by either tool is a finding, not noise.

  reference_cases.py keep-same-ais --ours FILE --theirs FILE < cases.tsv
      Writes the cases whose every AI has the same entry (flags, format,
      linters, attributes; the title aside) in both Syntax Dictionary files:
      ours, the release the service is tested with, and theirs, the one the
      Syntax Engine loads. The others go to standard error.

  reference_cases.py keep-accepted --codepayload BIN --baseline FILE --rules-dir DIR < links.tsv
      Runs every line the Syntax Engine answered (<AI data> TAB <stem> TAB <URI>)
      through `codepayload generate` and writes the lines the service accepts;
      the ones it refuses go to standard error with its errors.
"""

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile

CSET82 = "!\"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"

STEMS = [
    "https://id.gs1.org",
    "https://example.com",
    "https://id.example.com/",
    "http://example.org/a/b",
    "https://Example.COM:8443/dl/",
    "https://brand.example/x/y/z",
]

ISO3166 = ["036", "076", "124", "156", "250", "276", "380", "392", "528", "724", "752", "826", "840"]
ISO3166_ALPHA2 = ["AU", "BR", "CA", "CN", "DE", "ES", "FR", "GB", "IT", "JP", "NL", "SE", "US"]


class Values:
    """Random values of the dictionary's formats."""

    def __init__(self, rng):
        self.r = rng

    def digits(self, n):
        return "".join(self.r.choice("0123456789") for _ in range(n))

    def some_digits(self, lo, hi):
        return self.digits(self.r.randint(lo, hi))

    @staticmethod
    def check_digit(body):
        total = sum(int(c) * (3 if i % 2 == 0 else 1) for i, c in enumerate(reversed(body)))
        return body + str((10 - total % 10) % 10)

    def key(self, n):
        """n digits, the last a GS1 check digit."""
        return self.check_digit(self.digits(n - 1))

    def cset82(self, lo, hi, alphabet=CSET82):
        return "".join(self.r.choice(alphabet) for _ in range(self.r.randint(lo, hi)))

    def pcenc(self, lo, hi):
        """CSET 82 where every % starts a valid percent-encoded byte."""
        text = self.cset82(lo, hi, CSET82.replace("%", ""))
        encoded = self.r.choice(["%20", "%2F", "%C3%A9", "%25"])
        if len(text) + len(encoded) <= hi and self.r.random() < 0.3:
            at = self.r.randint(0, len(text))
            text = text[:at] + encoded + text[at:]
        return text

    def yymmd0(self):
        return "%02d%02d%02d" % (self.r.randint(0, 99), self.r.randint(1, 12), self.r.randint(0, 28))

    def yymmdd(self):
        return "%02d%02d%02d" % (self.r.randint(0, 99), self.r.randint(1, 12), self.r.randint(1, 28))

    def hhmi(self):
        return "%02d%02d" % (self.r.randint(0, 23), self.r.randint(0, 59))

    def country(self):
        return self.r.choice(ISO3166)


def measure(v, prefix):
    """A measure AI of family `prefix` (e.g. "310"): one decimal-point digit, N6."""
    return (prefix + str(v.r.randint(0, 5)), v.digits(6))


def gtin_case(v):
    r = v.r
    qualifiers = []
    if r.random() < 0.2:
        qualifiers.append(("235", v.cset82(1, 28)))
    else:
        for ai in ("22", "10", "21"):
            if r.random() < 0.5:
                qualifiers.append((ai, v.cset82(1, 20)))
    present = {ai for ai, _ in qualifiers}
    fixed = [
        lambda: ("11", v.yymmd0()), lambda: ("13", v.yymmd0()), lambda: ("15", v.yymmd0()),
        lambda: ("16", v.yymmd0()), lambda: ("17", v.yymmd0()), lambda: ("20", v.digits(2)),
        lambda: measure(v, "310"), lambda: measure(v, "311"), lambda: measure(v, "312"),
        lambda: measure(v, "313"), lambda: measure(v, "315"), lambda: measure(v, "320"),
        lambda: measure(v, "330"), lambda: measure(v, "337"),
        lambda: ("410", v.key(13)), lambda: ("412", v.key(13)), lambda: ("416", v.key(13)),
    ]
    variable = [
        lambda: ("240", v.cset82(1, 30)), lambda: ("241", v.cset82(1, 30)), lambda: ("242", v.some_digits(1, 6)),
        lambda: ("243", v.cset82(1, 20)), lambda: ("30", v.some_digits(1, 8)),
        lambda: ("422", v.country()), lambda: ("423", "".join(v.country() for _ in range(r.randint(1, 5)))),
        lambda: ("424", v.country()), lambda: ("425", "".join(v.country() for _ in range(r.randint(1, 3)))),
        lambda: ("7001", v.digits(13)), lambda: ("7002", v.cset82(1, 30)), lambda: ("7003", v.yymmdd() + v.hhmi()),
        lambda: ("7005", v.cset82(1, 12)), lambda: ("7006", v.yymmdd()),
        lambda: ("7007", v.yymmdd() + (v.yymmdd() if r.random() < 0.5 else "")),
        lambda: ("7008", v.cset82(1, 3)), lambda: ("7009", v.cset82(1, 10)), lambda: ("7010", v.cset82(1, 2)),
        lambda: ("7011", v.yymmdd() + (v.hhmi() if r.random() < 0.5 else "")),
        lambda: ("703" + str(r.randint(0, 9)), r.choice(ISO3166 + ["999"]) + v.cset82(1, 27)),
        lambda: ("71" + str(r.randint(0, 7)), v.cset82(1, 20)),
        lambda: ("8001", "%04d%05d%03d%s%s" % (r.randint(1, 9999), r.randint(1, 99999), r.randint(1, 999),
                                               r.choice("019"), r.choice("0123456789"))),
        lambda: ("8005", v.digits(6)),
        lambda: ("8008", v.yymmdd() + "%02d" % r.randint(0, 23) + r.choice(["", "%02d" % r.randint(0, 59),
                                                                           "%02d%02d" % (r.randint(0, 59), r.randint(0, 59))])),
        lambda: ("8009", v.cset82(1, 50)), lambda: ("8012", v.cset82(1, 20)), lambda: ("251", v.cset82(1, 30)),
        lambda: ("90", v.cset82(1, 30)), lambda: ("9" + str(r.randint(1, 9)), v.cset82(1, 40)),
    ]
    if "21" in present:
        variable.append(lambda: ("250", v.cset82(1, 30)))
    if "10" in present:
        variable.append(lambda: ("7004", v.some_digits(1, 4)))
    attributes = pick_attributes(r, fixed, variable, present)
    present |= {ai for ai, _ in attributes}
    # The AIs some others require, added once what they need is there.
    if "422" in present and r.random() < 0.5:
        attributes.append(("427", v.cset82(1, 3, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")))
    if any(ai == "30" or ai[:2] in ("31", "32", "35", "36") for ai in present) and r.random() < 0.6:
        attributes.append(("392" + str(r.randint(0, 9)), v.some_digits(1, 15)))
    return ("01", v.key(14)), qualifiers, attributes


def sscc_case(v):
    r = v.r
    fixed = [
        lambda: measure(v, "330"), lambda: measure(v, "331"), lambda: measure(v, "340"),
        lambda: ("410", v.key(13)), lambda: ("411", v.key(13)), lambda: ("413", v.key(13)),
    ]
    variable = [
        lambda: ("400", v.cset82(1, 30)), lambda: ("403", v.cset82(1, 30)), lambda: ("420", v.cset82(1, 20)),
        lambda: ("4300", v.pcenc(1, 35)), lambda: ("4301", v.pcenc(1, 35)), lambda: ("4302", v.pcenc(1, 40)),
        lambda: ("4304", v.pcenc(1, 40)), lambda: ("4305", v.pcenc(1, 40)), lambda: ("4306", v.pcenc(1, 40)),
        lambda: ("4307", r.choice(ISO3166_ALPHA2)), lambda: ("4308", v.cset82(1, 30)),
        lambda: ("4309", "%010d%010d" % (r.randint(0, 1800000000), r.randint(0, 3600000000))),
        lambda: ("4310", v.pcenc(1, 35)), lambda: ("4312", v.pcenc(1, 40)), lambda: ("4317", r.choice(ISO3166_ALPHA2)),
        lambda: ("4318", v.cset82(1, 20)), lambda: ("4320", v.pcenc(1, 35)),
        lambda: ("432" + str(r.randint(1, 3)), r.choice("01")),
        lambda: ("4324", v.yymmd0() + v.hhmi()), lambda: ("4325", v.yymmd0() + v.hhmi()),
        lambda: ("4326", v.yymmdd()),
        lambda: (r.choice(["4330", "4331"]), v.digits(6) + r.choice(["", "-"])),
        lambda: (r.choice(["4332", "4333"]), v.digits(6) + r.choice(["", "-"])),
        lambda: ("8009", v.cset82(1, 50)), lambda: ("9" + str(r.randint(1, 9)), v.cset82(1, 40)),
    ]
    attributes = pick_attributes(r, fixed, variable, set())
    present = {ai for ai, _ in attributes}
    if r.random() < 0.25:
        # 02 needs 37, and 37 needs 02 beside the SSCC.
        attributes += [("02", v.key(14)), ("37", v.some_digits(1, 8))]
    if "4302" in present and r.random() < 0.5:
        attributes.append(("4303", v.pcenc(1, 40)))
    if "4312" in present and r.random() < 0.5:
        attributes.append(("4313", v.pcenc(1, 40)))
    return ("00", v.key(18)), [], attributes


def gln_case(v):
    r = v.r
    qualifiers = [("254", v.cset82(1, 20))] if r.random() < 0.5 else []
    fixed = [lambda ai=ai: (ai, v.key(13)) for ai in ("410", "411", "412", "413", "416")]
    variable = [
        lambda: ("400", v.cset82(1, 30)), lambda: ("420", v.cset82(1, 20)), lambda: ("8002", v.cset82(1, 20)),
        lambda: ("7023", v.digits(4) + v.cset82(0, 26)), lambda: ("90", v.cset82(1, 30)),
        lambda: ("9" + str(r.randint(1, 9)), v.cset82(1, 40)),
    ]
    return ("414", v.key(13)), qualifiers, pick_attributes(r, fixed, variable, set())


def itip_case(v):
    r = v.r
    # 8006's qualifier sequence names 22, but 22 requires 01, which excludes
    # 8006: both tools refuse 22 here.
    qualifiers = [(ai, v.cset82(1, 20)) for ai in ("10", "21") if r.random() < 0.5]
    present = {ai for ai, _ in qualifiers}
    fixed = [
        lambda: ("11", v.yymmd0()), lambda: ("13", v.yymmd0()), lambda: ("15", v.yymmd0()),
        lambda: ("16", v.yymmd0()), lambda: ("17", v.yymmd0()), lambda: ("20", v.digits(2)),
    ]
    variable = [
        lambda: ("240", v.cset82(1, 30)), lambda: ("241", v.cset82(1, 30)), lambda: ("242", v.some_digits(1, 6)),
        lambda: ("251", v.cset82(1, 30)), lambda: ("422", v.country()), lambda: ("7001", v.digits(13)),
        lambda: ("7240", v.cset82(1, 20)), lambda: ("8012", v.cset82(1, 20)),
        lambda: ("9" + str(r.randint(1, 9)), v.cset82(1, 40)),
    ]
    if "21" in present:
        variable.append(lambda: ("250", v.cset82(1, 30)))
    attributes = pick_attributes(r, fixed, variable, present)
    if r.random() < 0.3:
        attributes.append(("7021", v.cset82(1, 20)))
        if r.random() < 0.5:
            attributes.append(("7022", v.cset82(1, 20)))
    total = r.randint(1, 99)
    return ("8006", v.key(14) + "%02d%02d" % (r.randint(1, total), total)), qualifiers, attributes


def gcn_case(v):
    r = v.r
    attributes = [("17", v.yymmd0())]
    choice = r.randint(0, 2)
    if choice == 0:
        attributes.append(("390" + str(r.randint(0, 9)), v.some_digits(1, 15)))
    elif choice == 1:
        attributes.append(("394" + str(r.randint(0, 3)), v.digits(4)))
    else:
        attributes.append(("8111", v.digits(4)))
    if r.random() < 0.5:
        attributes.append(("9" + str(r.randint(1, 9)), v.cset82(1, 40)))
    return ("255", v.key(13) + v.some_digits(0, 12)), [], attributes


def pick_attributes(r, fixed, variable, present):
    """Two to six distinct data attributes, at least one of each length kind
    most of the time. The measure AIs of one family (3102, 3103) exclude each
    other, and so do 4330 and 4331, 4332 and 4333: one of each is taken."""
    count = r.randint(2, 6)
    both = r.random() < 0.85
    chosen, families = [], set()
    tries = 0
    while len(chosen) < count and tries < 100:
        tries += 1
        if both and len(chosen) == 0:
            make = r.choice(fixed)
        elif both and len(chosen) == 1:
            make = r.choice(variable)
        else:
            make = r.choice(fixed + variable)
        ai, value = make()
        family = ai[:3] if len(ai) == 4 and ai[:2] in ("31", "32", "33", "34", "35", "36", "39") else ai
        if family in families or ai in present or ai in ("4330", "4331") and families & {"4330", "4331"} \
                or ai in ("4332", "4333") and families & {"4332", "4333"}:
            continue
        families.add(family)
        chosen.append((ai, value))
    return chosen


def bracketed(ais):
    return "".join("(%s)%s" % (ai, value.replace("(", "\\(")) for ai, value in ais)


def parse_bracketed(text):
    """The (AI, value) pairs of the Syntax Engine's bracketed syntax."""
    pairs = re.findall(r"\((\d+)\)((?:\\\(|[^(])*)", text)
    if bracketed([(ai, value.replace("\\(", "(")) for ai, value in pairs]) != text:
        raise ValueError("not bracketed AI data: " + text)
    return [(ai, value.replace("\\(", "(")) for ai, value in pairs]


def generate(args):
    rng = random.Random(args.seed)
    v = Values(rng)
    makers = [gtin_case] * 11 + [sscc_case] * 3 + [gln_case] * 2 + [itip_case] * 2 + [gcn_case] * 2
    for _ in range(args.count):
        primary, qualifiers, attributes = rng.choice(makers)(v)
        rest = qualifiers + attributes
        rng.shuffle(rest)
        print("%s\t%s" % (rng.choice(STEMS), bracketed([primary] + rest)))


def dictionary_entries(path):
    """AI -> its entry in a GS1 Barcode Syntax Dictionary file, ranges
    ("3100-3105") expanded, the title and spacing left out."""
    entries = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            fields = line.split("#", 1)[0].split()
            if not fields:
                continue
            first, _, last = fields[0].partition("-")
            for ai in range(int(first), int(last or first) + 1):
                entries[str(ai).zfill(len(first))] = " ".join(fields[1:])
    return entries


def keep_same_ais(args):
    ours, theirs = dictionary_entries(args.ours), dictionary_entries(args.theirs)
    for line in sys.stdin:
        stem, ai_data = line.rstrip("\n").split("\t")
        differing = [ai for ai, _ in parse_bracketed(ai_data) if ai not in ours or ours.get(ai) != theirs.get(ai)]
        if differing:
            print("AI %s differs between the dictionaries\t%s" % (",".join(differing), line.rstrip("\n")),
                  file=sys.stderr)
        else:
            sys.stdout.write(line)


def keep_accepted(args):
    lines = [line.rstrip("\n") for line in sys.stdin if line.strip()]
    codes = []
    for n, line in enumerate(lines):
        ai_data, stem, _ = line.split("\t")
        ais = parse_bracketed(ai_data)
        codes.append({
            "reference": str(n),
            "digitalLinkStem": stem,
            "primaryKey": {"key": ais[0][0], "value": ais[0][1]},
            "ais": [{"key": ai, "value": value} for ai, value in ais[1:]],
            "extensionParameters": [],
        })
    with tempfile.NamedTemporaryFile("w", suffix=".json") as request:
        json.dump({"codes": codes}, request)
        request.flush()
        answer = subprocess.run([args.codepayload, "generate", request.name, "--baseline", args.baseline,
                                 "--rules-dir", args.rules_dir, "--allow-failures"],
                                check=True, capture_output=True, text=True)
    response = json.loads(answer.stdout)
    refused = {failure["reference"]: failure["errors"] for failure in response["failures"]}
    for n, line in enumerate(lines):
        if str(n) in refused:
            print("refused by the service\t%s\t%s" % (line, json.dumps(refused[str(n)])), file=sys.stderr)
        else:
            print(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    g = commands.add_parser("generate")
    g.add_argument("--seed", type=int, required=True)
    g.add_argument("--count", type=int, required=True)
    d = commands.add_parser("keep-same-ais")
    d.add_argument("--ours", required=True)
    d.add_argument("--theirs", required=True)
    k = commands.add_parser("keep-accepted")
    k.add_argument("--codepayload", required=True)
    k.add_argument("--baseline", required=True)
    k.add_argument("--rules-dir", required=True)
    args = parser.parse_args()
    {"generate": generate, "keep-same-ais": keep_same_ais, "keep-accepted": keep_accepted}[args.command](args)


if __name__ == "__main__":
    main()
