//! Paths as URIs: every byte a URI path may not hold is percent-encoded, `:` too (it would make
//! a relative path's first segment a scheme). The witness search names a schema without `$id` by
//! its file's URI, and the CLI's SARIF log names the files it judged; both write them here.

use std::path::Path;

use percent_encoding::{AsciiSet, CONTROLS};

/// What a path keeps unescaped in a URI: the unreserved characters, `/` and the sub-delimiters
/// but `:`; every other byte, non-ASCII ones included, is percent-encoded.
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b':')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// A path's bytes, percent-encoded for a URI's path (on Unix every byte is kept, a path that is
/// not UTF-8 included; elsewhere the path's text, with `/` for `\`).
///
/// ```
/// use std::path::Path;
/// use jerry_contracts_schema_tools::uri::encode_path;
/// assert_eq!(encode_path(Path::new("a b/c:d#%.json")), "a%20b/c%3Ad%23%25.json");
/// assert_eq!(encode_path(Path::new("é.json")), "%C3%A9.json");
/// ```
pub fn encode_path(path: &Path) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        percent_encoding::percent_encode(path.as_os_str().as_bytes(), PATH).to_string()
    }
    #[cfg(not(unix))]
    {
        let text = path.to_string_lossy().replace('\\', "/");
        percent_encoding::utf8_percent_encode(&text, PATH).to_string()
    }
}

/// The `file:` URI of an absolute path.
///
/// ```
/// use std::path::Path;
/// use jerry_contracts_schema_tools::uri::file_uri;
/// assert_eq!(file_uri(Path::new("/t/a b?.json")), "file:///t/a%20b%3F.json");
/// ```
pub fn file_uri(path: &Path) -> String {
    format!("file://{}", encode_path(path))
}

#[cfg(all(test, unix))]
mod tests {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    use super::encode_path;

    #[test]
    fn a_path_that_is_not_utf8_keeps_every_byte() {
        let path = Path::new(OsStr::from_bytes(b"/t/\xff\x80.json"));
        assert_eq!(encode_path(path), "/t/%FF%80.json");
    }
}
