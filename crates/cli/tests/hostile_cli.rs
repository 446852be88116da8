//! The command line under hostile conditions: directory walks with link cycles, broken links,
//! FIFOs and unreadable entries; inputs without end; readers that go away and disks that are
//! full; file names that try to forge a verdict; inputs that hold no document; bad `--root`,
//! `--schema` and `--to`; duplicate members. Each case must end in a clear message and the
//! documented exit status (README "Exit codes"), never a hang, a panic (exit 101) or a skipped
//! input. NDJSON streams of broken lines are in `hostile_ndjson.rs`.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_jerry-contracts");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn researcher_fixture() -> Vec<u8> {
    std::fs::read(repo().join("tests/fixtures/agents/ps/researcher_output/valid/maximal.json")).unwrap()
}

/// Waits for `child` while reading its output, failing the test (and killing it) if it is still
/// running after `limit`: a bound against a hang, far beyond what the command needs, not a
/// measure of its speed.
fn finish(mut child: Child, limit: Duration) -> Output {
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let mut waited = Duration::ZERO;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if waited > limit {
            let _ = child.kill();
            panic!("the command still ran after {limit:?}: a hang");
        }
        std::thread::sleep(Duration::from_millis(20));
        waited += Duration::from_millis(20);
    };
    Output { status, stdout: stdout.join().unwrap(), stderr: stderr.join().unwrap() }
}

/// Runs the command with no standard input, and the status, standard output and error.
fn run(args: &[&str]) -> (i32, String, String) {
    let child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let output = finish(child, Duration::from_secs(120));
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Runs the command with `input` on standard input.
fn run_with_input(args: &[&str], input: Vec<u8>) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = finish(child, Duration::from_secs(120));
    writer.join().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn json_lines(stdout: &str) -> Vec<Value> {
    stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))).collect()
}

/// The `source` of every JSON verdict line, as paths relative to `dir`.
fn sources(stdout: &str, dir: &Path) -> Vec<String> {
    let prefix = format!("{}/", dir.display());
    json_lines(stdout).iter().map(|l| l["source"].as_str().unwrap().trim_start_matches(&prefix).to_owned()).collect()
}

// ---------------------------------------------------------------------------------------------
// The directory walk
// ---------------------------------------------------------------------------------------------

#[cfg(unix)]
/// The `n`th requirement id of the pattern `^REQ-[A-Z]{3}-\\d{3}$` (17 576 000 of them).
fn requirement_id(n: usize) -> String {
    let letter = |k: usize| char::from(b'A' + u8::try_from(k % 26).unwrap());
    let block = n / 1000;
    format!("REQ-{}{}{}-{:03}", letter(block / 676), letter(block / 26), letter(block), n % 1000)
}

#[test]
fn link_cycles_are_walked_once_and_directory_links_only_with_follow() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    std::fs::create_dir_all(tree.join("sub")).unwrap();
    std::fs::write(tree.join("a.json"), researcher_fixture()).unwrap();
    std::fs::write(tree.join("sub/b.json"), researcher_fixture()).unwrap();
    symlink(".", tree.join("self")).unwrap();
    symlink(".", tree.join("sub/self")).unwrap();
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(outside.join("c.json"), researcher_fixture()).unwrap();
    symlink(&outside, tree.join("out")).unwrap();
    let tree_arg = tree.to_str().unwrap();

    let (status, stdout, stderr) = run(&["validate", "--format", "json", tree_arg]);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(sources(&stdout, &tree), ["a.json", "sub/b.json"], "{stderr}");
    assert!(stderr.contains("out: a link to a directory, not followed (pass --follow)"), "{stderr}");

    let (status, stdout, stderr) = run(&["validate", "--format", "json", "--follow", tree_arg]);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(sources(&stdout, &tree), ["a.json", "out/c.json", "sub/b.json"], "{stderr}");
    assert!(stderr.contains("self: a link back to"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn a_broken_entry_is_an_io_error_and_every_other_file_is_still_judged() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.json"), researcher_fixture()).unwrap();
    symlink(dir.path().join("nowhere.json"), dir.path().join("b_dangling.json")).unwrap();
    std::fs::write(dir.path().join("c_invalid.json"), b"{\"agent_id\": \"ps-researcher\"}").unwrap();
    let (status, stdout, stderr) = run(&["validate", "--format", "json", dir.path().to_str().unwrap()]);
    assert_eq!(status, 2, "an entry that cannot be read: {stderr}");
    assert!(stderr.contains("b_dangling.json"), "{stderr}");
    assert_eq!(sources(&stdout, dir.path()), ["a.json", "c_invalid.json"]);
    assert_eq!(json_lines(&stdout)[1]["valid"], false);
}

#[cfg(unix)]
#[test]
fn an_unreadable_subdirectory_is_an_io_error_and_the_rest_is_judged() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let locked = dir.path().join("b_locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::write(locked.join("x.json"), researcher_fixture()).unwrap();
    std::fs::write(dir.path().join("c.json"), b"{}").unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let readable_anyway = std::fs::read_dir(&locked).is_ok(); // running as root
    let (status, stdout, stderr) = run(&["validate", "--format", "json", dir.path().to_str().unwrap()]);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    if readable_anyway {
        assert_eq!(sources(&stdout, dir.path()), ["b_locked/x.json", "c.json"]);
        return;
    }
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains("b_locked"), "{stderr}");
    assert_eq!(sources(&stdout, dir.path()), ["c.json"], "the file after it is judged");
}

#[cfg(unix)]
#[test]
fn a_fifo_met_during_a_walk_is_skipped_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("a_fifo.json");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // no mkfifo on this machine
    }
    std::fs::write(dir.path().join("b.json"), researcher_fixture()).unwrap();
    let (status, stdout, stderr) = run(&["validate", "--format", "json", dir.path().to_str().unwrap()]);
    assert_eq!(status, 0, "{stderr}");
    assert!(stderr.contains("a_fifo.json: not a regular file"), "{stderr}");
    assert_eq!(sources(&stdout, dir.path()), ["b.json"]);
}

// ---------------------------------------------------------------------------------------------
// Bounded input
// ---------------------------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn an_endless_input_stops_at_the_limit() {
    // /dev/zero never ends: read whole, or as one NDJSON line that never ends.
    let (status, stdout, stderr) = run(&["validate", "--format", "json", "--max-bytes", "1M", "/dev/zero"]);
    assert_eq!(status, 1, "{stderr}");
    let line = &json_lines(&stdout)[0];
    assert_eq!(line["errors"][0]["error_code"], "SCH-015");
    assert!(line["errors"][0]["message"].as_str().unwrap().contains("limit of 1048576 bytes"));
    let (status, stdout, stderr) = run(&["validate", "--format", "json", "--ndjson", "--max-bytes", "1M", "/dev/zero"]);
    assert_eq!(status, 2, "the rest of the stream is not read: {stderr}");
    assert_eq!(json_lines(&stdout)[0]["source"], "/dev/zero:1");
    assert!(stderr.contains("line 1 is over the limit of 1048576 bytes"), "{stderr}");
    let (status, _, stderr) = run(&["migrate", "--max-bytes", "1K", "/dev/zero"]);
    assert_eq!(status, 1, "{stderr}");
    assert!(stderr.contains("over the limit of 1024 bytes"), "{stderr}");
}

#[test]
fn an_ndjson_line_over_the_limit_is_reported_after_the_lines_before_it() {
    let good: Vec<u8> = researcher_fixture().into_iter().filter(|b| *b != b'\n').collect();
    let stream = [good.as_slice(), b"\n", &vec![b' '; 5000], b"x\n", &good, b"\n"].concat();
    let (status, stdout, stderr) =
        run_with_input(&["validate", "--format", "json", "--ndjson", "--max-bytes", "4K", "-"], stream);
    assert_eq!(status, 2, "{stderr}");
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_eq!(lines[0]["valid"], true);
    assert_eq!(lines[1]["source"], "<stdin>:2");
    assert_eq!(lines[1]["errors"][0]["error_code"], "SCH-015");
    assert!(stderr.contains("line 2 is over the limit of 4096 bytes"), "{stderr}");
}

// ---------------------------------------------------------------------------------------------
// Output: readers that go away, disks that are full, names that forge lines
// ---------------------------------------------------------------------------------------------

/// Runs `args` with standard output on a pipe whose reader takes one line and goes away.
fn reader_goes_away(args: &[&str]) -> (i32, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    let _ = stdout.read(&mut first).unwrap();
    drop(stdout);
    let output = finish(child, Duration::from_secs(120));
    (output.status.code().unwrap_or(-1), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn a_reader_that_goes_away_is_a_quiet_stop_for_every_command() {
    let fixtures = repo().join("tests/fixtures");
    let schemas = repo().join("schemas");
    let (old, new) = (schemas.join("common/error.json"), schemas.join("agents/ps/researcher_output.json"));
    let commands: Vec<Vec<String>> = vec![
        vec!["validate".into(), fixtures.display().to_string()],
        vec!["validate".into(), "--format".into(), "json".into(), fixtures.display().to_string()],
        vec!["list".into()],
        vec!["schema".into(), "ps-researcher".into()],
        vec!["example".into(), "ps-researcher".into()],
        vec!["diff".into(), old.display().to_string(), new.display().to_string()],
        vec![
            "lint".into(),
            "--schemas".into(),
            schemas.display().to_string(),
            "--fixtures".into(),
            fixtures.display().to_string(),
        ],
    ];
    for command in commands {
        let args: Vec<&str> = command.iter().map(String::as_str).collect();
        let (status, stderr) = reader_goes_away(&args);
        assert!(status == 0 || status == 1, "{command:?}: exit {status} (101 is a panic): {stderr}");
        assert!(stderr.is_empty(), "{command:?}: a quiet stop, yet: {stderr}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_exit_2_with_a_message_for_every_command() {
    let fixtures = repo().join("tests/fixtures");
    let schemas = repo().join("schemas");
    let researcher = fixtures.join("agents/ps/researcher_output/valid/maximal.json");
    let v10 = fixtures.join("session_context/v1.0.0/valid/maximal.json");
    let (old, new) = (schemas.join("common/error.json"), schemas.join("common/error.json"));
    let commands: Vec<Vec<String>> = vec![
        vec!["validate".into(), researcher.display().to_string()],
        vec!["migrate".into(), v10.display().to_string()],
        vec!["list".into()],
        vec!["schema".into(), "ps-researcher".into()],
        vec!["example".into(), "ps-researcher".into()],
        vec!["diff".into(), old.display().to_string(), new.display().to_string()],
        vec![
            "lint".into(),
            "--schemas".into(),
            schemas.display().to_string(),
            "--fixtures".into(),
            fixtures.display().to_string(),
        ],
    ];
    for command in commands {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let child =
            Command::new(BIN).args(&command).stdin(Stdio::null()).stdout(full).stderr(Stdio::piped()).spawn().unwrap();
        let output = finish(child, Duration::from_secs(120));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{command:?}: {stderr}");
        assert!(stderr.contains("cannot write the output"), "{command:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{command:?}: {stderr}");
    }
}

#[cfg(unix)]
#[test]
fn a_file_name_cannot_forge_a_verdict_in_human_output() {
    let dir = tempfile::tempdir().unwrap();
    let name = "x.json: valid (researcher)\n\u{1b}[2Jforged.json";
    std::fs::write(dir.path().join(name), b"{}").unwrap();
    let (status, stdout, _) = run(&["validate", dir.path().to_str().unwrap()]);
    assert_eq!(status, 1);
    assert!(!stdout.contains('\u{1b}'), "{stdout}");
    let verdicts: Vec<&str> = stdout.lines().filter(|l| l.ends_with(')') && l.contains(": ")).collect();
    assert_eq!(verdicts.len(), 1, "one document, one verdict line: {stdout}");
    assert!(verdicts[0].contains("\\n\\u{1b}[2Jforged.json: invalid"), "{stdout}");
    // JSON output relays the name as it is.
    let (_, stdout, _) = run(&["validate", "--format", "json", dir.path().to_str().unwrap()]);
    assert!(json_lines(&stdout)[0]["source"].as_str().unwrap().ends_with(name));
}

// ---------------------------------------------------------------------------------------------
// Exit codes and messages
// ---------------------------------------------------------------------------------------------

#[test]
fn an_input_without_documents_is_exit_2_unless_allowed() {
    let empty = tempfile::tempdir().unwrap();
    let dir = empty.path().to_str().unwrap();
    let (status, _, stderr) = run(&["validate", dir]);
    assert_eq!(status, 2);
    assert!(stderr.contains("no documents"), "{stderr}");
    assert_eq!(run(&["validate", "--allow-empty", dir]).0, 0);
    let (status, _, stderr) = run_with_input(&["validate", "--ndjson", "-"], b"\n  \n\r\n".to_vec());
    assert_eq!(status, 2, "blank NDJSON");
    assert!(stderr.contains("no documents"), "{stderr}");
    assert_eq!(run_with_input(&["validate", "--ndjson", "-"], Vec::new()).0, 2, "empty stdin");
    assert_eq!(run_with_input(&["validate", "--ndjson", "--allow-empty", "-"], Vec::new()).0, 0);
    // Empty standard input read whole is one document, and an empty one.
    let (status, stdout, _) = run_with_input(&["validate", "-"], Vec::new());
    assert_eq!(status, 1);
    assert!(stdout.contains("the document is empty"), "{stdout}");
}

#[test]
fn a_missing_root_and_an_unknown_schema_are_usage_errors() {
    let researcher = repo().join("tests/fixtures/agents/ps/researcher_output/valid/maximal.json");
    let file = researcher.to_str().unwrap();
    let (status, stdout, stderr) = run(&["validate", "--root", "/no/such/root", file]);
    assert_eq!(status, 2);
    assert!(stdout.is_empty() && stderr.contains("--root /no/such/root"), "{stderr}");
    let (status, stdout, stderr) = run(&["validate", "--schema", "no-such-schema", file]);
    assert_eq!(status, 2);
    assert!(stdout.is_empty() && stderr.contains("--schema no-such-schema"), "{stderr}");
}

#[test]
fn migrate_keeps_the_worst_status_and_says_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let not_utf8 = dir.path().join("latin1.json");
    std::fs::write(&not_utf8, b"{\"schema_version\": \"1.0.0\", \"x\": \"caf\xE9\"}").unwrap();
    let missing = dir.path().join("missing.json");
    let (status, _, stderr) = run(&["migrate", missing.to_str().unwrap(), not_utf8.to_str().unwrap()]);
    assert_eq!(status, 2, "the I/O error's 2 is kept over the later 1: {stderr}");
    assert!(stderr.contains("latin1.json: not JSON") && stderr.contains("not UTF-8"), "{stderr}");
    let v10 = repo().join("tests/fixtures/session_context/v1.0.0/valid/maximal.json");
    let (status, _, stderr) = run(&["migrate", "--to", "1.0.0", v10.to_str().unwrap()]);
    assert_eq!(status, 1);
    assert!(stderr.contains("cannot migrate to 1.0.0: the only migration target is 1.1.0"), "{stderr}");
    assert!(!stderr.contains("supported targets are 1.0.0"), "{stderr}");
}

#[test]
fn a_duplicate_member_is_invalid_through_the_command_line() {
    let duplicated = br#"{"agent_id": "ps-researcher", "agent_id": "ps-analyst"}"#.to_vec();
    for args in [&["validate", "--format", "json", "-"][..], &["validate", "--format", "json", "--ndjson", "-"]] {
        let (status, stdout, _) = run_with_input(args, duplicated.clone());
        assert_eq!(status, 1, "{args:?}");
        assert_eq!(json_lines(&stdout)[0]["errors"][0]["error_code"], "SCH-014", "{args:?}");
    }
    // A declared member named twice, and a member named twice inside an undeclared one, in a
    // document otherwise valid: read whole and as an NDJSON line.
    for (tail, pointer) in [
        (&br#", "research_topic": "again"}"#[..], "/research_topic"),
        (br#", "x-note": {"a": 1, "a": 2}}"#, "/x-note/a"),
    ] {
        let mut researcher: Vec<u8> = researcher_fixture().into_iter().filter(|b| *b != b'\n').collect();
        while researcher.last().is_some_and(|b| *b != b'}') {
            researcher.pop();
        }
        researcher.pop(); // the closing brace
        researcher.extend_from_slice(tail);
        for args in [&["validate", "--format", "json", "-"][..], &["validate", "--format", "json", "--ndjson", "-"]] {
            let (status, stdout, _) = run_with_input(args, researcher.clone());
            assert_eq!(status, 1, "{args:?} {pointer}");
            let line = &json_lines(&stdout)[0];
            assert_eq!(line["errors"][0]["error_code"], "SCH-014", "{line}");
            assert_eq!(line["errors"][0]["path"], pointer, "{line}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Requirement ids learned across a long stream
// ---------------------------------------------------------------------------------------------

#[test]
fn requirement_ids_learned_from_a_long_stream_serve_the_documents_after_them() {
    let template: Value = serde_json::from_slice(
        &std::fs::read(repo().join("tests/fixtures/agents/nse/requirements_output/valid/seed_example_2.json")).unwrap(),
    )
    .unwrap();
    let mut risk: Value = serde_json::from_slice(
        &std::fs::read(repo().join("tests/fixtures/agents/nse/risk_output/valid/maximal.json")).unwrap(),
    )
    .unwrap();
    risk["risks"][1].as_object_mut().unwrap().remove("traced_to_requirements");
    let mut stream = Vec::new();
    let mut risk_before = risk.clone();
    risk_before["risks"][0]["traced_to_requirements"] = serde_json::json!([requirement_id(0)]);
    // Judged before any id is known: no reference is judged.
    stream.extend(serde_json::to_vec(&risk_before).unwrap());
    stream.push(b'\n');
    // Two windows and more (4096 lines each): learning crosses the window the workers judge
    // ahead. The cost of learning is counted in the root package's tests/scaling.rs.
    const DOCUMENTS: usize = 5_000;
    for n in 0..DOCUMENTS {
        let mut document = template.clone();
        for (i, requirement) in document["requirements"].as_array_mut().unwrap().iter_mut().enumerate() {
            requirement["id"] = Value::from(requirement_id(n * 3 + i));
        }
        stream.extend(serde_json::to_vec(&document).unwrap());
        stream.push(b'\n');
        if n == 5 {
            // In the first window, just after the ids it names were learned.
            let mut early = risk.clone();
            early["risks"][0]["traced_to_requirements"] = serde_json::json!([requirement_id(17), requirement_id(18)]);
            stream.extend(serde_json::to_vec(&early).unwrap());
            stream.push(b'\n');
        }
    }
    let mut after = risk.clone();
    after["risks"][0]["traced_to_requirements"] =
        serde_json::json!([requirement_id(3 * DOCUMENTS - 1), requirement_id(3 * DOCUMENTS)]);
    stream.extend(serde_json::to_vec(&after).unwrap());
    stream.push(b'\n');
    let (status, stdout, stderr) = run_with_input(&["validate", "--format", "json", "--ndjson", "-"], stream);
    assert_eq!(status, 0, "{stderr}");
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), DOCUMENTS + 3);
    let ref_002 = |line: &Value| -> Vec<String> {
        line["errors"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["error_code"] == "REF-002")
            .map(|e| e["actual"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(ref_002(&lines[0]).is_empty(), "nothing known yet");
    // Line 8 (the risk after the 6th document, ids 0..=17 known): 18 is not known yet.
    assert_eq!(ref_002(&lines[7]), [requirement_id(18)], "{}", lines[7]);
    let last = &lines[DOCUMENTS + 2];
    assert_eq!(ref_002(last), [requirement_id(3 * DOCUMENTS)], "{last}");
    let message = last["errors"].as_array().unwrap().iter().find(|e| e["error_code"] == "REF-002").unwrap();
    assert!(message["message"].as_str().unwrap().contains(&format!("among the {} known", 3 * DOCUMENTS)), "{message}");
}

// ---------------------------------------------------------------------------------------------
// The corpus commands: docs, lint, diff
// ---------------------------------------------------------------------------------------------

#[test]
fn docs_writes_into_a_foreign_directory_only_with_force_and_keeps_what_is_not_its_own() {
    let out = tempfile::tempdir().unwrap();
    std::fs::write(out.path().join("notes.md"), b"mine\n").unwrap();
    let args = |force: bool| docs_args(out.path(), force);
    let refused: Vec<String> = args(false);
    let (status, _, stderr) = run(&refused.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains("--force"), "{stderr}");
    let forced: Vec<String> = args(true);
    let (status, stdout, stderr) = run(&forced.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(status, 0, "{stderr}");
    assert!(stdout.starts_with("wrote "), "{stdout}");
    assert_eq!(std::fs::read(out.path().join("notes.md")).unwrap(), b"mine\n");
    // Now the directory holds generated pages: no --force needed, and notes.md still kept.
    let (status, _, stderr) = run(&refused.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(std::fs::read(out.path().join("notes.md")).unwrap(), b"mine\n");
}

#[cfg(unix)]
#[test]
fn lint_and_docs_end_on_a_corpus_with_link_cycles() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let (schemas, fixtures) = (dir.path().join("schemas"), dir.path().join("fixtures"));
    for d in [&schemas, &fixtures] {
        std::fs::create_dir(d).unwrap();
        symlink(".", d.join("self1")).unwrap();
        symlink(".", d.join("self2")).unwrap();
    }
    let (schemas, fixtures) = (schemas.to_str().unwrap(), fixtures.to_str().unwrap());
    let (status, _, stderr) = run(&["lint", "--schemas", schemas, "--fixtures", fixtures]);
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains("no schemas"), "{stderr}");
    let out = dir.path().join("out");
    let (status, _, stderr) =
        run(&["docs", "--out", out.to_str().unwrap(), "--schemas", schemas, "--fixtures", fixtures]);
    assert!(status != 101 && !stderr.contains("panicked"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn diff_refuses_a_file_that_never_ends() {
    let schema = repo().join("schemas/common/error.json");
    let (status, _, stderr) = run(&["diff", "/dev/zero", schema.to_str().unwrap()]);
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains("/dev/zero") && stderr.contains("not a regular file"), "{stderr}");
}

// ---------------------------------------------------------------------------------------------
// Issue 26: the second round of hostile input
// ---------------------------------------------------------------------------------------------

/// The `docs` arguments writing this checkout's reference to `out`.
fn docs_args(out: &Path, force: bool) -> Vec<String> {
    let repo = repo();
    let mut args = vec![
        "docs".to_owned(),
        "--out".to_owned(),
        out.display().to_string(),
        "--schemas".to_owned(),
        repo.join("schemas").display().to_string(),
        "--fixtures".to_owned(),
        repo.join("tests/fixtures").display().to_string(),
        "--matrix".to_owned(),
        repo.join("data/cross_pollination_matrix.json").display().to_string(),
    ];
    if force {
        args.push("--force".to_owned());
    }
    args
}

fn run_owned(args: &[String]) -> (i32, String, String) {
    run(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// Every file below `dir` with its bytes, links as their targets.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.unwrap();
        let bytes = if entry.file_type().is_symlink() {
            std::fs::read_link(entry.path()).unwrap().display().to_string().into_bytes()
        } else if entry.file_type().is_file() {
            std::fs::read(entry.path()).unwrap()
        } else {
            Vec::new()
        };
        out.push((entry.path().to_owned(), bytes));
    }
    out
}

#[test]
fn docs_never_deletes_another_checkouts_pages_below_its_output() {
    // A home-like directory with the user's files and a checkout's generated reference below it.
    let home = tempfile::tempdir().unwrap();
    let home = home.path().canonicalize().unwrap();
    std::fs::write(home.join("notes.md"), b"mine\n").unwrap();
    let reference = home.join("work/checkout/docs/schemas");
    let (status, _, stderr) = run_owned(&docs_args(&reference, false));
    assert_eq!(status, 0, "{stderr}");
    let before = snapshot(&home.join("work"));
    assert!(before.len() > 40);
    // `--out HOME`: not empty and no manifest: refused without --force, and nothing touched.
    let (status, _, stderr) = run_owned(&docs_args(&home, false));
    assert_eq!(status, 2, "{stderr}");
    assert_eq!(snapshot(&home.join("work")), before);
    // With --force it writes its pages beside the user's files, and removes nothing below.
    let (status, _, stderr) = run_owned(&docs_args(&home, true));
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(snapshot(&home.join("work")), before, "the other checkout's pages are untouched");
    assert_eq!(std::fs::read(home.join("notes.md")).unwrap(), b"mine\n");
    // `--out docs` (a slip for docs/schemas): the reference below it is not moved.
    let docs = home.join("work/checkout/docs");
    let (status, _, stderr) = run_owned(&docs_args(&docs, false));
    assert_eq!(status, 2, "{stderr}");
    assert_eq!(snapshot(&home.join("work")), before);
}

#[cfg(unix)]
#[test]
fn docs_refuses_a_link_however_the_output_is_spelled() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let target = dir.join("target");
    std::fs::create_dir(&target).unwrap();
    std::os::unix::fs::symlink(&target, dir.join("link")).unwrap();
    let link = dir.join("link").display().to_string();
    for spelled in [link.clone(), format!("{link}/"), format!("{link}/."), format!("{link}/sub")] {
        let (status, _, stderr) = run_owned(&docs_args(Path::new(&spelled), true));
        assert_eq!(status, 2, "{spelled}: {stderr}");
        assert!(stderr.contains("symbolic link"), "{spelled}: {stderr}");
        assert_eq!(std::fs::read_dir(&target).unwrap().count(), 0, "{spelled}: written through the link");
    }
}

#[cfg(unix)]
#[test]
fn a_report_is_bounded_in_memory_whatever_the_document_holds() {
    // 500 000 findings that are not objects, about a megabyte: before the cap this took 1.35 GiB.
    let mut doc: Value = serde_json::from_slice(&researcher_fixture()).unwrap();
    doc["findings"] = Value::Array(vec![Value::from(1); 500_000]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("many.json");
    std::fs::write(&file, serde_json::to_vec(&doc).unwrap()).unwrap();
    // The whole process within 256 MiB of address space (the binary and its threads included).
    let script = format!("ulimit -v 262144 && exec '{BIN}' validate --format json '{}'", file.display());
    let child = Command::new("sh").arg("-c").arg(script).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let output = finish(child, Duration::from_secs(120));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let line = &json_lines(&String::from_utf8_lossy(&output.stdout))[0];
    let errors = line["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1001);
    assert_eq!(errors[1000]["error_code"], "SCH-016");
    // The cap is an option.
    let (status, stdout, _) = run(&["validate", "--format", "json", "--max-records", "2", file.to_str().unwrap()]);
    assert_eq!(status, 1);
    assert_eq!(json_lines(&stdout)[0]["errors"].as_array().unwrap().len(), 3);
}

#[cfg(unix)]
#[test]
fn an_ndjson_stream_of_heavy_reports_stays_within_its_bound() {
    // 300 lines of 20 000 errors each: 6 million records found, 300 000 listed.
    let mut doc: Value = serde_json::from_slice(&researcher_fixture()).unwrap();
    doc["findings"] = Value::Array(vec![Value::from(1); 20_000]);
    let line = serde_json::to_vec(&doc).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("heavy.ndjson");
    let mut stream = Vec::new();
    for _ in 0..300 {
        stream.extend_from_slice(&line);
        stream.push(b'\n');
    }
    std::fs::write(&file, stream).unwrap();
    let script = format!("ulimit -v 524288 && exec '{BIN}' validate --format json '{}'", file.display());
    let child = Command::new("sh").arg("-c").arg(script).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let output = finish(child, Duration::from_secs(300));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let lines = json_lines(&String::from_utf8_lossy(&output.stdout));
    assert_eq!(lines.len(), 300);
    assert!(lines.iter().enumerate().all(|(i, l)| l["source"].as_str().unwrap().ends_with(&format!(":{}", i + 1))));
}

#[test]
fn an_ndjson_line_exactly_at_the_limit_passes_with_either_line_end() {
    let good: Vec<u8> = researcher_fixture().into_iter().filter(|b| *b != b'\n' && *b != b'\r').collect();
    let limit = good.len().to_string();
    for end in [&b"\n"[..], b"\r\n"] {
        let stream = [good.as_slice(), end, &good, end].concat();
        let (status, stdout, stderr) =
            run_with_input(&["validate", "--format", "json", "--ndjson", "--max-bytes", &limit, "-"], stream);
        assert_eq!(status, 0, "{end:?}: {stderr}");
        assert_eq!(json_lines(&stdout).len(), 2);
    }
    // One byte more is over, whichever line end follows.
    let over = (good.len() - 1).to_string();
    let (status, _, _) = run_with_input(
        &["validate", "--format", "json", "--ndjson", "--max-bytes", &over, "-"],
        [good.as_slice(), b"\r\n"].concat(),
    );
    assert_eq!(status, 2);
}

#[cfg(unix)]
#[test]
fn a_link_to_a_fifo_or_a_device_in_a_walk_is_skipped_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    std::os::unix::fs::symlink(&fifo, dir.path().join("a_link_to_fifo.json")).unwrap();
    std::os::unix::fs::symlink("/dev/null", dir.path().join("a_link_to_device.json")).unwrap();
    std::fs::write(dir.path().join("b.json"), researcher_fixture()).unwrap();
    let (status, stdout, stderr) = run(&["validate", "--format", "json", dir.path().to_str().unwrap()]);
    assert_eq!(status, 0, "{stderr}");
    assert!(stderr.contains("a_link_to_fifo.json: a link to a file that is not regular"), "{stderr}");
    assert!(stderr.contains("a_link_to_device.json: a link to a file that is not regular"), "{stderr}");
    assert_eq!(sources(&stdout, dir.path()), ["b.json"]);
}

#[test]
fn a_schema_map_naming_a_file_twice_is_a_usage_error_naming_both_lines() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.json"), researcher_fixture()).unwrap();
    std::fs::write(
        dir.path().join("schemas.map"),
        "# two lines, one file\na.json agents/ps/researcher_output\n\na.json agents/ps/analyst_output\n",
    )
    .unwrap();
    let (status, _, stderr) = run(&["validate", dir.path().to_str().unwrap()]);
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains("schemas.map:4: a.json is named again (first on line 2)"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn names_that_are_not_utf8_or_hold_invisible_characters_are_shown_escaped_and_distinct() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let names: [&[u8]; 4] =
        [b"bad\xff.json", b"bad\xfe.json", "zw\u{200b}.json".as_bytes(), "bom\u{feff}.json".as_bytes()];
    for name in names {
        std::fs::write(dir.path().join(std::ffi::OsStr::from_bytes(name)), researcher_fixture()).unwrap();
    }
    let (status, stdout, stderr) = run(&["validate", dir.path().to_str().unwrap()]);
    assert_eq!(status, 0, "{stderr}");
    for shown in ["bad\\x{ff}.json", "bad\\x{fe}.json", "zw\\u{200b}.json", "bom\\u{feff}.json"] {
        assert!(stdout.contains(&format!("{shown}: valid")), "{shown}: {stdout}");
    }
    assert!(!stdout.contains('\u{200b}') && !stdout.contains('\u{feff}') && !stdout.contains('\u{fffd}'), "{stdout}");
    // JSON output relays UTF-8 names as they are and shows the others' bytes.
    let (_, stdout, _) = run(&["validate", "--format", "json", dir.path().to_str().unwrap()]);
    let shown: Vec<String> = sources(&stdout, dir.path());
    assert!(
        shown.contains(&"bad\\x{ff}.json".to_owned()) && shown.contains(&"bad\\x{fe}.json".to_owned()),
        "{shown:?}"
    );
    assert!(shown.contains(&"zw\u{200b}.json".to_owned()), "{shown:?}");
}

#[test]
fn utf16_and_utf32_input_is_named_as_such() {
    let text = String::from_utf8(researcher_fixture()).unwrap();
    let utf16le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let utf16be_bom: Vec<u8> = [0xFE, 0xFF].into_iter().chain(text.encode_utf16().flat_map(u16::to_be_bytes)).collect();
    let utf32le: Vec<u8> = text.chars().flat_map(|c| u32::from(c).to_le_bytes()).collect();
    for (input, named) in [
        (utf16le, "UTF-16 (little-endian)"),
        (utf16be_bom, "UTF-16 (big-endian, with a byte order mark)"),
        (utf32le, "UTF-32 (little-endian)"),
    ] {
        let (status, stdout, stderr) = run_with_input(&["validate", "-"], input);
        assert_eq!(status, 1, "{stderr}");
        assert!(stdout.contains(named), "{named}: {stdout}");
    }
}

#[test]
fn smaller_usage_errors_exit_2() {
    for schema in [
        "agents/ps/researcher_output#",
        "agents/ps/researcher_output#/title",
        "agents/ps/researcher_output#definitions",
    ] {
        let (status, _, stderr) = run_with_input(&["validate", "--schema", schema, "-"], researcher_fixture());
        assert_eq!(status, 2, "{schema}: {stderr}");
        assert!(stderr.contains("has no schema at"), "{stderr}");
    }
    let missing = tempfile::tempdir().unwrap();
    let (status, _, stderr) = run(&[
        "docs",
        "--out",
        missing.path().join("out").to_str().unwrap(),
        "--schemas",
        missing.path().join("none").to_str().unwrap(),
    ]);
    assert_eq!(status, 2, "{stderr}");
    let (lint_status, _, _) = run(&["lint", "--schemas", missing.path().join("none").to_str().unwrap()]);
    assert_eq!(lint_status, status, "docs and lint agree on a missing input");
}

#[cfg(target_os = "linux")]
#[test]
fn help_and_version_on_a_full_disk_exit_2() {
    for flag in ["--help", "--version"] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let output = Command::new(BIN).arg(flag).stdout(full).stderr(Stdio::piped()).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{flag}");
    }
}
