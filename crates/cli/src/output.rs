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

/// A character a terminal would act on rather than show, or that hides, reorders or breaks a
/// line: every control character (Unicode category Cc: C0, C1, DEL), every format character
/// (category Cf: zero-width spaces and joiners, U+FEFF, the bidirectional marks, overrides and
/// isolates, the soft hyphen, tag characters …), and the line and paragraph separators.
fn is_unsafe(c: char) -> bool {
    c.is_control() || is_format(c) || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Whether `c` is of Unicode general category Cf (format), as of Unicode 15.1.
fn is_format(c: char) -> bool {
    matches!(
        c,
        '\u{AD}'
            | '\u{600}'..='\u{605}'
            | '\u{61C}'
            | '\u{6DD}'
            | '\u{70F}'
            | '\u{890}'..='\u{891}'
            | '\u{8E2}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
    )
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

/// A path as human output shows it: unsafe characters escaped, a backslash written twice (so
/// that an escape in the output always stands for a character of the name), and each byte that
/// is not UTF-8 written `\x{ff}`, so that two names that differ are shown differently.
pub fn name(path: &Path) -> String {
    let mut out = String::new();
    for chunk in path.as_os_str().as_encoded_bytes().utf8_chunks() {
        out.push_str(&name_text(chunk.valid()));
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{{{byte:02x}}}");
        }
    }
    out
}

/// How a path is named in JSON output: as it is when it is UTF-8 (JSON escapes what it must);
/// otherwise its [`name`], which shows each byte that is not UTF-8.
pub fn json_name(path: &Path) -> String {
    match path.to_str() {
        Some(text) => text.to_owned(),
        None => name(path),
    }
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

    #[test]
    fn invisible_and_format_characters_are_escaped() {
        for c in ['\u{200B}', '\u{FEFF}', '\u{AD}', '\u{2060}', '\u{E0041}', '\u{61C}', '\u{7f}', '\u{9f}'] {
            let text = format!("a{c}b");
            assert_eq!(escape(&text), format!("a\\u{{{:x}}}b", u32::from(c)), "{c:?}");
        }
        assert!(matches!(escape("é ü 中 \u{1F600}"), Cow::Borrowed(_)));
    }

    #[cfg(unix)]
    #[test]
    fn names_that_are_not_utf8_stay_distinct() {
        use std::os::unix::ffi::OsStrExt;
        let a = name(Path::new(std::ffi::OsStr::from_bytes(b"bad\xff.json")));
        let b = name(Path::new(std::ffi::OsStr::from_bytes(b"bad\xfe.json")));
        assert_eq!(a, "bad\\x{ff}.json");
        assert_ne!(a, b);
        // A name that spells the escape is told apart by its doubled backslash.
        assert_eq!(name(Path::new("bad\\x{ff}.json")), "bad\\\\x{ff}.json");
    }
}
