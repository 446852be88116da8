//! Text quoted in a message, cut short: one rule for every message of the library (a hostile
//! document may hold megabytes in one string, and a message quotes at most a line of it).

/// The first `chars` characters of `text`, and whether anything was cut.
pub(crate) fn head(text: &str, chars: usize) -> (&str, bool) {
    match text.char_indices().nth(chars) {
        Some((end, _)) => (text.get(..end).unwrap_or(text), true),
        None => (text, false),
    }
}

/// `text` cut after `chars` characters, ending in `…` when cut.
pub(crate) fn shortened(text: &str, chars: usize) -> String {
    match head(text, chars) {
        (head, true) => format!("{head}…"),
        (_, false) => text.to_owned(),
    }
}

/// `text` cut after `chars` characters, ending in `… N more characters` when cut (N counts
/// what was left out), so a reader knows how much is missing.
pub(crate) fn cut(text: &str, chars: usize) -> std::borrow::Cow<'_, str> {
    match head(text, chars) {
        (head, true) => {
            let more = text[head.len()..].chars().count();
            std::borrow::Cow::Owned(format!("{head}… {more} more character{}", if more == 1 { "" } else { "s" }))
        }
        (_, false) => std::borrow::Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_says_how_much_is_left_out() {
        assert_eq!(cut("abcdé", 2), "ab… 3 more characters");
        assert_eq!(cut("abc", 2), "ab… 1 more character");
        assert_eq!(cut("abc", 3), "abc");
    }

    #[test]
    fn cuts_whole_characters_and_says_so() {
        assert_eq!(shortened("ééé", 2), "éé…");
        assert_eq!(shortened("ééé", 3), "ééé");
        assert_eq!(shortened("", 0), "");
        assert_eq!(head("abc", 0), ("", true));
        assert_eq!(head("abc", 5), ("abc", false));
    }
}
