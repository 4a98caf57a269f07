//! Comparing a run now with its golden file: the first step whose state digest differs, and the
//! body and quantity that show it.

use crate::trajectory::{BodyId, Golden, Run, Sample, Step};
use std::fmt;

/// Where a run first differs from its golden file.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// The run (`pyramid`, `spinning_blade@60#3`, ...), or empty for a header difference.
    pub run: String,
    /// The first step (from 1) whose state differs.
    pub step: usize,
    /// What differs at that step, both values.
    pub what: String,
    /// The sampled body that shows it, when one does.
    pub body: Option<BodyDiff>,
}

/// A sampled body that differs.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDiff {
    pub body: BodyId,
    /// The step it first differs at (the divergence's step, or later if no sampled body
    /// differs there).
    pub step: usize,
    /// `translation.y`, or `rotation or velocity` when only its state hash differs.
    pub quantity: String,
    pub golden: String,
    pub now: String,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.run.is_empty() {
            return write!(f, "{}", self.what);
        }
        write!(
            f,
            "run {} diverges at step {}: {}",
            self.run, self.step, self.what
        )?;
        match &self.body {
            Some(b) if b.step == self.step => write!(f, "\n  body {}: ", b.body)?,
            Some(b) => write!(
                f,
                "\n  no sampled body differs at step {}; the first that does is body {} at step {}: ",
                self.step, b.body, b.step
            )?,
            None => return write!(f, "\n  no sampled body differs in the whole run"),
        }
        let b = self.body.as_ref().expect("matched above");
        write!(f, "{} golden {}, now {}", b.quantity, b.golden, b.now)
    }
}

/// The first difference between `golden` and `now`, or `None` when they are identical: the runs
/// first (what moved matters most), then the header lines.
pub fn compare(golden: &Golden, now: &Golden) -> Option<Divergence> {
    let file = |what: String| Divergence {
        run: String::new(),
        step: 0,
        what,
        body: None,
    };
    let names = |g: &Golden| g.runs.iter().map(|r| r.name.clone()).collect::<Vec<_>>();
    if names(golden) != names(now) {
        return Some(file(format!(
            "the runs differ: golden {:?}, now {:?}",
            names(golden),
            names(now)
        )));
    }
    let runs = golden.runs.iter().zip(&now.runs);
    if let Some(divergence) = runs.into_iter().find_map(|(g, n)| compare_run(g, n)) {
        return Some(divergence);
    }
    let line = (0..golden.header.len().max(now.header.len()))
        .find(|&i| golden.header.get(i) != now.header.get(i))?;
    let get = |h: &[String]| h.get(line).cloned().unwrap_or_else(|| "(none)".into());
    Some(file(format!(
        "every run agrees, but header line {} differs: golden `{}`, now `{}`",
        line + 1,
        get(&golden.header),
        get(&now.header)
    )))
}

/// The first difference between two runs of the same name.
pub fn compare_run(golden: &Run, now: &Run) -> Option<Divergence> {
    let first = golden
        .steps
        .iter()
        .zip(&now.steps)
        .position(|(g, n)| !same_step(g, n));
    let Some(i) = first else {
        if golden.steps.len() == now.steps.len() {
            return None;
        }
        let step = golden.steps.len().min(now.steps.len()) + 1;
        return Some(Divergence {
            run: golden.name.clone(),
            step,
            what: format!(
                "golden has {} steps, now {}",
                golden.steps.len(),
                now.steps.len()
            ),
            body: None,
        });
    };
    let (g, n) = (&golden.steps[i], &now.steps[i]);
    let what = if g.digest != n.digest {
        format!(
            "state digest golden {:016x}, now {:016x}",
            g.digest, n.digest
        )
    } else {
        "the state digests agree but the sampled bodies differ".into()
    };
    let body = golden.steps[i..]
        .iter()
        .zip(&now.steps[i..])
        .enumerate()
        .find_map(|(k, (g, n))| body_diff(&g.samples, &n.samples, i + k + 1));
    Some(Divergence {
        run: golden.name.clone(),
        step: i + 1,
        what,
        body,
    })
}

/// Whether two steps agree on everything a golden file stores (digest; per sample the body,
/// state hash and position bits).
fn same_step(golden: &Step, now: &Step) -> bool {
    golden.digest == now.digest
        && golden.samples.len() == now.samples.len()
        && golden.samples.iter().zip(&now.samples).all(|(g, n)| {
            g.body == n.body
                && g.hash == n.hash
                && g.position.map(f32::to_bits) == n.position.map(f32::to_bits)
        })
}

/// The first sampled body whose sample differs at `step`, with the first differing quantity.
fn body_diff(golden: &[Sample], now: &[Sample], step: usize) -> Option<BodyDiff> {
    if golden.iter().map(|s| s.body).ne(now.iter().map(|s| s.body)) {
        let ids = |s: &[Sample]| s.iter().map(|s| s.body.to_string()).collect::<Vec<_>>();
        return Some(BodyDiff {
            body: golden.first().or(now.first())?.body,
            step,
            quantity: "sampled bodies".into(),
            golden: ids(golden).join(" "),
            now: ids(now).join(" "),
        });
    }
    golden.iter().zip(now).find_map(|(g, n)| {
        let axis = (0..3).find(|&a| g.position[a].to_bits() != n.position[a].to_bits());
        let diff = |quantity: String, golden: String, now: String| BodyDiff {
            body: g.body,
            step,
            quantity,
            golden,
            now,
        };
        match axis {
            Some(a) => Some(diff(
                format!("translation.{}", ["x", "y", "z"][a]),
                format!("{:?}", g.position[a]),
                format!("{:?}", n.position[a]),
            )),
            None if g.hash != n.hash => Some(diff(
                "rotation or velocity (the file stores their hash)".into(),
                format!("state hash {:08x}", g.hash),
                match n.state {
                    Some(s) => format!(
                        "state hash {:08x}, rotation {:?}, linvel {:?}, angvel {:?}",
                        n.hash,
                        &s[3..7],
                        &s[7..10],
                        &s[10..13]
                    ),
                    None => format!("state hash {:08x}", n.hash),
                },
            )),
            None => None,
        }
    })
}
