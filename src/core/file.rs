//! Reading a file named by a user, safely: only a regular file is read (a FIFO, a device such as
//! `/dev/zero`, a directory or a socket is refused before a byte is read, and opening one never
//! blocks), and never more than a cap. Every file the program reads on a user's word goes
//! through [`read_text`].

use std::fs::File;
use std::io::Read;
use std::path::Path;

/// Why a file could not be read, in words that name the file's problem but never its contents.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// The system refused to open or read it (no such file, no permission, …).
    #[error("{0}")]
    Io(String),
    /// It is not a regular file.
    #[error("it is {0}, not a regular file")]
    NotRegular(&'static str),
    /// It holds more than the cap allows.
    #[error("it is larger than {}, the most this input may be", size_words(*.0))]
    TooLarge(u64),
    /// It is not UTF-8 text.
    #[error("it is not UTF-8 text (byte {0} is not)")]
    NotText(usize),
}

/// A byte count in words: `1 MiB`, `64 KiB`, `300 bytes`.
pub fn size_words(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}

/// What kind of non-regular file this is, for the message.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

/// Opens a file without blocking (a FIFO with no writer would block an ordinary open forever).
fn open(path: &Path) -> std::io::Result<File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK);
    }
    o.open(path)
}

/// The bytes of a regular file, at most `cap` of them (links are followed; what they lead to
/// must be a regular file).
///
/// # Errors
/// When the file cannot be opened, is not a regular file, or holds more than `cap` bytes.
pub fn read_bytes(path: &Path, cap: u64) -> Result<Vec<u8>, FileError> {
    let file = open(path).map_err(|e| FileError::Io(e.to_string()))?;
    // The type of what was opened, not of what the name pointed to a moment before.
    let meta = file.metadata().map_err(|e| FileError::Io(e.to_string()))?;
    if !meta.is_file() {
        return Err(FileError::NotRegular(kind_of(&meta)));
    }
    if meta.len() > cap {
        return Err(FileError::TooLarge(cap));
    }
    let mut bytes = Vec::new();
    // One byte past the cap tells a file that grew since it was looked at.
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::Io(e.to_string()))?;
    if bytes.len() as u64 > cap {
        return Err(FileError::TooLarge(cap));
    }
    Ok(bytes)
}

/// The text of a regular file of at most `cap` bytes (see [`read_bytes`]).
///
/// # Errors
/// As [`read_bytes`], and when the bytes are not UTF-8.
pub fn read_text(path: &Path, cap: u64) -> Result<String, FileError> {
    String::from_utf8(read_bytes(path, cap)?)
        .map_err(|e| FileError::NotText(e.utf8_error().valid_up_to()))
}

/// Reads a stream (standard input) up to `cap` bytes; more is an error rather than memory
/// without end.
///
/// # Errors
/// When reading fails, or the stream holds more than `cap` bytes or is not UTF-8.
pub fn read_stream_text(r: impl Read, cap: u64) -> Result<String, FileError> {
    let mut bytes = Vec::new();
    r.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::Io(e.to_string()))?;
    if bytes.len() as u64 > cap {
        return Err(FileError::TooLarge(cap));
    }
    String::from_utf8(bytes).map_err(|e| FileError::NotText(e.utf8_error().valid_up_to()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read_and_a_cap_is_kept() {
        let dir = std::env::temp_dir().join(format!("bulwark-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("small.txt");
        std::fs::write(&f, "abcdef").unwrap();
        assert_eq!(read_text(&f, 6).unwrap(), "abcdef");
        assert_eq!(read_text(&f, 5), Err(FileError::TooLarge(5)));
        std::fs::write(&f, [0xff, 0xfe]).unwrap();
        assert_eq!(read_text(&f, 10), Err(FileError::NotText(0)));
        assert_eq!(
            read_text(&dir, 10),
            Err(FileError::NotRegular("a directory"))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_refused_without_reading() {
        assert_eq!(
            read_text(Path::new("/dev/zero"), 1 << 20),
            Err(FileError::NotRegular("a character device"))
        );
    }

    #[test]
    fn a_stream_past_its_cap_is_an_error() {
        assert_eq!(read_stream_text(&b"hello"[..], 5).unwrap(), "hello");
        assert_eq!(
            read_stream_text(std::io::repeat(b'a'), 1024),
            Err(FileError::TooLarge(1024))
        );
        assert_eq!(size_words(1 << 20), "1 MiB");
        assert_eq!(size_words(64 << 10), "64 KiB");
        assert_eq!(size_words(300), "300 bytes");
    }
}
