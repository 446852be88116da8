//! The translation of an ECMA-262 pattern (JSON Schema's `pattern` dialect) into `regex` syntax
//! with the same matches.
//!
//! The two dialects agree on most syntax. Where they differ, the translation spells out ECMA's
//! meaning: `\d`, `\w` and `\b` are ASCII-only in ECMA (Unicode-aware in `regex`), `\s` is
//! ECMA's own whitespace set, and `.` excludes all four ECMA line terminators (`regex` excludes
//! `\n` only). Inside a class, characters `regex` reads as set operators (`[`, `&&`, `--`, `~~`)
//! are escaped. Whatever the translation is not sure of gives `None`, and the caller keeps the
//! backtracking ECMA engine for that pattern.

/// ECMA-262's `\s`: WhiteSpace and LineTerminator (ECMA-262 §22.2.2.9), as class members.
const SPACE: &str = r"\t\n\x0B\x0C\r \xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";
/// ECMA-262's `\w` (ASCII only), as class members.
const WORD: &str = "0-9A-Za-z_";
/// ECMA-262's `\d` (ASCII only), as class members.
const DIGIT: &str = "0-9";

/// The `regex` form of the ECMA-262 pattern `source` (already known to be a valid ECMA-262
/// pattern), or `None` where the translation is not certain to match exactly the same strings.
pub fn translate(source: &str) -> Option<String> {
    let mut out = String::with_capacity(source.len() + 16);
    let mut chars = source.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let escaped = chars.next()?;
                let piece = match (escaped, in_class) {
                    ('d', false) => format!("[{DIGIT}]"),
                    ('D', false) => format!("[^{DIGIT}]"),
                    ('w', false) => format!("[{WORD}]"),
                    ('W', false) => format!("[^{WORD}]"),
                    ('s', false) => format!("[{SPACE}]"),
                    ('S', false) => format!("[^{SPACE}]"),
                    ('b', false) => r"(?-u:\b)".to_owned(),
                    ('B', false) => r"(?-u:\B)".to_owned(),
                    ('d', true) => DIGIT.to_owned(),
                    ('w', true) => WORD.to_owned(),
                    ('s', true) => SPACE.to_owned(),
                    // A negated shorthand inside a class has no plain `regex` spelling here.
                    ('D' | 'W' | 'S', true) => return None,
                    // Control escapes and escaped punctuation mean the same in both.
                    ('t' | 'n' | 'r' | 'f' | 'v', _) => format!("\\{escaped}"),
                    (p, _) if p.is_ascii_punctuation() => format!("\\{p}"),
                    // \uXXXX, \xHH, \cX, \0, back-references, \p{…}: not certain.
                    _ => return None,
                };
                out.push_str(&piece);
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                if chars.peek() == Some(&'^') {
                    chars.next();
                    out.push('^');
                }
                // ECMA's `[]` matches nothing and `[^]` anything; `regex` reads `]` there as a
                // member.
                if chars.peek() == Some(&']') {
                    return None;
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            // `regex` set operators and nested classes are literals in ECMA.
            '[' | '&' | '~' if in_class => {
                out.push('\\');
                out.push(c);
            }
            // `--` is set difference in `regex`.
            '-' if in_class && chars.peek() == Some(&'-') => return None,
            '.' if !in_class => out.push_str(r"[^\n\r\x{2028}\x{2029}]"),
            // A `{` that is not a quantifier is a literal in ECMA (Annex B) and an error or a
            // different quantifier (`{,n}`) in `regex`.
            '{' if !in_class => {
                let rest: String = chars.clone().take_while(|&c| c != '}').collect();
                let mut bounds = rest.splitn(2, ',');
                let low = bounds.next().unwrap_or_default();
                let high = bounds.next();
                let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
                if !digits(low) || high.is_some_and(|h| !h.is_empty() && !digits(h)) {
                    return None;
                }
                out.push('{');
            }
            // Flags, named groups and look-around: `(?:` is the only group form kept.
            '(' if !in_class && chars.peek() == Some(&'?') => {
                let mut ahead = chars.clone();
                ahead.next();
                if ahead.next() != Some(':') {
                    return None;
                }
                out.push('(');
            }
            _ => out.push(c),
        }
    }
    (!in_class).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::translate;

    #[test]
    fn shorthands_take_their_ecma_meaning() {
        assert_eq!(translate(r"^F-\d{3}$").as_deref(), Some("^F-[0-9]{3}$"));
        assert_eq!(translate(r"^[\w.]+$").as_deref(), Some(r"^[0-9A-Za-z_.]+$"));
        assert_eq!(translate(r".*shall.*").as_deref(), Some(r"[^\n\r\x{2028}\x{2029}]*shall[^\n\r\x{2028}\x{2029}]*"));
        assert_eq!(translate(r"^[^/\\:]+$").as_deref(), Some(r"^[^/\\:]+$"));
        assert_eq!(translate(r"[a[&~]").as_deref(), Some(r"[a\[\&\~]"));
    }

    #[test]
    fn what_is_not_certain_is_left_to_the_ecma_engine() {
        for source in
            [r"(?=a)b", r"(?<n>a)\k<n>", r"(a)\1", r"[]", r"[^]", r"a{", r"a{,3}", r"[\D]", r"\u0041", r"[a--b]", r"[a"]
        {
            assert_eq!(translate(source), None, "{source}");
        }
    }
}
