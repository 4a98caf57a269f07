//! How the tool prints values several commands show: bytes as hex, a wrapper error with its kind.

use rapier_pinned::Error;

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A wrapper error as the tool prints it: its message and its kind.
pub fn typed(e: &Error) -> String {
    format!("{e} (kind: {})", e.kind())
}
