//! Golden trajectories of a game's own scenes, checked from the game's own `#[test]`s through
//! insta (`docs/golden.md`).
//!
//! A [`GoldenRun`] is a physics-version, a scene (a builder that fills a `PinnedWorld`, or a
//! plain `PhysicsWorld` that must pass `PinnedWorld::adopt`), a step count and optional per-step
//! inputs. [`assert_golden!`](crate::assert_golden) records it (every step's state digest and up
//! to 8 sampled bodies, the text form of `golden/`) and asserts it with `insta::assert_snapshot!`
//! under the name `NAME@physics-vN`, so the snapshot lives where insta puts every snapshot of
//! that test file and `cargo insta review` / `cargo insta accept` are the review flow. Before
//! insta compares, the stored file is read and compared step by step: a failure names the first
//! diverging step, the body (with its `user_data`) and the quantity with both values, and the
//! body's trajectory is drawn as an SVG next to the snapshot file.
//!
//! ```no_run
//! use rapier_pinned_golden::rapier_pinned::PHYSICS_VERSION_CURRENT;
//! use rapier_pinned_golden::{assert_golden, GoldenRun};
//! use rapier3d::prelude::*;
//!
//! let run = GoldenRun::new(PHYSICS_VERSION_CURRENT, 120, |world| {
//!     world.insert_collider(ColliderBuilder::cuboid(10.0, 0.1, 10.0), None);
//!     let ball = world.insert_body(
//!         RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 2.0, 0.0)).user_data(42),
//!     );
//!     world.insert_collider(ColliderBuilder::ball(0.5), Some(ball));
//! });
//! assert_golden!("ball_drop", run);
//! ```

use crate::compare::Divergence;
use crate::error::GoldenError;
use crate::trajectory::{BodyId, Golden, Recorder};
use crate::{check_file, guard, picture, text, Verdict};
use rapier3d::prelude::*;
use rapier_pinned::{GameSettings, PhysicsVersion, PinnedWorld, WorldConfig};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Per-step inputs: called before each step with the world's tick (`PinnedWorld::tick`, the
/// steps taken so far: 0 before the first step) and the world, to apply forces, impulses or
/// velocity targets. The state after the step is the golden file's line `tick + 1` when the
/// scene builder took no step.
pub type Inputs<'a> = Box<dyn FnMut(u64, &mut PinnedWorld) + 'a>;

/// A game's scene to record: physics-version, scene, step count, optional per-step inputs.
pub struct GoldenRun<'a> {
    version: PhysicsVersion,
    settings: Option<GameSettings>,
    steps: usize,
    scene: Scene<'a>,
    inputs: Option<Inputs<'a>>,
    about: Option<String>,
}

enum Scene<'a> {
    Build(Box<dyn FnOnce(&mut PinnedWorld) + 'a>),
    Adopt(Box<PhysicsWorld>),
}

impl<'a> GoldenRun<'a> {
    /// `steps` steps of the scene `build` puts into an empty `PinnedWorld` of `version` (whose
    /// integration parameters and gravity are the version's, or the run's settings', and cannot
    /// be changed).
    pub fn new(
        version: PhysicsVersion,
        steps: usize,
        build: impl FnOnce(&mut PinnedWorld) + 'a,
    ) -> Self {
        Self {
            version,
            settings: None,
            steps,
            scene: Scene::Build(Box::new(build)),
            inputs: None,
            about: None,
        }
    }

    /// `steps` steps of a world the game built as a plain `PhysicsWorld`. Recording refuses it
    /// ([`GoldenError::NotPinned`], with `PinnedWorld::adopt`'s typed error) unless its
    /// integration parameters and gravity are `version`'s (with the run's settings) bit for bit and it passes adopt's
    /// structural and finiteness checks.
    pub fn adopt(version: PhysicsVersion, steps: usize, world: PhysicsWorld) -> Self {
        Self {
            version,
            settings: None,
            steps,
            scene: Scene::Adopt(Box::new(world)),
            inputs: None,
            about: None,
        }
    }

    /// Runs under the game's `settings` (gravity, tick rate, length unit; default: the
    /// version's). Recording refuses settings the version does not allow
    /// ([`GoldenError::SettingNotAllowed`]); the golden file's header names them.
    pub fn settings(mut self, settings: GameSettings) -> Self {
        self.settings = Some(settings);
        self
    }

    /// Calls `inputs` before each step (see [`Inputs`]).
    pub fn inputs(mut self, inputs: impl FnMut(u64, &mut PinnedWorld) + 'a) -> Self {
        self.inputs = Some(Box::new(inputs));
        self
    }

    /// A line saying what the scene is, written into the golden file's header.
    pub fn about(mut self, about: impl Into<String>) -> Self {
        self.about = Some(about.into());
        self
    }

    /// The physics-version.
    pub fn physics_version(&self) -> PhysicsVersion {
        self.version
    }

    /// Builds the scene and steps it, recording every step (run and file called `name`).
    pub fn record(self, name: &str) -> Result<Recording, GoldenError> {
        let bad = |reason: String| GoldenError::BadRun {
            name: name.to_string(),
            reason,
        };
        if name.is_empty() || name.chars().any(char::is_control) {
            return Err(bad(format!(
                "the name {name:?} is empty or has a control character"
            )));
        }
        if self.steps == 0 {
            return Err(bad("a golden run takes at least one step".into()));
        }
        let version = self.version;
        let config =
            WorldConfig::new(version).map_err(|error| GoldenError::UnknownPhysicsVersion {
                name: name.to_string(),
                error,
            })?;
        let defaults = config.settings();
        let config =
            match self.settings {
                Some(settings) => config.with_settings(settings).map_err(|error| {
                    GoldenError::SettingNotAllowed {
                        name: name.to_string(),
                        error,
                    }
                })?,
                None => config,
            };
        let (mut world, origin) = match self.scene {
            Scene::Build(build) => {
                let mut world = PinnedWorld::new(config);
                build(&mut world);
                (world, "the game's scene builder, in a PinnedWorld")
            }
            Scene::Adopt(world) => {
                let world =
                    PinnedWorld::adopt(config, *world).map_err(|error| GoldenError::NotPinned {
                        name: name.to_string(),
                        version,
                        error,
                    })?;
                (
                    world,
                    "a PhysicsWorld built by the game, taken by PinnedWorld::adopt",
                )
            }
        };

        guard::note_parallel();
        let mut warnings = Vec::new();
        let mut warn = |kind: &'static str, message: String| {
            guard::warn_once(kind, &format!("golden `{name}`: {message}"));
            warnings.push(message);
        };
        for (kind, message) in guard::scene_findings(world.colliders()) {
            warn(kind, message);
        }

        let user_data: BTreeMap<BodyId, u128> = world
            .bodies()
            .iter()
            .filter(|(_, b)| b.user_data != 0)
            .map(|(h, b)| (BodyId::of(h), b.user_data))
            .collect();
        let mut recorder = Recorder::new(name, world.bodies());
        let sampling = recorder.sampling();
        let mut inputs = self.inputs;
        let has_inputs = inputs.is_some();
        let mut non_finite_seen = false;
        for step in 1..=self.steps {
            if let Some(inputs) = inputs.as_mut() {
                inputs(world.tick(), &mut world);
            }
            world.step();
            recorder.step(world.bodies());
            if !non_finite_seen {
                if let Some(h) = guard::non_finite(world.bodies()) {
                    non_finite_seen = true;
                    let body = label(&user_data, BodyId::of(h));
                    warn(
                        "non-finite",
                        format!(
                            "warning: body {body} has a non-finite translation, rotation or velocity \
                             after step {step}: the digest hashes bit patterns and a NaN's bits differ \
                             between targets, so this golden file does not travel (and a PinnedWorld \
                             snapshot of this world is refused)"
                        ),
                    );
                }
            }
        }
        let run = recorder.finish();

        let sampled: Vec<BodyId> = run.steps[0].samples.iter().map(|s| s.body).collect();
        let labels: Vec<String> = sampled
            .iter()
            .filter_map(|b| user_data.get(b).map(|u| format!("{b} {u}")))
            .collect();
        let mut header = vec![format!(
            "golden trajectory of `{name}` under physics-version {version}"
        )];
        if let Some(about) = &self.about {
            // One header line: a line break could start a `run` line.
            let about: String = about
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            header.push(format!("about: {about}"));
        }
        header.push(format!(
            "world: {origin}; gravity {:?} (pinned)",
            world.gravity().to_array()
        ));
        // Only other settings get a line: a default run's file reads as it always has.
        if config.settings() != defaults {
            header.push(format!("settings: {}", config.settings()));
        }
        header.push(format!(
            "runs: 1 of {} steps; per-step inputs: {}",
            self.steps,
            if has_inputs { "yes" } else { "no" }
        ));
        header.push(if labels.is_empty() {
            format!("sampled: {sampling}")
        } else {
            format!("sampled: {sampling}; user_data: {}", labels.join(", "))
        });
        header.push("line: step, state digest | per sampled body: id, state hash, x y z".into());

        Ok(Recording {
            name: name.to_string(),
            version,
            golden: Golden {
                header,
                runs: vec![run],
            },
            user_data,
            warnings,
        })
    }
}

/// A recorded run: what its golden file holds, and the `user_data` of its bodies.
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    /// The run's name (the `name` of [`assert_golden!`](crate::assert_golden)).
    pub name: String,
    pub version: PhysicsVersion,
    /// The file's content: header lines and one run.
    pub golden: Golden,
    /// Every body's non-zero `user_data` when the scene was built.
    pub user_data: BTreeMap<BodyId, u128>,
    /// What the guard rails found (also printed, once per kind and process).
    pub warnings: Vec<String>,
}

/// What comparing a recording with a golden file found.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The file holds exactly this run.
    Same,
    /// There is no file.
    Missing,
    /// The file cannot be read or parsed.
    Unreadable(String),
    /// The first difference, and the picture of that body (or why there is none).
    Diverges {
        divergence: Divergence,
        picture: Result<PathBuf, String>,
    },
}

impl Recording {
    /// The insta snapshot name: `NAME@physics-vN`, one file per physics-version.
    pub fn snapshot_name(&self) -> String {
        format!("{}@physics-v{}", self.name, self.version)
    }

    /// The snapshot content (the text form of `golden/`'s files).
    pub fn content(&self) -> String {
        text::render(&self.golden)
    }

    /// `3v0 (user_data 42)`, or `3v0` when the body's `user_data` is 0.
    pub fn label(&self, body: BodyId) -> String {
        label(&self.user_data, body)
    }

    /// Compares this run with the golden file at `file`; on a divergence, draws the body's
    /// trajectory next to it ([`picture_path`]).
    pub fn compare_with(&self, file: &Path) -> Outcome {
        if !file.exists() {
            return Outcome::Missing;
        }
        match check_file(file, &self.golden) {
            Ok(Verdict::Same) => Outcome::Same,
            Err(e) => Outcome::Unreadable(e.to_string()),
            Ok(Verdict::Differs(golden, divergence)) => {
                let picture = match &divergence.body {
                    None => Err("no sampled body differs".to_string()),
                    Some(body) => {
                        let runs = (
                            golden.runs.iter().find(|r| r.name == divergence.run),
                            self.golden.runs.iter().find(|r| r.name == divergence.run),
                        );
                        match runs {
                            (Some(g), Some(n)) => {
                                let path = picture_path(file);
                                picture::draw(g, n, body.body, body.step, &path)
                                    .map(|()| path)
                                    .map_err(|e| e.to_string())
                            }
                            _ => Err(format!("no run `{}` on both sides", divergence.run)),
                        }
                    }
                };
                Outcome::Diverges {
                    divergence,
                    picture,
                }
            }
        }
    }

    /// The report of `outcome` (`None` when the file holds this run). Paths are shown relative
    /// to `base` when inside it.
    pub fn report(&self, outcome: &Outcome, file: &Path, base: &Path) -> Option<String> {
        let show = |p: &Path| p.strip_prefix(base).unwrap_or(p).display().to_string();
        let who = format!("golden `{}` (physics-version {})", self.name, self.version);
        let mut out = match outcome {
            Outcome::Same => return None,
            Outcome::Missing => format!(
                "{who}: no golden file at {}\n  a new golden trajectory: review it with `cargo insta \
                 review` (insta in CI mode, INSTA_UPDATE=no or CI=true, writes nothing and fails)",
                show(file)
            ),
            Outcome::Unreadable(e) => format!("{who}: the golden file cannot be read: {e}"),
            Outcome::Diverges {
                divergence,
                picture,
            } => {
                let mut out = if divergence.run.is_empty() {
                    format!("{who} differs: {}", divergence.what)
                } else {
                    format!(
                        "{who} diverges at step {}: {}",
                        divergence.step, divergence.what
                    )
                };
                match &divergence.body {
                    Some(b) if b.step == divergence.step => out += &format!(
                        "\n  body {}: {} golden {}, now {}",
                        self.label(b.body),
                        b.quantity,
                        b.golden,
                        b.now
                    ),
                    Some(b) => out += &format!(
                        "\n  no sampled body differs at step {}; the first that does is body {} at \
                         step {}: {} golden {}, now {}",
                        divergence.step,
                        self.label(b.body),
                        b.step,
                        b.quantity,
                        b.golden,
                        b.now
                    ),
                    None if !divergence.run.is_empty() => {
                        out += "\n  no sampled body differs in the whole run"
                    }
                    None => {}
                }
                match picture {
                    Ok(p) => out += &format!("\n  picture: {}", show(p)),
                    Err(e) if divergence.body.is_some() => {
                        out += &format!("\n  no picture: {e}")
                    }
                    Err(_) => {}
                }
                out
            }
        };
        if !matches!(outcome, Outcome::Missing) {
            out += &format!("\n  golden file: {}", show(file));
        }
        Some(out)
    }
}

/// Where the picture of a divergence from golden file `file` goes: beside it, same name,
/// `.divergence.svg` instead of `.snap`.
pub fn picture_path(file: &Path) -> PathBuf {
    let name = file.file_name().unwrap_or_default().to_string_lossy();
    let stem = name.strip_suffix(".snap").unwrap_or(&name);
    file.with_file_name(format!("{stem}.divergence.svg"))
}

fn label(user_data: &BTreeMap<BodyId, u128>, body: BodyId) -> String {
    match user_data.get(&body) {
        Some(u) => format!("{body} (user_data {u})"),
        None => body.to_string(),
    }
}

/// Where an insta assertion in a test file stores its snapshots: built by
/// [`snapshot_site!`](crate::snapshot_site) at the call site.
///
/// insta does not expose the path it resolves, so this mirrors insta 1.x's rule (its
/// `get_snapshot_filename`) with insta's public `Settings` getters:
/// `WORKSPACE/dir(file!())/<snapshot_path>/[<module_path with __>__]<name>[@<suffix>].snap`,
/// `/` and `\` in the name written as `__`. The workspace root is `INSTA_WORKSPACE_ROOT` (at
/// run time, then at compile time) like insta's; otherwise, where insta asks `cargo metadata`,
/// this takes the nearest ancestor of `CARGO_MANIFEST_DIR` under which `file!()` exists (cargo
/// passes `file!()` relative to the workspace root), which is the same directory.
#[derive(Clone, Debug)]
pub struct SnapshotSite {
    pub manifest_dir: &'static str,
    pub file: &'static str,
    pub module_path: &'static str,
    /// `option_env!("INSTA_WORKSPACE_ROOT")` at the call site.
    pub workspace_root: Option<&'static str>,
}

impl SnapshotSite {
    /// The workspace root insta resolves relative paths against.
    pub fn workspace_root(&self) -> PathBuf {
        if let Ok(root) = std::env::var("INSTA_WORKSPACE_ROOT") {
            return root.into();
        }
        if let Some(root) = self.workspace_root {
            return root.into();
        }
        let manifest = Path::new(self.manifest_dir);
        manifest
            .ancestors()
            .find(|a| a.join(self.file).is_file())
            .unwrap_or(manifest)
            .to_path_buf()
    }

    /// The directory of this test file's snapshots under the current insta settings.
    pub fn snapshot_dir(&self) -> PathBuf {
        let file = Path::new(self.file);
        let parent = file.parent().unwrap_or(Path::new(""));
        let settings = insta::Settings::clone_current();
        self.workspace_root()
            .join(parent)
            .join(settings.snapshot_path())
    }

    /// The file of snapshot `name` under the current insta settings.
    pub fn snapshot_file(&self, name: &str) -> PathBuf {
        let settings = insta::Settings::clone_current();
        let mut file = String::new();
        if settings.prepend_module_to_snapshot() {
            file += &self.module_path.replace("::", "__");
            file += "__";
        }
        let name = match settings.snapshot_suffix() {
            Some(suffix) => format!("{name}@{suffix}"),
            None => name.to_string(),
        };
        file += &name.replace(['/', '\\'], "__");
        file += ".snap";
        self.snapshot_dir().join(file)
    }
}

/// The [`SnapshotSite`] of the calling test file.
#[macro_export]
macro_rules! snapshot_site {
    () => {
        $crate::SnapshotSite {
            manifest_dir: ::core::env!("CARGO_MANIFEST_DIR"),
            file: ::core::file!(),
            module_path: ::core::module_path!(),
            workspace_root: ::core::option_env!("INSTA_WORKSPACE_ROOT"),
        }
    };
}

/// Records a [`GoldenRun`] and asserts it against its golden file with insta.
///
/// `assert_golden!(name, run)`: the snapshot is `NAME@physics-vN` (one file per physics-version)
/// in the calling test file's insta snapshot directory (`snapshots/`, named
/// `<module>__NAME@physics-vN.snap` by default; insta's settings apply). A run that is refused
/// ([`GoldenError`]) panics with its message. Otherwise, before insta's own comparison, the
/// stored file is compared step by step; when it differs, the report (first diverging step,
/// body with its `user_data`, quantity, both values) is printed on stderr and the body's
/// trajectory is drawn next to the snapshot file. Then insta asserts (its summary, its pending
/// `.snap.new` unless in CI mode), and if insta fails, this panics with the report followed by
/// insta's message. The game needs no insta dependency: this goes through
/// `rapier_pinned_golden::insta`.
#[macro_export]
macro_rules! assert_golden {
    ($name:expr, $run:expr $(,)?) => {{
        let __golden = $crate::__private::prepare(&$name, $run, $crate::snapshot_site!());
        let __insta = ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(|| {
            $crate::insta::with_settings!({ omit_expression => true }, {
                $crate::insta::assert_snapshot!(__golden.snapshot_name(), __golden.content());
            })
        }));
        __golden.finish(__insta);
    }};
}

/// Support for [`assert_golden!`](crate::assert_golden); not a stable API.
#[doc(hidden)]
pub mod __private {
    use super::*;

    pub struct Prepared {
        recording: Recording,
        report: Option<String>,
        /// The file looked for, when it was missing.
        missing: Option<PathBuf>,
    }

    /// Records `run`, compares it with the file insta will compare it with, prints the report.
    #[track_caller]
    pub fn prepare(name: &str, run: GoldenRun<'_>, site: SnapshotSite) -> Prepared {
        let recording = match run.record(name) {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        };
        let file = site.snapshot_file(&recording.snapshot_name());
        let outcome = recording.compare_with(&file);
        let report = recording.report(&outcome, &file, &site.workspace_root());
        if let Some(report) = &report {
            eprintln!("{report}");
        }
        let missing = (outcome == Outcome::Missing).then_some(file);
        Prepared {
            recording,
            report,
            missing,
        }
    }

    impl Prepared {
        pub fn snapshot_name(&self) -> String {
            self.recording.snapshot_name()
        }

        pub fn content(&self) -> String {
            self.recording.content()
        }

        /// After insta's assertion: a failure panics with the report first.
        #[track_caller]
        pub fn finish(self, insta: std::thread::Result<()>) {
            let payload = match insta {
                Ok(()) => {
                    let forced = std::env::var("INSTA_FORCE_PASS").as_deref() == Ok("1")
                        || matches!(
                            std::env::var("INSTA_UPDATE").as_deref(),
                            Ok("always" | "force")
                        );
                    match (&self.report, &self.missing) {
                        (None, _) => {}
                        (Some(_), Some(file)) if !forced => eprintln!(
                            "warning: insta passed golden `{}`, but rapier-pinned-golden found no \
                             file at {}: its rule for insta's snapshot path (docs/golden.md) missed \
                             the file insta compared with; please report it with your insta \
                             version and settings",
                            self.recording.name,
                            file.display()
                        ),
                        (Some(_), _) => eprintln!(
                            "note: insta passed golden `{}` although its file is missing or differs \
                             (above): INSTA_FORCE_PASS (`cargo insta test`) or \
                             INSTA_UPDATE=always/force",
                            self.recording.name
                        ),
                    }
                    return;
                }
                Err(payload) => payload,
            };
            let Some(report) = self.report else {
                // Not a difference this crate saw (e.g. insta's own checks): insta's panic as is.
                std::panic::resume_unwind(payload)
            };
            let insta = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "(a non-text panic)".into());
            panic!("{report}\n  insta: {insta}");
        }
    }
}
