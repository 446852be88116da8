//! Hostile NDJSON through `jerry-contracts validate --ndjson`: a long stream with broken lines of
//! every kind (each reported with its line number, every other line still judged), and lines of
//! 10 MB (judged, and quoted briefly). The library's own hostile cases are in the root package's
//! `tests/hostile.rs`.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::io::Write;
use std::process::{Command, Stdio};
use std::thread;

use serde_json::Value;

/// Runs `validate --format json --ndjson -` on `stream`, writing standard input from a thread so
/// that a large input and a large output cannot block each other.
fn run(stream: Vec<u8>) -> (i32, Vec<Value>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jerry-contracts"))
        .args(["validate", "--format", "json", "--ndjson", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = thread::spawn(move || stdin.write_all(&stream));
    let output = child.wait_with_output().expect("waits");
    writer.join().expect("the writer ends").expect("stdin is written");
    let stdout = String::from_utf8(output.stdout).expect("the output is UTF-8");
    let lines = stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))).collect();
    (output.status.code().unwrap_or(-1), lines, String::from_utf8_lossy(&output.stderr).into_owned())
}

/// A valid ps-researcher output on one line, with `topic` (raw JSON) as its research topic.
fn researcher(topic: &str) -> Vec<u8> {
    format!(
        concat!(
            r#"{{"agent_id":"ps-researcher","research_topic":{},"#,
            r#""findings":[{{"id":"F-001","summary":"Cross-strapped buses survive one failure.","category":"gap"}}],"#,
            r#""sources":[],"confidence":{{"overall":0.8,"reasoning":"two independent surveys agree"}},"#,
            r#""artifacts":[{{"path":"projects/PROJ-007/research/survey.md","type":"research","format":"markdown"}}]}}"#
        ),
        topic
    )
    .into_bytes()
}

/// The ways a line can fail to be JSON, taken in turn.
fn broken(n: usize) -> Vec<u8> {
    let good = researcher(&format!(r#""topic {n}""#));
    match n % 10 {
        0 => good[..good.len() / 2].to_vec(),                                  // cut short
        1 => ["[".repeat(100_000), "]".repeat(100_000)].concat().into_bytes(), // nested too deep
        2 => [&good[..30], b"\xFF\xFE", &good[30..]].concat(),                 // invalid UTF-8
        3 => researcher("NaN"),                                                // not a JSON number
        4 => [good.as_slice(), b" trailing"].concat(),                         // garbage after the document
        5 => [b"\xEF\xBB\xBF".as_slice(), &good].concat(),                     // a byte order mark
        6 => [good.as_slice(), &good].concat(),                                // two documents on a line
        7 => researcher(r#""unterminated"#),                                   // a string never closed
        8 => researcher("1e400"),                                              // a number past f64
        _ => b"}".to_vec(),                                                    // a stray brace
    }
}

#[test]
fn every_broken_line_of_a_long_stream_is_reported_with_its_number() {
    const LINES: usize = 10_000;
    let mut stream = Vec::new();
    for number in 1..=LINES {
        let line = if number % 100 == 0 { broken(number / 100) } else { researcher(&format!(r#""topic {number}""#)) };
        stream.extend_from_slice(&line);
        // Some lines end in CRLF; it is not part of the document.
        stream.extend_from_slice(if number % 7 == 0 { b"\r\n" } else { b"\n" });
    }
    let (code, lines, stderr) = run(stream);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(lines.len(), LINES, "one verdict per line");
    let mut invalid = Vec::new();
    for (i, verdict) in lines.iter().enumerate() {
        let number = i + 1;
        assert_eq!(verdict["source"], format!("<stdin>:{number}"));
        if verdict["valid"] == false {
            invalid.push(number);
            let errors = verdict["errors"].as_array().unwrap();
            assert_eq!(errors.len(), 1, "line {number}: {verdict}");
            assert_eq!(errors[0]["error_code"], "SCH-012", "line {number}: {verdict}");
            assert!(errors[0]["message"].as_str().unwrap().contains("line 1 column"), "line {number}: {verdict}");
        } else {
            assert_eq!(verdict["errors"], Value::Array(Vec::new()), "line {number}");
        }
    }
    assert_eq!(invalid, (1..=LINES / 100).map(|k| k * 100).collect::<Vec<_>>());
}

#[test]
fn lines_of_10_mb_are_judged_and_quoted_briefly() {
    const SIZE: usize = 10 * 1024 * 1024;
    let text = "0123456789".repeat(SIZE / 10);
    let mut stream = Vec::new();
    // 1: a 10 MB research topic (any string goes there): valid.
    stream.extend_from_slice(&researcher(&format!("\"{text}\"")));
    stream.push(b'\n');
    // 2: a 10 MB finding summary (at most 500 characters): invalid, quoted in 200.
    let long_summary =
        String::from_utf8(researcher(r#""t""#)).unwrap().replace("Cross-strapped buses survive one failure.", &text);
    stream.extend_from_slice(long_summary.as_bytes());
    stream.push(b'\n');
    // 3: a 10 MB string never closed: malformed.
    stream.extend_from_slice(&researcher(&format!("\"{text}")));
    stream.push(b'\n');
    // 4: a blank line, skipped; 5: a short valid document after all that.
    stream.extend_from_slice(b"   \n");
    stream.extend_from_slice(&researcher(r#""t""#));
    let (code, lines, stderr) = run(stream);
    assert_eq!(code, 1, "{stderr}");
    let sources: Vec<&str> = lines.iter().map(|l| l["source"].as_str().unwrap()).collect();
    assert_eq!(sources, ["<stdin>:1", "<stdin>:2", "<stdin>:3", "<stdin>:5"]);
    let valid: Vec<bool> = lines.iter().map(|l| l["valid"].as_bool().unwrap()).collect();
    assert_eq!(valid, [true, false, false, true]);
    let summary = &lines[1]["errors"][0];
    assert_eq!(summary["error_code"], "SCH-005");
    assert_eq!(summary["path"], "/findings/0/summary");
    assert_eq!(summary["actual"], format!("{}…", &text[..200]));
    assert_eq!(lines[2]["errors"][0]["error_code"], "SCH-012");
    for line in &lines {
        assert!(line.to_string().len() < 4096, "a verdict of {} bytes", line.to_string().len());
    }
}
