//! Errors as JavaScript sees them: a refusal of the pinned layer is an `Error` named
//! `PinnedError` whose `message` is the native error's text and whose `kind` is its stable name
//! (`ErrorKind::as_str`, as in the conformance vectors and the CLI's `(kind: …)`); any other
//! misuse (a bad handle, a wrong field count) is a plain `Error`.

use rapier_pinned::Error;
use wasm_bindgen::JsValue;

/// A plain JavaScript `Error` with `message`.
pub fn js_error(message: &str) -> JsValue {
    js_sys::Error::new(message).into()
}

/// The `PinnedError` for a native refusal.
pub fn pinned_error(error: &Error) -> JsValue {
    let e = js_sys::Error::new(&error.to_string());
    e.set_name("PinnedError");
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&e, &"kind".into(), &error.kind().as_str().into());
    e.into()
}
