#!/usr/bin/env python3
"""The mutation check of the test gates (docs/testing.md): break the code on purpose and see the
suite fail. Heavy; not part of CI.

    python3 scripts/mutants.py holes [NAME...]      the curated breaks (issue 9's holes and more)
    python3 scripts/mutants.py cargo [-- ARGS...]   cargo-mutants over the generator's attribute
                                                     pass, the runtime support (src/private/,
                                                     src/pattern.rs …) and src/validation/

`holes` applies each curated break to the working tree in turn (refusing to start on a tree with
uncommitted changes to the files it touches, and restoring every file afterwards, also on Ctrl-C),
runs the gate tests and reports whether they caught it; exit 1 if any break went unnoticed.
About 1.5 minutes a break on the 2-core machine.

`cargo` installs cargo-mutants (pinned) when it is missing and runs it with the gate tests as the
test command; extra ARGS go to cargo-mutants (`--shard 0/4`, `-f src/private/uri.rs`, `--list` …).
Results land in mutants.out/ (outcomes.json, caught.txt, missed.txt, unviable.txt). The whole run
is long on 2 cores (about 1.5 minutes a mutant: ~92 mutants in attributes.rs, ~660 in
the runtime support and src/validation/); `--shard k/n` splits it across machines or sessions.
"""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARGO_MUTANTS_VERSION = "27.1.0"

# The gate tests: the fixture verdicts, the types against the reference, the drift gate, the
# boundaries, the dispatch, the schema layer, the properties, the rules, the conformance corpus.
GATES = [
    "boundaries", "corpus", "differential", "dispatch", "schema_drift", "schema_layer",
    "typed_api", "properties", "rules", "conformance", "hostile",
]
TEST_COMMAND = ["cargo", "test", "-q", "--no-fail-fast", "-p", "jerry-contracts", "-p", "jerry-contracts-conformance"] + [
    arg for gate in GATES for arg in ("--test", gate)
]

# (name, file, text to find, replacement, what the break is). Each must be caught by a failing
# test, not by a build error: a rule is "dropped" by putting a rule that always passes in its place
# (`PASSES_RULE`, a garde custom rule that accepts everything), so the generated code still compiles.
PASSES_RULE = 'custom(|_, _| ::std::result::Result::<(), ::garde::Error>::Ok(()))'
HOLES = [
    ("uri-reference-rule", "crates/codegen/src/attributes.rs",
     'Some("uri-reference") => rules.push("custom(::jerry_contracts::__private::uri_reference)".to_owned()),',
     'Some("uri-reference") => rules.push("' + PASSES_RULE.replace('"', '\\"') + '".to_owned()),',
     "the garde rule of format uri-reference is dropped (issue 9: passed every test)"),
    ("uri-rule", "crates/codegen/src/attributes.rs",
     'Some("uri") => rules.push("custom(::jerry_contracts::__private::uri)".to_owned()),',
     'Some("uri") => rules.push("' + PASSES_RULE.replace('"', '\\"') + '".to_owned()),',
     "the garde rule of format uri is dropped"),
    ("unique-items-rule", "crates/codegen/src/attributes.rs",
     'rules.push("custom(::jerry_contracts::__private::unique_items)".to_owned());',
     'rules.push("' + PASSES_RULE.replace('"', '\\"') + '".to_owned());',
     "the garde rule of uniqueItems is dropped (the drift gate's structural half cannot see it)"),
    ("max-length-rule", "crates/codegen/src/attributes.rs",
     'let (min, max) = (count("minLength"), count("maxLength"));',
     'let (min, max) = (count("minLength"), count("maxLength").map(|_| i32::MAX.to_string()));',
     "every maxLength rule is dropped (issue 9: the property tests caught it in 5 of 8 runs)"),
    ("range-rule", "crates/codegen/src/attributes.rs",
     'let (min, max) = (number("minimum"), number("maximum"));',
     'let (min, max) = (number("minimum"), number("maximum").map(|_| if integer == Some(true) { i32::MAX.to_string() } else { "1e300".to_owned() }));',
     "every maximum rule is dropped"),
    ("min-items-rule", "crates/codegen/src/attributes.rs",
     'let (min, max) = (count("minItems"), count("maxItems"));',
     'let (min, max) = (count("minItems").map(|_| "0".to_owned()), count("maxItems"));',
     "every minItems rule is dropped"),
    ("loosened-pattern", "schemas/orchestration/recovery.json",
     '"pattern": "^R-\\\\d{8}T\\\\d{6}$"',
     '"pattern": "^R-\\\\d{8}T\\\\d{4,6}$"',
     "the recovery id pattern of a schema without a seed copy is widened (issue 9: only docs freshness noticed)"),
    ("payload-arm", "crates/codegen/src/generate.rs",
     "let arms = variants.iter().map(|(variant, _, agent)| {",
     "let arms = variants.iter().filter(|(_, _, agent)| agent != \"nse-configuration\").map(|(variant, _, agent)| {",
     "the nse-configuration arm of the payload dispatch is removed (issue 9: only the random property test noticed)"),
    ("named-integer", "crates/codegen/src/attributes.rs",
     "                if is_integer(&source) {\n                    // A named integer",
     "                if false && is_integer(&source) {\n                    // A named integer",
     "a named integer (a root, an item) refuses 1.0 again"),
    ("typeless-properties", "crates/codegen/src/plan.rs",
     "            if map.contains_key(keyword) && !object {\n",
     "            if false && map.contains_key(keyword) && !object {\n",
     "properties without type object become a struct again, with no error"),
    ("bare-enum-root", "crates/codegen/src/corpus.rs",
     "root.keys().any(|k| !NOT_A_ROOT.contains(&k.as_str()))",
     'root.keys().any(|k| ["type", "properties", "$ref", "const"].contains(&k.as_str()))',
     "a bare enum root gets no type again"),
    ("boundary-cases-unread", "crates/schema-tools/src/fixtures.rs",
     "    for set in sets.values_mut() {\n        read_boundary(set, &mut problems);\n    }",
     "",
     "the boundary cases are no longer expanded into fixtures"),
    ("interpreter-format", "src/validation/schema.rs",
     "Self::UriReference => crate::__private::uri_reference(text, &()).err().map(|e| e.to_string()),",
     "Self::UriReference => None,",
     "the schema layer stops checking uri-reference"),
    ("ecma-digits", "src/pattern.rs",
     "Ok(Self { source, regex: regress::Regex::new(source)? })",
     'Ok(Self { source, regex: regress::Regex::with_flags(&source.replace("\\\\d", "\\\\p{Nd}"), "u")? })',
     "ECMA `\\d` made to match any Unicode digit, in the types and the schema layer"),
]


# (name, environment, command, what must happen). Each command must fail.
CHECKS = [
    ("bless-fails", {"JERRY_BLESS": "1"},
     ["cargo", "test", "-q", "-p", "jerry-contracts", "--test", "artifacts"],
     "a blessed freshness run writes the pages and fails (issue 9: it compared a file with itself)"),
]


def run(command, **kwargs):
    return subprocess.run(command, cwd=ROOT, **kwargs)


def dirty(paths):
    if not paths:
        return ""
    out = run(["git", "status", "--porcelain", "--", *paths], capture_output=True, text=True).stdout
    return out.strip()


def holes(selected):
    cases = HOLES
    if selected:
        cases = [h for h in cases if h[0] in selected]
    files = sorted({h[1] for h in cases})
    if dirty(files):
        sys.exit(f"uncommitted changes in {files}: commit or stash them first")
    print(f"{len(cases)} breaks; gate tests: {' '.join(GATES)}", flush=True)
    missed = []
    for name, file, find, replace, what in cases:
        path = ROOT / file
        original = path.read_text()
        if original.count(find) != 1:
            print(f"?  {name}: the text to break is not found once in {file}; update scripts/mutants.py")
            missed.append(name)
            continue
        started = time.time()
        regressions = ROOT / "tests/properties.proptest-regressions"
        kept = regressions.read_text()
        try:
            path.write_text(original.replace(find, replace))
            result = run(TEST_COMMAND, capture_output=True, text=True)
        finally:
            path.write_text(original)
            # A failure the break provoked is no regression of the real code: keep none.
            regressions.write_text(kept)
        output = result.stdout + result.stderr
        unviable = "could not compile" in output or "error[E" in output
        caught = result.returncode != 0 and not unviable
        failing = sorted({line.split("'")[1] for line in output.splitlines()
                          if line.startswith("thread '") and "panicked" in line})
        verdict = "UNVIABLE" if unviable else ("caught" if caught else "MISSED")
        if not caught:
            log = Path(os.environ.get("TMPDIR", "/tmp")) / f"jerry-mutants-{name}.log"
            log.write_text(output)
            what += f" (output in {log})"
        print(f"{verdict}  {name} ({time.time() - started:.0f} s): {what}"
              + (f"\n        by: {', '.join(failing)}" if caught else "")
              + ("\n        the break does not compile; rewrite it so that only a test can catch it" if unviable else ""),
              flush=True)
        if not caught:
            missed.append(name)
    checks = [c for c in CHECKS if not selected or c[0] in selected]
    for name, env, command, what in checks:
        result = run(command, env=dict(os.environ, **env), capture_output=True, text=True)
        ok = result.returncode != 0
        print(f"{'caught' if ok else 'MISSED'}  {name}: {what}", flush=True)
        if not ok:
            missed.append(name)
    if dirty(files):
        sys.exit(f"the tree was not restored: {dirty(files)}")
    total = len(cases) + len(checks)
    print(f"{total - len(missed)} of {total} breaks caught")
    sys.exit(1 if missed else 0)


def cargo_mutants(args):
    if shutil.which("cargo-mutants") is None:
        run(["cargo", "install", "--locked", "cargo-mutants", "--version", CARGO_MUTANTS_VERSION], check=True)
    files = ["crates/codegen/src/attributes.rs", "src/constant.rs", "src/pattern.rs", "src/pointer.rs",
             "src/private/*.rs", "src/validation/*.rs"]
    command = ["cargo", "mutants", "--workspace", "--timeout", "300", "--build-timeout", "600",
               "--test-package", "jerry-contracts", "--test-package", "jerry-contracts-conformance"]
    if not any(a in ("-f", "--file") for a in args):
        for file in files:
            command += ["-f", file]
    command += args
    command += ["--"] + [arg for gate in GATES for arg in ("--test", gate)]
    env = dict(os.environ, CARGO_PROFILE_DEV_DEBUG="0", CARGO_PROFILE_TEST_DEBUG="0")
    print(" ".join(command), flush=True)
    sys.exit(run(command, env=env).returncode)


def main():
    # A terminated run still restores the file it broke (`finally` runs on SystemExit).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if len(sys.argv) < 2 or sys.argv[1] not in ("holes", "cargo"):
        sys.exit(__doc__)
    if sys.argv[1] == "holes":
        holes(sys.argv[2:])
    else:
        rest = sys.argv[2:]
        cargo_mutants(rest[1:] if rest[:1] == ["--"] else rest)


if __name__ == "__main__":
    main()
