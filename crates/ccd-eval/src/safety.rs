//! The CCD safety matrix: every shot of `rapier_pinned_scenes::shots` run under a CCD
//! configuration at a tick rate, each judged by one rule, and the figures per cell.
//!
//! **The rule** (it needs no tuning: no tolerance, no settling time): at the end of every step,
//! no centre of the part (its centre of mass, or each compound child's centroid: a point of the
//! part) is
//!
//! - inside a closed solid, or past it: between the last step's end and this one, its path (the
//!   straight segment the continuous pass moves a centre of mass along) crossed the solid;
//! - past an open surface (a sheet, a heightfield, a mesh with no inside): its path crossed it;
//! - through a moving thin plate: it changed side of the plate's mid-plane within the plate's
//!   face ([`measure::strict_pass_through`]), unless the between-frames refinement proves it went
//!   round ([`measure::clears`]), or inside the plate.
//!
//! A room's walls are such solids or surfaces, so a part that leaves the room breaks the rule. A
//! shot whose state turns non-finite, or whose query parry cannot answer, is not measured: it
//! counts as a failure, with its reason.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use rapier3d::math::{Pose, Real, Vector};
use rapier3d::parry::query::Ray;
use rapier3d::parry::shape::ConvexPolyhedron;
use rapier3d::parry::transformation::convex_hull;
use rapier3d::prelude::*;
use rapier_pinned::CcdConfig;
use rapier_pinned_scenes::{PartKind, Shot, ShotCase, Surface, TargetKind, ThinCase};

use crate::error::CcdEvalError;
use crate::perturbation::{params_at, replay_clears, CaseTracker, GatedStep};

/// The seed of the matrix the project measures and gates on (issue 62's).
pub const SEED: u64 = 62;

/// The tick rates the matrix runs at by default: every rate a physics-version allows or was
/// measured at (`docs/physics-engine.md`, "Gates at each tick rate").
pub const RATES: [u32; 5] = [30, 50, 60, 120, 144];

/// The cells physics-versions 4 to 6 do not close, every part against them (`docs/physics-engine.md`,
/// "The CCD safety matrix"): moving thin plates. A kinematic plate sweeping a slow part moves
/// through it within one step, and nothing in the continuous pass moves a dynamic body out of a
/// kinematic one's way; a part and a free plate that touch and turn apart at once can cross
/// within the contact. Closing them needs the side rule for moving targets: each centre's path
/// checked against the plate's swept motion, and a part pushed ahead of a kinematic body.
pub const REMAINING: [TargetKind; 2] = [TargetKind::PlateDynamic, TargetKind::PlateKinematic];

/// How a part broke the rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Breach {
    /// A centre ended a step inside a closed solid.
    Inside,
    /// A centre's path crossed a closed solid within a step.
    Through,
    /// A centre's path crossed an open surface.
    PastSurface,
    /// The part passed through a moving thin plate within its face.
    PassThrough,
    /// The shot could not be measured (the reason is in [`Verdict::error`]).
    Unmeasured,
}

impl Breach {
    /// The name reports print.
    pub fn name(self) -> &'static str {
        match self {
            Breach::Inside => "inside",
            Breach::Through => "through",
            Breach::PastSurface => "past surface",
            Breach::PassThrough => "pass-through",
            Breach::Unmeasured => "unmeasured",
        }
    }
}

/// The first time a shot broke the rule.
#[derive(Copy, Clone, Debug)]
pub struct Failure {
    /// The step that ended with the breach, from 1.
    pub step: usize,
    pub breach: Breach,
}

/// What one shot gave.
#[derive(Clone, Debug)]
pub struct Verdict {
    pub shot: Shot,
    pub tick_hz: u32,
    /// The first breach, if any.
    pub failure: Option<Failure>,
    /// The worst depth of any breach, m: how far inside the solid, or past the surface or the
    /// plate's mid-plane, the centre ended (0 without a breach).
    pub depth: Real,
    /// Why the shot could not be measured, if it could not.
    pub error: Option<String>,
}

/// Runs and judges `shot` under `config` at `tick_hz`.
pub fn judge(shot: &Shot, config: CcdConfig, tick_hz: u32) -> Verdict {
    let params = params_at(config, tick_hz);
    let (mut world, case) = shot.build(params);
    let mut verdict = Verdict {
        shot: *shot,
        tick_hz,
        failure: None,
        depth: 0.0,
        error: None,
    };
    let mut plates = match plate_cases(&world, &case) {
        Ok(plates) => plates,
        Err(error) => return verdict.unmeasured(0, error),
    };
    let mut last = centres(&world, &case);
    for step in 1..=case.steps {
        // The world before the step, for a replay of a gated plate crossing.
        let saved = match plates.is_empty() {
            true => Vec::new(),
            false => match bincode::serialize(&world) {
                Ok(bytes) => bytes,
                Err(error) => return verdict.unmeasured(step, error.into()),
            },
        };
        world.step();
        let now = centres(&world, &case);
        if let Some(bad) = now.iter().find(|c| !c.is_finite()) {
            let error = CcdEvalError::NonFinite {
                what: "part centre".to_string(),
                values: bad.to_array().to_vec(),
            };
            return verdict.unmeasured(step, error);
        }
        let mut found = fixed_breaches(&case, &last, &now);
        for (plate, tracker) in &mut plates {
            match plate_breaches(&world, plate, tracker, step, &saved, &now) {
                Ok(more) => found.extend(more),
                Err(error) => return verdict.unmeasured(step, error),
            }
        }
        for (breach, depth) in found {
            verdict.failure.get_or_insert(Failure { step, breach });
            verdict.depth = verdict.depth.max(depth);
        }
        last = now;
    }
    verdict
}

impl Verdict {
    /// This verdict, ended at `step` by `error`: a failure, never a pass.
    fn unmeasured(mut self, step: usize, error: CcdEvalError) -> Verdict {
        self.failure.get_or_insert(Failure {
            step,
            breach: Breach::Unmeasured,
        });
        self.error = Some(error.to_string());
        self
    }
}

/// The part's centres in the world now.
fn centres(world: &PhysicsWorld, case: &ShotCase) -> Vec<Vector> {
    let pose = world.bodies[case.part].position();
    case.centres
        .iter()
        .map(|c| pose.transform_point(*c))
        .collect()
}

/// The shot's moving plates as the perturbation suite tracks a target (the part's collider
/// against the plate's), each with the suite's tracker.
fn plate_cases(
    world: &PhysicsWorld,
    case: &ShotCase,
) -> Result<Vec<(ThinCase, CaseTracker)>, CcdEvalError> {
    let part = world.bodies[case.part].colliders()[0];
    let mut plates = Vec::new();
    for surface in &case.surfaces {
        if let Surface::Moving { collider } = surface {
            let plate = ThinCase {
                part,
                target: *collider,
                steps: case.steps,
            };
            let tracker = CaseTracker::new(world, &plate)?;
            plates.push((plate, tracker));
        }
    }
    Ok(plates)
}

/// Every breach of a fixed surface in the step from the centres `last` to `now`, with its
/// depth.
fn fixed_breaches(case: &ShotCase, last: &[Vector], now: &[Vector]) -> Vec<(Breach, Real)> {
    let mut found = Vec::new();
    for surface in &case.surfaces {
        match surface {
            Surface::Solid { shape, pose } => {
                let planes = shape.as_convex_polyhedron().map(hull_planes);
                for (a, b) in last.iter().zip(now) {
                    let breach = match &planes {
                        Some(planes) => hull_breach(planes, pose, *a, *b),
                        None => solid_breach(shape.as_ref(), pose, *a, *b),
                    };
                    found.extend(breach);
                }
            }
            Surface::Open { shape, pose } => {
                for (a, b) in last.iter().zip(now) {
                    if let Some(past) = crossing(shape.as_ref(), pose, *a, *b, false) {
                        found.push((Breach::PastSurface, past));
                    }
                }
            }
            Surface::Moving { .. } => {}
        }
    }
    found
}

/// The breaches of a moving plate in the step that just ended: a strict pass-through the
/// perturbation suite gates (by the frames, cleared neither by the between-frames refinement
/// nor by replaying the step from `saved` in substeps), and a centre inside the plate.
fn plate_breaches(
    world: &PhysicsWorld,
    plate: &ThinCase,
    tracker: &mut CaseTracker,
    step: usize,
    saved: &[u8],
    centres: &[Vector],
) -> Result<Vec<(Breach, Real)>, CcdEvalError> {
    let m = tracker.step(world, plate)?;
    let mut found = Vec::new();
    if let Some(stands) = m.stands {
        let gated = GatedStep::new(String::new(), step, stands, saved.to_vec(), *plate);
        if !replay_clears(&gated, m.frame.side) {
            found.push((Breach::PassThrough, m.frame.side.abs()));
        }
    }
    let co = &world.colliders[plate.target];
    let cuboid = co.shape().as_cuboid().expect("a moving plate is a cuboid");
    for c in centres {
        if cuboid.contains_point(co.position(), *c) {
            found.push((Breach::Inside, m.frame.side.abs()));
        }
    }
    Ok(found)
}

/// The breach of the solid `shape` at `pose` by a centre that moved from `a` to `b`: ending
/// inside it (depth: to its surface), or crossing it from outside (depth: the path past its
/// entry).
fn solid_breach(shape: &dyn Shape, pose: &Pose, a: Vector, b: Vector) -> Option<(Breach, Real)> {
    if shape.contains_point(pose, b) {
        let projection = shape.project_point(pose, b, false);
        return Some((Breach::Inside, (projection.point - b).length()));
    }
    if shape.contains_point(pose, a) {
        return None;
    }
    crossing(shape, pose, a, b, true).map(|past| (Breach::Through, past))
}

/// The planes of the triangles of `hull`'s convex hull, each as its outward normal and offset.
/// Exact where the polyhedron's own faces are not: they merge triangles up to 1.5° apart, so
/// their planes can be millimetres off its points.
fn hull_planes(hull: &ConvexPolyhedron) -> Vec<(Vector, Real)> {
    let (points, triangles) = convex_hull(hull.points());
    let inner = points.iter().sum::<Vector>() / points.len() as Real;
    (triangles.iter())
        .filter_map(|[i, j, k]| {
            let [p, q, r] = [*i, *j, *k].map(|v| points[v as usize]);
            let n = (q - p).cross(r - p).try_normalize()?;
            let n = if n.dot(inner - p) > 0.0 { -n } else { n };
            Some((n, n.dot(p)))
        })
        .collect()
}

/// [`solid_breach`] for a convex hull given by its [`hull_planes`] at `pose`, exactly: parry's
/// ray cast on a hull is iterative (GJK), and reports a segment that grazes a face from a tenth
/// of a millimetre outside as a hit.
fn hull_breach(
    planes: &[(Vector, Real)],
    pose: &Pose,
    a: Vector,
    b: Vector,
) -> Option<(Breach, Real)> {
    let (a, b) = (
        pose.inverse_transform_point(a),
        pose.inverse_transform_point(b),
    );
    let height = |p: Vector| (planes.iter()).fold(Real::MIN, |h, (n, d)| h.max(n.dot(p) - d));
    if height(b) <= 0.0 {
        return Some((Breach::Inside, -height(b)));
    }
    if height(a) <= 0.0 {
        return None;
    }
    // Clip the segment by each plane's inner half-space.
    let (mut enter, mut exit): (Real, Real) = (0.0, 1.0);
    for (n, d) in planes {
        let (ha, hb) = (n.dot(a) - d, n.dot(b) - d);
        if ha > 0.0 && hb > 0.0 {
            return None;
        }
        if ha > 0.0 || hb > 0.0 {
            let t = ha / (ha - hb);
            match ha > 0.0 {
                true => enter = enter.max(t),
                false => exit = exit.min(t),
            }
        }
    }
    (enter < exit).then(|| (Breach::Through, (b - a).length() * (1.0 - enter)))
}

/// Where the segment from `a` to `b` first meets `shape` at `pose` strictly after `a` and no
/// later than `b`: `Some(length of the segment past it)`; `None` if it does not. `solid` as
/// parry's ray casts take it (a solid from outside: its boundary).
fn crossing(shape: &dyn Shape, pose: &Pose, a: Vector, b: Vector, solid: bool) -> Option<Real> {
    let d = b - a;
    let length = d.length();
    if length == 0.0 {
        return None;
    }
    let toi = shape.cast_ray(pose, &Ray::new(a, d / length), length, solid)?;
    (toi > 0.0).then_some(length - toi)
}

/// One cell's figures: shots, failures and the worst depth.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct CellFigures {
    pub shots: usize,
    pub failures: usize,
    /// The worst breach depth of the cell's failing shots, m.
    pub depth: Real,
}

/// Every shot of `shots` under `config` at each of `rates`, on `threads` threads (the verdicts do
/// not depend on it), in the order of the rates, then the shots.
pub fn run(shots: &[Shot], config: CcdConfig, rates: &[u32], threads: usize) -> Vec<Verdict> {
    let jobs: Vec<(u32, &Shot)> = rates
        .iter()
        .flat_map(|hz| shots.iter().map(move |shot| (*hz, shot)))
        .collect();
    let threads = threads.max(1);
    let mut verdicts: Vec<Option<Verdict>> = vec![None; jobs.len()];
    std::thread::scope(|scope| {
        let chunks = verdicts.chunks_mut(jobs.len().div_ceil(threads).max(1));
        for (k, out) in chunks.enumerate() {
            let jobs = &jobs;
            let first = k * jobs.len().div_ceil(threads).max(1);
            scope.spawn(move || {
                for (i, slot) in out.iter_mut().enumerate() {
                    let (hz, shot) = jobs[first + i];
                    *slot = Some(judge(shot, config, hz));
                }
            });
        }
    });
    verdicts
        .into_iter()
        .map(|v| v.expect("every job ran"))
        .collect()
}

/// The figures of every cell of `verdicts` at `tick_hz` (all rates when `None`).
pub fn cells(
    verdicts: &[Verdict],
    tick_hz: Option<u32>,
) -> BTreeMap<(TargetKind, PartKind), CellFigures> {
    let mut cells = BTreeMap::new();
    for v in verdicts
        .iter()
        .filter(|v| tick_hz.is_none_or(|hz| v.tick_hz == hz))
    {
        let cell: &mut CellFigures = cells.entry((v.shot.target, v.shot.part)).or_default();
        cell.shots += 1;
        if v.failure.is_some() {
            cell.failures += 1;
            cell.depth = cell.depth.max(v.depth);
        }
    }
    cells
}

/// The failing shots of `verdicts`, one line each: shot, rate, first breach, step, depth.
pub fn failures(verdicts: &[Verdict]) -> Vec<String> {
    verdicts
        .iter()
        .filter_map(|v| {
            let f = v.failure?;
            let shot = &v.shot;
            Some(format!(
                "{shot} @{} Hz: {} at step {}, {:.1} mm (size {:.4} m, {:.1} m/s, {:.0}°, spin {:.0} rad/s){}",
                v.tick_hz,
                f.breach.name(),
                f.step,
                v.depth * 1000.0,
                shot.size,
                shot.speed,
                shot.angle.to_degrees(),
                shot.spin,
                v.error.as_ref().map_or(String::new(), |e| format!(": {e}")),
            ))
        })
        .collect()
}

/// The table of `cells`: a row per target kind, a column per part kind, each cell
/// `failures/shots` and, where a shot failed, the worst depth in mm; then a total per row.
pub fn table(cells: &BTreeMap<(TargetKind, PartKind), CellFigures>) -> String {
    let mut out = String::new();
    let _ = write!(out, "| target |");
    for part in PartKind::ALL {
        let _ = write!(out, " {} |", part.name());
    }
    let _ = writeln!(out, " all |");
    let _ = writeln!(out, "|---|{}---:|", "---:|".repeat(PartKind::ALL.len()));
    let mut total = CellFigures::default();
    for target in TargetKind::ALL {
        let mut row = CellFigures::default();
        let _ = write!(out, "| {} |", target.name());
        for part in PartKind::ALL {
            let cell = cells.get(&(target, part)).copied().unwrap_or_default();
            let _ = write!(out, " {} |", cell_text(cell));
            row.shots += cell.shots;
            row.failures += cell.failures;
            row.depth = row.depth.max(cell.depth);
        }
        let _ = writeln!(out, " {} |", cell_text(row));
        total.shots += row.shots;
        total.failures += row.failures;
        total.depth = total.depth.max(row.depth);
    }
    let _ = writeln!(
        out,
        "| **all** |{} {} |",
        " |".repeat(PartKind::ALL.len()),
        cell_text(total)
    );
    out
}

/// `failures/shots`, with ` · depth mm` when a shot failed.
fn cell_text(cell: CellFigures) -> String {
    if cell.failures == 0 {
        format!("0/{}", cell.shots)
    } else {
        format!(
            "**{}/{}** · {:.1}",
            cell.failures,
            cell.shots,
            cell.depth * 1000.0
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The planes of a unit cube's hull, as the judge takes them.
    fn cube() -> Vec<(Vector, Real)> {
        let corners: Vec<Vector> = (0..8)
            .map(|i| {
                let c = |bit| if i & bit == 0 { -0.5 } else { 0.5 };
                Vector::new(c(1), c(2), c(4))
            })
            .collect();
        let shape = SharedShape::convex_hull(&corners).unwrap();
        hull_planes(shape.as_convex_polyhedron().unwrap())
    }

    #[test]
    fn a_hull_is_breached_by_a_centre_ending_inside_or_crossing_it() {
        let planes = cube();
        let at = Pose::IDENTITY;
        let outside = Vector::new(0.0, 2.0, 0.0);
        let inside = Vector::new(0.0, 0.3, 0.0);
        let below = Vector::new(0.0, -2.0, 0.0);
        let (breach, depth) = hull_breach(&planes, &at, outside, inside).unwrap();
        assert_eq!(breach, Breach::Inside);
        assert!((depth - 0.2).abs() < 1e-6, "{depth}");
        let (breach, past) = hull_breach(&planes, &at, outside, below).unwrap();
        assert_eq!(breach, Breach::Through);
        assert!((past - 2.5).abs() < 1e-6, "{past}");
        // Leaving the solid is not a breach; a point of its surface is inside.
        assert!(hull_breach(&planes, &at, inside, below).is_none());
        assert!(hull_breach(&planes, &at, outside, Vector::new(0.0, 0.5, 0.0)).is_some());
    }

    #[test]
    fn a_segment_grazing_a_hull_from_outside_is_not_a_breach() {
        // A tenth of a millimetre over the top face, and past an edge.
        let planes = cube();
        let at = Pose::IDENTITY;
        let over = |x| Vector::new(x, 0.5001, 0.0);
        assert!(hull_breach(&planes, &at, over(-2.0), over(2.0)).is_none());
        let corner = hull_breach(
            &planes,
            &at,
            Vector::new(0.0, 1.0002, 0.0),
            Vector::new(1.0, 0.0002, 0.0),
        );
        assert!(corner.is_none(), "{corner:?}");
        // The same segment 0.3 mm lower cuts the edge.
        let cut = hull_breach(
            &planes,
            &at,
            Vector::new(0.0, 0.9999, 0.0),
            Vector::new(1.0, -0.0001, 0.0),
        );
        assert_eq!(cut.map(|(b, _)| b), Some(Breach::Through));
    }
}
