//! How the command writes: messages to standard error that never fail the command, the mapping
//! of a failed write on standard output to an exit status (a reader that went away is a quiet
//! stop; any other failure is exit 2 with a message), and the escaping of names and messages in
//! human output, so that a file name cannot forge a line or reach the terminal as a control
//! sequence.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::Path;

/// Writes one line to standard error, ignoring a failure (nothing better can be done with it, and
/// a closed standard error must not turn into a panic).
pub fn complain(message: std::fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(message);
    let _ = err.write_all(b"\n");
}

/// `complain!("...", args)`: a line on standard error that cannot fail the command.
#[macro_export]
macro_rules! complain {
    ($($arg:tt)*) => { $crate::output::complain(format_args!($($arg)*)) };
}

/// An exit status of the command: 0 all clean, 1 problems found, 2 usage or I/O error.
pub type Status = u8;

/// The exit status of a command whose verdict is `status` and whose output ended with `written`:
/// the verdict when everything was written or the reader went away early (EPIPE: a quiet stop,
/// as `| head` expects), else exit 2 with a message naming `command`.
pub fn finish(command: &str, status: Status, written: io::Result<()>) -> Status {
    match written {
        Ok(()) => status,
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => status,
        Err(err) => {
            complain!("jerry-contracts {command}: cannot write the output: {err}");
            2
        }
    }
}

/// Whether a write failed because the reader went away.
pub fn is_gone(err: &io::Error) -> bool {
    err.kind() == io::ErrorKind::BrokenPipe
}

/// A character a terminal would act on rather than show, or that reorders or breaks a line:
/// C0 and C1 controls, DEL, the Unicode line and paragraph separators and the bidirectional
/// overrides and isolates.
fn is_unsafe(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every unsafe character written as an escape (`\n`, `\t`, `\r`, `\u{1b}`).
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_escaped(&mut out, c);
    }
    Cow::Owned(out)
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        c if is_unsafe(c) => {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
        c => out.push(c),
    }
}

/// A path as human output shows it: lossy UTF-8, unsafe characters escaped, and a backslash
/// written twice (so that an escape in the output always stands for a character of the name).
pub fn name(path: &Path) -> String {
    name_text(&path.to_string_lossy())
}

/// [`name`] of a name already made text.
pub fn name_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' {
            out.push_str("\\\\");
        } else {
            push_escaped(&mut out, c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_characters_are_escaped_and_safe_text_is_borrowed() {
        assert!(matches!(escape("plain ünïcode"), Cow::Borrowed(_)));
        assert_eq!(escape("a\nb\x1b[31mc\u{202E}d\u{85}"), "a\\nb\\u{1b}[31mc\\u{202e}d\\u{85}");
        assert_eq!(name(Path::new("x\n: valid\\")), "x\\n: valid\\\\");
    }
}
