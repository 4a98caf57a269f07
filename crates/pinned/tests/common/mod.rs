//! Shared by the refusal tests: a target world, a snapshot of any `PhysicsWorld`, and a restore
//! attempt that checks the error kind, catches panics and checks that the target is unchanged;
//! and by the tests that step crafted worlds, the child process they step them in ([`child`]).

#![allow(dead_code)]

pub mod child;

use rapier3d::prelude::*;
use rapier_pinned::testing::{encode_world, seal};
use rapier_pinned::{
    Baseline, ErrorKind, Level, PhysicsVersion, PinnedWorld, SnapshotHeader, SnapshotKey,
    WorldConfig, FORMAT_VERSION, PAYLOAD_LIMIT,
};

/// The physics-version of the target world.
pub const VERSION: PhysicsVersion = PhysicsVersion::V2;
/// Its match id.
pub const MATCH: u64 = 7;

/// The config of the target world.
pub fn config() -> WorldConfig {
    WorldConfig::new(VERSION).unwrap().with_match_id(MATCH)
}

/// The `tower` scene under [`config`] after `steps` steps.
pub fn tower(steps: usize) -> PinnedWorld {
    let config = config();
    let scene = rapier_pinned_scenes::find("tower").unwrap();
    let mut world = PinnedWorld::adopt(config, scene.build(config.params())).unwrap();
    for _ in 0..steps {
        world.step();
    }
    world
}

/// A snapshot of an arbitrary `world` framed as `config`'s, with a valid checksum (and MAC):
/// what reaches the checks after decoding.
pub fn snapshot_of(world: &PhysicsWorld, tick: u64, key: Option<&SnapshotKey>) -> Vec<u8> {
    let config = config();
    seal(
        SnapshotHeader::new(&config, tick),
        &encode_world(world),
        key,
    )
}

/// What a restore attempt is given besides the snapshot.
pub enum Held<'a> {
    /// A level, or none (formats 1-3).
    Level(Option<&'a Level>),
    /// A baseline (format 4).
    Baseline(&'a Baseline),
}

/// Restore attempts and the cases that failed them. Every attempt runs to its end, so a bad case
/// does not hide the ones after it; [`Tally::finish`] prints the counts and fails the test with
/// every failed case listed.
#[derive(Default)]
pub struct Tally {
    /// Cases tried.
    pub cases: usize,
    /// Cases whose restore panicked, one message each.
    pub panics: Vec<String>,
    /// Cases whose outcome was not the expected one, each message with both.
    pub wrong: Vec<String>,
    /// Failed restores after which the target was not byte-for-byte as before, one message each.
    pub partial: Vec<String>,
}

impl Tally {
    /// Restores `bytes` into `target` and records the case as failed unless the outcome is
    /// `expected` (`None`: success) and, on error, the target is unchanged. Returns the error, if
    /// any (`None` after a panic).
    pub fn attempt(
        &mut self,
        target: &mut PinnedWorld,
        bytes: &[u8],
        key: Option<&SnapshotKey>,
        expected: Option<ErrorKind>,
        case: &str,
    ) -> Option<rapier_pinned::Error> {
        self.attempt_with(target, Held::Level(None), bytes, key, Some(expected), case)
    }

    /// [`Self::attempt`] of a snapshot that may refer to `level` (format 3), expecting `kind`.
    pub fn attempt_on(
        &mut self,
        target: &mut PinnedWorld,
        level: Option<&Level>,
        bytes: &[u8],
        kind: ErrorKind,
        case: &str,
    ) -> Option<rapier_pinned::Error> {
        self.attempt_with(
            target,
            Held::Level(level),
            bytes,
            None,
            Some(Some(kind)),
            case,
        )
    }

    /// [`Self::attempt`] accepting any outcome: it only must not panic, and a refusal must
    /// leave the target unchanged.
    pub fn attempt_any(
        &mut self,
        target: &mut PinnedWorld,
        bytes: &[u8],
        key: Option<&SnapshotKey>,
        case: &str,
    ) -> Option<rapier_pinned::Error> {
        self.attempt_with(target, Held::Level(None), bytes, key, None, case)
    }

    /// [`Self::attempt`] of a snapshot that may refer to `level`, expecting success.
    pub fn attempt_on_ok(
        &mut self,
        target: &mut PinnedWorld,
        level: Option<&Level>,
        bytes: &[u8],
        case: &str,
    ) {
        self.attempt_with(target, Held::Level(level), bytes, None, Some(None), case);
    }

    /// [`Self::attempt_any`] of a snapshot that may refer to `level`.
    pub fn attempt_any_on(
        &mut self,
        target: &mut PinnedWorld,
        level: Option<&Level>,
        bytes: &[u8],
        case: &str,
    ) -> Option<rapier_pinned::Error> {
        self.attempt_with(target, Held::Level(level), bytes, None, None, case)
    }

    /// [`Self::attempt`] of a delta against `baseline` (format 4); `expected` `None` accepts any
    /// outcome.
    pub fn attempt_delta(
        &mut self,
        target: &mut PinnedWorld,
        baseline: &Baseline,
        bytes: &[u8],
        expected: Option<Option<ErrorKind>>,
        case: &str,
    ) -> Option<rapier_pinned::Error> {
        let held = Held::Baseline(baseline);
        self.attempt_with(target, held, bytes, None, expected, case)
    }

    /// The restore attempt behind the others; `expected` `None` accepts any outcome.
    fn attempt_with(
        &mut self,
        target: &mut PinnedWorld,
        held: Held<'_>,
        bytes: &[u8],
        key: Option<&SnapshotKey>,
        expected: Option<Option<ErrorKind>>,
        case: &str,
    ) -> Option<rapier_pinned::Error> {
        self.cases += 1;
        let before = (target.snapshot(None), target.tick());
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let config = *target.config();
            let world = match held {
                Held::Level(level) => PinnedWorld::restore_on(config, level, bytes, key),
                Held::Baseline(baseline) => {
                    PinnedWorld::restore_delta(config, baseline, bytes, key)
                }
            };
            world.map(|world| *target = world)
        }));
        let Ok(result) = result else {
            self.panics.push(format!("{case}: panicked"));
            return None;
        };
        let kind = result.as_ref().err().map(|e| e.kind());
        if let Some(expected) = expected.filter(|&e| kind != e) {
            self.wrong
                .push(format!("{case}: expected {expected:?}, got {result:?}"));
        }
        let err = result.err();
        if err.is_some() && (target.snapshot(None), target.tick()) != before {
            self.partial
                .push(format!("{case}: target changed by a failed restore"));
        }
        err
    }

    /// Prints the counts; panics, listing every failed case, unless none failed.
    pub fn finish(&self, what: &str) {
        println!(
            "{what}: {} cases tried, {} panics, {} wrong outcomes, {} partial restores",
            self.cases,
            self.panics.len(),
            self.wrong.len(),
            self.partial.len()
        );
        let failed: Vec<&str> = self
            .panics
            .iter()
            .chain(&self.wrong)
            .chain(&self.partial)
            .map(String::as_str)
            .collect();
        assert!(
            failed.is_empty(),
            "{what}: {} of {} cases failed:\n{}",
            failed.len(),
            self.cases,
            failed.join("\n")
        );
    }
}

/// Steps `a` and `b` together `steps` times; every step's state digest must be equal (`what`
/// names the case in a failure).
pub fn assert_steps_alike(a: &mut PinnedWorld, b: &mut PinnedWorld, steps: usize, what: &str) {
    for step in 0..steps {
        a.step();
        b.step();
        assert_eq!(
            rapier_pinned_scenes::state_digest(&a.world().bodies),
            rapier_pinned_scenes::state_digest(&b.world().bodies),
            "{what}: step {step} after the restore"
        );
    }
}

/// Changes one byte of `bytes`, chosen by `rng`, in the mutation gates' three ways by `case`: a
/// flipped bit, any byte, or a small increment.
pub fn mutate(rng: &mut SplitMix, bytes: &mut [u8], case: usize) {
    let at = (rng.next() as usize) % bytes.len();
    match case % 3 {
        0 => bytes[at] ^= 1 << (rng.next() % 8),
        1 => bytes[at] = rng.next() as u8,
        _ => bytes[at] = bytes[at].wrapping_add(1 + (rng.next() % 3) as u8),
    }
}

/// A deterministic byte stream (SplitMix64).
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// What a single-bit flip of header byte `byte` (bit `bit`) of the valid snapshot `bytes` must
/// give, in format 1 or 2 (read from `bytes`).
pub fn flipped_header_kind(bytes: &[u8], byte: usize, bit: u32, keyed: bool) -> ErrorKind {
    let format = u16::from_le_bytes([bytes[8], bytes[9]]);
    match byte {
        0..=7 => ErrorKind::BadMagic,
        // 1 or 2 with bit 0 or 1 flipped may be 3, another format the checksum covers; any
        // other flip is no format.
        8 if bit < 2 && matches!(format ^ (1 << bit), 1..=3) => ErrorKind::ChecksumMismatch,
        8..=9 => ErrorKind::UnknownFormatVersion,
        // Flag bit 0 is the MAC flag: set on an unauthenticated snapshot, the checksum (which
        // covers the flags) fails; cleared on an authenticated one, the MAC field is stray.
        10 if bit == 0 => match keyed {
            false => ErrorKind::ChecksumMismatch,
            true => ErrorKind::StrayMac,
        },
        // Format 2 defines bit 1 (compressed): cleared, it is a valid flag set the checksum
        // covers.
        10 if bit == 1 && format != FORMAT_VERSION => ErrorKind::ChecksumMismatch,
        10..=11 => ErrorKind::UnknownFlags,
        // Another released version is refused as a mismatch, any other number as unknown.
        12..=15 => {
            let version = u32::from_le_bytes(bytes[12..16].try_into().unwrap());
            let flipped = PhysicsVersion::new(version ^ (1u32 << (8 * (byte - 12) as u32 + bit)));
            match rapier_pinned::entry(flipped) {
                Ok(_) => ErrorKind::PhysicsVersionMismatch,
                Err(_) => ErrorKind::UnknownPhysicsVersion,
            }
        }
        16..=23 => ErrorKind::ChecksumMismatch,
        24..=55 => ErrorKind::ConfigDigestMismatch,
        56..=63 => {
            let len = u64::from_le_bytes(bytes[56..64].try_into().unwrap());
            let flipped = len ^ (1u64 << (8 * (byte - 56) as u32 + bit));
            if flipped > PAYLOAD_LIMIT {
                ErrorKind::PayloadTooLarge
            } else if flipped > len {
                ErrorKind::Truncated
            } else {
                ErrorKind::TrailingBytes
            }
        }
        64..=95 => ErrorKind::ChecksumMismatch,
        _ => match keyed {
            false => ErrorKind::StrayMac,
            true => ErrorKind::MacMismatch,
        },
    }
}
