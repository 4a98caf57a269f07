//! Replays every gated strict pass-through of a perturbation set (a step the frames call one and
//! the refinement could not clear on its own proof) from the world saved before that step, in
//! N CCD-checked substeps of dt / N for each N given, and prints why the refinement could not
//! clear it and what each fine run shows. docs/physics-engine.md cites its output.
//! `cargo run --release -p rapier-pinned-ccd-eval --example crossing_replay -- SET POLICY on|off [N...]`
use rapier_pinned::CcdConfig;
use rapier_pinned_ccd_eval::perturbation::gated_steps;
use rapier_pinned_scenes::thin_sets;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let set = thin_sets()
        .iter()
        .find(|s| s.name == args[1])
        .ok_or("unknown set")?;
    let config = CcdConfig::from_parts(&args[2], &args[3]).map_err(|e| e.to_string())?;
    let substeps: Vec<usize> = match args.get(4..) {
        Some(n) if !n.is_empty() => n
            .iter()
            .map(|s| s.parse().map_err(|e| format!("N: {e}")))
            .collect::<Result<_, _>>()?,
        _ => vec![16, 64, 256],
    };
    for gated in gated_steps(set, config.params()).map_err(|e| e.to_string())? {
        println!(
            "{} step {}: gated ({:?})",
            gated.run, gated.step, gated.stands
        );
        for &n in &substeps {
            let r = gated.replay(n).map_err(|e| e.to_string())?;
            println!(
                "  replayed in {n:>4} substeps of dt/{n}: frame-strict {}, cleared {}, gated {}, max penetration {:.3} mm, end side {:.4} m",
                r.frame_strict,
                r.cleared,
                r.gated(),
                r.max_penetration * 1e3,
                r.end_side
            );
        }
    }
    Ok(())
}
