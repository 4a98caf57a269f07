//! The divergence picture: one body's position, golden against now, around the step where they
//! part, as an SVG (x, y and z each in its own panel).

use crate::error::GoldenError;
use crate::trajectory::{BodyId, Run};
use plotters::prelude::*;
use std::path::Path;

/// Steps shown before and after the divergence.
pub const WINDOW: usize = 30;

/// Draws `body`'s translation in `golden` and `now` for the steps around `step` into `path`.
pub fn draw(
    golden: &Run,
    now: &Run,
    body: BodyId,
    step: usize,
    path: &Path,
) -> Result<(), GoldenError> {
    let series = |run: &Run| -> Vec<(usize, [f64; 3])> {
        run.steps
            .iter()
            .enumerate()
            .map(|(i, s)| (i + 1, s))
            .filter(|(n, _)| n + WINDOW >= step && *n <= step + WINDOW)
            .filter_map(|(n, s)| {
                let sample = s.samples.iter().find(|x| x.body == body)?;
                Some((n, sample.position.map(f64::from)))
            })
            .collect()
    };
    let (g, n) = (series(golden), series(now));
    if g.is_empty() {
        return Err(GoldenError::NotSampled {
            body,
            run: golden.name.clone(),
        });
    }
    let title = format!(
        "run {}: body {body} around step {step} (golden blue, now red)",
        golden.name
    );
    draw_points(&title, &g, &n, step, path)
}

/// A body's translation at each step: (step, x y z).
pub type Points = [(usize, [f64; 3])];

/// Draws two series of a body's translation, `golden` blue and `now` red, under `title`, with a
/// mark at `step`, into `path`.
pub fn draw_points(
    title: &str,
    g: &Points,
    n: &Points,
    step: usize,
    path: &Path,
) -> Result<(), GoldenError> {
    let svg = |reason: String| GoldenError::Picture {
        path: path.to_path_buf(),
        reason,
    };
    let root = SVGBackend::new(path, (900, 900)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| svg(e.to_string()))?;
    let root = root
        .titled(title, ("sans-serif", 18))
        .map_err(|e| svg(e.to_string()))?;
    let first = g
        .first()
        .map_or(step, |p| p.0)
        .min(n.first().map_or(step, |p| p.0));
    let last = g
        .last()
        .map_or(step, |p| p.0)
        .max(n.last().map_or(step, |p| p.0));
    for (axis, panel) in root.split_evenly((3, 1)).iter().enumerate() {
        let values = g
            .iter()
            .chain(n)
            .map(|p| p.1[axis])
            .filter(|v| v.is_finite());
        let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let pad = ((hi - lo) * 0.1).max(1e-6);
        let mut chart = ChartBuilder::on(panel)
            .margin(8)
            .x_label_area_size(28)
            .y_label_area_size(80)
            .build_cartesian_2d(first as f64..last as f64, lo - pad..hi + pad)
            .map_err(|e| svg(e.to_string()))?;
        chart
            .configure_mesh()
            .x_desc("step")
            .y_desc(format!("translation.{}", ["x", "y", "z"][axis]))
            .draw()
            .map_err(|e| svg(e.to_string()))?;
        for (points, color) in [(g, BLUE), (n, RED)] {
            let line = points.iter().map(|(s, p)| (*s as f64, p[axis]));
            chart
                .draw_series(LineSeries::new(line, color.stroke_width(2)))
                .map_err(|e| svg(e.to_string()))?;
        }
        let marker = PathElement::new(
            vec![(step as f64, lo - pad), (step as f64, hi + pad)],
            BLACK,
        );
        chart
            .draw_series([marker])
            .map_err(|e| svg(e.to_string()))?;
    }
    root.present().map_err(|e| svg(e.to_string()))
}
