#!/usr/bin/env python3
"""Say in a few lines how an inventory differs from the collection's expected one.

Usage: inventory_diff.py <compare_inventory_json.py> <expected.json> <actual.json>

The target's compare_inventory_json.py decides pass or fail; its own output is a full DeepDiff
(and the one of netbox.netbox 3.13 cannot print it with Debian's deepdiff 6). This reuses that
script's clean-up (keys it removes, arrays it sorts) and prints each differing key once, with host
names and list positions folded, so a summary can say what differs.
"""

import importlib.util
import json
import re
import sys

from deepdiff import DeepDiff


def load_compare(path):
    spec = importlib.util.spec_from_file_location("compare_inventory_json", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fold(path):
    """root['_meta']['hostvars']['test100']['services'][0]['device'] -> hostvars.*.services[].device"""
    path = re.sub(r"^root\['_meta'\]", "", str(path))
    path = re.sub(r"\['hostvars'\]\['[^']*'\]", ".hostvars.*", path)
    path = re.sub(r"\['([^']*)'\]", r".\1", path)
    return re.sub(r"\[\d+\]", "[]", path).lstrip(".")


def flat(value, prefix=""):
    """{'a': {'b': [{'c': 1}]}} -> {'a.b[0].c': '1'}: nested objects and lists of them, key by key."""
    out = {}
    items = value.items() if isinstance(value, dict) else ((f"[{i}]", v) for i, v in enumerate(value))
    for key, item in items:
        name = prefix + key if key.startswith("[") or not prefix else prefix + "." + key
        if isinstance(item, dict) and item or isinstance(item, list) and item and isinstance(item[0], dict):
            out.update(flat(item, name))
        else:
            out[name] = json.dumps(item, sort_keys=True)
    return out


def main():
    compare = load_compare(sys.argv[1])
    expected, actual = (json.load(open(p)) for p in sys.argv[2:4])
    for data in (expected, actual):
        compare.remove_keys(data, compare.KEYS_REMOVE)
        compare.sort_hostvar_arrays(data)
    diff = DeepDiff(expected, actual, ignore_order=True)
    lines = set()
    for kind in ("dictionary_item_added", "dictionary_item_removed"):
        for path in diff.get(kind, []):
            lines.add("%s %s" % ("added" if kind.endswith("added") else "missing", fold(path)))
    for path, change in diff.get("values_changed", {}).items():
        new, old = change["new_value"], change["old_value"]
        if isinstance(new, dict) and isinstance(old, dict):
            new, old = flat(new), flat(old)
            for key in set(new) - set(old):
                lines.add("added %s" % fold("%s.%s" % (path, key)))
            for key in set(old) - set(new):
                lines.add("missing %s" % fold("%s.%s" % (path, key)))
            for key in set(new) & set(old):
                if new[key] != old[key]:
                    where = fold("%s.%s" % (path, key))
                    lines.add("differs %s: expected %s, got %s" % (where, old[key][:60], new[key][:60]))
        else:
            lines.add("differs %s: expected %s, got %s" % (fold(path), str(old)[:80], str(new)[:80]))
    for kind in set(diff) - {"dictionary_item_added", "dictionary_item_removed", "values_changed"}:
        lines.add("%s: %d" % (kind, len(diff[kind])))
    # A key added or missing as a whole is said once, not with each of its sub-keys.
    for line in sorted(lines):
        verb, _, where = line.partition(" ")
        parents = [where[:i].removesuffix("[]") for i, c in enumerate(where) if c == "."]
        if verb in ("added", "missing") and any("%s %s" % (verb, p) in lines for p in parents):
            continue
        print(line)


if __name__ == "__main__":
    main()
