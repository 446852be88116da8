//! The stable-Rust harness: every fuzz target is also a plain binary (built without the
//! `libfuzzer` feature) that replays files or runs a seeded mutation loop for a bounded time.
//!
//! ```text
//! validate [OPTIONS] [FILE|DIR]...      replay: run each file once (a crash exits 1)
//! validate --seconds N [OPTIONS]        fuzz: mutate the corpus for N seconds
//!
//! --corpus DIR     corpus directory (repeatable; default fuzz/corpus/<target>)
//! --artifacts DIR  where crashing inputs go (default fuzz/artifacts/<target>)
//! --seed S         the run's seed (default: from the clock, printed)
//! --max-len N      longest generated input in bytes (default 65536)
//! --timeout S      an input running longer than S seconds is a hang (default 10)
//! ```
//!
//! A fuzzing run is a supervisor and a worker process. The worker generates input `i` from the
//! seed and `i` alone ([`crate::mutate::input`]), tells the supervisor `i` before running it,
//! and catches panics itself (`catch_unwind`), saving each crashing input as
//! `crash-<hash>`. When the worker dies (a stack overflow, an abort) or falls silent for longer
//! than the timeout (a hang), the supervisor makes input `i` again, saves it (`crash-` or
//! `timeout-<hash>`), and starts a new worker after it. The summary line at the end is the run's
//! result: `#<executions> DONE … exec/s: <rate> crashes: <n> timeouts: <n>`.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Mutex;
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};
use std::{env, fs, thread};

use crate::mutate::{self, Entry};

/// What the command line asked for.
#[derive(Debug, Clone)]
struct Args {
    seconds: Option<u64>,
    corpus: Vec<PathBuf>,
    artifacts: PathBuf,
    seed: u64,
    seed_given: bool,
    max_len: usize,
    timeout: u64,
    worker_start: Option<u64>,
    files: Vec<PathBuf>,
}

fn usage(target: &str) -> String {
    format!(
        "usage: {target} [--seconds N] [--corpus DIR]... [--artifacts DIR] [--seed S] [--max-len N] \
         [--timeout S] [FILE|DIR]...\n(see fuzz/src/harness.rs and docs/fuzzing.md)"
    )
}

fn parse(target: &str) -> Result<Args, String> {
    let fuzz_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let clock = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let mut args = Args {
        seconds: None,
        corpus: Vec::new(),
        artifacts: fuzz_dir.join("artifacts").join(target),
        seed: clock,
        seed_given: false,
        max_len: 65_536,
        timeout: 10,
        worker_start: None,
        files: Vec::new(),
    };
    let mut it = env::args_os().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value\n{}", usage(target)));
        let number = |text: std::ffi::OsString, name: &str| {
            text.to_str().and_then(|t| t.parse::<u64>().ok()).ok_or_else(|| format!("{name} takes a number"))
        };
        match arg.to_str() {
            Some("--seconds") => args.seconds = Some(number(value("--seconds")?, "--seconds")?),
            Some("--corpus") => args.corpus.push(value("--corpus")?.into()),
            Some("--artifacts") => args.artifacts = value("--artifacts")?.into(),
            Some("--seed") => {
                args.seed = number(value("--seed")?, "--seed")?;
                args.seed_given = true;
            }
            Some("--max-len") => {
                args.max_len = usize::try_from(number(value("--max-len")?, "--max-len")?).unwrap_or(usize::MAX)
            }
            Some("--timeout") => args.timeout = number(value("--timeout")?, "--timeout")?.max(1),
            Some("--worker") => args.worker_start = Some(number(value("--worker")?, "--worker")?),
            Some("-h" | "--help") => return Err(usage(target)),
            Some(flag) if flag.starts_with("--") => return Err(format!("unknown option {flag}\n{}", usage(target))),
            _ => args.files.push(arg.into()),
        }
    }
    if args.corpus.is_empty() {
        args.corpus.push(fuzz_dir.join("corpus").join(target));
    }
    Ok(args)
}

/// The harness's entry point for the target `target` running `run` on each input.
pub fn main(target: &str, run: fn(&[u8])) -> ExitCode {
    let args = match parse(target) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    match (args.worker_start, args.seconds) {
        (Some(start), _) => worker(target, run, &args, start),
        (None, Some(seconds)) => supervise(target, &args, seconds),
        (None, None) => replay(target, run, &args),
    }
}

/// Every file below `path` (or `path` itself), in name order.
fn files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> =
            fs::read_dir(path).into_iter().flatten().filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for entry in entries {
            files(&entry, out);
        }
    } else if path.is_file() && path.extension().is_none_or(|e| e != "log") {
        out.push(path.to_owned());
    }
}

fn load_corpus(args: &Args) -> Vec<Entry> {
    let mut paths = Vec::new();
    for dir in &args.corpus {
        files(dir, &mut paths);
    }
    paths.into_iter().filter_map(|p| fs::read(p).ok()).map(Entry::new).collect()
}

/// Runs every file once, with the default panic message; exit status 1 when any crashed.
fn replay(target: &str, run: fn(&[u8]), args: &Args) -> ExitCode {
    let mut paths = Vec::new();
    for path in if args.files.is_empty() { &args.corpus } else { &args.files } {
        files(path, &mut paths);
    }
    let started = Instant::now();
    let mut crashed = 0;
    for path in &paths {
        let Ok(data) = fs::read(path) else {
            eprintln!("{target}: cannot read {}", path.display());
            crashed += 1;
            continue;
        };
        if panic::catch_unwind(|| run(&data)).is_err() {
            eprintln!("{target}: CRASH on {}", path.display());
            crashed += 1;
        }
    }
    println!("{target}: replayed {} inputs in {:.1?}: {crashed} crashed", paths.len(), started.elapsed());
    if crashed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// A short, stable name for `data`: FNV-1a, 64 bits, in hex.
fn hash(data: &[u8]) -> String {
    let h = data.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("{h:016x}")
}

fn save(args: &Args, kind: &str, data: &[u8]) -> PathBuf {
    let path = args.artifacts.join(format!("{kind}-{}", hash(data)));
    if let Err(err) = fs::create_dir_all(&args.artifacts).and_then(|()| fs::write(&path, data)) {
        eprintln!("cannot save {}: {err}", path.display());
    }
    path
}

/// The last panic's place and message, kept by the quiet panic hook.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// The worker: runs inputs `start..` until the time is up, printing `i` before input `i`,
/// `CRASH <signature>\t<file>` after a caught panic and `DONE <executions>` at the end.
fn worker(target: &str, run: fn(&[u8]), args: &Args, start: u64) -> ExitCode {
    let corpus = load_corpus(args);
    if corpus.is_empty() {
        eprintln!("{target}: the corpus is empty");
        return ExitCode::from(2);
    }
    panic::set_hook(Box::new(|info| {
        let place = info.location().map_or_else(String::new, |l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        *LAST_PANIC.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(format!("{place}: {message}"));
    }));
    let deadline = Instant::now() + Duration::from_secs(args.seconds.unwrap_or(0));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut seen = BTreeSet::new();
    let mut index = start;
    let mut executions = 0u64;
    while Instant::now() < deadline {
        let data = mutate::input(args.seed, index, &corpus, args.max_len);
        if writeln!(out, "{index}").and_then(|()| out.flush()).is_err() {
            break;
        }
        if panic::catch_unwind(AssertUnwindSafe(|| run(&data))).is_err() {
            let what = LAST_PANIC.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take().unwrap_or_default();
            let path = save(args, "crash", &data);
            // One line per distinct place; the message's first line says what.
            let signature = what.lines().next().unwrap_or_default().chars().take(300).collect::<String>();
            if seen.insert(what.split(": ").next().unwrap_or_default().to_owned()) {
                eprintln!("{target}: CRASH {}\n  {signature}", path.display());
            }
            let _ = writeln!(out, "CRASH {signature}\t{}", path.display());
        }
        index += 1;
        executions += 1;
    }
    let _ = writeln!(out, "DONE {executions}");
    let _ = out.flush();
    ExitCode::SUCCESS
}

/// What the worker said.
enum Said {
    Index(u64),
    Crash(String),
    Done,
}

fn spawn(args: &Args, start: u64, seconds: u64) -> std::io::Result<(Child, mpsc::Receiver<Said>)> {
    let mut command = Command::new(env::current_exe()?);
    command.arg("--worker").arg(start.to_string()).arg("--seconds").arg(seconds.to_string());
    command.arg("--seed").arg(args.seed.to_string()).arg("--max-len").arg(args.max_len.to_string());
    command.arg("--artifacts").arg(&args.artifacts);
    for dir in &args.corpus {
        command.arg("--corpus").arg(dir);
    }
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn()?;
    let stdout = child.stdout.take().ok_or_else(|| std::io::Error::other("no stdout"))?;
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let said = if let Some(crash) = line.strip_prefix("CRASH ") {
                Said::Crash(crash.to_owned())
            } else if line.starts_with("DONE ") {
                Said::Done
            } else {
                match line.parse() {
                    Ok(index) => Said::Index(index),
                    Err(_) => continue,
                }
            };
            if sender.send(said).is_err() {
                break;
            }
        }
    });
    Ok((child, receiver))
}

/// The supervisor: keeps a worker running until `seconds` have passed, and saves the input a
/// worker died or hung on.
fn supervise(target: &str, args: &Args, seconds: u64) -> ExitCode {
    let corpus = load_corpus(args);
    if corpus.is_empty() {
        eprintln!(
            "{target}: the corpus is empty ({}); run scripts/fuzz.sh to seed it",
            args.corpus.iter().map(|c| c.display().to_string()).collect::<Vec<_>>().join(", ")
        );
        return ExitCode::from(2);
    }
    let seed_note = if args.seed_given { "" } else { " (from the clock)" };
    println!(
        "{target}: seed {}{seed_note}, {} corpus files, {seconds} s, max-len {}",
        args.seed,
        corpus.len(),
        args.max_len
    );
    let started = Instant::now();
    let deadline = started + Duration::from_secs(seconds);
    let timeout = Duration::from_secs(args.timeout);
    let mut next = 0u64;
    let mut executions = 0u64;
    let mut crashes: Vec<String> = Vec::new();
    let mut timeouts = 0usize;
    let mut report_at = started + Duration::from_secs(10);
    while Instant::now() < deadline {
        let remaining = deadline.saturating_duration_since(Instant::now()).as_secs().max(1);
        let (mut child, said) = match spawn(args, next, remaining) {
            Ok(spawned) => spawned,
            Err(err) => {
                eprintln!("{target}: cannot start a worker: {err}");
                return ExitCode::from(2);
            }
        };
        let mut current: Option<u64> = None;
        let mut last_heard = Instant::now();
        let mut done = false;
        loop {
            match said.recv_timeout(Duration::from_millis(200)) {
                Ok(Said::Index(index)) => {
                    if current.is_some() {
                        executions += 1;
                    }
                    current = Some(index);
                    last_heard = Instant::now();
                }
                Ok(Said::Crash(line)) => crashes.push(line),
                Ok(Said::Done) => {
                    if current.is_some() {
                        executions += 1;
                    }
                    done = true;
                    break;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if last_heard.elapsed() > timeout {
                        let _ = child.kill();
                        let index = current.unwrap_or(next);
                        let data = mutate::input(args.seed, index, &corpus, args.max_len);
                        let path = save(args, "timeout", &data);
                        eprintln!("{target}: TIMEOUT (over {} s) on input {index}: {}", args.timeout, path.display());
                        timeouts += 1;
                        executions += 1;
                        next = index + 1;
                        break;
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    // The worker is gone without saying DONE: it died on the current input.
                    let status = child.wait().map(|s| s.to_string()).unwrap_or_default();
                    let index = current.unwrap_or(next);
                    let data = mutate::input(args.seed, index, &corpus, args.max_len);
                    let path = save(args, "crash", &data);
                    eprintln!("{target}: the worker died ({status}) on input {index}: {}", path.display());
                    crashes.push(format!("process died ({status})\t{}", path.display()));
                    executions += 1;
                    next = index + 1;
                    break;
                }
            }
            if Instant::now() >= report_at {
                let elapsed = started.elapsed().as_secs_f64();
                println!(
                    "#{executions}\tpulse\texec/s: {:.0}\tcrashes: {}\ttimeouts: {timeouts}\ttime: {elapsed:.0} s",
                    executions as f64 / elapsed,
                    crashes.len()
                );
                report_at += Duration::from_secs(10);
            }
        }
        let _ = child.wait();
        if done {
            break;
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    let distinct: BTreeSet<&str> = crashes.iter().map(|c| c.split('\t').next().unwrap_or_default()).collect();
    println!(
        "#{executions}\tDONE\t{target}\texec/s: {:.0}\tcrashes: {} ({} distinct)\ttimeouts: {timeouts}\ttime: {elapsed:.0} s\tseed: {}",
        executions as f64 / elapsed.max(f64::MIN_POSITIVE),
        crashes.len(),
        distinct.len(),
        args.seed
    );
    for signature in &distinct {
        println!("  crash: {signature}");
    }
    if crashes.is_empty() && timeouts == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
