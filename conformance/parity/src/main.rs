//! Prints `scene step digest` for every step of every catalog scene and of every run of the
//! thin-part perturbation sets, at upstream default settings, built against pristine rapier3d.
//! Same functions the fork's `rapier-pinned digests` uses.
use rapier3d::prelude::IntegrationParameters;
use std::io::Write;

fn main() {
    let mut out = std::io::stdout().lock();
    for scene in rapier_pinned_scenes::catalog() {
        out.write_all(rapier_pinned_scenes::digest_lines(scene, IntegrationParameters::default()).as_bytes())
            .expect("stdout");
    }
    for set in rapier_pinned_scenes::thin_sets() {
        out.write_all(set.digest_lines(IntegrationParameters::default()).as_bytes()).expect("stdout");
    }
}
