//! `rapier-pinned digests`: every step's state digest of catalog scenes and thin-part sets, and
//! of the generated arenas when named.

use std::io::Write;

use rapier3d::prelude::*;
use rapier_pinned_scenes::{digest_lines, generated_arenas, generated_digest_lines, thin_sets};

use crate::args::{catalog_scenes, ccd_config};
use crate::failure::Failure;

/// The options of `digests`.
#[derive(clap::Args)]
pub struct Args {
    /// Only these scenes, thin-part sets or generated arenas (default: every scene and set; a
    /// generated arena, e.g. `arena_heightfield_1`, only when named).
    #[arg(long = "scene", value_name = "NAME")]
    scenes: Vec<String>,
    /// Upstream's defaults with these CCD settings instead, `POLICY:on` or `POLICY:off`
    /// (relative motion), e.g. `3:on`.
    #[arg(long = "config", value_name = "POLICY:RM")]
    config: Option<String>,
}

/// Writes the digests; every error (an unknown name or configuration, a failed write) is a
/// usage error.
pub fn run(args: Args) -> Result<(), Failure> {
    digests(&args.scenes, args.config.as_deref()).map_err(Failure::Usage)
}

/// Writes `scene step digest` lines of the catalog scenes, generated arenas and thin-part sets
/// named in `names` (every scene and set when empty), in that order, under upstream's defaults or
/// the CCD `config`.
fn digests(names: &[String], config: Option<&str>) -> Result<(), String> {
    let named = |name: &str| names.iter().any(|n| n == name);
    let sets: Vec<_> = thin_sets()
        .iter()
        .filter(|t| names.is_empty() || named(t.name))
        .collect();
    let arenas: Vec<_> = generated_arenas()
        .filter(|(name, ..)| named(name))
        .collect();
    let scene_names: Vec<String> = names
        .iter()
        .filter(|n| !sets.iter().any(|t| t.name == n.as_str()))
        .filter(|n| !arenas.iter().any(|(name, ..)| name == n))
        .cloned()
        .collect();
    let scenes = if names.is_empty() || !scene_names.is_empty() {
        catalog_scenes(&scene_names)?
    } else {
        Vec::new()
    };
    let params = match config {
        Some(text) => ccd_config(text)?.params(),
        None => IntegrationParameters::default(),
    };
    let mut out = std::io::stdout().lock();
    let texts = scenes
        .iter()
        .map(|s| digest_lines(s, params))
        .chain(
            arenas
                .iter()
                .map(|arena| generated_digest_lines(*arena, params)),
        )
        .chain(sets.iter().map(|t| t.digest_lines(params)));
    for text in texts {
        match out.write_all(text.as_bytes()) {
            Ok(()) => {}
            // A closed pipe (e.g. `| head`) ends the output; any other write error is an error.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break,
            Err(e) => return Err(format!("writing the digests: {e}")),
        }
    }
    Ok(())
}
