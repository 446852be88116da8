//! JSON text of a parsed Python document, written in Rust: the text
//! `json.dumps(doc, ensure_ascii=False, allow_nan=False)` writes, byte for byte, for documents
//! made of the types `json.loads` makes (`dict` with `str` keys, `list`, `tuple`, `str`, `int`,
//! `float`, `bool`, `None`), without `json.dumps`' per-value dispatch or the `str` it builds and
//! that then has to be encoded as UTF-8 again.
//!
//! Anything else — a subclass, a key that is not a `str`, NaN or an infinity, a `str` that is not
//! valid Unicode (a lone surrogate), a document nested deeper than [`MAX_DEPTH`] (a cycle is one)
//! — makes [`write`] answer `None`, and the caller asks `json.dumps` itself, which converts or
//! raises exactly as it always does. So the text, and therefore the verdict, never depends on
//! which of the two wrote it.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// The deepest nesting written here; deeper documents (and cycles) are `json.dumps`'.
pub const MAX_DEPTH: usize = 256;

/// `doc` as `json.dumps(doc, ensure_ascii=False, allow_nan=False)` writes it (default
/// separators `", "` and `": "`), as UTF-8; `None` when `doc` holds anything this writer leaves to
/// `json.dumps`.
pub fn write(doc: &Bound<'_, PyAny>) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(256);
    value(doc, &mut out, 0)?;
    Some(out)
}

/// Appends the text of one value.
fn value(obj: &Bound<'_, PyAny>, out: &mut Vec<u8>, depth: usize) -> Option<()> {
    if depth > MAX_DEPTH {
        return None;
    }
    if let Ok(text) = obj.downcast_exact::<PyString>() {
        string(utf8(text)?.as_bytes(), out);
    } else if let Ok(dict) = obj.downcast_exact::<PyDict>() {
        out.push(b'{');
        for (at, (key, member)) in dict.iter().enumerate() {
            if at > 0 {
                out.extend_from_slice(b", ");
            }
            string(utf8(key.downcast_exact::<PyString>().ok()?)?.as_bytes(), out);
            out.extend_from_slice(b": ");
            value(&member, out, depth + 1)?;
        }
        out.push(b'}');
    } else if let Ok(list) = obj.downcast_exact::<PyList>() {
        array(list.iter(), out, depth)?;
    } else if obj.is_none() {
        out.extend_from_slice(b"null");
    } else if let Ok(flag) = obj.downcast_exact::<PyBool>() {
        out.extend_from_slice(if flag.is_true() { b"true" } else { b"false" });
    } else if let Ok(int) = obj.downcast_exact::<PyInt>() {
        match int.extract::<i64>() {
            Ok(small) => out.extend_from_slice(small.to_string().as_bytes()),
            // Any size: Python's own decimal text (int.__repr__, as json.dumps writes it).
            Err(_) => out.extend_from_slice(utf8(&int.repr().ok()?)?.as_bytes()),
        }
    } else if let Ok(float) = obj.downcast_exact::<PyFloat>() {
        if !float.value().is_finite() {
            return None;
        }
        // The shortest text that reads back the same value (float.__repr__, as json.dumps).
        out.extend_from_slice(utf8(&float.repr().ok()?)?.as_bytes());
    } else if let Ok(tuple) = obj.downcast_exact::<PyTuple>() {
        array(tuple.iter(), out, depth)?;
    } else {
        return None;
    }
    Some(())
}

/// The UTF-8 of `text` (the stable ABI of CPython 3.9 lends no `&str` of a `str`); `None` for
/// a `str` that is not valid Unicode (a lone surrogate), which `json.dumps` then writes.
fn utf8<'py>(text: &Bound<'py, PyString>) -> Option<Bound<'py, PyBytes>> {
    text.encode_utf8().ok()
}

/// Appends an array of `items`.
fn array<'py>(items: impl Iterator<Item = Bound<'py, PyAny>>, out: &mut Vec<u8>, depth: usize) -> Option<()> {
    out.push(b'[');
    for (at, item) in items.enumerate() {
        if at > 0 {
            out.extend_from_slice(b", ");
        }
        value(&item, out, depth + 1)?;
    }
    out.push(b']');
    Some(())
}

/// Appends the UTF-8 text `bytes` as a JSON string, escaped as `json.dumps(ensure_ascii=False)` escapes: `"` and
/// `\`, the short escapes `\n \r \t \b \f`, other controls below U+0020 as `\u00XX` (lowercase
/// hex); everything else, non-ASCII included, as its UTF-8.
fn string(bytes: &[u8], out: &mut Vec<u8>) {
    out.push(b'"');
    let mut start = 0;
    for (at, &byte) in bytes.iter().enumerate() {
        let escape: &[u8] = match byte {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0x00..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..at]);
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(byte >> 4)]);
            out.push(HEX[usize::from(byte & 0xf)]);
        } else {
            out.extend_from_slice(escape);
        }
        start = at + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}
