"""No credential, token or hash in the logs of the HTTP tests.

The service and robustness tests record every exchange (RECORDED_RESPONSES_DIR/*.jsonl: request
headers, small request bodies, responses) and, when each server ends, its logs
(RECORDED_RESPONSES_DIR/*.logs: the service log and access log of each in-process service, the
stdout and stderr of each server process). This scan gathers every secret those exchanges carried:
the secret of each HTTP Basic credential (right or wrong), each bearer token sent, each access token
issued, each client_secret sent in a form; and looks for each of them, and for anything shaped like
a JWT, an Argon2 hash or an Authorization value, in every recorded log.

usage: log_secret_scan.py RESPONSES_DIR
"""

import base64
import binascii
import glob
import json
import os
import re
import sys
import urllib.parse

# Shorter strings are test placeholders ("x", "wrong") that can occur in any text by chance.
MIN_SECRET_LENGTH = 8
SHAPES = {
    "a JWT": re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    "an Argon2 hash": re.compile(r"\$argon2(id|i|d)\$"),
    "an Authorization value": re.compile(r"\b(Basic|Bearer) [A-Za-z0-9+/=._~-]{16,}"),
}


def secrets_of(exchange):
    found = set()
    for name, value in exchange.get("requestHeaders", {}).items():
        if name.lower() != "authorization":
            continue
        scheme, _, credentials = value.partition(" ")
        if scheme.lower() == "basic":
            found.add(credentials)
            try:
                decoded = base64.b64decode(credentials, validate=True).decode("utf-8", "replace")
            except (binascii.Error, ValueError):
                continue
            found.add(decoded.partition(":")[2])
        elif scheme.lower() == "bearer":
            found.add(credentials)
    for field, value in urllib.parse.parse_qsl(exchange.get("requestBody", ""), keep_blank_values=True):
        if field in ("client_secret", "password"):
            found.add(value)
    # The dashboard's: passwords and codes in JSON bodies, a new client's
    # secret, TOTP secrets, recovery codes, session cookies and CSRF tokens.
    for text in (exchange.get("requestBody", ""), exchange.get("body", "")):
        try:
            value = json.loads(text)
        except ValueError:
            continue
        if isinstance(value, dict):
            for field in ("password", "code", "secret", "csrfToken"):
                if isinstance(value.get(field), str):
                    found.add(value[field])
            for code in value.get("recoveryCodes", []) if isinstance(value.get("recoveryCodes"), list) else []:
                found.add(code)
    for name, value in exchange.get("headers", {}).items():
        if name.lower() == "set-cookie" and "=" in value:
            found.add(value.partition("=")[2].partition(";")[0])
    if exchange.get("status") == 200 and '"access_token"' in exchange.get("body", ""):
        try:
            found.add(json.loads(exchange["body"])["access_token"])
        except (ValueError, KeyError):
            pass
    return {secret for secret in found if len(secret) >= MIN_SECRET_LENGTH}


def main():
    directory = sys.argv[1]
    secrets = set()
    exchanges = 0
    for record_file in sorted(glob.glob(os.path.join(directory, "*.jsonl"))):
        for line in open(record_file, encoding="utf-8", errors="surrogateescape"):
            exchanges += 1
            secrets |= secrets_of(json.loads(line))
    log_files = sorted(glob.glob(os.path.join(directory, "*.logs")))
    problems = []
    if not exchanges or not log_files:
        problems.append(f"nothing recorded in {directory} (the HTTP tests run first: ctest fixture "
                        "codepayload_recorded_responses)")
    servers = 0
    log_bytes = 0
    for log_file in log_files:
        text = open(log_file, encoding="utf-8", errors="replace").read()
        servers += text.count("\n==== ") + text.startswith("==== ")
        log_bytes += len(text)
        name = os.path.basename(log_file)
        for secret in secrets:
            if secret in text:
                problems.append(f"{name}: a secret the tests sent or received is in the logs: {secret[:6]}...")
        for what, shape in SHAPES.items():
            match = shape.search(text)
            if match:
                problems.append(f"{name}: {what} is in the logs: {match.group(0)[:12]}...")
    print(f"log secret scan: {len(secrets)} secrets and tokens from {exchanges} recorded exchanges, looked for in "
          f"the logs of {servers} servers ({log_bytes} bytes, {len(log_files)} files)")
    for problem in problems:
        print("FAILED: " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
