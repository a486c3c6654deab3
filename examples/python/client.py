#!/usr/bin/env python3
"""A small client of the codepayload service, on the Python standard library only.

It gets a token with the client credentials grant (HTTP Basic), keeps it for
its lifetime and renews it shortly before it expires (30 s, or a tenth of the
lifetime when that is shorter); on a 401 it gets a new token and tries once
more; on a 429 it waits the Retry-After seconds and tries once more. This is
what the interface specification's Authentication 5 asks of a caller.

    CLIENT_SECRET=... python3 client.py --url https://localhost:8443 \\
        --ca data/dev-tls-cert.pem --client-id svc_client_... batch.json

prints one line per code and per failure on stdout, what it does with tokens
on stderr; exit status 0 when the batch was handled (even with failures),
1 when the service refused it, 2 on a usage error.
"""

import argparse
import base64
import json
import os
import ssl
import sys
import time
import urllib.error
import urllib.request

MEDIA_TYPE = "application/vnd.codepayload.public.v1+json"
LONGEST_RETRY_AFTER = 60  # seconds; a longer wait is reported instead


class ServiceError(Exception):
    """An answer other than 200, after the one retry."""

    def __init__(self, path, status, body, retry_after=None):
        self.path, self.status, self.body, self.retry_after = path, status, body, retry_after
        text = f"{path}: HTTP {status}: {body.decode('utf-8', 'replace')}"
        if retry_after is not None:
            text += f" (Retry-After: {retry_after} s)"
        super().__init__(text)


class CodePayloadClient:
    def __init__(self, base_url, client_id, client_secret, ca_file,
                 clock=time.monotonic, sleep=time.sleep, log=None):
        self._base_url = base_url.rstrip("/")
        basic = base64.b64encode(f"{client_id}:{client_secret}".encode()).decode()
        self._basic = "Basic " + basic
        self._tls = ssl.create_default_context(cafile=ca_file)
        self._clock, self._sleep = clock, sleep
        self._log = log or (lambda line: print(line, file=sys.stderr))
        self._token = None
        self._renew_at = 0.0

    def post_codes(self, batch):
        """POST the CodesRequest `batch` (a dict); returns the CodesResponse as a dict."""
        body = json.dumps(batch).encode()
        renewed = False
        waited = False
        while True:
            headers = {"Authorization": "Bearer " + self._access_token(),
                       "Content-Type": MEDIA_TYPE, "Accept": MEDIA_TYPE}
            status, answer_headers, answer = self._post("/codes", body, headers)
            if status == 200:
                return json.loads(answer)
            if status == 401 and not renewed:
                self._log("POST /codes: 401, getting a new token and trying once more")
                self._token = None
                renewed = True
                continue
            if status == 429 and not waited and self._wait_retry_after("POST /codes", answer_headers):
                waited = True
                continue
            raise ServiceError("POST /codes", status, answer, answer_headers.get("Retry-After"))

    def _access_token(self):
        if self._token is not None and self._clock() < self._renew_at:
            return self._token
        body = b"grant_type=client_credentials"
        headers = {"Authorization": self._basic, "Content-Type": "application/x-www-form-urlencoded"}
        status, answer_headers, answer = self._post("/oauth/token", body, headers)
        if status == 429 and self._wait_retry_after("POST /oauth/token", answer_headers):
            status, answer_headers, answer = self._post("/oauth/token", body, headers)
        if status != 200:
            raise ServiceError("POST /oauth/token", status, answer, answer_headers.get("Retry-After"))
        token = json.loads(answer)
        lifetime = int(token["expires_in"])
        margin = min(30, lifetime / 10)
        self._log(f"token: {'renewed' if self._token else 'new'}, expires in {lifetime} s, "
                  f"renewed {margin:g} s before")
        self._token = token["access_token"]
        self._renew_at = self._clock() + lifetime - margin
        return self._token

    # True when the answer says how long to wait and it is short enough: then it has waited.
    def _wait_retry_after(self, what, headers):
        value = headers.get("Retry-After", "")
        if not value.isdigit() or int(value) > LONGEST_RETRY_AFTER:
            return False
        self._log(f"{what}: 429, trying once more in {value} s")
        self._sleep(int(value))
        return True

    def _post(self, path, body, headers):
        request = urllib.request.Request(self._base_url + path, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, context=self._tls, timeout=60) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            with error:
                return error.code, error.headers, error.read()


def print_response(response):
    for code in response["codes"]:
        print(f"code {code['reference']}: {code['barcodeText']}  HRI {code['hri']}")
    for failure in response["failures"]:
        for error in failure["errors"]:
            print(f"failure {failure['reference']}: {error['code']} at {error['path']} "
                  f"args {json.dumps(error['args'], ensure_ascii=False)}")


def main():
    parser = argparse.ArgumentParser(description="Send a batch to POST /codes (secret in $CLIENT_SECRET).")
    parser.add_argument("--url", required=True, help="e.g. https://localhost:8443")
    parser.add_argument("--ca", required=True, help="the CA file to trust, e.g. data/dev-tls-cert.pem")
    parser.add_argument("--client-id", required=True)
    parser.add_argument("batch", help="a CodesRequest JSON file")
    arguments = parser.parse_args()
    secret = os.environ.get("CLIENT_SECRET")
    if not secret:
        parser.error("set CLIENT_SECRET to the client secret")
    with open(arguments.batch, encoding="utf-8") as file:
        batch = json.load(file)
    client = CodePayloadClient(arguments.url, arguments.client_id, secret, arguments.ca)
    try:
        print_response(client.post_codes(batch))
    except ServiceError as error:
        print(f"client.py: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
