"""Every ``--json`` of ``setlab`` prints one object of the one schema (src/setlab/data/schema.json).

Each command runs in-process on a small input with a store in a temporary directory; its output
must parse as strict JSON and validate against the schema of its ``command``.
"""

from __future__ import annotations

import json
from importlib import resources

import jsonschema
import pytest

from setlab.cli import build_parser, main

SCHEMA = json.loads(resources.files("setlab").joinpath("data/schema.json").read_text())

COMMANDS = [
    ["find", "1RSD", "2RSD", "3RSD", "1GSD", "1PSD"],
    ["find", "-p", "2", "00", "11", "22", "01"],
    ["find", "--hint", "1RSD", "2RSD", "3RSD", "1GSD", "1PSD"],
    ["find", "--hint", "1RSD", "2RSD"],
    ["third", "1RSD", "2GTS"],
    ["check", "1RSD", "2GSD", "3GSO"],
    ["check", "-p", "2", "00", "11", "22"],
    ["words"],
    ["deck", "-p", "2"],
    ["demo"],
    ["draw", "1RSD", "2RSD", "3RSD", "--sets", "-o", "{tmp}/board.svg"],
    ["draw", "--config", "{tmp}/cards.txt", "-o", "{tmp}/config.svg"],
    ["draw", "-f", "{tmp}/cards.txt", "-o", "{tmp}/board.png"],
    ["simulate", "--games", "40", "--no-progress"],
    ["simulate", "--games", "40", "-p", "3", "--no-progress"],
    ["maxsets", "-p", "2", "-n", "5"],
    ["minsets", "-p", "2", "-n", "5"],
    ["maxsets", "-p", "2", "--table"],
    ["verify"],
    ["caps", "-p", "2"],
    ["caps", "-p", "2", "--values", "4"],
    ["caps", "-p", "5"],
    ["caps", "count", "-p", "2"],
    ["caps", "probability", "--cards", "4", "-p", "2"],
    ["caps", "verify", "{tmp}/cards.txt"],
    ["caps", "construct", "-p", "3"],
    ["find", "--variant", "ultra", "-p", "2", "00", "01", "10", "11", "22"],
    ["find", "--variant", "4set", "-p", "2", "00", "01", "02", "03", "33"],
    ["draw", "--variant", "ultra", "-p", "2", "00", "01", "10", "11", "22", "-o", "{tmp}/u.svg"],
    ["caps", "--variant", "ultra", "-p", "2"],
    ["maxsets", "--variant", "ultra", "-p", "2", "-n", "6"],
    ["maxsets", "--variant", "ultra", "-p", "2", "--table"],
    ["simulate", "--variant", "junior", "--games", "20", "--no-progress"],
    ["heuristic", "cmm", "-p", "2"],
    ["heuristic", "search", "-p", "2", "-n", "4", "--seconds", "0.05"],
    ["heuristic", "search", "-p", "2", "-n", "5", "--seconds", "0.05", "--minimize"],
]


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    monkeypatch.setenv("SETLAB_STORE", str(tmp_path / "store.sqlite"))
    (tmp_path / "cards.txt").write_text("0000\n1111\n2222\n0120\n")
    return tmp_path


def run_json(capsys, argv: list[str]) -> dict:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code in (0, 1), (code, err)
    return json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} in JSON"))


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_every_json_output_follows_the_schema(capsys, workspace, argv):
    if argv[0] == "verify":  # something to verify: an empty store is refused
        assert main(["maxsets", "-p", "2", "-n", "4"]) == 0
        capsys.readouterr()
    answer = run_json(capsys, [a.format(tmp=workspace) for a in argv] + ["--json"])
    jsonschema.validate(answer, SCHEMA)
    assert f"command: {answer['command']}" in SCHEMA["$defs"]


def test_a_value_read_from_the_store_says_so(capsys, workspace):
    first = run_json(capsys, ["maxsets", "-p", "2", "-n", "6", "--json"])
    again = run_json(capsys, ["maxsets", "-p", "2", "-n", "6", "--json"])
    assert first["provenance"]["source"] == "computed" and first["provenance"]["seconds"] >= 0
    assert again["provenance"]["source"] == "store" and again["provenance"]["computed_at"]
    assert (first["lower"], first["upper"], first["value"]) == (3, 3, 3)  # M(6) of AG(2,3)
    caps = [run_json(capsys, ["caps", "-p", "2", "--json"]) for _ in range(2)]
    assert [c["provenance"]["source"] for c in caps] == ["computed", "store"]


def test_the_schema_refuses_a_dishonest_or_malformed_answer(capsys, workspace):
    answer = run_json(capsys, ["maxsets", "-p", "2", "-n", "5", "--json"])
    for key in ("lower", "upper", "proven", "provenance"):
        broken = dict(answer)
        del broken[key]
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, SCHEMA)
    found = run_json(capsys, ["find", "1RSD", "2RSD", "3RSD", "--json"])
    with pytest.raises(jsonschema.ValidationError):  # a card as a code instead of digits
        jsonschema.validate(dict(found, cards=["1RSD", "2RSD", "3RSD"]), SCHEMA)


def test_every_command_taking_json_is_in_the_schema_and_in_this_test():
    """A new command with ``--json`` must document its shape (schema, docs/json.md) here."""
    covered = {
        " ".join(argv[:2]) if len(argv) > 1 and argv[1].isalpha() else argv[0] for argv in COMMANDS
    }
    parser = build_parser()
    missing = []

    def walk(p, prefix):
        subs = [a for a in p._actions if a.__class__.__name__ == "_SubParsersAction"]
        # a group that must be given a verb only passes its --json down to that verb
        forwards = bool(subs) and subs[0].required
        if any("--json" in a.option_strings for a in p._actions) and prefix and not forwards:
            name = " ".join(prefix)
            if name not in covered and name not in ("reproduce",):  # reproduce: tests/test_report
                missing.append(name)
        for sub in subs:
            for name, child in sub.choices.items():
                walk(child, [*prefix, name])

    walk(parser, [])
    assert not missing, f"commands with --json not checked against the schema: {missing}"
