//! Panics stay inside the request that caused them: the request is answered with an internal
//! error and the server keeps serving. (tower-lsp-server runs handlers inside its main loop,
//! so an escaping panic would end the whole session.)

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use tower_lsp_server::jsonrpc;

/// The message of a panic payload.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// Runs the synchronous part of a request; a panic becomes an internal error naming `what`.
pub fn guarded<T>(what: &str, f: impl FnOnce() -> jsonrpc::Result<T>) -> jsonrpc::Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => Err(internal(format!(
            "omplens panicked while answering {what}: {}",
            panic_message(&*payload)
        ))),
    }
}

pub fn internal(message: impl Into<String>) -> jsonrpc::Error {
    jsonrpc::Error {
        code: jsonrpc::ErrorCode::InternalError,
        message: message.into().into(),
        data: None,
    }
}

pub fn invalid_params(message: impl Into<String>) -> jsonrpc::Error {
    jsonrpc::Error {
        code: jsonrpc::ErrorCode::InvalidParams,
        message: message.into().into(),
        data: None,
    }
}

/// LSP's `ContentModified` (-32801): the document changed while the request waited.
pub fn content_modified() -> jsonrpc::Error {
    jsonrpc::Error {
        code: jsonrpc::ErrorCode::ContentModified,
        message: "the document changed while the request was being answered".into(),
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_internal_error() {
        let r: jsonrpc::Result<()> = guarded("hover", || panic!("boom {}", 42));
        let e = r.unwrap_err();
        assert_eq!(e.code, jsonrpc::ErrorCode::InternalError);
        assert!(e.message.contains("hover") && e.message.contains("boom 42"));
        assert_eq!(guarded("x", || Ok(7)).unwrap(), 7);
    }
}
