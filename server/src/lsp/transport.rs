//! stdio between the client and tower-lsp-server, with a framing layer that resynchronises.
//!
//! tower-lsp-server answers a message it cannot decode with a JSON-RPC error, but its framed
//! reader (tokio-util) then ends the input stream, so the session would stop after one bad
//! message. Here the client's bytes go through [`Deframer`] first, a state machine fed with
//! whatever each read returns (a header may come split across reads):
//! - a body that is not JSON gets a parse error (-32700, id null), JSON that is no JSON-RPC
//!   message an invalid-request error (-32600, with its id when it has a usable one); both are
//!   answered here and the frame is dropped. Good frames are passed on unchanged.
//! - a header block without a usable Content-Length (missing, not a number, over
//!   [`MAX_BODY`]) gets a parse error; what follows it is skipped up to the next header.
//! - bytes between frames that are no header (garbage, the rest of a body whose Content-Length
//!   was too short) are skipped up to the next `Content-Length: N` line, found also in the
//!   middle of a line (a cut body ends without a newline). They hold no message, so nothing
//!   is answered for them; stderr says how many bytes were skipped. Other header fields
//!   (Content-Type) are accepted and ignored.
//! - a Content-Length that was too long swallows the start of the next frames. When such a body
//!   is not JSON, it is read again as bytes between frames, so the frames it swallowed are
//!   found and served (the bad frame gets a parse error). And while a body is incomplete, a complete `Content-Length: N` line
//!   inside it, in a body that can no longer become JSON whatever follows, ends the frame
//!   early: the server never waits for bytes that cannot make the frame right when the next
//!   header is already there. The text "Content-Length:" inside a JSON string of a good body
//!   is no header (a raw line break cannot be inside a JSON string, and a body that parses is
//!   never searched).
//!
//! Memory stays bounded: bodies over [`MAX_BODY`] are refused before anything is allocated
//! for them, and a line of garbage is kept only up to [`MAX_LINE`] bytes.
//!
//! The server's output is copied to stdout frame by frame, so our error responses never land
//! inside one of its messages.

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tower_lsp_server::jsonrpc::{Request, Response};

/// Larger declared bodies are refused with a parse error (and their bytes skipped).
const MAX_BODY: usize = 64 << 20;
/// Longer lines between frames are garbage: only their tail is kept, to find a header in it.
const MAX_LINE: usize = 8 << 10;
const PIPE: usize = 1 << 16;
const CHUNK: usize = 1 << 16;
const HEADER: &[u8] = b"content-length:";

/// What the deframer found next.
#[derive(Debug, PartialEq)]
enum Event {
    /// A frame's body, as long as its Content-Length says.
    Frame(Vec<u8>),
    /// A header block or frame that cannot be used: answered with a parse error.
    Bad(String),
}

#[derive(Debug)]
enum State {
    Header(Block),
    /// Reading a body of `len` bytes; its first `scanned` bytes have been searched for a header.
    Body {
        len: usize,
        scanned: usize,
    },
}

/// The header block being read.
#[derive(Debug, Default)]
struct Block {
    /// Header lines seen (0: between frames, where blank lines are skipped).
    lines: usize,
    /// Their bytes, counted as skipped if the block turns out to be garbage.
    bytes: usize,
    length: Option<Result<usize, String>>,
    /// Bytes of the current (unfinished) line already searched for its end.
    scanned: usize,
}

/// Splits the client's byte stream into frames, resynchronising after malformed ones.
#[derive(Debug)]
struct Deframer {
    buf: Vec<u8>,
    /// The first byte not consumed yet.
    start: usize,
    state: State,
    /// Where the body last returned began, until the next call: see [`Deframer::refeed`].
    last_body: Option<usize>,
    /// Bytes skipped as garbage since the last [`Deframer::take_skipped`].
    skipped: usize,
}

impl Default for Deframer {
    fn default() -> Self {
        Deframer {
            buf: Vec::new(),
            start: 0,
            state: State::Header(Block::default()),
            last_body: None,
            skipped: 0,
        }
    }
}

/// A line between frames.
#[derive(Debug, PartialEq)]
enum Line {
    Blank,
    /// A Content-Length field, after `garbage` bytes that are no header.
    Length {
        garbage: usize,
        value: Result<usize, String>,
    },
    /// Another header field (Content-Type, ...).
    Field,
    Garbage,
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Positions where `HEADER` starts in `bytes`, ignoring case.
fn header_starts(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    bytes
        .windows(HEADER.len())
        .enumerate()
        .filter(|(_, w)| w.eq_ignore_ascii_case(HEADER))
        .map(|(i, _)| i)
}

/// Whether `bytes` (starting with `HEADER`) start with a whole `Content-Length: N` line.
/// None: they end before that can be told.
fn length_line(bytes: &[u8]) -> Option<bool> {
    let mut i = HEADER.len();
    let skip = |i: &mut usize| {
        while bytes.get(*i).is_some_and(|b| *b == b' ' || *b == b'\t') {
            *i += 1;
        }
    };
    skip(&mut i);
    let digits = i;
    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    if i == digits {
        return if i == bytes.len() { None } else { Some(false) };
    }
    skip(&mut i);
    if bytes.get(i) == Some(&b'\r') {
        i += 1;
    }
    bytes.get(i).map(|b| *b == b'\n')
}

fn parse_length(value: &[u8]) -> Result<usize, String> {
    let value = String::from_utf8_lossy(value);
    let value = value.trim();
    value
        .parse::<usize>()
        .map_err(|e| format!("invalid Content-Length {value:?}: {e}"))
}

/// Classifies one line between frames (without its line break).
fn line_kind(line: &[u8]) -> Line {
    if line.is_empty() {
        return Line::Blank;
    }
    if let Some(colon) = line.iter().position(|b| *b == b':') {
        let name = &line[..colon];
        if !name.is_empty() && name.iter().copied().all(is_tchar) {
            if name.eq_ignore_ascii_case(&HEADER[..HEADER.len() - 1]) {
                return Line::Length {
                    garbage: 0,
                    value: parse_length(&line[colon + 1..]),
                };
            }
            // "xyzContent-Length: 5": garbage right before a header.
            if !name.to_ascii_lowercase().ends_with(b"content-length") {
                return Line::Field;
            }
        }
    }
    // A header after garbage on the same line: the rest of a cut body, bytes between frames.
    let mut with_break = line.to_vec();
    with_break.push(b'\n');
    for q in header_starts(line) {
        if length_line(&with_break[q..]) == Some(true) {
            return Line::Length {
                garbage: q,
                value: parse_length(&line[q + HEADER.len()..]),
            };
        }
    }
    Line::Garbage
}

/// Whether `partial`, the start of a body, can no longer be the start of one JSON value
/// (a syntax error, or a whole value followed by more than white space).
fn cannot_be_json(partial: &[u8]) -> bool {
    let mut values = serde_json::Deserializer::from_slice(partial).into_iter::<IgnoredAny>();
    match values.next() {
        None => false,
        Some(Err(e)) => !e.is_eof(),
        Some(Ok(_)) => partial[values.byte_offset()..]
            .iter()
            .any(|b| !b.is_ascii_whitespace()),
    }
}

impl Deframer {
    fn push(&mut self, bytes: &[u8]) {
        self.last_body = None;
        if self.start > 0 && self.start >= self.buf.len() / 2 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        self.buf.extend_from_slice(bytes);
    }

    /// Bytes skipped as garbage since the last call.
    fn take_skipped(&mut self) -> usize {
        std::mem::take(&mut self.skipped)
    }

    /// The body last returned was not JSON: read it again as bytes between frames, so that
    /// frames it swallowed (its Content-Length was too long) are found. Only right after
    /// [`Deframer::next`] returned that body.
    fn refeed(&mut self) {
        if let Some(at) = self.last_body.take() {
            self.start = at;
            self.state = State::Header(Block::default());
        }
    }

    /// The next frame or bad header; None when more bytes are needed.
    fn next(&mut self) -> Option<Event> {
        self.last_body = None;
        loop {
            match &mut self.state {
                State::Header(block) => {
                    let rest = &self.buf[self.start..];
                    let Some(end) = rest[block.scanned..].iter().position(|b| *b == b'\n') else {
                        block.scanned = rest.len();
                        if rest.len() > MAX_LINE {
                            self.cut_long_line();
                        }
                        return None;
                    };
                    let end = block.scanned + end;
                    let line = &rest[..end];
                    let line = line.strip_suffix(b"\r").unwrap_or(line);
                    let kind = line_kind(line);
                    self.start += end + 1;
                    block.scanned = 0;
                    let size = end + 1;
                    match kind {
                        Line::Blank if block.lines == 0 => {}
                        Line::Blank => {
                            let length = block.length.take();
                            *block = Block::default();
                            match length {
                                None => {
                                    return Some(Event::Bad("missing Content-Length header".into()))
                                }
                                Some(Err(e)) => return Some(Event::Bad(e)),
                                Some(Ok(n)) if n > MAX_BODY => {
                                    return Some(Event::Bad(format!(
                                        "Content-Length {n} exceeds the limit of {} MiB",
                                        MAX_BODY >> 20
                                    )))
                                }
                                Some(Ok(len)) => self.state = State::Body { len, scanned: 0 },
                            }
                        }
                        Line::Length { garbage, value } => {
                            // Garbage before it, or a block that already had a length (it
                            // lacked its blank line): what came before is dropped.
                            if garbage > 0 || block.length.is_some() {
                                self.skipped += block.bytes + garbage;
                                *block = Block::default();
                            }
                            block.lines += 1;
                            block.bytes += size - garbage;
                            block.length = Some(value);
                        }
                        Line::Field => {
                            block.lines += 1;
                            block.bytes += size;
                        }
                        Line::Garbage => {
                            self.skipped += block.bytes + size;
                            *block = Block::default();
                        }
                    }
                }
                State::Body { len, scanned } => {
                    let (len, from) = (*len, *scanned);
                    let rest = &self.buf[self.start..];
                    if rest.len() >= len {
                        let body = rest[..len].to_vec();
                        self.last_body = Some(self.start);
                        self.start += len;
                        self.state = State::Header(Block::default());
                        return Some(Event::Frame(body));
                    }
                    // A header already visible inside an incomplete body that cannot be JSON
                    // any more: the Content-Length was too long. Resynchronise there.
                    let mut next_scan = rest.len().saturating_sub(HEADER.len() - 1).max(from);
                    for q in header_starts(&rest[from..]).map(|q| q + from) {
                        match length_line(&rest[q..]) {
                            None => {
                                next_scan = q;
                                break;
                            }
                            Some(false) => {}
                            Some(true) if cannot_be_json(rest) => {
                                self.state = State::Header(Block::default());
                                return Some(Event::Bad(format!(
                                    "the body of Content-Length {len} is not JSON: a header \
                                     starts {q} bytes into it"
                                )));
                            }
                            Some(true) => {}
                        }
                    }
                    if let State::Body { scanned, .. } = &mut self.state {
                        *scanned = next_scan;
                    }
                    return None;
                }
            }
        }
    }

    /// The unfinished line between frames is too long to be a header: keep only what may
    /// still become one (from a `Content-Length:` near its end, or its last bytes).
    fn cut_long_line(&mut self) {
        let rest = &self.buf[self.start..];
        let keep_from = header_starts(rest)
            .filter(|q| rest.len() - q <= MAX_LINE)
            .last()
            .unwrap_or(rest.len() - (HEADER.len() - 1));
        if let State::Header(block) = &mut self.state {
            self.skipped += block.bytes + keep_from;
            *block = Block::default();
            block.scanned = rest.len() - keep_from;
        }
        self.start += keep_from;
    }
}

fn framed(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn error_response(id: Value, code: i64, message: String) -> Vec<u8> {
    let v = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    framed(v.to_string().as_bytes())
}

/// What a body is.
#[derive(Debug, PartialEq)]
enum Verdict {
    /// A message tower-lsp-server can decode.
    Good,
    NotJson(String),
    /// JSON, but no JSON-RPC message; the id to answer with.
    NotJsonRpc(Value),
}

fn judge(body: &[u8]) -> Verdict {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => return Verdict::NotJson(e.to_string()),
    };
    if Request::deserialize(&value).is_ok() || Response::deserialize(&value).is_ok() {
        return Verdict::Good;
    }
    let id = value
        .get("id")
        .filter(|id| id.is_string() || id.is_i64())
        .cloned()
        .unwrap_or(Value::Null);
    Verdict::NotJsonRpc(id)
}

/// What to do with the next piece of the client's stream.
#[derive(Debug, PartialEq)]
enum Input {
    /// A good message: its body, for the server.
    Pass(Vec<u8>),
    /// An error response to send the client.
    Reply(Vec<u8>),
}

/// The next input from the deframer; None when it needs more bytes.
fn next_input(d: &mut Deframer) -> Option<Input> {
    Some(match d.next()? {
        Event::Frame(body) => match judge(&body) {
            Verdict::Good => Input::Pass(body),
            Verdict::NotJson(why) => {
                d.refeed();
                Input::Reply(error_response(
                    Value::Null,
                    -32700,
                    format!("Parse error: {why}"),
                ))
            }
            Verdict::NotJsonRpc(id) => Input::Reply(error_response(
                id,
                -32600,
                "Invalid request: not a JSON-RPC 2.0 message".into(),
            )),
        },
        Event::Bad(why) => Input::Reply(error_response(
            Value::Null,
            -32700,
            format!("Parse error: {why}"),
        )),
    })
}

/// Copies frames from the client to the server, answering the bad ones on `errors`.
async fn filter_input<R, W>(
    mut input: R,
    mut to_server: W,
    errors: mpsc::WeakUnboundedSender<Vec<u8>>,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut d = Deframer::default();
    let mut chunk = vec![0; CHUNK];
    loop {
        while let Some(next) = next_input(&mut d) {
            let skipped = d.take_skipped();
            if skipped > 0 {
                // Editors show a server's stderr in its log.
                eprintln!("omplens: skipped {skipped} bytes that were no message header");
            }
            match next {
                Input::Pass(body) => {
                    if to_server.write_all(&framed(&body)).await.is_err() {
                        return;
                    }
                    let _ = to_server.flush().await;
                }
                Input::Reply(reply) => match errors.upgrade() {
                    Some(tx) => {
                        let _ = tx.send(reply);
                    }
                    None => return,
                },
            }
        }
        match input.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => d.push(&chunk[..n]),
        }
    }
    // End of input: the server sees it too and stops.
    let _ = to_server.shutdown().await;
}

/// Reads whole frames of the server's output into the writer's queue.
async fn frames_of_server<R: AsyncRead + Unpin>(mut output: R, tx: mpsc::UnboundedSender<Vec<u8>>) {
    let mut d = Deframer::default();
    let mut chunk = vec![0; CHUNK];
    loop {
        while let Some(event) = d.next() {
            if let Event::Frame(body) = event {
                if tx.send(framed(&body)).is_err() {
                    return;
                }
            }
        }
        match output.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => d.push(&chunk[..n]),
        }
    }
}

async fn write_frames<W: AsyncWrite + Unpin>(mut out: W, mut rx: mpsc::UnboundedReceiver<Vec<u8>>) {
    while let Some(frame) = rx.recv().await {
        if out.write_all(&frame).await.is_err() || out.flush().await.is_err() {
            return;
        }
    }
}

/// Runs `serve` (tower-lsp-server's `Server::serve` over the given pipe ends) between
/// `input` and `output`, and returns once it has finished and its output is written.
pub async fn run<I, O, F, Fut>(input: I, output: O, serve: F)
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
    F: FnOnce(tokio::io::DuplexStream, tokio::io::DuplexStream) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let (to_server, server_in) = tokio::io::duplex(PIPE);
    let (server_out, from_server) = tokio::io::duplex(PIPE);
    let (tx, rx) = mpsc::unbounded_channel();
    // The input side only holds a weak sender: the queue closes when the server's output ends,
    // even while the client keeps stdin open.
    tokio::spawn(filter_input(input, to_server, tx.downgrade()));
    let reader = tokio::spawn(frames_of_server(from_server, tx));
    let writer = tokio::spawn(write_frames(output, rx));
    serve(server_in, server_out).await;
    let _ = reader.await;
    let _ = writer.await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(id: i64, method: &str) -> Vec<u8> {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {}})
            .to_string()
            .into_bytes()
    }

    /// A frame of `body` whose Content-Length is off by `delta`.
    fn frame_off(body: &[u8], delta: isize) -> Vec<u8> {
        let len = body.len() as isize + delta;
        let mut out = format!("Content-Length: {len}\r\n\r\n").into_bytes();
        out.extend_from_slice(body);
        out
    }

    /// What comes out of `stream` fed `step` bytes at a time, with no end of input:
    /// "METHOD" for a message passed on, "CODE ID" for an error answered.
    fn outcome_in_steps(stream: &[u8], step: usize) -> (Vec<String>, Deframer) {
        let mut d = Deframer::default();
        let mut out = Vec::new();
        for chunk in stream.chunks(step) {
            d.push(chunk);
            while let Some(input) = next_input(&mut d) {
                out.push(match input {
                    Input::Pass(body) => {
                        let v: Value = serde_json::from_slice(&body).unwrap();
                        v["method"].as_str().unwrap().to_string()
                    }
                    Input::Reply(frame) => {
                        let mut d = Deframer::default();
                        d.push(&frame);
                        let Some(Event::Frame(body)) = d.next() else {
                            panic!("a framed reply")
                        };
                        let v: Value = serde_json::from_slice(&body).unwrap();
                        format!("{} {}", v["error"]["code"], v["id"])
                    }
                });
            }
        }
        (out, d)
    }

    /// The same outcome whatever the reads: byte by byte, in odd chunks, all at once.
    fn outcome(stream: &[u8]) -> Vec<String> {
        let whole = outcome_in_steps(stream, stream.len()).0;
        for step in [1, 2, 7, 64] {
            assert_eq!(
                outcome_in_steps(stream, step).0,
                whole,
                "read {step} bytes at a time"
            );
        }
        whole
    }

    fn cat(parts: &[&[u8]]) -> Vec<u8> {
        parts.concat()
    }

    #[test]
    fn good_frames_with_other_fields_and_blank_lines() {
        let a = request(1, "a");
        let stream = cat(&[
            b"\r\n",
            format!(
                "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: {}\r\n\r\n",
                a.len()
            )
            .as_bytes(),
            &a,
            format!("content-length:{}\r\nX-Other: 1\r\n\r\n", a.len()).as_bytes(),
            &a,
            // bare line feeds
            format!("Content-Length: {}\n\n", a.len()).as_bytes(),
            &a,
        ]);
        assert_eq!(outcome(&stream), ["a", "a", "a"]);
    }

    #[test]
    fn too_short_content_length_skips_the_rest_of_the_body() {
        let stream = cat(&[
            &frame_off(&request(1, "a"), -10),
            &frame_off(&request(2, "b"), 0),
            &frame_off(&request(3, "c"), -1),
            &frame_off(&request(4, "d"), 0),
        ]);
        assert_eq!(outcome(&stream), ["-32700 null", "b", "-32700 null", "d"]);
    }

    #[test]
    fn too_long_content_length_serves_the_frames_it_swallowed() {
        // 30 bytes too many: the next frame's header and part of its body.
        let stream = cat(&[
            &frame_off(&request(1, "a"), 30),
            &frame_off(&request(2, "b"), 0),
            &frame_off(&request(3, "c"), 0),
        ]);
        assert_eq!(outcome(&stream), ["-32700 null", "b", "c"]);
        // Exactly up to the end of the next frame, and beyond the frame after it.
        let b = frame_off(&request(2, "b"), 0);
        for extra in [b.len() as isize, b.len() as isize + 5] {
            let stream = cat(&[
                &frame_off(&request(1, "a"), extra),
                &b,
                &frame_off(&request(3, "c"), 0),
                &frame_off(&request(4, "d"), 0),
            ]);
            assert_eq!(outcome(&stream), ["-32700 null", "b", "c", "d"], "{extra}");
        }
    }

    #[test]
    fn too_long_content_length_does_not_wait_when_a_header_is_visible() {
        // The declared body would need 1000 more bytes, and none come (no end of input
        // either): the visible header ends the frame.
        let stream = cat(&[
            &frame_off(&request(1, "a"), 1000),
            &frame_off(&request(2, "b"), 0),
        ]);
        assert_eq!(outcome(&stream), ["-32700 null", "b"]);
        // A body not complete yet whose text holds "Content-Length:" is waited for.
        let body = json!({"jsonrpc": "2.0", "method": "m", "params": {"text": "Content-Length: 12\r\n\r\n"}})
            .to_string()
            .into_bytes();
        let stream = frame_off(&body, 0);
        let (out, d) = outcome_in_steps(&stream[..stream.len() - 3], 1);
        assert!(out.is_empty(), "{out:?}");
        assert!(matches!(d.state, State::Body { .. }), "{:?}", d.state);
        assert_eq!(outcome(&cat(&[&stream, &stream])), ["m", "m"]);
    }

    #[test]
    fn garbage_between_frames_is_skipped() {
        let stream = cat(&[
            b"\x00\xff garbage\r\n\r\nmore: garbage \"{\r\n",
            &frame_off(&request(1, "a"), 0),
            b"no line break before the header",
            &frame_off(&request(2, "b"), 0),
            b"}}\r\n\r\n\r\n",
            &frame_off(&request(3, "c"), 0),
        ]);
        let (out, mut d) = outcome_in_steps(&stream, stream.len());
        assert_eq!(out, ["a", "b", "c"]);
        assert!(d.take_skipped() > 40);
        assert_eq!(outcome(&stream), ["a", "b", "c"]);
    }

    #[test]
    fn unusable_headers_get_a_parse_error() {
        let stream = cat(&[
            b"Content-Type: application/vscode-jsonrpc\r\n\r\n{\"jsonrpc\": \"2.0\"}",
            &frame_off(&request(1, "a"), 0),
            b"Content-Length: abc\r\n\r\n{}",
            &frame_off(&request(2, "b"), 0),
            b"Content-Length: 99999999999\r\n\r\n",
            &frame_off(&request(3, "c"), 0),
            b"Content-Length: 99999999999999999999999\r\n\r\n",
            &frame_off(&request(4, "d"), 0),
            // A header block cut before its blank line: the next header replaces it.
            b"Content-Length: 40\r\n",
            &frame_off(&request(5, "e"), 0),
        ]);
        assert_eq!(
            outcome(&stream),
            [
                "-32700 null",
                "a",
                "-32700 null",
                "b",
                "-32700 null",
                "c",
                "-32700 null",
                "d",
                "e"
            ]
        );
        let mut d = Deframer::default();
        d.push(b"Content-Length: 99999999999\r\n\r\n");
        let Some(Event::Bad(why)) = d.next() else {
            panic!("refused")
        };
        assert!(why.contains("exceeds the limit of 64 MiB"), "{why}");
        assert!(d.buf.capacity() < 1 << 10);
    }

    #[test]
    fn bad_bodies_get_their_error_and_the_next_frame_is_served() {
        let stream = cat(&[
            &frame_off(b"{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": ", 0),
            &frame_off(&request(1, "a"), 0),
            &frame_off(br#"{"jsonrpc": "1.0", "id": 7, "method": "x"}"#, 0),
            &frame_off(b"[1, 2]", 0),
            &frame_off(b"", 0),
            &frame_off(&request(2, "b"), 0),
        ]);
        assert_eq!(
            outcome(&stream),
            [
                "-32700 null",
                "a",
                "-32600 7",
                "-32600 null",
                "-32700 null",
                "b"
            ]
        );
    }

    #[test]
    fn long_garbage_lines_keep_memory_bounded() {
        let garbage = vec![b'x'; 1 << 20];
        let stream = cat(&[&garbage, &frame_off(&request(1, "a"), 0)]);
        let mut d = Deframer::default();
        let mut out = Vec::new();
        for chunk in stream.chunks(4096) {
            d.push(chunk);
            assert!(d.buf.len() - d.start <= MAX_LINE + 4096);
            while let Some(i) = next_input(&mut d) {
                out.push(i);
            }
        }
        assert!(matches!(&out[..], [Input::Pass(_)]), "{out:?}");
        assert!(d.buf.capacity() < 64 << 10, "{}", d.buf.capacity());
    }

    #[test]
    fn lines_between_frames() {
        assert_eq!(
            line_kind(b"Content-Length: 12"),
            Line::Length {
                garbage: 0,
                value: Ok(12)
            }
        );
        assert_eq!(
            line_kind(b"x\"}}Content-Length: 12 "),
            Line::Length {
                garbage: 4,
                value: Ok(12)
            }
        );
        assert_eq!(
            line_kind(b"xyzcontent-LENGTH:7"),
            Line::Length {
                garbage: 3,
                value: Ok(7)
            }
        );
        assert!(matches!(
            line_kind(b"Content-Length: 1x"),
            Line::Length {
                garbage: 0,
                value: Err(_)
            }
        ));
        assert_eq!(line_kind(b"Content-Type: text"), Line::Field);
        assert_eq!(
            line_kind(b"\"text\": \"Content-Length: 5 bytes\""),
            Line::Garbage
        );
        assert!(cannot_be_json(b"{\"a\": 1} Content-Length: 5\r\n"));
        assert!(cannot_be_json(b"{\"a\": Content-Length: 5\r\n"));
        assert!(!cannot_be_json(b"{\"a\": \"Content-Length: 5"));
        assert!(!cannot_be_json(b" {\"a\": 1}  "));
    }

    #[test]
    fn judges_bodies() {
        assert_eq!(
            judge(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#),
            Verdict::Good
        );
        assert_eq!(
            judge(br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#),
            Verdict::Good
        );
        assert_eq!(
            judge(br#"{"jsonrpc":"2.0","id":3,"result":null}"#),
            Verdict::Good
        );
        assert!(matches!(judge(b"{not json"), Verdict::NotJson(_)));
        assert_eq!(
            judge(br#"{"jsonrpc":"1.0","id":7,"method":"x"}"#),
            Verdict::NotJsonRpc(json!(7))
        );
    }
}
