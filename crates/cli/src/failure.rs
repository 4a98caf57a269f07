//! Why a command failed, and the exit status and stderr line each failure gets.

use std::process::ExitCode;

/// Why a command failed; decides the exit status. Each command chooses the variant for each of
/// its errors (there is no conversion from a bare message).
pub enum Failure {
    /// Usage or I/O error, or a command that could not do its job: exit 2.
    Usage(String),
    /// A snapshot (or upstream world) refused by the wrapper: exit 1.
    Refused(String),
    /// A check that ran and found a difference (golden, conformance): exit 1.
    Failed(String),
}

/// Prints a failure's message on stderr, prefixed by its kind, and returns its exit status: 0 ok,
/// 1 refused or failed, 2 usage (the statuses `rapier-pinned --help` documents).
pub fn exit(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Refused(message)) => {
            eprintln!("refused: {message}");
            ExitCode::from(1)
        }
        Err(Failure::Failed(message)) => {
            eprintln!("failed: {message}");
            ExitCode::from(1)
        }
    }
}
