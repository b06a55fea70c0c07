//! `omplens lsp` over real stdio with malformed frames: wrong Content-Lengths, garbage between
//! frames, headers split across writes, unusable headers, bad bodies. The server answers an
//! error where JSON-RPC says so (-32700 with a null id for what cannot be parsed, -32600 for
//! JSON that is no JSON-RPC message), resynchronises on the next header and serves the good
//! frames that follow.

mod common;

use common::{file_uri, repo, Lsp};
use serde_json::{json, Value};
use std::time::Duration;

/// A frame of `body` whose Content-Length is off by `delta` bytes.
fn frame_off(body: &[u8], delta: isize) -> Vec<u8> {
    let len = body.len() as isize + delta;
    let mut out = format!("Content-Length: {len}\r\n\r\n").into_bytes();
    out.extend_from_slice(body);
    out
}

fn request(id: i64, method: &str, params: Value) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        .to_string()
        .into_bytes()
}

fn initialize_params() -> Value {
    json!({"processId": null, "rootUri": file_uri(&repo()), "capabilities": {}})
}

fn response(lsp: &mut Lsp, id: i64) -> Value {
    lsp.wait_for(&format!("the response to #{id}"), |m| {
        m["id"] == id && m.get("method").is_none()
    })
}

fn parse_error(lsp: &mut Lsp, what: &str) -> Value {
    let e = lsp.wait_for(what, |m| m["error"]["code"] == -32700);
    assert!(e["id"].is_null(), "{e}");
    e
}

fn hover(id: i64, uri: &str) -> Vec<u8> {
    request(
        id,
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 12, "character": 2}}),
    )
}

fn assert_hover(r: &Value) {
    let text = r["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("Copies to the device"), "{r}");
}

#[test]
fn wrong_content_lengths_are_answered_and_the_next_frames_served() {
    let mut lsp = Lsp::start();
    // Too short: the body is cut, its rest runs into the next header (no line break).
    lsp.write_bytes(&frame_off(
        &request(100, "initialize", initialize_params()),
        -10,
    ));
    let init = lsp.initialize(json!({}), Value::Null);
    assert!(init["capabilities"]["hoverProvider"] == true, "{init}");
    let e = parse_error(&mut lsp, "the cut initialize's parse error");
    assert!(
        lsp.received(|m| m["id"] == 100).is_empty(),
        "the cut frame is not served"
    );
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Parse error"),
        "{e}"
    );

    let path = repo().join("tests/check/lost_scalar_bug.c");
    let uri = file_uri(&path);
    lsp.open(&uri, "c", 1, &std::fs::read_to_string(&path).unwrap());
    lsp.diagnostics(&uri, 1);

    // Too long by far more than what follows, and the client then waits: the next header,
    // already there, ends the bad frame instead of the server waiting for 5000 more bytes.
    let mut bytes = frame_off(&hover(200, &uri), 5000);
    bytes.extend(frame_off(&hover(201, &uri), 0));
    lsp.write_bytes(&bytes);
    assert_hover(&response(&mut lsp, 201));
    parse_error(&mut lsp, "the long hover's parse error");

    // Too long by 30 bytes, all in one write: the next frame's header and the start of its
    // body are inside the declared body; both swallowed frames are served.
    let mut bytes = frame_off(&hover(202, &uri), 30);
    bytes.extend(frame_off(&hover(203, &uri), 0));
    bytes.extend(frame_off(&hover(204, &uri), 0));
    lsp.write_bytes(&bytes);
    assert_hover(&response(&mut lsp, 203));
    assert_hover(&response(&mut lsp, 204));
    parse_error(&mut lsp, "the second long hover's parse error");
    assert!(lsp
        .received(|m| [200, 202].contains(&m["id"].as_i64().unwrap_or(0)))
        .is_empty());

    // Too short by one byte: the rest is a lone "}" before the next header.
    let mut bytes = frame_off(&hover(205, &uri), -1);
    bytes.extend(frame_off(&hover(206, &uri), 0));
    lsp.write_bytes(&bytes);
    assert_hover(&response(&mut lsp, 206));
    parse_error(&mut lsp, "the short hover's parse error");

    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}

#[test]
fn garbage_split_headers_and_unusable_headers() {
    let mut lsp = Lsp::start();
    // Garbage, then an initialize whose header arrives in pieces.
    lsp.write_bytes(b"\x00\xff not a header\r\n\r\nmore garbage with no line break");
    let init = frame_off(&request(1000, "initialize", initialize_params()), 0);
    for piece in [
        &init[..3],
        &init[3..11],
        &init[11..17],
        &init[17..19],
        &init[19..40],
        &init[40..],
    ] {
        lsp.write_bytes(piece);
        std::thread::sleep(Duration::from_millis(30));
    }
    let r = response(&mut lsp, 1000);
    assert!(r["result"]["capabilities"].is_object(), "{r}");
    lsp.notify("initialized", json!({}));
    assert!(
        lsp.received(|m| m.get("error").is_some()).is_empty(),
        "garbage is skipped, not answered"
    );

    // Headers without a usable Content-Length: a parse error each, the next frame is served.
    let unknown = |id| request(id, "omplens/noSuchMethod", json!({}));
    let cases: [(&[u8], &str); 3] = [
        (
            b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{\"jsonrpc\": \"2.0\"}",
            "missing Content-Length",
        ),
        (b"Content-Length: twelve\r\n\r\n{}", "invalid Content-Length"),
        (b"Content-Length: 99999999999\r\n\r\n", "exceeds the limit of 64 MiB"),
    ];
    for (i, (bad, says)) in cases.into_iter().enumerate() {
        let id = 1001 + i as i64;
        let mut bytes = bad.to_vec();
        bytes.extend(frame_off(&unknown(id), 0));
        lsp.write_bytes(&bytes);
        assert_eq!(response(&mut lsp, id)["error"]["code"], -32601);
        let e = parse_error(&mut lsp, says);
        assert!(
            e["error"]["message"].as_str().unwrap().contains(says),
            "{e}"
        );
    }

    // Other header fields, before or after Content-Length, are accepted.
    let body = unknown(1010);
    let bytes = format!(
        "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: {}\r\nX-Other: 1\r\n\r\n",
        body.len()
    );
    lsp.write_bytes(&[bytes.as_bytes(), &body].concat());
    assert_eq!(response(&mut lsp, 1010)["error"]["code"], -32601);

    // Bodies: not JSON (-32700, null id), JSON but no JSON-RPC message (-32600 with its id).
    let mut bytes = frame_off(b"{\"jsonrpc\": \"2.0\", \"id\": 1011, \"method\": ", 0);
    bytes.extend(frame_off(
        br#"{"jsonrpc": "1.0", "id": 1012, "method": "x"}"#,
        0,
    ));
    bytes.extend(frame_off(&unknown(1013), 0));
    lsp.write_bytes(&bytes);
    assert_eq!(response(&mut lsp, 1013)["error"]["code"], -32601);
    parse_error(&mut lsp, "the parse error of a body that is no JSON");
    let e = response(&mut lsp, 1012);
    assert_eq!(e["error"]["code"], -32600, "{e}");

    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}

#[test]
fn content_length_text_inside_a_body_is_no_header() {
    let mut lsp = Lsp::start();
    lsp.initialize(json!({}), Value::Null);
    let path = repo().join("tests/check/lost_scalar_bug.c");
    let uri = file_uri(&path);
    // Two more lines at the top: the pragma is on line 14.
    let text = format!(
        "// Content-Length: 12\r\n\r\n{}",
        std::fs::read_to_string(&path).unwrap()
    );
    // The text sits in a JSON string of a good frame (its line breaks escaped there), sent a
    // few bytes at a time.
    let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
        {"uri": uri, "languageId": "c", "version": 1, "text": text}}});
    let body = open.to_string();
    assert!(body.contains(r"// Content-Length: 12\r\n\r\n/"), "{body}");
    let bytes = frame_off(body.as_bytes(), 0);
    for piece in bytes.chunks(97) {
        lsp.write_bytes(piece);
    }
    lsp.diagnostics(&uri, 1);
    let r = lsp.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 14, "character": 2}}),
    );
    assert!(
        r["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .contains("Copies to the device"),
        "{r}"
    );
    assert!(lsp.received(|m| m.get("error").is_some()).is_empty());
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}
