"""Checks docs/openapi.json, and every response the tests see against it.

1. The document: OpenAPI 3.1.0, version 1.0.0, every $ref resolves, every schema is a valid JSON
   Schema 2020-12 schema, every operation has a unique operationId and described responses, and its
   paths and methods are exactly the routes of server/request_router.cpp.
2. A real codepayload-server on a scratch data directory: GET /openapi.json serves the document
   byte for byte, and every request of the tests/cases table, sent to POST /codes (tests/cases/parse
   to POST /codes/parse), gets exactly the table's response, valid against the document.
3. Every exchange the HTTP tests recorded (RECORDED_RESPONSES_DIR, see
   tests/server/support/service_harness.h): its status is documented for its path and method, its
   Content-Type is one the document lists for that status, the headers the document requires are
   there and match, and its body is valid against the schema. A HEAD is checked against the path's
   GET operation (RFC 9110 section 9.3.2) and has no body; the Allow of a 405 on a documented path
   lists the path's operations, HEAD after GET.

usage: openapi_conformance.py SOURCE_DIR SERVER_EXECUTABLE ADMIN_EXECUTABLE RESPONSES_DIR
Needs Debian's python3-jsonschema.
"""

import base64
import glob
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import jsonschema

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


class Conformance:
    def __init__(self, document):
        self.document = document
        self.problems = []
        self.checked = 0
        self.resolver = jsonschema.RefResolver(base_uri="", referrer=document)

    def problem(self, text):
        self.problems.append(text)

    def resolve(self, node):
        while isinstance(node, dict) and "$ref" in node and len(node) == 1:
            node = self.resolver.resolve(node["$ref"])[1]
        return node

    def schema_errors(self, schema, value):
        validator = jsonschema.Draft202012Validator(schema, resolver=self.resolver)
        return sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))

    # 1. The document itself.
    def check_document(self, routes):
        doc = self.document
        if doc.get("openapi") != "3.1.0":
            self.problem(f"openapi is {doc.get('openapi')!r}, not '3.1.0'")
        if doc.get("info", {}).get("version") != "1.0.0":
            self.problem(f"info.version is {doc.get('info', {}).get('version')!r}, not '1.0.0'")

        def walk(node, where):
            if isinstance(node, dict):
                if "$ref" in node:
                    try:
                        self.resolver.resolve(node["$ref"])
                    except jsonschema.RefResolutionError as error:
                        self.problem(f"{where}: $ref {node['$ref']} does not resolve ({error})")
                for key, value in node.items():
                    walk(value, f"{where}/{key}")
            elif isinstance(node, list):
                for index, value in enumerate(node):
                    walk(value, f"{where}/{index}")

        walk(doc, "#")

        schemas = [(f"#/components/schemas/{name}", schema) for name, schema in doc["components"]["schemas"].items()]
        operation_ids = set()
        documented = set()
        for path, item in doc["paths"].items():
            for method, operation in item.items():
                if method not in HTTP_METHODS:
                    continue
                documented.add((path, method.upper()))
                where = f"{method.upper()} {path}"
                operation_id = operation.get("operationId")
                if not operation_id or operation_id in operation_ids:
                    self.problem(f"{where}: operationId {operation_id!r} is missing or not unique")
                operation_ids.add(operation_id)
                if not operation.get("responses"):
                    self.problem(f"{where}: no responses")
                for status, response in operation.get("responses", {}).items():
                    response = self.resolve(response)
                    if not re.fullmatch(r"[1-5][0-9][0-9]", status):
                        self.problem(f"{where} {status}: not a status code")
                    if not response.get("description"):
                        self.problem(f"{where} {status}: no description")
                    for media_type, content in response.get("content", {}).items():
                        if "schema" not in content:
                            self.problem(f"{where} {status} {media_type}: no schema")
                        else:
                            schemas.append((f"{where} {status} {media_type}", content["schema"]))
                    for name, header in response.get("headers", {}).items():
                        schemas.append((f"{where} {status} header {name}", self.resolve(header)["schema"]))
        for where, schema in schemas:
            try:
                jsonschema.Draft202012Validator.check_schema(schema)
            except jsonschema.SchemaError as error:
                self.problem(f"{where}: not a valid JSON Schema: {error.message}")
        if documented != routes:
            self.problem(
                "the document's operations are not the server's routes: only documented "
                f"{sorted(documented - routes)}, only routed {sorted(routes - documented)}"
            )

    # 3. One response against the document.
    def check_response(self, method, target, status, headers, body, origin):
        path = target.split("?", 1)[0]
        where = f"{origin}: {method} {target} -> {status}"
        item = self.document["paths"].get(path)
        # HEAD is GET without the body (RFC 9110 section 9.3.2): a GET operation answers both.
        operation = item.get("get" if method == "HEAD" else method.lower()) if item else None
        if item is not None and status == 405:
            self.check_allow(item, headers.get("allow"), where)
        if item is None:
            response = self.document["components"]["responses"]["NotFound"] if status == 404 else None
        elif operation is None and path == "/oauth/token":
            response = item["post"]["responses"].get(str(status))  # its 405 is the operation's own
        elif operation is None:
            response = self.document["components"]["responses"]["MethodNotAllowed"] if status == 405 else None
        else:
            response = operation["responses"].get(str(status))
        if response is None:
            self.problem(f"{where}: status {status} is not documented here; body {body[:200]!r}")
            return
        response = self.resolve(response)
        self.checked += 1
        for name, header in response.get("headers", {}).items():
            header = self.resolve(header)
            value = headers.get(name.lower())
            if value is None:
                if header.get("required"):
                    self.problem(f"{where}: the required header {name} is absent")
                continue
            for error in self.schema_errors(header["schema"], value):
                self.problem(f"{where}: header {name}: {error.message}")
        content = response.get("content", {})
        media_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if method == "HEAD" and body:
            self.problem(f"{where}: a body in the answer to HEAD")
            return
        if not content:
            if body:
                self.problem(f"{where}: a body where the document has none")
            return
        if media_type not in content:
            self.problem(f"{where}: Content-Type {media_type!r} is not one of {sorted(content)}")
            return
        if method == "HEAD":
            return
        try:
            value = json.loads(body)
        except ValueError as error:
            self.problem(f"{where}: the body is not JSON ({error}): {body[:200]!r}")
            return
        for error in self.schema_errors(content[media_type]["schema"], value):
            location = "/".join(str(part) for part in error.absolute_path)
            self.problem(f"{where}: body at /{location}: {error.message}")


    def check_allow(self, item, allow, where):
        """The Allow of a 405 names the path's operations, with HEAD after GET."""
        expected = []
        for method in HTTP_METHODS:
            if method in item:
                expected.append(method.upper())
                if method == "get":
                    expected.append("HEAD")
        if allow != ", ".join(expected):
            self.problem(f"{where}: Allow is {allow!r}, not {', '.join(expected)!r} (the path's operations)")


# The dashboard's pages and JSON endpoints are the pages' private interface,
# not the public API: the document leaves them out (docs/decisions.md D-D20).
DASHBOARD_PREFIX = "/dashboard/"


def router_routes(source_dir):
    """(path, METHOD) of every route("path", "method", ...) in the router; "" is the token endpoint's POST."""
    text = open(os.path.join(source_dir, "server", "request_router.cpp"), encoding="utf-8").read()
    routes = set()
    for path, method in re.findall(r'route\("([^"]+)", "([A-Z]*)"', text):
        routes.add((path, method or "POST"))
    if not routes:
        raise SystemExit("openapi_conformance: found no route(...) in server/request_router.cpp")
    return routes


class RunningServer:
    def __init__(self, server, admin, scratch):
        self.admin = admin
        self.data = os.path.join(scratch, "data")
        environment = {k: v for k, v in os.environ.items() if not k.startswith("CODEPAYLOAD_")}
        environment.update(CODEPAYLOAD_DATA_DIR=self.data, CODEPAYLOAD_LISTEN="127.0.0.1:0",
                           CODEPAYLOAD_ACCESS_LOG="off")
        self.environment = environment
        self.err = open(os.path.join(scratch, "server.err"), "w")
        self.process = subprocess.Popen([server], env=environment, stdout=subprocess.DEVNULL, stderr=self.err)
        port_file = os.path.join(self.data, "server.port")
        for _ in range(400):
            if os.path.exists(port_file) and open(port_file).read().strip():
                break
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        else:
            self.stop()
        if self.process.poll() is not None or not os.path.exists(port_file):
            raise SystemExit("openapi_conformance: the server did not start: " + open(self.err.name).read())
        self.base = f"https://127.0.0.1:{open(port_file).read().strip()}"
        self.tls = ssl.create_default_context(cafile=os.path.join(self.data, "dev-tls-cert.pem"))

    def admin_json(self, *arguments):
        out = subprocess.run([self.admin, *arguments], env=self.environment, check=True, capture_output=True, text=True)
        return json.loads(out.stdout)

    def request(self, method, target, headers=None, body=None):
        call = urllib.request.Request(self.base + target, data=body, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(call, context=self.tls, timeout=30) as answer:
                return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
        except urllib.error.HTTPError as answer:
            return answer.code, {k.lower(): v for k, v in answer.headers.items()}, answer.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)


def main():
    source_dir, server, admin, responses_dir = sys.argv[1:5]
    document_path = os.path.join(source_dir, "docs", "openapi.json")
    document_bytes = open(document_path, "rb").read()
    checks = Conformance(json.loads(document_bytes))
    checks.check_document(router_routes(source_dir))

    scratch = tempfile.mkdtemp(prefix="codepayload-openapi-")
    running = RunningServer(server, admin, scratch)
    try:
        status, headers, body = running.request("GET", "/openapi.json")
        if status != 200 or body != document_bytes:
            checks.problem(f"GET /openapi.json: status {status}, and the body is not docs/openapi.json byte for byte")
        checks.check_response("GET", "/openapi.json", status, headers, body.decode(), "served document")

        organization = running.admin_json("org", "create", "--name", "OpenAPI", "--plan", "starter")["id"]
        client = running.admin_json("client", "create", "--org", organization, "--name", "openapi",
                                    "--scope", "write:codes", "--scope", "read:codes")
        form = b"grant_type=client_credentials"
        basic = base64.b64encode(f"{client['clientId']}:{client['clientSecret']}".encode()).decode()
        status, headers, body = running.request("POST", "/oauth/token", {
            "Authorization": "Basic " + basic, "Content-Type": "application/x-www-form-urlencoded"}, form)
        checks.check_response("POST", "/oauth/token", status, headers, body.decode(), "token")
        token = json.loads(body)["access_token"]

        cases = {"/codes": 0, "/codes/parse": 0}
        for folder, path in (("", "/codes"), ("parse", "/codes/parse")):
            for case_file in sorted(glob.glob(os.path.join(source_dir, "tests", "cases", folder, "*.json"))):
                for case in json.load(open(case_file, encoding="utf-8")):
                    cases[path] += 1
                    where = f"{os.path.join(folder, os.path.basename(case_file))} / {case['name']}"
                    status, headers, body = running.request("POST", path, {
                        "Authorization": "Bearer " + token, "Content-Type": "application/json",
                        "Accept": "application/json"}, json.dumps(case["request"]).encode())
                    checks.check_response("POST", path, status, headers, body.decode(), where)
                    if status == 200 and json.loads(body) != case["response"]:
                        checks.problem(f"{where}: the server's response is not the table's: {body[:300]!r}")
    finally:
        running.stop()
        shutil.rmtree(scratch, ignore_errors=True)

    recorded = sorted(glob.glob(os.path.join(responses_dir, "*.jsonl")))
    if not recorded:
        checks.problem(f"no recorded exchanges in {responses_dir} (the HTTP tests run first: ctest fixture "
                       "codepayload_recorded_responses)")
    counts = []
    for record_file in recorded:
        lines = 0
        for line in open(record_file, encoding="utf-8", errors="surrogateescape"):
            exchange = json.loads(line)
            lines += 1
            if exchange["target"].startswith(DASHBOARD_PREFIX):
                continue
            checks.check_response(exchange["method"], exchange["target"], exchange["status"], exchange["headers"],
                                  exchange["body"], os.path.basename(record_file))
        counts.append(f"{os.path.basename(record_file)} {lines}")

    print(f"openapi: {cases['/codes']} table cases sent to POST /codes, {cases['/codes/parse']} to "
          f"POST /codes/parse; recorded exchanges: {', '.join(counts)}; "
          f"{checks.checked} responses checked against docs/openapi.json")
    for text in checks.problems:
        print("FAILED: " + text)
    return 1 if checks.problems else 0


if __name__ == "__main__":
    sys.exit(main())
