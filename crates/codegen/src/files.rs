//! Reading the files of a checkout with bounds: a schema, fixture or matrix file must be a regular
//! file (a FIFO or device named like one would block or never end) of at most [`MAX_FILE_BYTES`],
//! and directory walks never follow links to directories (a link cycle would make them endless).

use std::fs;
use std::io::{self, Read};
use std::path::Path;

/// The largest file read: 64 MiB, far past any schema or fixture.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The text of the regular file at `path` (a link to one is followed), refusing anything else and
/// anything past [`MAX_FILE_BYTES`], each with an error that says so.
pub fn read_text(path: &Path) -> io::Result<String> {
    let metadata = fs::metadata(path)?;
    if !metadata.is_file() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"));
    }
    let mut text = String::new();
    fs::File::open(path)?.take(MAX_FILE_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(io::Error::new(io::ErrorKind::InvalidData, format!("larger than {MAX_FILE_BYTES} bytes")));
    }
    Ok(text)
}

/// Whether `path` is a directory itself, not a link to one.
pub fn is_real_dir(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}
