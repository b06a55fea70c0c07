//! stdio between the client and tower-lsp-server, with a guard for malformed messages.
//!
//! tower-lsp-server answers a message it cannot decode with a JSON-RPC error, but its framed
//! reader (tokio-util) then ends the input stream, so the session would stop after one bad
//! message. Here every frame is read first: a body that is not JSON gets a parse error
//! (-32700), JSON that is no JSON-RPC message an invalid-request error (-32600); both are
//! answered here and the frame is dropped, and the session goes on. Good frames are passed to
//! tower-lsp-server unchanged. Its output is copied to stdout frame by frame, so our error
//! responses never land inside one of its messages.

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tower_lsp_server::jsonrpc::{Request, Response};

/// Larger bodies are refused (and end the session: the stream cannot be trusted any more).
const MAX_BODY: usize = 256 << 20;
const PIPE: usize = 1 << 16;

/// One frame read from the client.
#[derive(Debug, PartialEq)]
enum Frame {
    Body(Vec<u8>),
    /// Headers without a usable Content-Length: skipped.
    BadHeader(String),
}

/// Reads the next frame; None at the end of input (or on an unrecoverable error).
async fn read_frame<R: AsyncRead + Unpin>(r: &mut BufReader<R>) -> Option<Frame> {
    let mut length: Option<Result<usize, String>> = None;
    let mut saw_header = false;
    loop {
        let mut line = Vec::new();
        if r.read_until(b'\n', &mut line).await.ok()? == 0 {
            return None;
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if !saw_header {
                continue; // stray blank lines between frames
            }
            break;
        }
        saw_header = true;
        if let Some((name, value)) = line.split_once(':') {
            // Garbage before a header line still leaves the last Content-Length usable.
            if name.trim().to_ascii_lowercase().ends_with("content-length") {
                length = Some(
                    value
                        .trim()
                        .parse::<usize>()
                        .map_err(|e| format!("invalid Content-Length {:?}: {e}", value.trim())),
                );
            }
        }
    }
    match length {
        None => Some(Frame::BadHeader("missing Content-Length header".into())),
        Some(Err(e)) => Some(Frame::BadHeader(e)),
        Some(Ok(n)) if n > MAX_BODY => None,
        Some(Ok(n)) => {
            let mut body = vec![0; n];
            r.read_exact(&mut body).await.ok()?;
            Some(Frame::Body(body))
        }
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

/// Whether tower-lsp-server can decode the body; otherwise the error response to send.
fn judge(body: &[u8]) -> Result<(), Vec<u8>> {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            return Err(error_response(
                Value::Null,
                -32700,
                format!("Parse error: {e}"),
            ))
        }
    };
    let decodes = serde_json::from_value::<Request>(value.clone()).is_ok()
        || serde_json::from_value::<Response>(value.clone()).is_ok();
    if decodes {
        return Ok(());
    }
    let id = value
        .get("id")
        .filter(|id| id.is_string() || id.is_i64())
        .cloned()
        .unwrap_or(Value::Null);
    Err(error_response(
        id,
        -32600,
        "Invalid request: not a JSON-RPC 2.0 message".into(),
    ))
}

/// Copies frames from the client to the server, answering the bad ones on `errors`.
async fn filter_input<R, W>(input: R, mut to_server: W, errors: mpsc::WeakUnboundedSender<Vec<u8>>)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut input = BufReader::new(input);
    while let Some(frame) = read_frame(&mut input).await {
        let reply = match frame {
            Frame::Body(body) => match judge(&body) {
                Ok(()) => {
                    if to_server.write_all(&framed(&body)).await.is_err() {
                        return;
                    }
                    let _ = to_server.flush().await;
                    continue;
                }
                Err(reply) => reply,
            },
            Frame::BadHeader(why) => {
                error_response(Value::Null, -32700, format!("Parse error: {why}"))
            }
        };
        match errors.upgrade() {
            Some(tx) => {
                let _ = tx.send(reply);
            }
            None => return,
        }
    }
    // End of input: the server sees it too and stops.
    let _ = to_server.shutdown().await;
}

/// Reads whole frames of the server's output into the writer's queue.
async fn frames_of_server<R: AsyncRead + Unpin>(output: R, tx: mpsc::UnboundedSender<Vec<u8>>) {
    let mut output = BufReader::new(output);
    while let Some(Frame::Body(body)) = read_frame(&mut output).await {
        if tx.send(framed(&body)).is_err() {
            return;
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

    async fn frames(input: &[u8]) -> Vec<Frame> {
        let mut r = BufReader::new(input);
        let mut out = Vec::new();
        while let Some(f) = read_frame(&mut r).await {
            out.push(f);
        }
        out
    }

    #[tokio::test]
    async fn frames_and_bad_headers() {
        let input = b"Content-Length: 2\r\n\r\n{}\r\nX-Junk: 1\r\n\r\nContent-Length: 3\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n[1]";
        assert_eq!(
            frames(input).await,
            vec![
                Frame::Body(b"{}".to_vec()),
                Frame::BadHeader("missing Content-Length header".into()),
                Frame::Body(b"[1]".to_vec()),
            ]
        );
    }

    #[test]
    fn judges_bodies() {
        assert!(judge(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#).is_ok());
        assert!(judge(br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#).is_ok());
        assert!(judge(br#"{"jsonrpc":"2.0","id":3,"result":null}"#).is_ok());
        let e = String::from_utf8(judge(b"{not json").unwrap_err()).unwrap();
        assert!(e.contains("-32700") && e.contains("\"id\":null"), "{e}");
        let e = String::from_utf8(judge(br#"{"jsonrpc":"1.0","id":7,"method":"x"}"#).unwrap_err())
            .unwrap();
        assert!(e.contains("-32600") && e.contains("\"id\":7"), "{e}");
    }
}
