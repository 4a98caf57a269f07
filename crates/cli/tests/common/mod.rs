//! What the integration tests of the reference server share: the built binary run as a process
//! whose stdout lines are awaited, a server started with its address, a line's digest.
#![allow(dead_code)] // each test file uses a part

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_rapier-pinned");

/// A running `rapier-pinned` process whose stdout lines arrive on a channel.
pub struct Proc {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Proc {
    pub fn start(args: &[&str]) -> Proc {
        let mut child = Command::new(BIN)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        Proc {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Waits (at most 30 s) for a stdout line containing `text` and returns it.
    pub fn expect(&mut self, text: &str) -> String {
        self.expect_within(text, Duration::from_secs(30))
    }

    /// Waits at most `wait` in all for a stdout line containing `text` and returns it.
    pub fn expect_within(&mut self, text: &str, wait: Duration) -> String {
        if let Some(line) = self.seen.iter().find(|l| l.contains(text)) {
            return line.clone();
        }
        let deadline = Instant::now() + wait;
        loop {
            match self
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(text) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "no line with {text:?} within {wait:?}; saw {:#?}",
                    self.seen
                ),
            }
        }
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Waits for the exit and returns (code, every stdout line, stderr).
    pub fn finish(mut self) -> (i32, Vec<String>, String) {
        let status = self.child.wait().unwrap();
        self.seen.extend(self.lines.try_iter());
        while let Ok(line) = self.lines.recv_timeout(Duration::from_millis(200)) {
            self.seen.push(line);
        }
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut self.child.stderr.take().unwrap(), &mut stderr).unwrap();
        (
            status.code().unwrap_or(-1),
            std::mem::take(&mut self.seen),
            stderr,
        )
    }

    /// The stdout lines so far, waiting `wait` for more.
    pub fn lines_after(&mut self, wait: Duration) -> &[String] {
        while let Ok(line) = self.lines.recv_timeout(wait) {
            self.seen.push(line);
        }
        &self.seen
    }

    /// [`Self::finish`] for a process that must exit 0: its stdout lines.
    pub fn finish_ok(self) -> Vec<String> {
        let (code, lines, err) = self.finish();
        assert_eq!(code, 0, "{lines:#?} {err}");
        lines
    }
}

impl Drop for Proc {
    /// A test that failed leaves no process behind (one that exited is not touched).
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Starts a server with `args` and returns it with its address.
pub fn server(args: &[&str]) -> (Proc, String) {
    server_timing_out(20, args)
}

/// [`server`] with `--timeout-secs secs`.
pub fn server_timing_out(secs: u64, args: &[&str]) -> (Proc, String) {
    let secs = secs.to_string();
    let mut all = vec!["serve", "--unpaced", "--timeout-secs", &secs];
    all.extend(args);
    listening(&all)
}

/// Starts `rapier-pinned` with `args` (a `serve` command) and returns it with the address of its
/// `listening on` line.
pub fn listening(args: &[&str]) -> (Proc, String) {
    let mut proc = Proc::start(args);
    let line = proc.expect("listening on ");
    let addr = line["listening on ".len()..]
        .split(',')
        .next()
        .unwrap()
        .to_string();
    (proc, addr)
}

/// The 16 hex digits after `digest ` in the first line starting with `prefix`.
pub fn digest_of(lines: &[String], prefix: &str) -> String {
    let line = lines
        .iter()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} in {lines:#?}"));
    line.split("digest ").nth(1).unwrap()[..16].to_string()
}
