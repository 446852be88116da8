//! RFC 3986 checks for `format: uri` and `format: uri-reference`: the `garde` custom rules
//! [`uri`] and [`uri_reference`] of the generated types, which the schema layer and the skim
//! apply too, so a URI is judged alike on every path. The syntax is `fluent-uri`'s, the parser
//! the reference validator (the `jsonschema` crate) uses.

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
    if fluent_uri::Uri::parse(text).is_ok() {
        return Ok(());
    }
    if !has_scheme(text) && check_uri_reference(text).is_ok() {
        return Err(garde::Error::new(
            "not a valid URI (RFC 3986): an absolute URI starts with a scheme, such as https:",
        ));
    }
    uri_reference(text, &())
}

/// Whether `text` starts with an RFC 3986 `scheme ":"`. A URI reference with one is a URI.
pub fn has_scheme(text: &str) -> bool {
    fluent_uri::UriRef::parse(text).is_ok_and(|reference| reference.has_scheme())
}

/// Checks RFC 3986 `URI-reference` syntax with `fluent-uri`, the parser of the reference
/// validator (the `jsonschema` crate), so the verdicts agree; the error is the reason.
fn check_uri_reference(text: &str) -> Result<(), String> {
    fluent_uri::UriRef::parse(text).map(drop).map_err(|err| reason(text, err))
}

/// The reason for a parse error, naming the byte it found.
fn reason(text: &str, err: fluent_uri::ParseError) -> String {
    use fluent_uri::ParseErrorKind;
    let at = err.index();
    match err.kind() {
        ParseErrorKind::InvalidPctEncodedOctet => {
            format!("broken percent-encoding at byte {at} (expected % and two hexadecimal digits)")
        }
        ParseErrorKind::InvalidIpv6Addr => format!("invalid IPv6 address at byte {at}"),
        _ => match text.get(at..).and_then(|rest| rest.chars().next()) {
            Some(c) => format!("character {c:?} at byte {at} is not allowed there"),
            None => format!("unexpected end at byte {at}"),
        },
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
