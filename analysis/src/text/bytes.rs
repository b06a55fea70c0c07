//! Source files that are not valid UTF-8 (a Latin-1 `©` or `µ` in a comment), read as text
//! and written back byte for byte.
//!
//! Each byte that is not part of valid UTF-8 becomes one character of Unicode's
//! supplementary private use area B (U+10FF00 + the byte), the way Python's
//! `surrogateescape` keeps such bytes; [`encode`] turns those characters back into the bytes.
//! Edits never touch them (they sit in comments and literals), so a rewrite keeps every byte
//! the user wrote. A file that already holds one of those characters cannot be told apart
//! from an escaped byte: [`decode`] refuses it.

/// First character of the escapes: U+10FF00 + byte.
const BASE: u32 = 0x10_FF00;

/// The text of `bytes`, and whether any byte had to be escaped. `None` when the bytes hold one
/// of the escape characters themselves.
pub fn decode(bytes: &[u8]) -> Option<(String, bool)> {
    let mut out = String::with_capacity(bytes.len());
    let mut escaped = false;
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid();
        if valid.chars().any(is_escape) {
            return None;
        }
        out.push_str(valid);
        for &b in chunk.invalid() {
            escaped = true;
            out.push(char::from_u32(BASE + u32::from(b)).expect("a private use character"));
        }
    }
    Some((out, escaped))
}

/// The text of `bytes` for reading only, with each byte that is not valid UTF-8 replaced by
/// `?`: every byte offset stays that of the file (libclang's offsets in a header index it).
pub fn lossy_same_offsets(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            let bytes = e.into_bytes();
            let mut out = String::with_capacity(bytes.len());
            for chunk in bytes.utf8_chunks() {
                out.push_str(chunk.valid());
                out.extend(chunk.invalid().iter().map(|_| '?'));
            }
            out
        }
    }
}

/// The bytes of `text`, escapes turned back into the bytes they stand for.
pub fn encode(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut buf = [0u8; 4];
    for c in text.chars() {
        if is_escape(c) {
            out.push((u32::from(c) - BASE) as u8);
        } else {
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
    out
}

fn is_escape(c: char) -> bool {
    (BASE..=BASE + 0xFF).contains(&u32::from(c))
}

#[cfg(test)]
mod tests {
    #[test]
    fn lossy_keeps_offsets() {
        let t = super::lossy_same_offsets(b"a \xa9 b /* \xb5s */".to_vec());
        assert_eq!(t, "a ? b /* ?s */");
        assert_eq!(
            super::lossy_same_offsets(b"ok \xc2\xb5".to_vec()),
            "ok \u{b5}"
        );
    }

    use super::*;

    #[test]
    fn latin1_bytes_round_trip() {
        let bytes = b"// (c) 2011 \xa9 J\xf6rg\nint x; /* \xb5s */\n".to_vec();
        let (text, escaped) = decode(&bytes).unwrap();
        assert!(escaped);
        assert!(text.starts_with("// (c) 2011 "));
        assert!(text.contains("int x;"));
        assert_eq!(encode(&text), bytes);
    }

    #[test]
    fn utf8_is_unchanged() {
        let s = "int caf\u{e9} = 1; // \u{3bc}s\n";
        let (text, escaped) = decode(s.as_bytes()).unwrap();
        assert!(!escaped);
        assert_eq!(text, s);
        assert_eq!(encode(&text), s.as_bytes());
    }

    #[test]
    fn edits_around_escapes_keep_them() {
        let bytes = b"/* \xe9 */\nint a;\n".to_vec();
        let (text, _) = decode(&bytes).unwrap();
        let edited = text.replace("int a;", "int a = 0;");
        assert_eq!(encode(&edited), b"/* \xe9 */\nint a = 0;\n".to_vec());
    }

    #[test]
    fn a_file_holding_an_escape_character_is_refused() {
        let s = format!("// {}\n", char::from_u32(BASE + 0xe9).unwrap());
        assert_eq!(decode(s.as_bytes()), None);
    }

    #[test]
    fn truncated_sequences_are_escaped_byte_by_byte() {
        let bytes = b"a\xe2\x82b".to_vec();
        let (text, escaped) = decode(&bytes).unwrap();
        assert!(escaped);
        assert_eq!(text.chars().count(), 4);
        assert_eq!(encode(&text), bytes);
    }
}
