#!/usr/bin/env python3
"""Drives examples/python/client.py's CodePayloadClient for tests/examples/examples_test.sh.

One command a line on stdin, its transcript on stdout, ended by a line ".":
  post FILE      post the batch in FILE; the client's lines, then its codes and failures or "error: ..."
  advance N      move the client's clock N seconds on (the token's lifetime is counted on it)
The client's log lines are printed as "log: ...". Usage: client_driver.py EXAMPLES_DIR URL CA CLIENT_ID
(the secret in $CLIENT_SECRET).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(sys.argv[1], "python"))
import client  # noqa: E402  (examples/python/client.py)

now = [1000.0]
codepayload = client.CodePayloadClient(sys.argv[2], sys.argv[4], os.environ["CLIENT_SECRET"], sys.argv[3],
                                       clock=lambda: now[0], log=lambda line: print("log: " + line))
for command in sys.stdin:
    verb, argument = command.split()
    if verb == "post":
        with open(argument, encoding="utf-8") as file:
            batch = json.load(file)
        try:
            client.print_response(codepayload.post_codes(batch))
        except client.ServiceError as error:
            print(f"error: {error}")
    elif verb == "advance":
        now[0] += float(argument)
    else:
        sys.exit(f"client_driver.py: unknown command {verb}")
    print(".", flush=True)
