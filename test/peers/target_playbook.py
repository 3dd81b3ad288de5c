#!/usr/bin/env python3
"""Write a playbook that runs every task file an ansible_modules integration target includes.

Usage: target_playbook.py <target>/tasks/main.yml <results.json> > playbook.yml

The collection's CI runs a target's main.yml under ansible-test, where the first failing task
ends the run. A main.yml that includes nothing runs as a single task file. To say which task files pass, each file named in main.yml (in its order, the
commented-out ones left out as upstream leaves them out) runs here inside a block whose rescue
records the failing task, so one failure does not hide the files after it. The task files
themselves are run unchanged; the results go to <results.json>.
"""

import json
import os
import sys

import yaml


def included_files(main_yml):
    """The task files main.yml includes: `include_tasks: x.yml` or `include_tasks: {file: x.yml}`."""
    with open(main_yml) as handle:
        entries = yaml.safe_load(handle) or []
    files = []
    for entry in entries:
        for key in ("ansible.builtin.include_tasks", "include_tasks"):
            if key in entry:
                value = entry[key]
                files.append(value["file"] if isinstance(value, dict) else value)
    return files


def record(name, ok):
    """A set_fact appending this file's outcome to peers_results."""
    if ok:
        item = json.dumps({"file": name, "ok": True})
        return {"ansible.builtin.set_fact": {"peers_results": "{{ peers_results + [%s] }}" % item}}
    # The failing task's name, its message and, for an assert, the condition that was false.
    failed = (
        "{{ peers_results + [{'file': %s, 'ok': false, 'task': ansible_failed_task.name,"
        " 'msg': (ansible_failed_result.msg | default('') | string)[:400],"
        " 'assertion': ansible_failed_result.assertion | default('') | string}] }}"
    ) % json.dumps(name)
    return {"ansible.builtin.set_fact": {"peers_results": failed}}


def main():
    main_yml, results = sys.argv[1], os.path.abspath(sys.argv[2])
    tasks_dir = os.path.dirname(os.path.abspath(main_yml))
    tasks = []
    # A target whose main.yml holds its tasks itself (regression-v4.3) is one task file.
    for name in included_files(main_yml) or [os.path.basename(main_yml)]:
        tasks.append(
            {
                "name": "peers: %s" % name,
                "block": [
                    {"ansible.builtin.include_tasks": {"file": os.path.join(tasks_dir, name)}},
                    record(name, True),
                ],
                "rescue": [record(name, False)],
            }
        )
    tasks.append(
        {
            "name": "peers: write the results",
            "ansible.builtin.copy": {
                "content": "{{ peers_results | to_nice_json }}",
                "dest": results,
            },
        }
    )
    play = {
        "name": "peers: %s" % main_yml,
        "hosts": "localhost",
        "connection": "local",
        "gather_facts": False,
        "vars": {"peers_results": []},
        "tasks": tasks,
    }
    yaml.safe_dump([play], sys.stdout, sort_keys=False, width=1000)


if __name__ == "__main__":
    main()
