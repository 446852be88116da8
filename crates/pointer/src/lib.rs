//! JSON Pointers (RFC 6901) and the URI fragments that carry them in a `$ref` (RFC 3986 §3.5):
//! the one place the jerry-contracts crates escape, unescape and split pointer tokens and
//! percent-decode fragments. No dependencies, so the runtime library can use it as well as the
//! generator and the tools.

use std::borrow::Cow;
use std::fmt;

/// What is wrong with a pointer, a token or a fragment.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A `~` not followed by `0` or `1`, at this byte offset of the token or pointer.
    BadTilde(usize),
    /// A non-empty pointer that does not start with `/`.
    NoLeadingSlash,
    /// A `%` not followed by two hexadecimal digits, at this byte offset of the fragment.
    BadPercent(usize),
    /// The decoded bytes are not UTF-8.
    NotUtf8,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadTilde(at) => write!(f, "`~` at byte {at} is not followed by `0` or `1`"),
            Error::NoLeadingSlash => f.write_str("a non-empty JSON Pointer starts with `/`"),
            Error::BadPercent(at) => write!(f, "`%` at byte {at} is not followed by two hexadecimal digits"),
            Error::NotUtf8 => f.write_str("the percent-decoded text is not UTF-8"),
        }
    }
}

impl std::error::Error for Error {}

/// `token` as a JSON Pointer reference token: `~` written `~0`, `/` written `~1`.
///
/// ```
/// assert_eq!(jerry_contracts_pointer::escape("a/b~c"), "a~1b~0c");
/// ```
pub fn escape(token: &str) -> Cow<'_, str> {
    if !token.contains(['~', '/']) {
        return Cow::Borrowed(token);
    }
    Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
}

/// Appends `/` and `token`, escaped, to `pointer`.
pub fn push(pointer: &mut String, token: &str) {
    pointer.push('/');
    pointer.push_str(&escape(token));
}

/// The text a reference token stands for: `~0` read as `~`, `~1` as `/`; any other `~` is an
/// error.
///
/// ```
/// assert_eq!(jerry_contracts_pointer::unescape("a~1b~0c").unwrap(), "a/b~c");
/// assert!(jerry_contracts_pointer::unescape("a~2").is_err());
/// ```
pub fn unescape(token: &str) -> Result<Cow<'_, str>, Error> {
    unescape_at(token, 0)
}

fn unescape_at(token: &str, offset: usize) -> Result<Cow<'_, str>, Error> {
    let Some(first) = token.find('~') else { return Ok(Cow::Borrowed(token)) };
    let mut out = String::with_capacity(token.len());
    out.push_str(&token[..first]);
    let mut chars = token[first..].char_indices();
    while let Some((at, c)) = chars.next() {
        if c != '~' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some((_, '0')) => out.push('~'),
            Some((_, '1')) => out.push('/'),
            _ => return Err(Error::BadTilde(offset + first + at)),
        }
    }
    Ok(Cow::Owned(out))
}

/// The unescaped reference tokens of `pointer`: none for `""`, `["a", "b/c"]` for `/a/b~1c`.
///
/// ```
/// assert_eq!(jerry_contracts_pointer::tokens("/definitions/a~1b/0").unwrap(), ["definitions", "a/b", "0"]);
/// assert!(jerry_contracts_pointer::tokens("definitions").is_err());
/// ```
pub fn tokens(pointer: &str) -> Result<Vec<Cow<'_, str>>, Error> {
    if pointer.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = pointer.strip_prefix('/') else { return Err(Error::NoLeadingSlash) };
    let mut offset = 1;
    let mut out = Vec::new();
    for token in rest.split('/') {
        out.push(unescape_at(token, offset)?);
        offset += token.len() + 1;
    }
    Ok(out)
}

/// Decodes the `%XY` escapes of a URI fragment, strictly: a `%` must be followed by two
/// hexadecimal digits (`%+F`, `%2`, `%zz` are errors), and the decoded bytes must be UTF-8.
///
/// ```
/// assert_eq!(jerry_contracts_pointer::percent_decode("/definitions/a%20b").unwrap(), "/definitions/a b");
/// assert!(jerry_contracts_pointer::percent_decode("/a%+F").is_err());
/// ```
pub fn percent_decode(fragment: &str) -> Result<Cow<'_, str>, Error> {
    if !fragment.contains('%') {
        return Ok(Cow::Borrowed(fragment));
    }
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        if byte != b'%' {
            out.push(byte);
            at += 1;
            continue;
        }
        let digit = |i: usize| bytes.get(i).and_then(|&b| char::from(b).to_digit(16));
        let (Some(high), Some(low)) = (digit(at + 1), digit(at + 2)) else { return Err(Error::BadPercent(at)) };
        // Two hexadecimal digits are at most 0xFF.
        out.push(u8::try_from(high * 16 + low).map_err(|_| Error::BadPercent(at))?);
        at += 3;
    }
    String::from_utf8(out).map(Cow::Owned).map_err(|_| Error::NotUtf8)
}

/// A `$ref` fragment as the JSON Pointer it carries: percent-decoded, then checked to be a
/// pointer (`""` or starting with `/`, every `~` an escape).
///
/// ```
/// assert_eq!(jerry_contracts_pointer::fragment_pointer("/definitions/a%7E1b").unwrap(), "/definitions/a~1b");
/// ```
pub fn fragment_pointer(fragment: &str) -> Result<Cow<'_, str>, Error> {
    let pointer = percent_decode(fragment)?;
    tokens(&pointer)?;
    Ok(pointer)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn escape_writes_tilde_then_slash() {
        assert_eq!(escape("plain"), "plain");
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
        assert_eq!(escape("a/b"), "a~1b");
        assert_eq!(escape("a~b"), "a~0b");
        // `~1` in a name is a tilde followed by `1`, not a slash.
        assert_eq!(escape("~1"), "~01");
        assert_eq!(escape("/~"), "~1~0");
        assert_eq!(escape(""), "");
    }

    #[test]
    fn push_appends_an_escaped_step() {
        let mut pointer = String::from("/definitions");
        push(&mut pointer, "a/b");
        push(&mut pointer, "");
        assert_eq!(pointer, "/definitions/a~1b/");
    }

    #[test]
    fn unescape_inverts_escape_and_refuses_other_tildes() {
        for token in ["", "plain", "a/b", "a~b", "~1", "/~", "~0~1/", "é~/"] {
            assert_eq!(unescape(&escape(token)).unwrap(), token);
        }
        // `~01` is `~1`, not `/`: the escapes are read left to right once.
        assert_eq!(unescape("~01").unwrap(), "~1");
        assert_eq!(unescape("a~2"), Err(Error::BadTilde(1)));
        assert_eq!(unescape("~"), Err(Error::BadTilde(0)));
        assert_eq!(unescape("ab~"), Err(Error::BadTilde(2)));
        assert_eq!(unescape("~~0"), Err(Error::BadTilde(0)));
    }

    #[test]
    fn tokens_split_and_unescape() {
        assert!(tokens("").unwrap().is_empty());
        assert_eq!(tokens("/").unwrap(), [""]);
        assert_eq!(tokens("/a//b").unwrap(), ["a", "", "b"]);
        assert_eq!(tokens("/definitions/a~1b~0c/0").unwrap(), ["definitions", "a/b~c", "0"]);
        assert_eq!(tokens("a/b"), Err(Error::NoLeadingSlash));
        assert_eq!(tokens("#/a"), Err(Error::NoLeadingSlash));
        // The offset is the tilde's in the whole pointer.
        assert_eq!(tokens("/ab/c~"), Err(Error::BadTilde(5)));
    }

    #[test]
    fn percent_decode_decodes_escapes() {
        assert_eq!(percent_decode("").unwrap(), "");
        assert_eq!(percent_decode("/definitions/a%20b").unwrap(), "/definitions/a b");
        assert_eq!(percent_decode("%25%2F%2f").unwrap(), "%//");
        assert_eq!(percent_decode("/%C3%A9").unwrap(), "/é");
        assert_eq!(percent_decode("/é").unwrap(), "/é");
    }

    #[test]
    fn percent_decode_refuses_a_sign_where_a_digit_belongs() {
        // `u8::from_str_radix("+F", 16)` is Ok(15): a decoder built on it reads `%+F` as 0x0F.
        assert_eq!(percent_decode("/a%+F"), Err(Error::BadPercent(2)));
        assert_eq!(percent_decode("%-1"), Err(Error::BadPercent(0)));
    }

    #[test]
    fn percent_decode_refuses_malformed_escapes() {
        assert_eq!(percent_decode("/x%2"), Err(Error::BadPercent(2)));
        assert_eq!(percent_decode("/%"), Err(Error::BadPercent(1)));
        assert_eq!(percent_decode("%zz"), Err(Error::BadPercent(0)));
        assert_eq!(percent_decode("%C3"), Err(Error::NotUtf8));
    }

    #[test]
    fn fragment_pointer_decodes_then_checks() {
        assert_eq!(fragment_pointer("").unwrap(), "");
        assert_eq!(fragment_pointer("/definitions/a%20b").unwrap(), "/definitions/a b");
        assert_eq!(fragment_pointer("definitions"), Err(Error::NoLeadingSlash));
        assert_eq!(fragment_pointer("/a%7E2"), Err(Error::BadTilde(2)));
    }
}
