//! RFC 3986 checks for `format: uri` and `format: uri-reference`: the `garde` custom rules
//! [`uri`] and [`uri_reference`] of the generated types, which the schema layer and the skim
//! apply too, so a URI is judged alike on every path.

use std::net::Ipv6Addr;


/// A field type that [`uri_reference`] can check.
pub trait UriReferenceValue {
    /// The text to check, or `None` when there is nothing to check (an absent optional value).
    fn uri_reference_text(&self) -> Option<&str>;
}

impl UriReferenceValue for str {
    fn uri_reference_text(&self) -> Option<&str> {
        Some(self)
    }
}

impl UriReferenceValue for String {
    fn uri_reference_text(&self) -> Option<&str> {
        Some(self)
    }
}

/// Absent or `null` (an optional, possibly nullable field): nothing to check.
impl<T: UriReferenceValue> UriReferenceValue for Option<T> {
    fn uri_reference_text(&self) -> Option<&str> {
        self.as_ref().and_then(UriReferenceValue::uri_reference_text)
    }
}

/// `garde` custom rule for `format: uri-reference`: the value must be an RFC 3986
/// URI-reference, that is a URI (`https://x/y?q#f`) or a relative reference
/// (`agents/ps/researcher_output.json`, `#frag`, `//host/x`, the empty string). Only ASCII is
/// allowed; anything else must be percent-encoded. `None` passes.
///
/// Used as `#[garde(custom(::jerry_contracts::__private::uri_reference))]`.
pub fn uri_reference<T: UriReferenceValue + ?Sized>(value: &T, _ctx: &()) -> garde::Result {
    match value.uri_reference_text().map(check_uri_reference) {
        None | Some(Ok(())) => Ok(()),
        Some(Err(reason)) => Err(garde::Error::new(format!("not a valid URI reference (RFC 3986): {reason}"))),
    }
}

/// `garde` custom rule for `format: uri`: an RFC 3986 URI, i.e. a URI reference that starts with
/// a scheme (the schema interpreter applies the same check). `None` passes.
///
/// Used as `#[garde(custom(::jerry_contracts::__private::uri))]`.
pub fn uri<T: UriReferenceValue + ?Sized>(value: &T, _ctx: &()) -> garde::Result {
    let Some(text) = value.uri_reference_text() else { return Ok(()) };
    if !has_scheme(text) {
        return Err(garde::Error::new(
            "not a valid URI (RFC 3986): an absolute URI starts with a scheme, such as https:",
        ));
    }
    uri_reference(text, &())
}

/// Whether `text` starts with an RFC 3986 `scheme ":"`. A URI reference with one is a URI.
pub fn has_scheme(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.first().is_some_and(u8::is_ascii_alphabetic)
        && bytes
            .iter()
            .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
            .is_some_and(|end| bytes.get(end) == Some(&b':'))
}

/// `unreserved` and `sub-delims`: the characters of a `reg-name` besides percent-encodings.
const REG_NAME: u8 = 1;
const COLON: u8 = 2;
const AT: u8 = 4;
const SLASH: u8 = 8;
const QUESTION: u8 = 16;
/// `pchar`.
const PCHAR: u8 = REG_NAME | COLON | AT;
/// `segment`s and the slashes between them.
const PATH: u8 = PCHAR | SLASH;
/// `query` and `fragment`, which share one grammar.
const QUERY: u8 = PATH | QUESTION;
/// `userinfo`.
const USERINFO: u8 = REG_NAME | COLON;

/// The character classes of an ASCII byte (0 for none, and for `%`, which [`scan`] handles).
fn class(byte: u8) -> u8 {
    CLASSES[usize::from(byte)]
}

/// [`class_of`] for every byte, looked up rather than matched (a URI reference is scanned a byte
/// at a time).
const CLASSES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0usize;
    while byte < 256 {
        table[byte] = class_of(byte as u8);
        byte += 1;
    }
    table
};

const fn class_of(byte: u8) -> u8 {
    match byte {
        b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => REG_NAME,
        b'-' | b'.' | b'_' | b'~' => REG_NAME,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=' => REG_NAME,
        b':' => COLON,
        b'@' => AT,
        b'/' => SLASH,
        b'?' => QUESTION,
        _ => 0,
    }
}

/// The end of the run of bytes in `allowed` (percent-encodings included) from `at`, or the
/// position of a broken percent-encoding.
fn scan(bytes: &[u8], mut at: usize, allowed: u8) -> Result<usize, usize> {
    while let Some(&byte) = bytes.get(at) {
        if class(byte) & allowed != 0 {
            at += 1;
        } else if byte == b'%' {
            match bytes.get(at + 1..at + 3) {
                Some(hex) if hex.iter().all(u8::is_ascii_hexdigit) => at += 3,
                _ => return Err(at),
            }
        } else {
            break;
        }
    }
    Ok(at)
}

/// Describes the character at byte `at` of `text` for an error message.
fn character_at(text: &str, at: usize) -> String {
    match text.get(at..).and_then(|rest| rest.chars().next()) {
        Some(c) => format!("character {c:?} at byte {at} is not allowed there"),
        None => format!("unexpected end at byte {at}"),
    }
}

/// Checks RFC 3986 `URI-reference` syntax; the error is the reason.
fn check_uri_reference(text: &str) -> Result<(), String> {
    let bytes = text.as_bytes();
    // The common case at once: a relative path of plain characters (no `:`, `%`, `?`, `#`) that
    // does not open with an authority is a `path-absolute`, `path-noscheme` or `path-empty`.
    if !bytes.starts_with(b"//") && bytes.iter().all(|&b| class(b) & (REG_NAME | AT | SLASH) != 0) {
        return Ok(());
    }
    let broken = |at: usize| format!("broken percent-encoding at byte {at} (expected % and two hexadecimal digits)");

    // `scheme ":"`: a letter, then letters, digits, `+`, `-` and `.`, then the colon.
    let scheme = match bytes.first() {
        Some(first) if first.is_ascii_alphabetic() => bytes
            .iter()
            .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
            .filter(|&end| bytes[end] == b':'),
        _ => None,
    };
    let mut at = scheme.map_or(0, |end| end + 1);

    if bytes[at..].starts_with(b"//") {
        let start = at + 2;
        let end =
            bytes[start..].iter().position(|b| matches!(b, b'/' | b'?' | b'#')).map_or(bytes.len(), |i| start + i);
        check_authority(text, start, end)?;
        at = end;
    } else if scheme.is_none() {
        // A relative reference's first segment cannot hold a colon: `a:b` would read as a URI
        // with scheme `a`, and `1a:b` has no valid scheme at all.
        let first_segment = bytes.iter().position(|b| matches!(b, b'/' | b'?' | b'#')).unwrap_or(bytes.len());
        if let Some(colon) = bytes[..first_segment].iter().position(|&b| b == b':') {
            return Err(format!(
                "the colon at byte {colon} makes the first segment read as a scheme, which is not a valid one"
            ));
        }
    }

    at = scan(bytes, at, PATH).map_err(broken)?;
    if bytes.get(at) == Some(&b'?') {
        at = scan(bytes, at + 1, QUERY).map_err(broken)?;
    }
    if bytes.get(at) == Some(&b'#') {
        at = scan(bytes, at + 1, QUERY).map_err(broken)?;
    }
    if at == bytes.len() { Ok(()) } else { Err(character_at(text, at)) }
}

/// Checks `authority = [ userinfo "@" ] host [ ":" port ]` in `text[start..end]`, which holds
/// no `/`, `?` or `#`.
fn check_authority(text: &str, start: usize, end: usize) -> Result<(), String> {
    let bytes = &text.as_bytes()[..end];
    let broken = |at: usize| format!("broken percent-encoding at byte {at} (expected % and two hexadecimal digits)");

    let mut at = start;
    if let Some(sign) = bytes[start..].iter().position(|&b| b == b'@') {
        let userinfo_end = scan(bytes, start, USERINFO).map_err(broken)?;
        if userinfo_end != start + sign {
            return Err(character_at(text, userinfo_end));
        }
        at = userinfo_end + 1;
    }

    // host: IP-literal, or reg-name (of which IPv4address is a special case).
    if bytes.get(at) == Some(&b'[') {
        let Some(close) = bytes[at..].iter().position(|&b| b == b']').map(|i| at + i) else {
            return Err(format!("the IP literal opened at byte {at} is not closed"));
        };
        // Both ends are ASCII brackets, so this slice is on character boundaries.
        let literal = text.get(at + 1..close).unwrap_or_default();
        if !is_ip_literal(literal) {
            return Err(format!("{literal:?} is not an IPv6 address or an IPvFuture literal"));
        }
        at = close + 1;
    } else {
        at = scan(bytes, at, REG_NAME).map_err(broken)?;
    }

    // [ ":" port ]
    if bytes.get(at) == Some(&b':') {
        at += 1;
        at += bytes[at..].iter().take_while(|b| b.is_ascii_digit()).count();
    }
    if at == end { Ok(()) } else { Err(character_at(text, at)) }
}

/// `IPv6address / IPvFuture`, the inside of an RFC 3986 `IP-literal` (no zone identifier).
fn is_ip_literal(literal: &str) -> bool {
    match literal.as_bytes() {
        // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
        [b'v' | b'V', rest @ ..] => {
            let version = rest.iter().take_while(|b| b.is_ascii_hexdigit()).count();
            match rest.get(version..) {
                Some([b'.', tail @ ..]) => {
                    version > 0 && !tail.is_empty() && tail.iter().all(|&b| class(b) & (REG_NAME | COLON) != 0)
                }
                _ => false,
            }
        }
        _ => literal.parse::<Ipv6Addr>().is_ok(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use garde::Validate;
    use serde_json::json;

    use super::*;
    use crate::pointer::from_garde_path;


    const URI_REFERENCE_TABLE: &[(&str, bool)] = &[
        ("agents/ps/researcher_output.json", true),
        ("../common/envelope.json#/definitions/id", true),
        ("#frag", true),
        ("#", true),
        ("", true),
        ("//host/x", true),
        ("//", true),
        ("/absolute/path", true),
        ("https://x/y?q#f", true),
        ("https://jerry.dev/schemas/agents/ps/researcher_output.json", true),
        ("mailto:someone@example.com", true),
        ("urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8", true),
        ("http://user:pw@host:8080/p%20q?a=b&c=d#x/y?z", true),
        ("http://[::1]/x", true),
        ("http://[::1]:8080", true),
        ("//user@[2001:db8::7]:443/x", true),
        ("http://[v1.fe80::a+en1]/", true),
        ("http://host:/x", true),
        ("./a:b", true),
        ("?query-only", true),
        ("a b", false),
        ("https://x/y z", false),
        (r"agents\ps\x.json", false),
        ("%zz", false),
        ("%2", false),
        ("http://[::1", false),
        ("http://[::1]x", false),
        ("http://[:::1]/", false),
        ("http://[fe80::1%25eth0]/", false),
        ("http://[v1.]/", false),
        ("http://host:80a/", false),
        ("http://a@b@c/", false),
        ("http://ho[st/", false),
        ("a:b:c", true),
        ("1a:b", false),
        ("schemas/é.json", false),
        ("#frag#again", false),
        ("http://x/<y>", false),
        ("http://x/y{z}", false),
    ];

    #[test]
    fn uri_reference_agrees_with_the_reference_validator() {
        let validator = jsonschema::draft7::options()
            .should_validate_formats(true)
            .build(&json!({"type": "string", "format": "uri-reference"}))
            .unwrap();
        for (input, expected) in URI_REFERENCE_TABLE {
            let reference = validator.is_valid(&json!(input));
            let ours = uri_reference(*input, &()).is_ok();
            assert_eq!(reference, *expected, "the reference validator's verdict on {input:?} changed");
            assert_eq!(ours, reference, "disagreement with the reference validator on {input:?}");
        }
    }

    #[test]
    fn uri_reference_sweep_agrees_with_the_reference_validator() {
        let validator = jsonschema::draft7::options()
            .should_validate_formats(true)
            .build(&json!({"type": "string", "format": "uri-reference"}))
            .unwrap();
        let seeds = [
            "https://u:p@jerry.dev:443/schemas/a.json?x=1#/definitions/b",
            "//[2001:db8::7]:80/x?y#z",
            "//[v7.a:b]/",
            "//[::ffff:192.0.2.1]",
            "../common/envelope.json#/definitions/id",
            "a:b/c",
            "%41%2f",
        ];
        let alphabet: Vec<char> = r"/?#[]@:%.-_~!$&'()*+,;=aZ09fv \é".chars().collect();
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for round in 0..30_000 {
            let mut chars: Vec<char> = seeds[round % seeds.len()].chars().collect();
            for _ in 0..=next(3) {
                let c = alphabet[next(alphabet.len())];
                match next(3) {
                    0 if !chars.is_empty() => {
                        let i = next(chars.len());
                        chars[i] = c;
                    }
                    1 => {
                        let i = next(chars.len() + 1);
                        chars.insert(i, c);
                    }
                    _ if !chars.is_empty() => {
                        let i = next(chars.len());
                        chars.remove(i);
                    }
                    _ => {}
                }
            }
            let input: String = chars.into_iter().collect();
            assert_eq!(
                uri_reference(input.as_str(), &()).is_ok(),
                validator.is_valid(&json!(input)),
                "disagreement with the reference validator on {input:?}"
            );
        }
    }

    #[test]
    fn uri_reference_rule_on_fields() {
        #[derive(garde::Validate)]
        struct Links {
            #[garde(custom(uri_reference))]
            schema: String,
            #[garde(custom(uri_reference))]
            next: Option<String>,
        }

        assert!(Links { schema: "agents/ps/researcher_output.json".into(), next: None }.validate().is_ok());
        assert!(Links { schema: "#frag".into(), next: Some("//host/x".into()) }.validate().is_ok());
        let report = Links { schema: "a b".into(), next: Some("%zz".into()) }.validate().unwrap_err();
        let mut errors: Vec<(String, String)> =
            report.iter().map(|(path, error)| (from_garde_path(path), error.to_string())).collect();
        errors.sort();
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].0, "/next");
        assert!(errors[0].1.contains("broken percent-encoding at byte 0"), "{errors:?}");
        assert_eq!(errors[1].0, "/schema");
        assert!(errors[1].1.starts_with("not a valid URI reference (RFC 3986): character ' '"), "{errors:?}");
        assert!(uri_reference("x y", &()).is_err());
    }
}
