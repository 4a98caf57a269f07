//! Shared by the fuzz targets of rapier-pinned: the target world, its reference snapshots, the
//! panic policy, and the seed writer.
//!
//! Panic policy. libfuzzer-sys installs a panic hook that aborts the process on *any* panic, even
//! one a `catch_unwind` would catch. rapier-pinned runs decoding and validation under
//! `catch_unwind` on purpose (`docs/protocol.md` §5: a panic in rapier's accessors on a crafted
//! payload becomes `Undecodable("panic while decoding: …")`). So, by default, the targets replace
//! the hook while a restore runs: a panic there is logged once per source location and process
//! (with the input saved under `caught/<target>/`) and left to the wrapper to catch; every other panic — one
//! that escapes `restore_into`, one in `step`, an assertion of a target — still aborts with
//! libFuzzer's stack trace and crash artifact. With `PINNED_FUZZ_STRICT=1` the hook is left
//! alone: every panic, caught or not, is a crash.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once};

pub use world::*;

mod world;

thread_local! {
    static IN_RESTORE: Cell<bool> = const { Cell::new(false) };
    static NEW_CAUGHT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Panics seen inside a restore, by source location: (count, first message).
static CAUGHT: Mutex<BTreeMap<String, (u64, String)>> = Mutex::new(BTreeMap::new());

/// Installs the panic policy of the module docs (once; nothing with `PINNED_FUZZ_STRICT=1`).
pub fn install_panic_policy() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if std::env::var_os("PINNED_FUZZ_STRICT").is_some_and(|v| v != "0") {
            eprintln!("pinned-fuzz: strict: every panic, caught or not, is a crash");
            return;
        }
        let abort_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_RESTORE.with(Cell::get) {
                abort_hook(info); // libfuzzer-sys's: prints, then aborts
                return;
            }
            let place = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()))
                .unwrap_or_default();
            let msg = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let mut caught = CAUGHT.lock().unwrap_or_else(|e| e.into_inner());
            let entry = caught.entry(place.clone()).or_insert((0, msg.clone()));
            entry.0 += 1;
            if entry.0 == 1 {
                NEW_CAUGHT.with(|c| *c.borrow_mut() = Some(place.clone()));
                eprintln!(
                    "pinned-fuzz: panic inside restore (caught by the wrapper), new location \
                     #{}: {place}: {msg}\n{}",
                    caught.len(),
                    std::backtrace::Backtrace::force_capture()
                );
            }
        }));
    });
}

/// Runs a restore with the panic policy; if it hit a panic at a new location, saves `input`
/// as `caught/<target>/<file>_<line>-<hash of the input>` (unique across fork-mode jobs).
pub fn in_restore<R>(target: &str, input: &[u8], f: impl FnOnce() -> R) -> R {
    IN_RESTORE.with(|c| c.set(true));
    let r = f();
    IN_RESTORE.with(|c| c.set(false));
    if let Some(place) = NEW_CAUGHT.with(|c| c.borrow_mut().take()) {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        input.hash(&mut h);
        let place: String = place
            .rsplit('/')
            .next()
            .unwrap_or("")
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let dir = std::path::Path::new("caught").join(target);
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join(format!("{place}-{:016x}", h.finish()));
        match std::fs::write(&path, input) {
            Ok(()) => eprintln!("pinned-fuzz: input saved to {}", path.display()),
            Err(e) => eprintln!("pinned-fuzz: could not save the input: {e}"),
        }
    }
    r
}

/// Writes seed inputs to `$PINNED_FUZZ_SEEDS` (a directory) when that variable is set: `seeds`
/// gives (file name, bytes). Used by `seed.sh`.
pub fn write_seeds(seeds: impl FnOnce() -> Vec<(String, Vec<u8>)>) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let Some(dir) = std::env::var_os("PINNED_FUZZ_SEEDS") else {
            return;
        };
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("seed dir");
        for (name, bytes) in seeds() {
            std::fs::write(dir.join(&name), &bytes).expect("write seed");
            eprintln!("pinned-fuzz: seed {name}: {} bytes", bytes.len());
        }
    });
}

/// What the restore-then-step targets keep between inputs: the target world, which every input
/// leaves at its reference state (`BASE_TICKS[0]`), that state's bytes and tick, the fleet key,
/// the payloads of the base worlds with their ticks, and the baseline deltas are written
/// against (the first base's payload).
pub struct RestoreState {
    pub world: rapier_pinned::PinnedWorld,
    pub key: rapier_pinned::SnapshotKey,
    pub reference: Vec<u8>,
    pub tick: u64,
    pub bases: Vec<(Vec<u8>, u64)>,
    pub baseline: rapier_pinned::Baseline,
}

/// The snapshot format a restore-then-step target seals its inputs in.
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Sealed {
    /// Format 1 (`restore_then_step`).
    Plain,
    /// Format 2 with a compressed payload (`restore_compressed_then_step`).
    Compressed,
    /// Format 4, a delta against [`RestoreState::baseline`] (`restore_delta_then_step`).
    Delta,
}

impl RestoreState {
    /// Installs the panic policy, builds the state and writes the target's `seeds` (once per
    /// process, by the target's first input).
    pub fn new(seeds: impl FnOnce() -> Vec<(String, Vec<u8>)>) -> Self {
        install_panic_policy();
        let bases = bases();
        let baseline = rapier_pinned::Baseline::from_payload(bases[0].0.clone());
        let world = small_world(BASE_TICKS[0]);
        let reference = world.snapshot(None);
        let tick = world.tick();
        write_seeds(seeds);
        RestoreState {
            world,
            key: key(),
            reference,
            tick,
            bases,
            baseline,
        }
    }

    /// The body of the restore-then-step targets: restores `snapshot` (a failed restore must
    /// leave the world byte for byte as it was), logs a mutated payload that was accepted and an
    /// accepted one that re-encodes differently (`note` appended to that line), steps the world,
    /// takes its snapshots and restores the reference state for the next input. `sealed`: the
    /// snapshot's format; for formats 2 and 4 a success must have decompressed or expanded to a
    /// payload, and the world is also snapshotted in that format.
    pub fn restore_then_step(
        &mut self,
        target: &str,
        data: &[u8],
        snapshot: MutatedSnapshot,
        note: &str,
        sealed: Sealed,
    ) {
        static ACCEPTED_MUTATED: AtomicU64 = AtomicU64::new(0);
        static NON_CANONICAL: AtomicU64 = AtomicU64::new(0);
        let key = snapshot.authenticated.then_some(&self.key);
        let (world, baseline) = (&mut self.world, &self.baseline);
        let restore = || match sealed {
            Sealed::Delta => {
                let config = *world.config();
                let bytes = &snapshot.bytes;
                let restored =
                    rapier_pinned::PinnedWorld::restore_delta(config, baseline, bytes, key);
                restored.map(|restored| *world = restored)
            }
            _ => world.restore_into(&snapshot.bytes, key),
        };
        if let Err(e) = in_restore(target, data, restore) {
            assert!(
                self.world.tick() == self.tick && self.world.snapshot(None) == self.reference,
                "a failed restore ({e:?}) changed the world"
            );
            return;
        }
        if snapshot.mutated {
            let n = ACCEPTED_MUTATED.fetch_add(1, Ordering::Relaxed) + 1;
            if n.is_power_of_two() {
                eprintln!("pinned-fuzz: {n} mutated payloads accepted so far");
            }
        }
        if sealed != Sealed::Plain {
            // A restore that succeeded decompressed or expanded the stored bytes: `payload` is
            // what they hold.
            assert!(
                !snapshot.payload.is_empty(),
                "restored stored bytes that do not decompress or expand"
            );
        }
        let again = self.world.snapshot(None);
        if again[rapier_pinned::HEADER_LEN..] != snapshot.payload[..] {
            let n = NON_CANONICAL.fetch_add(1, Ordering::Relaxed) + 1;
            if n.is_power_of_two() {
                eprintln!(
                    "pinned-fuzz: accepted payload re-encodes differently ({n} so far{note}); \
                     input {data:02x?}"
                );
            }
        }
        for _ in 0..snapshot.steps {
            self.world.step();
        }
        let _ = self.world.snapshot(None);
        match sealed {
            Sealed::Plain => {}
            Sealed::Compressed => drop(self.world.snapshot_compressed(key)),
            Sealed::Delta => drop(self.world.snapshot_delta(&self.baseline, key)),
        }
        self.world
            .restore_into(&self.reference.clone(), None)
            .expect("the reference snapshot restores");
    }
}

/// The seeds every restore-then-step target starts from: one unmutated base per selector byte
/// `0..selectors` (named `base-XX`).
pub fn base_seeds(selectors: u8) -> Vec<(String, Vec<u8>)> {
    (0..selectors)
        .map(|sel| (format!("base-{sel:02x}"), vec![sel]))
        .collect()
}

/// One seed per offset in `offsets` (named `{name}-{i}`): a single xor of 0x01 there, on base
/// `i % 4` with `mode` or-ed into the selector byte.
pub fn xor_seeds(name: &str, mode: u8, offsets: &[u32]) -> Vec<(String, Vec<u8>)> {
    (offsets.iter().enumerate())
        .map(|(i, at)| {
            let b = at.to_le_bytes();
            (
                format!("{name}-{i}"),
                vec![mode | (i % 4) as u8, b[0], b[1], b[2], 0x01],
            )
        })
        .collect()
}
