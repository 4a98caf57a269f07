//! Why a command failed, and the exit status and stderr line each failure gets (the statuses of
//! `rapier-pinned`: scripts read them alike).

use std::process::ExitCode;

/// Why a command failed; decides the exit status. Each command chooses the variant for each of
/// its errors (there is no conversion from a bare message).
pub enum Failure {
    /// Usage or I/O error, or a command that could not do its job: exit 2.
    Usage(String),
    /// A check that ran and found a difference (a matrix mismatch): exit 1.
    Failed(String),
}

/// Prints a failure's message on stderr, prefixed by its kind, and returns its exit status: 0 ok,
/// 1 failed, 2 usage.
pub fn exit(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Failed(message)) => {
            eprintln!("failed: {message}");
            ExitCode::from(1)
        }
    }
}
