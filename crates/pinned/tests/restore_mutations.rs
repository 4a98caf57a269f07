//! The mutation gate of restore: single-bit, single-byte and small-integer mutations of the
//! payloads of several scenes, each re-sealed with a valid checksum (a quarter of them with the
//! fleet key, restored with it), so every one reaches the decoder and the validation. Each mutated
//! snapshot must be refused, or restore and then step [`STEPS`] ticks and snapshot again, in a
//! child process under a memory limit and a timeout (`common::child`). The test counts refused /
//! stepped / crashed per scene and kind; crashed must be 0. Crashed is a panic, an abort, the
//! memory limit, or a mutation that takes over [`TIME_LIMIT`] (1 s, some 500 times what one
//! takes): a hang, or a world so costly to step that a server ticking it would stall.
//!
//! The scenes between them hold a trimesh, a heightfield, a convex hull, a compound, impulse and
//! multibody joints, sleeping bodies and CCD bodies (asserted: [`Contents`]): the fuzz targets'
//! small world at three ticks and two catalog scenes, a tower asleep and the arena mid-match.
//! The mutations are a fixed-seed sample ([`SEED`]), the same on every run.
//!
//! To keep it under two minutes, a child runs the mutations in order from an index on and prints
//! one line per mutation it finished; when it dies or stalls, the parent counts the first
//! unfinished mutation as crashed (with the child's last panic line) and starts a new child at the
//! next one.

mod common;
#[path = "../fuzz/src/world.rs"]
#[allow(dead_code)]
mod world;

use common::child::{crash_line, Child, Next};
use common::SplitMix;
use rapier3d::prelude::*;
use rapier_pinned::testing::seal;
use rapier_pinned::{PinnedWorld, SnapshotHeader};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The seed of the mutation sample.
const SEED: u64 = 0x7069_6e6e_6564_0001;
/// Mutations per scene and kind: 5 scenes x 3 kinds x 800 = 12,000.
const PER_KIND: usize = 800;
/// Steps after a successful restore.
const STEPS: usize = 60;
/// How long a child may take over one mutation before it counts as crashed (a hang, or a world
/// so costly to step that a server ticking it would stall). A mutation takes 1–3 ms: restore and
/// 60 steps of a small scene; 5 ms on a loaded 2-core machine.
const TIME_LIMIT: Duration = Duration::from_secs(1);
/// How much longer a child may take over its first mutation: its start, the scenes built.
const START_LIMIT: Duration = Duration::from_secs(10);
/// The environment variable giving the index a child starts at.
const FROM: &str = "RAPIER_PINNED_MUTATION_FROM";
/// What a child prints when it has finished a mutation: `{DONE}{index} refused|stepped …`.
const DONE: &str = "mutation-done ";
/// What a child prints on stderr before it starts a mutation: `{START}{index}`.
const START: &str = "mutation-start ";
/// What a child prints on stderr before a panic (its panic hook) and every 100 ms (a watchdog
/// thread): `{PHASE_MARK}{phase}` ([`PHASE`]).
const PHASE_MARK: &str = "mutation-phase ";

/// Where the current mutation is: 0 restoring, 1..=[`STEPS`] in that step, `STEPS + 1` taking the
/// snapshot after them.
static PHASE: AtomicUsize = AtomicUsize::new(0);

/// One scene: its name, the payload of its snapshot and its tick.
struct Scene {
    name: String,
    payload: Vec<u8>,
    tick: u64,
    contents: Contents,
    /// Which base of the fuzz target `restore_then_step` it is (`world::BASE_TICKS` index).
    fuzz_base: Option<u8>,
}

/// What a scene's world holds, of what the gate must cover.
#[derive(Clone, Copy, Debug, Default)]
struct Contents {
    trimesh: bool,
    heightfield: bool,
    convex_hull: bool,
    compound: bool,
    impulse_joints: usize,
    multibody_joints: usize,
    sleeping: usize,
    ccd: usize,
}

impl Contents {
    fn of(world: &PhysicsWorld) -> Self {
        let has =
            |ty: ShapeType| (world.colliders.iter()).any(|(_, c)| c.shape().shape_type() == ty);
        Contents {
            trimesh: has(ShapeType::TriMesh),
            heightfield: has(ShapeType::HeightField),
            convex_hull: has(ShapeType::ConvexPolyhedron),
            compound: has(ShapeType::Compound),
            impulse_joints: world.impulse_joints.len(),
            multibody_joints: world.multibody_joints.iter().count(),
            sleeping: (world.bodies.iter())
                .filter(|(_, b)| b.is_sleeping())
                .count(),
            ccd: (world.bodies.iter())
                .filter(|(_, b)| b.is_ccd_enabled())
                .count(),
        }
    }

    fn or(self, o: Self) -> Self {
        Contents {
            trimesh: self.trimesh || o.trimesh,
            heightfield: self.heightfield || o.heightfield,
            convex_hull: self.convex_hull || o.convex_hull,
            compound: self.compound || o.compound,
            impulse_joints: self.impulse_joints + o.impulse_joints,
            multibody_joints: self.multibody_joints + o.multibody_joints,
            sleeping: self.sleeping + o.sleeping,
            ccd: self.ccd + o.ccd,
        }
    }
}

/// The scenes, in order: the small world (`fuzz/src/world.rs`) at the fuzz bases' ticks and at
/// 120 (bodies asleep), the catalog's `tower` at 60 (all 50 beams asleep) and `arena` at 120 (CCD
/// bullets, spinning blades, vehicles, some crates asleep), both adopted under the small world's
/// config.
fn scenes() -> Vec<Scene> {
    let scene = |name: String, world: &PinnedWorld, fuzz_base| Scene {
        name,
        payload: rapier_pinned::testing::encode_world(world.world()),
        tick: world.tick(),
        contents: Contents::of(world.world()),
        fuzz_base,
    };
    let mut out: Vec<Scene> = [world::BASE_TICKS[0], world::BASE_TICKS[1], 120]
        .into_iter()
        .map(|t| {
            let base = world::BASE_TICKS.iter().position(|&b| b == t);
            let name = format!("small_world@{t}");
            scene(name, &world::small_world(t), base.map(|b| b as u8))
        })
        .collect();
    let config = world::config();
    for (name, ticks) in [("tower", 60), ("arena", 120)] {
        let catalog = rapier_pinned_scenes::find(name).expect("a catalog scene");
        let built = catalog.build(config.params());
        let mut world = PinnedWorld::adopt(config, built).expect("the current version adopts it");
        for _ in 0..ticks {
            world.step();
        }
        out.push(scene(format!("{name}@{ticks}"), &world, None));
    }
    out
}

/// A kind of mutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// One bit flipped.
    Bit,
    /// One byte replaced by another value.
    Byte,
    /// 1..=3 added (wrapping) to the little-endian u32 at the position.
    AddU32,
}

const KINDS: [Kind; 3] = [Kind::Bit, Kind::Byte, Kind::AddU32];

/// One mutation of one scene's payload.
#[derive(Clone, Copy, Debug)]
struct Mutation {
    scene: usize,
    kind: Kind,
    /// The byte offset in the payload.
    at: usize,
    /// The bit (0..8), the value added to the byte (1..=255) or to the u32 (1..=3).
    arg: u8,
    /// Sealed with the fleet key and restored with it.
    authenticated: bool,
}

/// The fixed-seed sample: [`PER_KIND`] of each kind for each scene, positions uniform over the
/// payload.
fn mutations(scenes: &[Scene]) -> Vec<Mutation> {
    let mut rng = SplitMix(SEED);
    let mut out = Vec::new();
    for (scene, s) in scenes.iter().enumerate() {
        for kind in KINDS {
            for _ in 0..PER_KIND {
                let r = rng.next();
                let span = match kind {
                    Kind::AddU32 => s.payload.len() - 3,
                    _ => s.payload.len(),
                };
                let at = (rng.next() % span as u64) as usize;
                let arg = match kind {
                    Kind::Bit => (r & 7) as u8,
                    Kind::Byte => 1 + (r % 255) as u8,
                    Kind::AddU32 => 1 + (r % 3) as u8,
                };
                out.push(Mutation {
                    scene,
                    kind,
                    at,
                    arg,
                    authenticated: (r >> 32) & 3 == 0,
                });
            }
        }
    }
    out
}

impl Mutation {
    /// The mutated payload.
    fn payload(&self, base: &[u8]) -> Vec<u8> {
        let mut p = base.to_vec();
        match self.kind {
            Kind::Bit => p[self.at] ^= 1 << self.arg,
            Kind::Byte => p[self.at] = p[self.at].wrapping_add(self.arg),
            Kind::AddU32 => {
                let word = &mut p[self.at..self.at + 4];
                let v = u32::from_le_bytes(word.try_into().unwrap());
                word.copy_from_slice(&v.wrapping_add(self.arg as u32).to_le_bytes());
            }
        }
        p
    }

    /// The mutated payload sealed as the scene's snapshot (physics-version, config digest and
    /// tick as the fuzz target seals them, `world::MutatedSnapshot`), with a valid checksum.
    fn sealed(&self, scene: &Scene) -> Vec<u8> {
        let config = world::config();
        let key = world::key();
        seal(
            SnapshotHeader::new(&config, scene.tick),
            &self.payload(&scene.payload),
            self.authenticated.then_some(&key),
        )
    }

    /// The mutation as an input of the fuzz target `restore_then_step` (its regression folder's
    /// format, `world::MutatedSnapshot`) that takes `steps` (1..=4) steps, when the scene is one
    /// of its bases: selector (base, key, steps), then one xor operation per changed byte.
    fn fuzz_input(&self, scene: &Scene, steps: usize) -> Option<Vec<u8>> {
        let base = scene.fuzz_base?;
        assert!((1..=4).contains(&steps));
        let mut input = vec![base | (self.authenticated as u8) << 1 | ((steps - 1) as u8) << 2];
        let mutated = self.payload(&scene.payload);
        for (j, (a, b)) in scene.payload.iter().zip(&mutated).enumerate() {
            if a != b {
                input.extend_from_slice(&[j as u8, (j >> 8) as u8, (j >> 16) as u8, a ^ b]);
            }
        }
        Some(input)
    }
}

/// Where the crashing mutations of the last run are saved: the test's scratch directory under
/// the target dir.
fn crash_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("restore_mutations")
}

/// Writes the crashing mutation `i`'s sealed snapshot to [`crash_dir`], and its
/// `restore_then_step` input when it has one that reaches the panic (a base of the fuzz target,
/// a panic in restore or in the first 4 steps); returns what it wrote.
fn save_crash(i: usize, m: &Mutation, scene: &Scene, why: &str, phase: Option<usize>) -> String {
    let dir = crash_dir();
    std::fs::create_dir_all(&dir).expect("the scratch directory");
    let stem = format!("{i}-{}-{:?}", scene.name.replace('@', "-"), m.kind);
    let snap = dir.join(format!("{stem}.snap"));
    std::fs::write(&snap, m.sealed(scene)).expect("write the snapshot");
    let mut saved = snap.display().to_string();
    let panicked = why.starts_with("panicked at");
    let steps = (phase.filter(|&p| panicked && p <= 4)).map(|p| p.max(1));
    if let Some(input) = steps.and_then(|steps| m.fuzz_input(scene, steps)) {
        let bases = world::bases();
        let fuzz = world::MutatedSnapshot::new(&bases, &input).expect("an input");
        assert_eq!(
            fuzz.bytes,
            m.sealed(scene),
            "#{i}: the fuzz input seals the same"
        );
        let path = dir.join(format!("{stem}.fuzz"));
        std::fs::write(&path, &input).expect("write the fuzz input");
        let hex: String = input.iter().map(|b| format!("{b:02x}")).collect();
        let _ = write!(saved, ", {} ({hex})", path.display());
    }
    saved
}

/// Restores `bytes`; on success steps [`STEPS`] ticks and takes a snapshot. `Err` is the refusal.
fn restore_and_step(bytes: &[u8], authenticated: bool) -> Result<(), rapier_pinned::Error> {
    let key = world::key();
    PHASE.store(0, Ordering::Relaxed);
    let mut world = PinnedWorld::restore(world::config(), bytes, authenticated.then_some(&key))?;
    for step in 1..=STEPS {
        PHASE.store(step, Ordering::Relaxed);
        world.step();
    }
    PHASE.store(STEPS + 1, Ordering::Relaxed);
    let _ = world.snapshot(None);
    Ok(())
}

/// The child's part: runs every mutation from the index in [`FROM`] on, in order, printing one
/// line per mutation it finished. Run only by [`mutated_snapshots_are_refused_or_step`], with
/// `--ignored`.
#[test]
#[ignore = "the child process of mutated_snapshots_are_refused_or_step"]
fn run_mutations_from() {
    let from: usize = std::env::var(FROM)
        .expect("run by mutated_snapshots_are_refused_or_step")
        .parse()
        .expect("an index");
    let scenes = scenes();
    let mutations = mutations(&scenes);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        eprintln!("{PHASE_MARK}{}", PHASE.load(Ordering::Relaxed));
        hook(info);
    }));
    std::thread::spawn(|| loop {
        std::thread::sleep(Duration::from_millis(100));
        eprintln!("{PHASE_MARK}{}", PHASE.load(Ordering::Relaxed));
    });
    // The harness may have printed `test run_mutations_from ... ` without a newline.
    println!();
    for (i, m) in mutations.iter().enumerate().skip(from) {
        eprintln!("{START}{i}");
        match restore_and_step(&m.sealed(&scenes[m.scene]), m.authenticated) {
            Err(e) => {
                let msg = e.to_string().replace('\n', " ");
                println!("{DONE}{i} refused {:?}: {msg}", e.kind());
            }
            Ok(()) => println!("{DONE}{i} stepped"),
        }
    }
}

/// How one mutation went.
#[derive(Clone, Debug)]
enum Outcome {
    /// Refused; `true` when the refusal is a panic the wrapper caught inside restore.
    Refused(bool),
    Stepped,
    /// A panic, an abort, the memory limit or the timeout: the reason, and the [`PHASE`] of a
    /// panic.
    Crashed(String, Option<usize>),
}

/// Where a crash happened, in words.
fn phase_name(phase: Option<usize>) -> String {
    match phase {
        None => "where: not reported".into(),
        Some(0) => "in restore".into(),
        Some(p) if p <= STEPS => format!("in step {p}"),
        Some(_) => "in the snapshot after the steps".into(),
    }
}

/// Runs every mutation in child processes, a new child after each crash; each outcome with the
/// wall time it took (a child's start is counted in its first mutation).
fn run_all(count: usize) -> Vec<(Outcome, Duration)> {
    let mut outcomes = Vec::with_capacity(count);
    while outcomes.len() < count {
        let from = outcomes.len();
        let mut child = Child::spawn("run_mutations_from", [(FROM, from.to_string())]);
        let mut last = Instant::now();
        let mut deadline = last + START_LIMIT + TIME_LIMIT;
        let crash = loop {
            match child.next_line(deadline) {
                Next::Line(line) => {
                    let Some((_, done)) = line.split_once(DONE) else {
                        continue;
                    };
                    let (index, verdict) = done.split_once(' ').expect("index and verdict");
                    assert_eq!(index.parse(), Ok(outcomes.len()), "{line}");
                    let outcome = match verdict.starts_with("refused") {
                        true => Outcome::Refused(verdict.contains("panic while")),
                        false => Outcome::Stepped,
                    };
                    outcomes.push((outcome, last.elapsed()));
                    last = Instant::now();
                    deadline = last + TIME_LIMIT;
                }
                Next::Exited => break None,
                Next::TimedOut => {
                    break Some(format!(
                        "no outcome within {TIME_LIMIT:?} (restore and {STEPS} steps take 1-3 ms)"
                    ))
                }
            }
        };
        let (status, stderr) = child.finish();
        if outcomes.len() == count {
            break;
        }
        // The child died in (or stalled on) the first mutation it did not finish.
        let started = format!("{START}{}", outcomes.len());
        let tail = stderr.rsplit_once(&started).map_or(&*stderr, |(_, s)| s);
        let phase =
            (tail.rsplit_once(PHASE_MARK)).and_then(|(_, p)| p.lines().next()?.trim().parse().ok());
        let reason = crash
            .or_else(|| crash_line(tail))
            .unwrap_or_else(|| status.to_string());
        outcomes.push((Outcome::Crashed(reason, phase), last.elapsed()));
    }
    outcomes
}

/// Refused (of which caught panics), stepped, crashed.
#[derive(Clone, Copy, Default)]
struct Counts {
    refused: usize,
    caught: usize,
    stepped: usize,
    crashed: usize,
    time: Duration,
}

impl Counts {
    fn add(&mut self, o: &Outcome, time: Duration) {
        self.time += time;
        match o {
            Outcome::Refused(caught) => {
                self.refused += 1;
                self.caught += *caught as usize;
            }
            Outcome::Stepped => self.stepped += 1,
            Outcome::Crashed(..) => self.crashed += 1,
        }
    }
}

fn row(out: &mut String, scene: &str, kind: &str, c: Counts) {
    let _ = writeln!(
        out,
        "{scene:<16} {kind:<7} {:>8} {:>8} {:>8} {:>8} {:>8.1}",
        c.refused,
        c.caught,
        c.stepped,
        c.crashed,
        c.time.as_secs_f64()
    );
}

/// Every base snapshot, sealed as its mutations are (without and with the key), restores and
/// steps: a scene's mutations are measured against a world the gate accepts.
#[test]
fn the_unmutated_snapshot_restores_and_steps() {
    let config = world::config();
    let key = world::key();
    for scene in scenes() {
        for authenticated in [false, true] {
            let k = authenticated.then_some(&key);
            let bytes = seal(SnapshotHeader::new(&config, scene.tick), &scene.payload, k);
            restore_and_step(&bytes, authenticated)
                .unwrap_or_else(|e| panic!("{} (key: {authenticated}): {e}", scene.name));
            let world = PinnedWorld::restore(config, &bytes, k).unwrap();
            assert_eq!(world.tick(), scene.tick, "{}", scene.name);
            assert_eq!(
                rapier_pinned::testing::encode_world(world.world()),
                scene.payload,
                "{}: the base re-encodes to itself",
                scene.name
            );
        }
    }
}

#[test]
fn mutated_snapshots_are_refused_or_step() {
    let started = Instant::now();
    let scenes = scenes();
    let all = scenes
        .iter()
        .fold(Contents::default(), |a, s| a.or(s.contents));
    for s in &scenes {
        println!(
            "{}: {} bytes of payload, tick {}, {:?}",
            s.name,
            s.payload.len(),
            s.tick,
            s.contents
        );
    }
    assert!(
        all.trimesh && all.heightfield && all.convex_hull && all.compound,
        "{all:?}"
    );
    assert!(
        all.impulse_joints > 0 && all.multibody_joints > 0,
        "{all:?}"
    );
    assert!(all.sleeping > 0 && all.ccd > 0, "{all:?}");

    let mutations = mutations(&scenes);
    let _ = std::fs::remove_dir_all(crash_dir());
    let outcomes = run_all(mutations.len());

    let mut table: BTreeMap<(usize, Kind), Counts> = BTreeMap::new();
    let mut per_scene = vec![Counts::default(); scenes.len()];
    let mut total = Counts::default();
    let mut crashes = Vec::new();
    for (i, (m, (o, time))) in mutations.iter().zip(&outcomes).enumerate() {
        table.entry((m.scene, m.kind)).or_default().add(o, *time);
        per_scene[m.scene].add(o, *time);
        total.add(o, *time);
        if let Outcome::Crashed(why, phase) = o {
            let scene = &scenes[m.scene];
            crashes.push(format!(
                "#{i} {} {:?} at {} (arg {}, key: {}), {}: {why}",
                scene.name,
                m.kind,
                m.at,
                m.arg,
                m.authenticated,
                phase_name(*phase)
            ));
            println!(
                "crashed: #{i} saved: {}",
                save_crash(i, m, scene, why, *phase)
            );
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<16} {:<7} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "scene", "kind", "refused", "(caught)", "stepped", "crashed", "time (s)"
    );
    for ((scene, kind), c) in &table {
        row(&mut out, &scenes[*scene].name, &format!("{kind:?}"), *c);
    }
    row(&mut out, "all", "all", total);
    println!("{out}");
    for c in &crashes {
        println!("crashed: {c}");
    }
    // How close the others came to the time limit.
    let mut slowest: Vec<usize> = (0..outcomes.len())
        .filter(|&i| !matches!(outcomes[i].0, Outcome::Crashed(..)))
        .collect();
    slowest.sort_by_key(|&i| std::cmp::Reverse(outcomes[i].1));
    for &i in slowest.iter().take(3) {
        let (m, (o, time)) = (&mutations[i], &outcomes[i]);
        println!(
            "slowest: #{i} {} {:?} at {} (arg {}): {o:?} in {time:.1?}",
            scenes[m.scene].name, m.kind, m.at, m.arg
        );
    }
    println!(
        "{} mutations (seed {SEED:#x}, {STEPS} steps each): {} refused ({} after a caught panic), \
         {} stepped, {} crashed, in {:.1?}",
        mutations.len(),
        total.refused,
        total.caught,
        total.stepped,
        total.crashed,
        started.elapsed()
    );
    for (s, c) in scenes.iter().zip(&per_scene) {
        assert!(c.stepped > 0, "{}: no mutation was accepted", s.name);
    }
    assert!(
        crashes.is_empty(),
        "{} of {} mutated snapshots crashed the child:\n{}",
        crashes.len(),
        mutations.len(),
        crashes.join("\n")
    );
}
