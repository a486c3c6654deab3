#!/usr/bin/env bash
# Builds the Debian package and proves it on a bare Debian 12 (D-V4):
#  1. a CODEPAYLOAD_PACKAGE build (install layout, no source path, portable
#     code) and `cpack -G DEB`; lintian's findings go to BUILD/lintian.txt;
#  2. no installed binary holds a path of the source or build tree;
#  3. `debootstrap --variant=minbase bookworm` into a scratch root, from the
#     Debian mirror this machine's apt is configured with; the package is
#     installed there with apt (its dependencies come from that mirror), which
#     creates the codepayload user and /var/lib/codepayload;
#  4. the installed codepayload-server is started in that root as the
#     codepayload user, from the installed files and /etc/codepayload only;
#     codepayload-admin makes an organization and a client; a token from
#     POST /oauth/token and a code from POST /codes, checked exactly;
#  5. the installed codepayload-admin copies that registry into a scratch
#     PostgreSQL 15 on this machine (docs/scaling.md), and the installed
#     server on it, with the password and key-encryption key files an operator
#     puts in /etc/codepayload, accepts the token and the secret from before.
# Needs root (debootstrap, chroot). usage: scripts/package-test.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
source_dir=$PWD
build=${1:-build-package}
[ "$(id -u)" = 0 ] || { echo "package-test: needs root (debootstrap, chroot)"; exit 1; }
CODEPAYLOAD_PACKAGE_DEPS=1 scripts/install-deps.sh

echo "== package: build and cpack"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
  -DCODEPAYLOAD_PACKAGE=ON -DCODEPAYLOAD_TESTS=OFF >/dev/null
cmake --build "$build" -j "$(nproc)"
rm -f "$build"/codepayload_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/codepayload_*.deb)
build=$(cd "$build" && pwd)
echo "package: $deb"
dpkg-deb --info "$deb" | sed -n '/Package:/,$p'
dpkg-deb --contents "$deb" | awk '{print $6}'

echo "== package: lintian"
lintian --tag-display-limit 0 "$deb" >"$build/lintian.txt" 2>&1 || true
cat "$build/lintian.txt"

scratch=$(mktemp -d /tmp/codepayload-package-XXXXXX)
root=$scratch/root
server_pid='' postgresql=''
postgresql_bin=/usr/lib/postgresql/15/bin
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  if [ -n "$postgresql" ]; then
    runuser -u postgres -- "$postgresql_bin/pg_ctl" -D "$postgresql/data" -m fast -w stop >/dev/null 2>&1
    rm -rf "$postgresql"
  fi
  mountpoint -q "$root/proc" && umount "$root/proc"
  rm -rf "$scratch"
}
trap cleanup EXIT

echo "== package: no source or build path in the binaries"
dpkg-deb --extract "$deb" "$scratch/contents"
for binary in "$scratch"/contents/usr/bin/*; do
  if grep -a -q -e "$source_dir" -e "$build" "$binary"; then
    echo "FAILED: $binary holds a path of the source or build tree"
    exit 1
  fi
done

echo "== package: a bare Debian 12 root"
# The first Debian mirror of this machine's apt configuration (deb822 or one-line form).
mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $3 ~ /^bookworm$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$mirror" ] || { echo "package-test: no Debian mirror in this machine's apt configuration"; exit 1; }
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$scratch/debootstrap.log" 2>&1 \
  || { tail -20 "$scratch/debootstrap.log"; exit 1; }
mount -t proc proc "$root/proc"
cp "$deb" "$root/tmp/codepayload.deb"
chroot "$root" apt-get update -qq
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  /tmp/codepayload.deb >"$scratch/install.log" 2>&1 || { cat "$scratch/install.log"; exit 1; }
chroot "$root" getent passwd codepayload >/dev/null || { echo "FAILED: no codepayload user"; exit 1; }
state=$(chroot "$root" stat -c '%U %a' /var/lib/codepayload)
[ "$state" = "codepayload 700" ] || { echo "FAILED: /var/lib/codepayload is $state"; exit 1; }

echo "== package: the installed server, as the codepayload user"
# Numeric: the user exists in the root only.
as_codepayload="--userspec=$(chroot "$root" id -u codepayload):$(chroot "$root" id -g codepayload)"
# The root shares this machine's network: a kernel-chosen port, not 8443.
chroot "$as_codepayload" "$root" env -i CODEPAYLOAD_LISTEN=127.0.0.1:0 /usr/bin/codepayload-server \
  >"$scratch/server.out" 2>"$scratch/server.err" &
server_pid=$!
port_file=$root/var/lib/codepayload/server.port
for _ in $(seq 300); do [ -s "$port_file" ] && break; sleep 0.1; done
[ -s "$port_file" ] || { cat "$scratch/server.err"; echo "FAILED: the installed server wrote no port file"; exit 1; }
admin() { chroot "$as_codepayload" "$root" env -i /usr/bin/codepayload-admin "$@"; }
json_field() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
org=$(admin org create --name Packaging --plan starter 2>/dev/null | json_field id)
admin client create --org "$org" --name packaging --scope write:codes 2>/dev/null >"$scratch/client.json"
client_id=$(json_field clientId <"$scratch/client.json")
secret=$(json_field clientSecret <"$scratch/client.json")
url=https://localhost:$(cat "$port_file")
ca=$root/var/lib/codepayload/dev-tls-cert.pem
token=$(curl -sS --cacert "$ca" -u "$client_id:$secret" -d grant_type=client_credentials "$url/oauth/token" \
        | json_field access_token)
answer=$(curl -sS --cacert "$ca" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  --data '{"codes":[{"reference":"pkg","primaryKey":{"key":"01","value":"9506000134352"},"ais":[{"key":"10","value":"LOT1"}],"extensionParameters":[],"digitalLinkStem":"https://id.example.com"}]}' \
  "$url/codes")
expected='{"codes":[{"reference":"pkg","barcodeText":"https://id.example.com/01/09506000134352/10/LOT1","hri":"(01)09506000134352(10)LOT1"}],"failures":[]}'
if [ "$answer" != "$expected" ]; then
  echo "FAILED: POST /codes answered $answer"
  cat "$scratch/server.err"
  exit 1
fi
grep -q "listening on https://127.0.0.1:.* (rules release .*, data dir /var/lib/codepayload)" "$scratch/server.err" \
  || { cat "$scratch/server.err"; echo "FAILED: the server did not run from /var/lib/codepayload"; exit 1; }
kill "$server_pid"
wait "$server_pid" || { cat "$scratch/server.err"; echo "FAILED: the installed server did not stop cleanly"; exit 1; }
server_pid=''
echo "package: installed on a bare Debian 12, served a token and a code: $answer"

echo "== package: the installed server on a PostgreSQL registry"
# A scratch PostgreSQL 15 on this machine (the root shares its network), run as postgres in a
# folder of its own (the scratch folder is root's alone).
postgresql=$(mktemp -d /tmp/codepayload-package-postgresql-XXXXXX)
chown postgres:postgres "$postgresql"
(umask 077 && head -c 18 /dev/urandom | base64 | tr '+/' '-_' >"$postgresql/pw")
chown postgres "$postgresql/pw"
runuser -u postgres -- "$postgresql_bin/initdb" -D "$postgresql/data" -A scram-sha-256 --pwfile="$postgresql/pw" \
  -U postgres -E UTF8 --no-locale --no-sync >"$scratch/initdb.log" 2>&1 || { cat "$scratch/initdb.log"; exit 1; }
pg_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
runuser -u postgres -- "$postgresql_bin/pg_ctl" -D "$postgresql/data" -l "$postgresql/log" -w \
  -o "-p $pg_port -k $postgresql -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null \
  || { cat "$postgresql/log"; exit 1; }
PGPASSWORD=$(cat "$postgresql/pw") "$postgresql_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -qc \
  "CREATE DATABASE codepayload" postgres
# The operator's files: readable by the service's user only.
cp "$postgresql/pw" "$root/etc/codepayload/registry-password"
(umask 077 && head -c 32 /dev/urandom >"$root/etc/codepayload/key-encryption-key")
chroot "$root" chown codepayload:codepayload /etc/codepayload/registry-password /etc/codepayload/key-encryption-key
chmod 0400 "$root/etc/codepayload/registry-password" "$root/etc/codepayload/key-encryption-key"
registry_url=postgresql://postgres@127.0.0.1:$pg_port/codepayload
key_file=CODEPAYLOAD_KEY_ENCRYPTION_KEY_FILE=/etc/codepayload/key-encryption-key
chroot "$as_codepayload" "$root" env -i "$key_file" /usr/bin/codepayload-admin registry copy --to "$registry_url" \
  --password-file /etc/codepayload/registry-password >"$scratch/copy.json" 2>"$scratch/copy.err" \
  || { cat "$scratch/copy.err"; echo "FAILED: registry copy"; exit 1; }
chroot "$as_codepayload" "$root" env -i CODEPAYLOAD_LISTEN=127.0.0.1:0 CODEPAYLOAD_REGISTRY_URL="$registry_url" \
  CODEPAYLOAD_REGISTRY_PASSWORD_FILE=/etc/codepayload/registry-password "$key_file" \
  /usr/bin/codepayload-server >"$scratch/server-pg.out" 2>"$scratch/server-pg.err" &
server_pid=$!
rm -f "$port_file"
for _ in $(seq 300); do [ -s "$port_file" ] && break; sleep 0.1; done
[ -s "$port_file" ] || { cat "$scratch/server-pg.err"; echo "FAILED: the server on PostgreSQL wrote no port file"; exit 1; }
url=https://localhost:$(cat "$port_file")
# The token issued before the copy, and a new one for the secret from before.
again=$(curl -sS --cacert "$ca" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  --data '{"codes":[{"reference":"pkg","primaryKey":{"key":"01","value":"9506000134352"},"ais":[{"key":"10","value":"LOT1"}],"extensionParameters":[],"digitalLinkStem":"https://id.example.com"}]}' \
  "$url/codes")
[ "$again" = "$expected" ] || { cat "$scratch/server-pg.err"; echo "FAILED: on PostgreSQL, POST /codes answered $again"; exit 1; }
issued=$(curl -sS -o /dev/null -w '%{http_code}' --cacert "$ca" -u "$client_id:$secret" -d grant_type=client_credentials \
  "$url/oauth/token")
[ "$issued" = 200 ] || { cat "$scratch/server-pg.err"; echo "FAILED: on PostgreSQL, POST /oauth/token answered $issued"; exit 1; }
kill "$server_pid"
wait "$server_pid" || { cat "$scratch/server-pg.err"; echo "FAILED: the server on PostgreSQL did not stop cleanly"; exit 1; }
server_pid=''
echo "package: the registry copied into PostgreSQL ($(cat "$scratch/copy.json")); the installed server on it" \
  "accepted the token and the secret from before"
