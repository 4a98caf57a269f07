//! The golden file's text form: an insta snapshot (so `cargo insta review` shows the change),
//! whose content is the header lines, then per run a `run NAME` line and one line per step:
//!
//! ```text
//! run pyramid
//! 1 337b8f09c5373392 | 0v0 1a2b3c4d -9.5 0.49836665 0.0 | 27v0 ...
//! ```
//!
//! step (from 1), state digest (16 hex), then per sampled body: its id, its state hash (8 hex)
//! and its position x y z. Numbers are written with Rust's `{:?}`, the shortest text that reads
//! back to the same `f32` (`-0.0` included), so a reviewer sees exact values.

use crate::error::GoldenError;
use crate::trajectory::{BodyId, Golden, Run, Sample, Step};

/// The insta metadata block golden files start with (insta reads it; the content follows).
pub const INSTA_HEADER: &str = "---\nsource: crates/golden/tests/golden.rs\n---\n";

/// The snapshot content (what insta compares): no trailing newline.
pub fn render(golden: &Golden) -> String {
    let mut out = String::new();
    for line in &golden.header {
        out += line;
        out.push('\n');
    }
    for run in &golden.runs {
        out += &format!("run {}\n", run.name);
        for (i, step) in run.steps.iter().enumerate() {
            out += &format!("{} {:016x}", i + 1, step.digest);
            for s in &step.samples {
                let [x, y, z] = s.position;
                out += &format!(" | {} {:08x} {x:?} {y:?} {z:?}", s.body, s.hash);
            }
            out.push('\n');
        }
    }
    out.pop();
    out
}

/// The whole file: insta's metadata block, the content and a final newline.
pub fn render_file(golden: &Golden) -> String {
    format!("{INSTA_HEADER}{}\n", render(golden))
}

/// The content of a golden file: everything after insta's metadata block, without the final
/// newline(s).
pub fn content(file: &str) -> Result<&str, GoldenError> {
    let rest = file
        .strip_prefix("---\n")
        .ok_or(GoldenError::NotInsta("no leading `---` line"))?;
    let end = rest
        .find("\n---\n")
        .ok_or(GoldenError::NotInsta("metadata block not closed by `---`"))?;
    Ok(rest[end + 5..].trim_end_matches('\n'))
}

/// Parses snapshot content written by [`render`]; an error names the line.
pub fn parse(content: &str) -> Result<Golden, GoldenError> {
    let mut golden = Golden {
        header: Vec::new(),
        runs: Vec::new(),
    };
    for (n, line) in content.lines().enumerate() {
        let at = |reason: String| GoldenError::BadLine {
            line: n + 1,
            reason,
            text: line.to_string(),
        };
        if let Some(name) = line.strip_prefix("run ") {
            golden.runs.push(Run {
                name: name.to_string(),
                steps: Vec::new(),
            });
        } else if let Some(run) = golden.runs.last_mut() {
            let step = parse_step(line).map_err(at)?;
            if step.0 != run.steps.len() + 1 {
                return Err(at(format!("expected step {}", run.steps.len() + 1)));
            }
            run.steps.push(step.1);
        } else {
            golden.header.push(line.to_string());
        }
    }
    if golden.runs.is_empty() {
        return Err(GoldenError::NoRun);
    }
    Ok(golden)
}

/// One step line: its step number and state.
fn parse_step(line: &str) -> Result<(usize, Step), String> {
    let mut parts = line.split(" | ");
    let mut head = parts.next().unwrap_or("").split(' ');
    let step = head
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or("no step number")?;
    let digest = head
        .next()
        .and_then(|s| u64::from_str_radix(s, 16).ok())
        .ok_or("no state digest")?;
    let samples = parts.map(parse_sample).collect::<Result<_, _>>()?;
    Ok((step, Step { digest, samples }))
}

/// `3v0 1a2b3c4d x y z`.
fn parse_sample(text: &str) -> Result<Sample, String> {
    let bad = || format!("bad sample `{text}`");
    let fields: Vec<&str> = text.split(' ').collect();
    let [id, hash, x, y, z] = fields[..] else {
        return Err(bad());
    };
    let (index, generation) = id.split_once('v').ok_or_else(bad)?;
    let number = |s: &str| s.parse::<f32>().map_err(|_| bad());
    Ok(Sample {
        body: BodyId {
            index: index.parse().map_err(|_| bad())?,
            generation: generation.parse().map_err(|_| bad())?,
        },
        hash: u32::from_str_radix(hash, 16).map_err(|_| bad())?,
        position: [number(x)?, number(y)?, number(z)?],
        state: None,
    })
}
