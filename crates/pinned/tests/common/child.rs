//! A child process of the running test binary, for the tests that restore crafted snapshots and
//! step them (`restore_regressions.rs`, `restore_mutations.rs`): it runs one `#[ignore]`d test of
//! the same binary, alone, under an address-space limit, and the parent reads its output line by
//! line with a deadline. A panic, an abort, an allocation failure or a stack overflow ends the
//! child; a hang stalls it until the parent kills it. Either way the parent counts it and goes
//! on.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Instant;

/// A child's address-space limit, in bytes (`ulimit -v`).
pub const MEMORY_LIMIT: u64 = 2 << 30;

/// A running child: this test binary running one ignored test.
pub struct Child {
    process: std::process::Child,
    /// Its stdout, one line at a time, read by a thread.
    lines: Receiver<String>,
    /// Its whole stderr, read by a thread.
    stderr: Option<JoinHandle<String>>,
}

/// What a child did next.
#[derive(Debug)]
pub enum Next {
    /// It printed this line on stdout.
    Line(String),
    /// It closed its stdout: it has ended.
    Exited,
    /// The deadline passed first (the child is still running).
    TimedOut,
}

impl Child {
    /// Runs the ignored test `test` of this test binary, alone (`--exact`, one test thread,
    /// `--nocapture`), with `env` set, under [`MEMORY_LIMIT`].
    pub fn spawn<I, K, V>(test: &str, env: I) -> Child
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<OsStr>,
        V: AsRef<OsStr>,
    {
        let exe = std::env::current_exe().expect("the test binary");
        // `ulimit -v` takes KiB; the shell then becomes the test binary (`exec`), so the child's
        // pid is the test binary's.
        let script = format!("ulimit -v {} && exec \"$0\" \"$@\"", MEMORY_LIMIT >> 10);
        let mut process = Command::new("sh")
            .args(["-c", &script])
            .arg(&exe)
            .args(["--ignored", "--exact", test, "--nocapture"])
            .args(["--test-threads", "1"])
            .envs(env)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the child");
        let stdout = process.stdout.take().expect("the child's stdout");
        let mut stderr = process.stderr.take().expect("the child's stderr");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = stderr.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        });
        Child {
            process,
            lines,
            stderr: Some(stderr),
        }
    }

    /// The next line the child prints on stdout, waiting until `deadline` at most.
    pub fn next_line(&mut self, deadline: Instant) -> Next {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Next::Line(line),
            Err(RecvTimeoutError::Disconnected) => Next::Exited,
            Err(RecvTimeoutError::Timeout) => Next::TimedOut,
        }
    }

    /// Ends the child (kills it if it still runs), waits for it, and returns its exit status and
    /// everything it wrote on stderr.
    pub fn finish(mut self) -> (ExitStatus, String) {
        if self.process.try_wait().ok().flatten().is_none() {
            let _ = self.process.kill();
        }
        let status = self.process.wait().expect("wait for the child");
        let stderr = self.stderr.take().expect("once");
        (status, stderr.join().unwrap_or_default())
    }
}

/// What a child's `stderr` says about why it died: the last panic it reports (`panicked at
/// file:line:column: message`), allocation failure or stack overflow; `None` when there is none.
pub fn crash_line(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr.lines().collect();
    let at = lines.iter().rposition(|l| {
        l.contains("panicked at")
            || l.contains("memory allocation")
            || l.contains("overflowed its stack")
    })?;
    let line = lines[at].trim();
    match line.split_once("panicked at ") {
        // The message is on the next line.
        Some((_, place)) => {
            let message = lines.get(at + 1).map_or("", |m| m.trim());
            Some(
                format!("panicked at {place} {message}")
                    .trim_end()
                    .to_string(),
            )
        }
        None => Some(line.to_string()),
    }
}
