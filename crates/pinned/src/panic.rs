//! A panic in decoding or checking untrusted bytes becomes a typed error: rapier's and parry's
//! accessors index with what the bytes say, and none may take the process down.

/// Runs `run`; a panic becomes `wrap("panic while <during>: <message>")`.
pub(crate) fn catch_panic<T, E>(
    run: impl FnOnce() -> Result<T, E>,
    during: &str,
    wrap: fn(String) -> E,
) -> Result<T, E> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|panic| {
        let msg = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(wrap(format!("panic while {during}: {msg}")))
    })
}
