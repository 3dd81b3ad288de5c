#!/usr/bin/env bash
# Runs NetBox's real clients against this service, in both API dialects, and prints a summary.
# By hand, not in CI (README.md beside this file). Usage:
#   test/peers/run.sh [pynetbox44] [ansible44] [pynetbox34] [ansible34]    (all four by default)
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/test/peers"
CACHE=${PEERS_CACHE:-/work/peers-cache}
# Git repositories (clones or bare mirrors) of netbox-community/pynetbox and
# netbox-community/ansible_modules; only their release tags are read.
PYNETBOX_GIT=${PYNETBOX_GIT:-/work/.mirror/netbox-community+pynetbox/repo}
ANSIBLE_MODULES_GIT=${ANSIBLE_MODULES_GIT:-/work/.mirror/netbox-community+ansible_modules/repo}
PYNETBOX_TAG=${PYNETBOX_TAG:-v7.8.0}
COLLECTION_TAG=${COLLECTION_TAG:-v3.22.0}
COLLECTION_TARGET=${COLLECTION_TARGET:-v4.3}
# The collection's tests hard-code http://localhost:32768 and this token, so the service takes both.
PORT=${PEERS_PORT:-32768}
URL="http://localhost:$PORT"
TOKEN=0123456789abcdef0123456789abcdef01234567
PG=${PEERS_PG:-postgres://postgres@127.0.0.1:5432}
export PGOPTIONS='--client-min-messages=warning'
DB=peers_clients_$$
SYS_PY=/usr/bin/python3
VENV="$CACHE/venv-pynetbox-${PYNETBOX_TAG#v}"
LOGS="$CACHE/logs"
PHASES=("$@")
[ ${#PHASES[@]} -eq 0 ] && PHASES=(pynetbox44 ansible44 pynetbox34 ansible34)

mkdir -p "$CACHE" "$LOGS"
SUMMARY="$LOGS/summary.txt"
: >"$SUMMARY"
say() { echo "== $*" >&2; }
summary() { echo "$*" | tee -a "$SUMMARY"; }

# ---- install: Debian's packages, the clients' sources at their release tags, a venv -------------
install() {
  local pkgs=(python3-requests python3-packaging python3-pytest python3-yaml python3-venv
    python3-pip python3-setuptools python3-setuptools-scm python3-wheel python3-pynetbox
    python3-tz python3-deepdiff python3-jmespath ansible git postgresql-client curl)
  local missing=()
  for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    say "apt-get install ${missing[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends "${missing[@]}" >"$LOGS/apt.log" || exit 1
  fi
  # Debian's ansible bundles netbox.netbox; its tests come from the tag of the same version.
  OLD_COLLECTION_TAG=v$($SYS_PY -c 'import json; print(json.load(open(
    "/usr/lib/python3/dist-packages/ansible_collections/netbox/netbox/MANIFEST.json"))
    ["collection_info"]["version"])')
  OLD_PYNETBOX_TAG=v$(dpkg-query -W -f '${Version}' python3-pynetbox | sed 's/-[^-]*$//')
  unpack "$PYNETBOX_GIT" "$PYNETBOX_TAG" "$CACHE/pynetbox-$PYNETBOX_TAG"
  unpack "$PYNETBOX_GIT" "$OLD_PYNETBOX_TAG" "$CACHE/pynetbox-$OLD_PYNETBOX_TAG"
  unpack "$ANSIBLE_MODULES_GIT" "$COLLECTION_TAG" "$CACHE/ansible_modules-$COLLECTION_TAG"
  unpack "$ANSIBLE_MODULES_GIT" "$OLD_COLLECTION_TAG" "$CACHE/ansible_modules-$OLD_COLLECTION_TAG"
  if [ ! -x "$VENV/bin/python" ]; then
    say "venv $VENV (pynetbox ${PYNETBOX_TAG#v} over Debian's site-packages)"
    $SYS_PY -m venv --system-site-packages "$VENV" &&
      SETUPTOOLS_SCM_PRETEND_VERSION=${PYNETBOX_TAG#v} "$VENV/bin/pip" install -q --no-deps \
        --no-build-isolation "$CACHE/pynetbox-$PYNETBOX_TAG" || exit 1
  fi
  # The collection where ANSIBLE_COLLECTIONS_PATH finds it; an empty path leaves Debian's bundled one.
  local coll="$CACHE/collections-$COLLECTION_TAG/ansible_collections/netbox"
  if [ ! -d "$coll/netbox" ]; then
    mkdir -p "$coll" && cp -r "$CACHE/ansible_modules-$COLLECTION_TAG" "$coll/netbox"
  fi
  mkdir -p "$CACHE/collections-none"
}

unpack() { # git dir, tag, destination
  [ -d "$3" ] && return
  mkdir -p "$3" && git -C "$1" archive "$2" | tar -x -C "$3" || { rm -rf "$3"; exit 1; }
}

# ---- the service: a fresh PostgreSQL database per phase, so ids start at 1 as the tests expect ---
SERVICE_PID=
start_service() { # dialect
  stop_service
  psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null || exit 1
  (cd "$ROOT" && PORT=$PORT HOST=127.0.0.1 WORKERS=1 DATABASE_URL="$PG/$DB" API_DIALECT=$1 \
    ADMIN_USERNAME=admin ADMIN_PASSWORD=admin ADMIN_TOKEN=$TOKEN \
    API_TOKEN_PEPPERS='{"1": "peers-harness-pepper-not-a-secret-0123456789abcdefghij"}' \
    exec node bin/inventory.js serve >>"$LOGS/service-$1.log" 2>&1) &
  SERVICE_PID=$!
  for _ in $(seq 90); do
    curl -sf "$URL/api/status/" >/dev/null && { say "service up, dialect $1, db $DB"; return; }
    sleep 1
  done
  echo "service did not start: $LOGS/service-$1.log" >&2
  exit 1
}
stop_service() {
  if [ -n "$SERVICE_PID" ]; then kill "$SERVICE_PID" 2>/dev/null; wait "$SERVICE_PID" 2>/dev/null; fi
  SERVICE_PID=
}
cleanup() {
  stop_service
  psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1
}
trap cleanup EXIT

# ---- pynetbox: its own integration tests, pointed at the service by their --url-override --------
run_pynetbox() { # python, tag, dialect
  local py=$1 tag=$2 dialect=$3 log="$LOGS/pynetbox-$2-$3.log"
  # Only tests/ is copied, so the installed pynetbox is imported, not the source tree's.
  local dir="$CACHE/tests-pynetbox-$tag"
  [ -d "$dir" ] || { mkdir -p "$dir" && cp -r "$CACHE/pynetbox-$tag/tests" "$dir/"; }
  start_service "$dialect"
  say "pynetbox $tag integration tests, dialect $dialect -> $log"
  (cd "$dir" && $py -m pytest tests/integration -p no:docker -p no:cacheprovider -q -rfEs \
    --url-override "http://127.0.0.1:$PORT" --netbox-versions "$dialect") >"$log" 2>&1
  summary "pynetbox $($py -c 'import pynetbox; print(pynetbox.__version__)') ($tag tests), dialect $dialect: $(tail -1 "$log")"
  grep -E '^(FAILED|ERROR|SKIPPED)' "$log" | sed 's/^/    /' | tee -a "$SUMMARY"
}

# ---- netbox.netbox, in the order of its CI: netbox-deploy.py's data, the inventory target, the ----
# ---- regression target, the modules target (whose expected ids count the regression's objects) --
run_ansible() { # python, collection dir, collections path, NetBox version of the targets, dialect
  local py=$1 src=$2 cpath=$3 target=$4 dialect=$5 inv=inventory-$4
  local tag out="$LOGS/ansible-$dialect"
  tag=$(basename "$src")
  rm -rf "$out" && mkdir -p "$out"
  start_service "$dialect"
  export ANSIBLE_COLLECTIONS_PATH=$cpath ANSIBLE_CONFIG="$src/tests/integration/integration.cfg"
  export ANSIBLE_PYTHON_INTERPRETER=$py ANSIBLE_LOCALHOST_WARNING=false ANSIBLE_NOCOLOR=1
  say "collection in use: $($py /usr/bin/ansible-galaxy collection list netbox.netbox 2>/dev/null | grep -m1 netbox.netbox)"
  say "netbox-deploy.py ($tag) -> $out/deploy.log"
  (cd "$src" && NETBOX_HOST=$URL NETBOX_TOKEN=$TOKEN $py tests/integration/netbox-deploy.py) \
    >"$out/deploy.log" 2>&1
  summary "netbox-deploy.py ($tag), dialect $dialect: exit $?, $(grep -c . "$out/deploy.log") lines printed (it prints only errors)"

  # inventory target: runme.sh's loop (ansible-inventory --list, then compare_inventory_json.py),
  # run directly because runme.sh expects ansible-test's python.py and OUTPUT_DIR.
  local files="$src/tests/integration/targets/$inv/files" pass=0 fail=0 failed=()
  local compare="$src/tests/integration/targets/$inv/compare_inventory_json.py"
  # Some of the inventories cache their answers there for an hour (cache_connection); ansible-test
  # starts from a clean machine, so start from none too, or one run reads the last one's answers.
  rm -rf /tmp/inventory_netbox
  for yml in "$files"/*.yml; do
    local name json
    name=$(basename "$yml" .yml) json="$out/$name.json"
    (cd "$files" && $py /usr/bin/ansible-inventory --list --inventory "$yml" --output "$json") \
      >"$out/inventory-$name.log" 2>&1
    if $SYS_PY "$compare" "$files/$name.json" "$json" >>"$out/inventory-$name.log" 2>&1; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1)) failed+=("$name")
    fi
  done
  summary "netbox.netbox $tag $inv, dialect $dialect: $pass passed, $fail failed"
  for f in "${failed[@]+"${failed[@]}"}"; do
    summary "    FAILED $f: what differs from $inv/files/$f.json:"
    $SYS_PY "$HERE/inventory_diff.py" "$compare" "$files/$f.json" "$out/$f.json" 2>&1 |
      sed 's/^/        /' | tee -a "$SUMMARY"
  done
  run_target "$py" "$src" "regression-$target" "$dialect" "$tag"
  run_target "$py" "$src" "$target" "$dialect" "$tag"
}

# A target's task files, each in a block whose rescue records it (target_playbook.py).
run_target() { # python, collection dir, target, dialect, tag
  local py=$1 src=$2 target=$3 dialect=$4 tag=$5 out="$LOGS/ansible-$4/$3"
  mkdir -p "$out"
  local main="$src/tests/integration/targets/$target/tasks/main.yml"
  $SYS_PY "$HERE/target_playbook.py" "$main" "$out/results.json" >"$out/playbook.yml" || exit 1
  say "netbox.netbox $tag target $target -> $out/playbook.log"
  $py /usr/bin/ansible-playbook -i localhost, "$out/playbook.yml" >"$out/playbook.log" 2>&1
  $SYS_PY - "$out/results.json" "$tag $target, dialect $dialect" <<'PY' | tee -a "$SUMMARY"
import json, sys
try:
    results = json.load(open(sys.argv[1]))
except OSError:
    print("netbox.netbox %s: the playbook did not finish (see playbook.log)" % sys.argv[2]); sys.exit()
bad = [r for r in results if not r["ok"]]
print("netbox.netbox %s: %d passed, %d failed (task files)" % (sys.argv[2], len(results) - len(bad), len(bad)))
for r in bad:
    why = r.get("assertion") or r.get("msg") or ""
    print("    FAILED %s: %s: %s" % (r["file"], r.get("task"), " ".join(str(why).split())[:300]))
PY
}

install
for phase in "${PHASES[@]}"; do
  case $phase in
  pynetbox44) run_pynetbox "$VENV/bin/python" "$PYNETBOX_TAG" 4.4 ;;
  pynetbox34) run_pynetbox "$SYS_PY" "$OLD_PYNETBOX_TAG" 3.4 ;;
  ansible44)
    run_ansible "$VENV/bin/python" "$CACHE/ansible_modules-$COLLECTION_TAG" \
      "$CACHE/collections-$COLLECTION_TAG" "$COLLECTION_TARGET" 4.4 ;;
  ansible34)
    run_ansible "$SYS_PY" "$CACHE/ansible_modules-$OLD_COLLECTION_TAG" \
      "$CACHE/collections-none" v3.4 3.4 ;;
  *) echo "unknown phase $phase" >&2; exit 2 ;;
  esac
done
stop_service
echo
echo "== summary (logs in $LOGS)"
cat "$SUMMARY"
