//! Snapshot conformance vectors (`conformance/snapshots/<physics-version>/`): small snapshot files,
//! each with the verdict a reader of `docs/protocol.md` must reach, so that a client in any
//! language can check its implementation of the header (and, for the payload checks, its decoder)
//! against the wrapper's.
//!
//! Each directory holds `.snap` files and a manifest, `vectors.json`: a JSON array with one object
//! per vector, `{name, about, file, match_id, key, expect}`. `key` is the hex of the 32-byte key
//! the reader restores with (or `null`); `expect` is `{"accept": {"tick", "steps", "digests"}}` or
//! `{"reject": "<ErrorKind>"}`. Several vectors may share a file (e.g. the authenticated snapshot
//! restored with the key, without a key and with a wrong key).
//!
//! [`generate`] makes every vector of a physics-version from the catalog scene `ball_drop`;
//! [`write`] writes those that do not exist yet and refuses to change one that does (released
//! bytes never change); [`check`] restores every file with [`PinnedWorld::restore`] under
//! `WorldConfig::new(version)?.with_match_id(match_id)`, exactly as a game would, and compares the
//! verdict with the manifest.
//!
//! Snapshot formats 1, 2 and 3 all have vectors: format 2's (flag bit 1, a compressed payload,
//! `docs/protocol.md` §3.1) and format 3's (a linked payload, §3.2) are compared, when accepted,
//! in a canonical form over the format-1 payload, since their bytes are not canonical across
//! targets. A format-3 vector may name a level file (`level`, in the same directory, §3.3) that
//! the reader loads and gives to the restore, and the level the reader's world is on
//! (`level_id`; default: the loaded level's). A format-4 vector (a delta, §3.4) may name a
//! baseline file (`baseline`: a format-1 snapshot in the same directory, whose payload is the
//! baseline), and the reader restores with that baseline.
//!
//! The generator never asks the wrapper which verdict a file gets: rejections are named from the
//! change made to the bytes (`docs/protocol.md` §5), and accepted worlds are continued from the
//! world that was snapshotted (not from a restore) to get the expected per-step digests.

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use rapier3d::prelude::{ColliderBuilder, SharedShape};
use rapier3d::prelude::{
    FixedJointBuilder, IntegrationParameters, IslandManager, NarrowPhase, PhysicsWorld,
    RigidBodyHandle, RigidBodySet, Vector as Vec3,
};
use rapier_pinned::testing::{
    compress_payload, decompress_payload, encode_world, expand_delta, seal, seal_linked,
    seal_stored,
};
use rapier_pinned::{
    Baseline, Level, LevelId, PhysicsVersion, PinnedWorld, SnapshotKey, WorldConfig,
    FLAG_COMPRESSED, FLAG_MAC, FORMAT_VERSION_2, FORMAT_VERSION_3, FORMAT_VERSION_4, HEADER_LEN,
    PAYLOAD_LIMIT,
};
use serde::{Deserialize, Serialize};

pub use crate::verdict::{Accept, Expect};
use crate::ConformanceError;

/// The published test key every authenticated vector is made with: bytes `00 01 02 .. 1f`.
pub const TEST_KEY: [u8; 32] = byte_run(0x00);
/// Another key, for the wrong-key vector: bytes `20 21 22 .. 3f`.
pub const OTHER_KEY: [u8; 32] = byte_run(0x20);
/// The match id of the vectors.
pub const MATCH_ID: u64 = 7;
/// A match id with seven nonzero bytes (below 2^53, so exact as a JSON number in every language).
pub const WIDE_MATCH_ID: u64 = 0x0012_3456_789a_bcde;
/// The catalog scene every vector is made from.
pub const SCENE: &str = "ball_drop";
/// The tick of the snapshots.
pub const TICK: u64 = 30;
/// How many steps an accepted vector is continued for.
pub const STEPS: u32 = 20;
/// The manifest's file name.
pub const MANIFEST: &str = "vectors.json";

const fn byte_run(first: u8) -> [u8; 32] {
    let mut key = [0; 32];
    let mut i = 0;
    while i < 32 {
        key[i] = first + i as u8;
        i += 1;
    }
    key
}

/// One vector of a manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vector {
    /// Unique within the manifest.
    pub name: String,
    /// One sentence: what was done to the bytes.
    pub about: String,
    /// The snapshot file, in the manifest's directory.
    pub file: String,
    /// The match id of the world the reader restores into.
    pub match_id: u64,
    /// Hex of the 32-byte key the reader restores with, or `None`.
    pub key: Option<String>,
    /// The level file (in the manifest's directory) the reader loads and gives to the restore,
    /// or `None` (format 3 only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// Hex of the id of the level the reader's world is on (its config), when it is not the
    /// loaded level's: a world on a level whose bytes the reader does not have, or has wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level_id: Option<String>,
    /// The baseline file (a format-1 snapshot in the manifest's directory) whose payload the
    /// reader gives to the restore as the baseline of a delta, or `None` (format 4 only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<String>,
    /// The verdict.
    pub expect: Expect,
}

/// `conformance/snapshots/<version>/`.
pub fn version_dir(version: PhysicsVersion) -> PathBuf {
    crate::conformance_dir()
        .join("snapshots")
        .join(version.to_string())
}

/// Checks every vector of `conformance/snapshots/<version>/` against its manifest.
/// Ok((passed, failures)): one human-readable line per failed vector naming the vector, expected and got.
/// Err: the directory or manifest cannot be read/parsed (an error, never a silent pass; an empty manifest is an error too).
pub fn check(version: PhysicsVersion) -> Result<(usize, Vec<String>), ConformanceError> {
    check_dir(&version_dir(version), version)
}

/// Writes the vectors of `version` that do not exist yet; a file that exists must equal the generated bytes exactly,
/// otherwise Err naming the file ("released vector bytes changed"). Returns how many files were written.
pub fn write(version: PhysicsVersion) -> Result<usize, ConformanceError> {
    write_to(&version_dir(version), version)
}

/// [`check`] of the vectors in `dir`, restored under physics-version `version`. A `.snap` file
/// of `dir` that no vector names is reported as a failure too.
pub fn check_dir(
    dir: &Path,
    version: PhysicsVersion,
) -> Result<(usize, Vec<String>), ConformanceError> {
    let vectors = read_manifest(dir)?;
    let mut passed = 0;
    let mut failures = Vec::new();
    let mut named = BTreeSet::new();
    for vector in &vectors {
        named.insert(vector.file.clone());
        let outcome = file_path(dir, &vector.file)
            .and_then(|path| {
                std::fs::read(&path).map_err(|source| ConformanceError::VectorUnreadable {
                    name: vector.name.clone(),
                    path,
                    source,
                })
            })
            .and_then(|bytes| {
                let level = read_named(dir, vector, &vector.level)?;
                let baseline = read_named(dir, vector, &vector.baseline)?;
                check_vector(
                    version,
                    vector,
                    &bytes,
                    level.as_deref(),
                    baseline.as_deref(),
                )
            });
        match outcome {
            Ok(()) => passed += 1,
            Err(line) => failures.push(line.to_string()),
        }
    }
    let entries = std::fs::read_dir(dir).map_err(io(dir))?;
    let mut stray = Vec::new();
    for entry in entries {
        let name = entry
            .map_err(io(dir))?
            .file_name()
            .to_string_lossy()
            .into_owned();
        if name.ends_with(".snap") && !named.contains(&name) {
            stray.push(name);
        }
    }
    stray.sort();
    for name in stray {
        failures.push(format!(
            "{}: not named by any vector of {MANIFEST}",
            dir.join(name).display()
        ));
    }
    Ok((passed, failures))
}

/// The vectors of `dir/vectors.json`. Err if it cannot be read or parsed, is empty, or names a
/// vector twice.
pub fn read_manifest(dir: &Path) -> Result<Vec<Vector>, ConformanceError> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&path).map_err(io(&path))?;
    let vectors: Vec<Vector> = serde_json::from_str(&text).map_err(json(&path))?;
    if vectors.is_empty() {
        return Err(ConformanceError::NoVectors { path });
    }
    let mut names = BTreeSet::new();
    for v in &vectors {
        if !names.insert(v.name.as_str()) {
            let name = v.name.clone();
            return Err(ConformanceError::DuplicateVector { path, name });
        }
    }
    Ok(vectors)
}

/// The bytes of `file`, a level or baseline file `vector` names, if any.
fn read_named(
    dir: &Path,
    vector: &Vector,
    file: &Option<String>,
) -> Result<Option<Vec<u8>>, ConformanceError> {
    let Some(file) = file else {
        return Ok(None);
    };
    let path = file_path(dir, file)?;
    std::fs::read(&path)
        .map(Some)
        .map_err(|source| ConformanceError::VectorUnreadable {
            name: vector.name.clone(),
            path,
            source,
        })
}

/// Makes an I/O error of `path` into [`ConformanceError::Io`].
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ConformanceError {
    let path = path.to_path_buf();
    move |source| ConformanceError::Io { path, source }
}

/// Makes a JSON error of `path` into [`ConformanceError::Json`].
fn json(path: &Path) -> impl FnOnce(serde_json::Error) -> ConformanceError {
    let path = path.to_path_buf();
    move |source| ConformanceError::Json { path, source }
}

/// The manifest text of `vectors`: pretty-printed JSON and a final newline.
pub fn manifest_json(vectors: &[Vector]) -> String {
    let mut text = serde_json::to_string_pretty(vectors).expect("vectors serialize");
    text.push('\n');
    text
}

/// `dir/file`, if `file` is a plain file name.
fn file_path(dir: &Path, file: &str) -> Result<PathBuf, ConformanceError> {
    let plain = !file.is_empty() && file != "." && file != ".." && !file.contains(['/', '\\']);
    if plain {
        Ok(dir.join(file))
    } else {
        Err(ConformanceError::NotPlainFileName(file.to_string()))
    }
}

/// Restores `bytes` as a game would and compares the outcome with `vector.expect`; `level` and
/// `baseline` are the bytes of the vector's level and baseline files. Err: one line naming the
/// vector, what was expected and what happened.
pub fn check_vector(
    version: PhysicsVersion,
    vector: &Vector,
    bytes: &[u8],
    level: Option<&[u8]>,
    baseline: Option<&[u8]>,
) -> Result<(), ConformanceError> {
    let expected = &vector.expect;
    let fail = |got: String| ConformanceError::VectorFailed {
        name: vector.name.clone(),
        expected: expected.clone(),
        got,
    };
    let config = WorldConfig::new(version)
        .map_err(|e| fail(format!("no world: {e}")))?
        .with_match_id(vector.match_id);
    let key = match &vector.key {
        None => None,
        Some(text) => {
            Some(SnapshotKey::new(parse_key(text).map_err(|e| {
                fail(format!("a bad key in the manifest: {e}"))
            })?))
        }
    };
    let level_id = match &vector.level_id {
        None => None,
        Some(text) => {
            Some(LevelId(parse_key(text).map_err(|e| {
                fail(format!("a bad level id in the manifest: {e}"))
            })?))
        }
    };
    // The baseline file is a format-1 snapshot: its payload is the baseline.
    let baseline = match baseline {
        None => None,
        Some(file) => Some(Baseline::from_payload(
            file.get(HEADER_LEN..)
                .ok_or_else(|| fail("a baseline file shorter than a header".to_string()))?
                .to_vec(),
        )),
    };
    let run = || -> Result<(), ConformanceError> {
        // As a game: the level's bytes are read (a refusal is the verdict), the world is on the
        // match's level, and the restore is given the level (or, for a delta, the baseline).
        let loaded = level.map(Level::read).transpose();
        let result = loaded.clone().map_err(Into::into).and_then(|level| {
            let on = level_id.or(level.as_ref().map(Level::id));
            let config = on.map_or(config, |id| config.with_level(id));
            match &baseline {
                Some(baseline) => PinnedWorld::restore_delta(config, baseline, bytes, key.as_ref()),
                None => PinnedWorld::restore_on(config, level.as_ref(), bytes, key.as_ref()),
            }
        });
        match (expected, result) {
            (Expect::Reject(kind), Err(e)) if e.kind().as_str() == kind.as_str() => Ok(()),
            (_, Err(e)) => Err(fail(format!("reject {} ({e})", e.kind()))),
            (Expect::Reject(_), Ok(world)) => Err(fail(format!("accept at tick {}", world.tick()))),
            (Expect::Accept(accept), Ok(world)) => {
                let level = loaded.ok().flatten();
                let held = (level.as_ref(), baseline.as_ref());
                check_accepted(world, accept, bytes, key.as_ref(), held).map_err(fail)
            }
        }
    };
    catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|_| Err(fail("a panic".to_string())))
}

/// The tick, the re-snapshotted bytes and the per-step digests of a restored world.
fn check_accepted(
    mut world: PinnedWorld,
    accept: &Accept,
    bytes: &[u8],
    key: Option<&SnapshotKey>,
    held: (Option<&Level>, Option<&Baseline>),
) -> Result<(), String> {
    if world.tick() != accept.tick {
        return Err(format!("accept at tick {}", world.tick()));
    }
    // Deterministic encoding: the restored world snapshots to the same bytes, in the file's
    // format. Without the key an authenticated file cannot be re-made: the re-snapshot is
    // unauthenticated, so it must equal the file outside the flags, the checksum and the MAC.
    // A compressed file is compared in its canonical form (`canonical`): compressed bytes are
    // not canonical across targets.
    let flags = u16::from_le_bytes([bytes[10], bytes[11]]);
    let format = u16::from_le_bytes([bytes[8], bytes[9]]);
    let compressed = flags & FLAG_COMPRESSED != 0;
    let payload = encode_world(world.world());
    let remade = if format == FORMAT_VERSION_3 {
        world
            .snapshot_linked(held.0, key)
            .map_err(|e| format!("accept, but the restored world does not snapshot: {e}"))?
    } else if let (FORMAT_VERSION_4, Some(baseline)) = (format, held.1) {
        world.snapshot_delta(baseline, key)
    } else {
        seal_stored(
            format,
            flags & FLAG_COMPRESSED,
            world.config().physics_version(),
            world.tick(),
            world.config().digest(),
            &if compressed {
                compress_payload(&payload)
            } else {
                payload
            },
            key,
        )
    };
    let (again, canonical_file);
    let bytes = if compressed || format >= FORMAT_VERSION_3 {
        again = canonical(&remade, held)?;
        canonical_file = canonical(bytes, held)?;
        &canonical_file[..]
    } else {
        again = remade;
        bytes
    };
    let authenticated = flags & FLAG_MAC != 0;
    let same = if key.is_some() || !authenticated {
        again == bytes
    } else {
        again.len() == bytes.len()
            && again[..10] == bytes[..10]
            && again[12..64] == bytes[12..64]
            && again[HEADER_LEN..] == bytes[HEADER_LEN..]
    };
    if !same {
        return Err(format!(
            "accept, but the restored world snapshots to other bytes ({} bytes, first difference at byte {})",
            again.len(),
            again
                .iter()
                .zip(bytes)
                .position(|(a, b)| a != b)
                .unwrap_or(again.len().min(bytes.len()))
        ));
    }
    if accept.digests.len() != accept.steps as usize {
        return Err(format!(
            "accept, but the manifest lists {} digests for {} steps",
            accept.digests.len(),
            accept.steps
        ));
    }
    for (step, expected) in accept.digests.iter().enumerate() {
        world.step();
        let got = digest(&world);
        if got != *expected {
            return Err(format!(
                "accept, but step {} (tick {}) has state digest {got}, not {expected}",
                step + 1,
                world.tick()
            ));
        }
    }
    Ok(())
}

/// A format-2 compressed, format-3 or format-4 snapshot in canonical form: its header with the
/// payload length set to the format-1 payload's, flag bit 1 clear and the checksum and MAC fields
/// zeroed (they cover the stored bytes; the restore verified them), then the format-1 payload.
/// Two such snapshots of the same world at the same tick have the same canonical form whatever
/// encoder wrote them.
fn canonical(bytes: &[u8], held: (Option<&Level>, Option<&Baseline>)) -> Result<Vec<u8>, String> {
    let format = u16::from_le_bytes([bytes[8], bytes[9]]);
    let expanded = match (format, held.1) {
        (FORMAT_VERSION_3, _) => Some(rapier_pinned::testing::expand_linked(bytes, held.0)),
        (FORMAT_VERSION_4, Some(baseline)) => Some(expand_delta(bytes, baseline)),
        _ => None,
    };
    let payload = if let Some(expanded) = expanded {
        expanded.map_err(|e| format!("accept, but the payload does not expand: {e}"))?
    } else {
        decompress_payload(&bytes[HEADER_LEN..])
            .map_err(|e| format!("accept, but the payload does not decompress: {e}"))?
    };
    let mut out = bytes[..HEADER_LEN].to_vec();
    out[56..64].copy_from_slice(&(payload.len() as u64).to_le_bytes());
    out[64..HEADER_LEN].fill(0);
    // How the stored bytes are stored (flag bit 1) is not part of the world.
    out[FLAGS_AT] &= !(FLAG_COMPRESSED as u8);
    out.extend_from_slice(&payload);
    Ok(out)
}

/// Writes the vectors of `version` into `dir` (see [`write`]). The manifest may gain vectors but
/// none that it lists may change or go. Everything is compared before anything is written.
pub fn write_to(dir: &Path, version: PhysicsVersion) -> Result<usize, ConformanceError> {
    let generated = generate(version)?;
    let levels = level_files()?;
    let mut files = BTreeMap::new();
    for (vector, bytes) in &generated {
        files.insert(vector.file.as_str(), bytes.as_slice());
    }
    for (file, bytes) in &levels {
        files.insert(file.as_str(), bytes.as_slice());
    }
    let mut missing = Vec::new();
    for (file, bytes) in files {
        let path = file_path(dir, file)?;
        match std::fs::read(&path) {
            Ok(stored) if stored == bytes => {}
            Ok(_) => return Err(ConformanceError::VectorBytesChanged { path }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => missing.push((path, bytes)),
            Err(e) => return Err(io(&path)(e)),
        }
    }
    let vectors: Vec<Vector> = generated.iter().map(|(v, _)| v.clone()).collect();
    let text = manifest_json(&vectors);
    let manifest = dir.join(MANIFEST);
    let manifest_changes = match std::fs::read_to_string(&manifest) {
        Ok(stored) if stored == text => false,
        Ok(stored) => {
            let stored: Vec<Vector> = serde_json::from_str(&stored).map_err(json(&manifest))?;
            if let Some(old) = stored.iter().find(|old| !vectors.contains(old)) {
                return Err(ConformanceError::VectorChanged {
                    path: manifest,
                    name: old.name.clone(),
                });
            }
            true
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => true,
        Err(e) => return Err(io(&manifest)(e)),
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut written = 0;
    for (path, bytes) in missing {
        std::fs::write(&path, bytes).map_err(io(&path))?;
        written += 1;
    }
    if manifest_changes {
        std::fs::write(&manifest, text).map_err(io(&manifest))?;
        written += 1;
    }
    Ok(written)
}

/// Every vector of `version` with its file's bytes, in manifest order (vectors sharing a file
/// carry the same bytes).
///
/// A table, one row a vector, grouped by the check of `docs/protocol.md` §5 that decides it
/// (format 2's last). A row is three lines: what it is (`accept` with the verdict of the
/// snapshotted world, or `reject` with the error kind); its bytes, made from `Base` by the
/// helpers below, or the file of an earlier row (`Row::file`), and how the reader restores it
/// (`Row::key`, `Row::match_id`; otherwise without a key into match 7); what was done to the
/// bytes (`Row::about`).
pub fn generate(version: PhysicsVersion) -> Result<Vec<(Vector, Vec<u8>)>, ConformanceError> {
    table(version).map_err(ConformanceError::Generate)
}

/// [`generate`]'s table; `Err`: the generator's reason.
fn table(version: PhysicsVersion) -> Result<Vec<(Vector, Vec<u8>)>, String> {
    let b = Base::new(version)?;
    let (v, other, at_30) = (version, b.other, &b.accepted);
    let (tick_0, at_0) = unauthenticated(b.config, 0)?;
    let (wide, wide_at_30) = unauthenticated(b.config.with_match_id(WIDE_MATCH_ID), TICK)?;
    let (forged, forged_at_30) = b.forged()?;
    // The offsets and sizes some abouts state.
    let middle = HEADER_LEN + b.payload.len() / 2;
    let stored_middle = HEADER_LEN + b.stored.len() / 2;
    let (policy_at, policy) = b.policy_byte()?;
    let block = b.stored.len() - 4;
    let n = b.payload.len() as u32;
    let match_offset = first_match_offset_high_byte(&b.stored)?;
    let lv = LevelBase::new(&b)?;
    let level = lv.level.id();
    let m = b.payload.len() as u64;
    let (delta, at_40) = b.delta(DELTA_TICK)?;

    #[rustfmt::skip]
    let table = vec![
        // Accepted: ball_drop as the wrapper snapshots it.
        accept("accept", at_30)
            .bytes(&b.plain)
            .about("ball_drop after 30 steps, snapshotted unauthenticated: nothing changed."),
        accept("accept_mac", at_30)
            .bytes(&b.mac).key(TEST_KEY)
            .about("ball_drop after 30 steps, snapshotted with the test key (MAC flag set), restored with the test key."),
        accept("accept_mac_without_key", at_30)
            .file("accept_mac.snap")
            .about("The authenticated snapshot of accept_mac restored without a key: only the checksum is verified, the MAC is not."),
        accept("accept_tick_0", &at_0)
            .bytes(&tick_0)
            .about("ball_drop as adopted, before its first step (tick 0), snapshotted unauthenticated."),
        accept("accept_wide_match_id", &wide_at_30)
            .bytes(&wide).match_id(WIDE_MATCH_ID)
            .about("ball_drop after 30 steps in match 0x00123456789abcde (the config digest hashes all 8 bytes of the match id, little-endian)."),

        // Framing: checks 1-5.
        reject("empty", "Truncated")
            .bytes([])
            .about("A file of zero bytes."),
        reject("truncated_magic_prefix", "Truncated")
            .bytes(&b.plain[..5])
            .about("The first 5 bytes of accept.snap (a correct prefix of the magic, too short for a header)."),
        reject("bad_magic", "BadMagic")
            .bytes(overwrite(&b.plain, 0, b"X"))
            .about("accept.snap with its first byte changed from 'R' to 'X'."),
        reject("truncated_header", "Truncated")
            .bytes(&b.plain[..100])
            .about("The first 100 bytes of accept.snap."),
        reject("unknown_format_version", "UnknownFormatVersion")
            .bytes(resealed(&b.plain, FORMAT_AT, &0u16.to_le_bytes()))
            .about("accept.snap with the format version set to 0, which is never a format, checksum recomputed."),
        reject("unknown_flags_compressed", "UnknownFlags")
            .bytes(resealed(&b.plain, FLAGS_AT, &FLAG_COMPRESSED.to_le_bytes()))
            .about("accept.snap with flag bit 1 (reserved: compressed payload) set, checksum recomputed."),
        reject("unknown_flags_high_bit", "UnknownFlags")
            .bytes(resealed(&b.plain, FLAGS_AT, &0x8000u16.to_le_bytes()))
            .about("accept.snap with flag bit 15 set, checksum recomputed."),
        reject("stray_mac", "StrayMac")
            .bytes(overwrite(&b.plain, MAC_AT, &b.mac[MAC_AT..HEADER_LEN]))
            .about("accept.snap (MAC flag clear) with accept_mac.snap's MAC copied into its MAC field (the checksum does not cover that field, so it stays valid)."),

        // Versions and config: checks 6-7.
        reject("physics_version_mismatch", "PhysicsVersionMismatch")
            .bytes(&b.other_plain)
            .about(format!("A genuine snapshot of ball_drop after 30 steps under physics-version {other} (same match), restored into a version-{v} world.")),
        reject("unknown_physics_version", "UnknownPhysicsVersion")
            .bytes(seal(PhysicsVersion::new(0), TICK, b.config.digest(), &b.payload, None))
            .about("accept.snap's payload sealed (valid checksum) with physics-version 0, which is never released."),
        reject("config_digest_mismatch", "ConfigDigestMismatch")
            .file("accept.snap").match_id(MATCH_ID + 1)
            .about("accept.snap (match 7) restored into a world of match 8."),

        // Lengths: check 8.
        reject("payload_too_large", "PayloadTooLarge")
            .bytes(resealed(&b.plain, LENGTH_AT, &(PAYLOAD_LIMIT + 1).to_le_bytes()))
            .about("accept.snap with the payload length field set to 2^30 + 1, checksum recomputed."),
        reject("payload_length_at_limit", "Truncated")
            .bytes(resealed(&b.plain, LENGTH_AT, &PAYLOAD_LIMIT.to_le_bytes()))
            .about("accept.snap with the payload length field set to 2^30 (allowed, but more than the bytes present), checksum recomputed."),
        reject("truncated_payload", "Truncated")
            .bytes(&b.plain[..b.plain.len() - 1])
            .about("accept.snap without its last byte."),
        reject("trailing_bytes", "TrailingBytes")
            .bytes([&b.plain[..], &[0]].concat())
            .about("accept.snap with one zero byte appended."),

        // Integrity: check 9.
        reject("checksum_mismatch_payload", "ChecksumMismatch")
            .bytes(flip(&b.plain, middle, 0x01))
            .about(format!("accept.snap with bit 0 of byte {middle} (in the payload) flipped.")),
        reject("checksum_mismatch_tick", "ChecksumMismatch")
            .bytes(overwrite(&b.plain, TICK_AT, &(TICK + 1).to_le_bytes()))
            .about("accept.snap with the tick field changed from 30 to 31 (the checksum covers the header)."),

        // Authentication: check 10.
        reject("mac_missing", "MacMissing")
            .file("accept.snap").key(TEST_KEY)
            .about("accept.snap (unauthenticated) restored with the test key."),
        reject("mac_mismatch_wrong_key", "MacMismatch")
            .file("accept_mac.snap").key(OTHER_KEY)
            .about("accept_mac.snap (made with the test key) restored with another key, 20 21 .. 3f."),
        reject("mac_mismatch_flipped_mac", "MacMismatch")
            .bytes(flip(&b.mac, MAC_AT, 0x01)).key(TEST_KEY)
            .about("accept_mac.snap with bit 0 of the MAC's first byte (offset 96) flipped, restored with the test key."),
        reject("forged_checksum_with_key", "MacMismatch")
            .bytes(&forged).file("forged_checksum.snap").key(TEST_KEY)
            .about("accept_mac.snap with the ball's linear velocity set to 5 m/s up in the payload, the length field and checksum recomputed and the old MAC kept, restored with the test key."),
        accept("forged_checksum_without_key", &forged_at_30)
            .file("forged_checksum.snap")
            .about("The forged snapshot of forged_checksum_with_key restored without a key: its checksum is valid, so the changed world is accepted."),

        // Decoding: check 11.
        reject("undecodable_empty_payload", "Undecodable")
            .bytes(b.sealed(&[]))
            .about("A valid header (checksum included) with a payload of zero bytes."),
        reject("undecodable_garbage", "Undecodable")
            .bytes(b.sealed(&[0xff; 64]))
            .about("A valid header (checksum included) over a payload of 64 bytes 0xff."),
        reject("undecodable_cut_short", "Undecodable")
            .bytes(b.sealed(&b.payload[..b.payload.len() - 10]))
            .about("accept.snap's payload without its last 10 bytes, sealed with a valid checksum."),
        reject("undecodable_bad_enum", "Undecodable")
            .bytes(b.sealed(&overwrite(&b.payload, policy_at, &[9])))
            .about(format!("accept.snap's payload with byte {policy_at} (ccd_persistent_contact_policy, the last integration parameter, {policy} here) set to 9, which is no variant, sealed with a valid checksum.")),

        // Parameters and gravity: check 12.
        reject("config_mismatch_dt", "ConfigMismatch")
            .bytes(b.sealed_world(dt_one_thirtieth)?)
            .about("accept.snap's world with integration parameter dt set to 1/30, re-encoded and sealed with a valid checksum."),
        reject("config_mismatch_gravity", "ConfigMismatch")
            .bytes(b.sealed_world(gravity_y_9_8)?)
            .about("accept.snap's world with gravity.y set to -9.8, re-encoded and sealed with a valid checksum."),
        reject("config_mismatch_other_version_params", "ConfigMismatch")
            .bytes(b.sealed(&b.other_payload))
            .about(format!("The payload of physics_version_mismatch (a version-{other} world) sealed as version {v} of match 7 with a valid checksum: the two CCD parameters differ.")),

        // Structure: check 13.
        reject("structural_dangling_parent", "Structural")
            .bytes(b.sealed_world(no_bodies)?)
            .about("accept.snap's world with every rigid body removed from the body set (the ball's collider keeps its parent handle), sealed with a valid checksum."),
        reject("structural_body_lists_missing_collider", "Structural")
            .bytes(b.sealed_world(collider_gone_still_listed)?)
            .about("accept.snap's world with the ball's collider removed from the collider set while the ball still lists it, sealed with a valid checksum."),
        reject("structural_dangling_joint", "Structural")
            .bytes(b.sealed_world(impulse_joint_to_nothing)?)
            .about("accept.snap's world with a fixed impulse joint from the ball to body handle (index 1, generation 0), which does not exist, sealed with a valid checksum."),
        reject("structural_dangling_multibody_link", "Structural")
            .bytes(b.sealed_world(multibody_joint_to_nothing)?)
            .about("accept.snap's world with a fixed multibody joint from the ball to body handle (index 1, generation 0), which does not exist, sealed with a valid checksum."),
        reject("structural_dangling_contact_pair", "Structural")
            .bytes(b.sealed_world(collider_gone_contact_kept)?)
            .about("accept.snap's world with the ball's collider removed from the collider set and the ball, while the narrow phase keeps its contact pair with the ground, sealed with a valid checksum."),
        reject("structural_dangling_active_body", "Structural")
            .bytes(b.sealed_world(ball_gone_still_active)?)
            .about("accept.snap's world with the ball and its collider removed and the narrow phase emptied, while the island manager's active set still holds the ball, sealed with a valid checksum."),

        // Finiteness: check 14.
        reject("non_finite_translation", "NonFinite")
            .bytes(b.sealed_world(nan_translation)?)
            .about("accept.snap's world with the ball's translation set to (NaN, 0, 0), sealed with a valid checksum."),
        reject("non_finite_velocity", "NonFinite")
            .bytes(b.sealed_world(infinite_velocity)?)
            .about("accept.snap's world with the ball's linear velocity set to (0, +inf, 0), sealed with a valid checksum."),

        // Format 2, compressed payload (flag bit 1): decompressed after checks 1-10, check 11.1.
        accept("accept_compressed", at_30)
            .bytes(&b.compressed)
            .about("ball_drop after 30 steps, snapshotted compressed: format 2, flags 0x0002, payload = uncompressed length (u32 LE) then one LZ4 block."),
        accept("accept_compressed_mac", at_30)
            .bytes(&b.compressed_mac).key(TEST_KEY)
            .about("ball_drop after 30 steps, snapshotted compressed with the test key (flags 0x0003; checksum and MAC over the compressed bytes), restored with the test key."),
        accept("accept_format2_uncompressed", at_30)
            .bytes(resealed(&b.plain, FORMAT_AT, &FORMAT_VERSION_2.to_le_bytes()))
            .about("accept.snap with the format version set to 2 and flag bit 1 clear (the payload stored as it is), checksum recomputed."),
        reject("compressed_mac_missing", "MacMissing")
            .file("accept_compressed.snap").key(TEST_KEY)
            .about("accept_compressed.snap (unauthenticated) restored with the test key."),
        reject("unknown_flags_format2_bit2", "UnknownFlags")
            .bytes(resealed(&b.compressed, FLAGS_AT, &(FLAG_COMPRESSED | 1 << 2).to_le_bytes()))
            .about("accept_compressed.snap with flag bit 2 set as well (flags 0x0006), checksum recomputed: format 2 defines bits 0 and 1 only."),
        reject("checksum_mismatch_compressed", "ChecksumMismatch")
            .bytes(flip(&b.compressed, stored_middle, 0x01))
            .about(format!("accept_compressed.snap with bit 0 of byte {stored_middle} (in the compressed payload) flipped: the checksum covers the stored bytes and is checked before decompressing.")),
        reject("compressed_no_length_prefix", "Decompression")
            .bytes(b.compressed_with(&b.stored[..3]))
            .about("accept_compressed.snap's payload cut to its first 3 bytes (shorter than the 4-byte uncompressed length), length field and checksum recomputed."),
        reject("compressed_truncated_stream", "Decompression")
            .bytes(b.compressed_with(&b.stored[..b.stored.len() - 8]))
            .about("accept_compressed.snap's payload without the last 8 bytes of its LZ4 block, length field and checksum recomputed."),
        reject("compressed_length_over_limit", "PayloadTooLarge")
            .bytes(b.compressed_stating(PAYLOAD_LIMIT as u32 + 1))
            .about("accept_compressed.snap with the stated uncompressed length set to 2^30 + 1, checksum recomputed: refused before anything is allocated."),
        reject("compressed_length_beyond_block", "Decompression")
            .bytes(b.compressed_stating(PAYLOAD_LIMIT as u32))
            .about(format!("accept_compressed.snap with the stated uncompressed length set to 2^30 (within the limit, but more than 255 x the {block}-byte LZ4 block can expand to), checksum recomputed: refused before anything is allocated.")),
        reject("compressed_length_one_more", "Decompression")
            .bytes(b.compressed_stating(n + 1))
            .about(format!("accept_compressed.snap with the stated uncompressed length {} instead of {n}, checksum recomputed: the block decompresses to fewer bytes than stated.", n + 1)),
        reject("compressed_length_one_less", "Decompression")
            .bytes(b.compressed_stating(n - 1))
            .about(format!("accept_compressed.snap with the stated uncompressed length {} instead of {n}, checksum recomputed: the block decompresses to more bytes than stated.", n - 1)),
        reject("compressed_bit_flip_offset", "Decompression")
            .bytes(b.compressed_with(&flip(&b.stored, match_offset, 0x80)))
            .about(format!("accept_compressed.snap with bit 7 of payload byte {match_offset} flipped (the high byte of the LZ4 block's first match offset, which then points before the start of the output), checksum recomputed.")),
        reject("compressed_undecodable", "Undecodable")
            .bytes(b.compressed_with(&compress_payload(&[0xff; 64])))
            .about("A format-2 compressed snapshot (valid checksum) whose payload is a valid LZ4 block of 64 bytes 0xff: it decompresses, then does not decode."),

        // Format 3, linked payload: the level id, then the record stream (compressed with flag
        // bit 1), expanded after checks 1-10, check 11.1.
        accept("accept_linked", at_30)
            .bytes(&lv.linked)
            .about("ball_drop after 30 steps, snapshotted linked: format 3, flags 0x0002, payload = 32 zero bytes (no level) then the LZ4-compressed record stream."),
        accept("accept_linked_mac", at_30)
            .bytes(&lv.linked_mac).key(TEST_KEY)
            .about("accept_linked.snap's world snapshotted with the test key (flags 0x0003), restored with the test key."),
        accept("accept_linked_uncompressed", at_30)
            .bytes(b.linked_with(0, &literal_stream(&b.payload)))
            .about("accept.snap's payload as format 3 with flag bit 1 clear: 32 zero bytes, then the record stream stored as it is: the expanded length (u64 LE), then one literal record (tag 0, u32 LE length, the payload)."),
        accept("accept_level", &lv.accepted)
            .bytes(&lv.on_level).level("level.level")
            .about(format!("ball_drop with the level's terrain (a 32-triangle trimesh, level.level) as a fixed collider 50 m away, on the level {level}, after 30 steps, snapshotted linked: the terrain is a level record.")),
        reject("level_missing", "LevelMissing")
            .file("accept_level.snap").level_id(level)
            .about("accept_level.snap restored into a world on its level without the level's bytes."),
        reject("level_wrong", "WrongLevel")
            .file("accept_level.snap").level_id(level).level("other.level")
            .about("accept_level.snap restored into a world on its level, given another level (other.level, the terrain 1 m higher)."),
        reject("level_not_a_level", "BadLevel")
            .file("accept_level.snap").level_id(level).level("not_a_level.level")
            .about("accept_level.snap restored with level.level cut short by one byte as the level: the level is refused when it is read."),
        reject("level_config_without", "ConfigDigestMismatch")
            .file("accept_level.snap")
            .about("accept_level.snap restored into a world on no level: the config digest covers the level's id."),
        reject("unknown_flags_format3_bit2", "UnknownFlags")
            .bytes(resealed(&lv.linked, FLAGS_AT, &(FLAG_COMPRESSED | 1 << 2).to_le_bytes()))
            .about("accept_linked.snap with flag bit 2 set as well (flags 0x0006), checksum recomputed: format 3 defines bits 0 and 1 only."),
        reject("checksum_mismatch_linked", "ChecksumMismatch")
            .bytes(flip(&lv.linked, lv.linked.len() - 3, 0x01))
            .about("accept_linked.snap with bit 0 of its third-last byte flipped: the checksum covers the stored bytes."),
        reject("linked_no_level_id", "Link")
            .bytes(b.linked_stored(&[0; 31], 0))
            .about("A format-3 snapshot (valid checksum) whose payload is 31 zero bytes, shorter than the level id."),
        reject("linked_unknown_record", "Link")
            .bytes(b.linked_with(0, &overwrite(&literal_stream(&b.payload), 8, &[3])))
            .about("accept_linked_uncompressed.snap with the first record's tag set to 3, which is no record, checksum recomputed."),
        reject("linked_cut_short", "Link")
            .bytes(b.linked_with(0, &literal_stream(&b.payload)[..b.payload.len()]))
            .about("accept_linked_uncompressed.snap without the last 13 bytes of its literal record, length field and checksum recomputed."),
        reject("linked_length_one_more", "Link")
            .bytes(b.linked_with(0, &overwrite(&literal_stream(&b.payload), 0, &(m + 1).to_le_bytes())))
            .about(format!("accept_linked_uncompressed.snap stating an expanded length of {} instead of {m}, checksum recomputed: the records write fewer bytes than stated.", m + 1)),
        reject("linked_no_such_shape", "Link")
            .bytes(b.linked_with(0, &[&64u64.to_le_bytes()[..], &[1, 0, 0, 0, 0]].concat()))
            .about("A format-3 snapshot on no level whose record stream states 64 bytes and holds one level record (tag 1) of shape 0, checksum valid."),
        reject("linked_repeat_ahead", "Link")
            .bytes(b.linked_with(0, &[&16u64.to_le_bytes()[..], &[2], &0u64.to_le_bytes(), &16u32.to_le_bytes()].concat()))
            .about("A format-3 snapshot whose record stream states 16 bytes and holds one repeat record (tag 2) of 16 bytes from offset 0, before anything is written; checksum valid."),
        reject("linked_beyond_stream", "Link")
            .bytes(b.linked_with(0, &[&(1u64 << 29).to_le_bytes()[..], &[0, 1, 0, 0, 0, 7]].concat()))
            .about("A format-3 snapshot whose 14-byte record stream states an expanded length of 2^29, more than 255 x its size: refused before anything is allocated; checksum valid."),
        reject("linked_length_over_limit", "PayloadTooLarge")
            .bytes(b.linked_with(0, &overwrite(&literal_stream(&b.payload), 0, &(PAYLOAD_LIMIT + 1).to_le_bytes())))
            .about("accept_linked_uncompressed.snap stating an expanded length of 2^30 + 1, checksum recomputed: refused before anything is allocated."),
        reject("linked_undecodable", "Undecodable")
            .bytes(b.linked_with(FLAG_COMPRESSED, &compress_payload(&literal_stream(&[0xff; 64]))))
            .about("A format-3 snapshot (valid checksum) whose compressed record stream is one literal record of 64 bytes 0xff: it expands, then does not decode."),

        // Format 4, a delta: the baseline's id, then the record stream (compressed with flag bit
        // 1), expanded against the baseline after checks 1-10, check 11.1.
        accept("accept_delta", &at_40)
            .bytes(&delta).baseline("accept.snap")
            .about(format!("ball_drop after {DELTA_TICK} steps as a delta against accept.snap's payload (tick 30): format 4, flags 0x0002, payload = the baseline's id (BLAKE3 of accept.snap's payload), then the LZ4-compressed record stream.")),
        accept("accept_delta_copy", at_30)
            .bytes(b.delta_with(0, &[&m.to_le_bytes()[..], &[3], &0u64.to_le_bytes(), &(m as u32).to_le_bytes()].concat())).baseline("accept.snap")
            .about(format!("accept.snap's world as a delta against its own payload, flag bit 1 clear: the baseline's id, then the record stream stored as it is: the expanded length {m} (u64 LE), then one baseline record (tag 3, offset 0 as u64 LE, length {m} as u32 LE).")),
        reject("delta_baseline_missing", "BaselineMissing")
            .file("accept_delta.snap")
            .about("accept_delta.snap restored without a baseline."),
        reject("delta_wrong_baseline", "WrongBaseline")
            .file("accept_delta.snap").baseline("accept_tick_0.snap")
            .about("accept_delta.snap restored with accept_tick_0.snap's payload (tick 0 of the same match) as the baseline."),
        reject("unknown_flags_format4_bit2", "UnknownFlags")
            .bytes(resealed(&delta, FLAGS_AT, &(FLAG_COMPRESSED | 1 << 2).to_le_bytes())).baseline("accept.snap")
            .about("accept_delta.snap with flag bit 2 set as well (flags 0x0006), checksum recomputed: format 4 defines bits 0 and 1 only."),
        reject("delta_beyond_baseline", "Link")
            .bytes(b.delta_with(0, &[&4u64.to_le_bytes()[..], &[3], &(m - 3).to_le_bytes(), &4u32.to_le_bytes()].concat())).baseline("accept.snap")
            .about(format!("A format-4 snapshot against accept.snap whose record stream states 4 bytes and holds one baseline record of 4 bytes from offset {}, past the baseline's {m} bytes; checksum valid.", m - 3)),
        reject("delta_level_record", "Link")
            .bytes(b.delta_with(0, &[&64u64.to_le_bytes()[..], &[1, 0, 0, 0, 0]].concat())).baseline("accept.snap")
            .about("A format-4 snapshot against accept.snap whose record stream holds a level record (tag 1), which is format 3's: unknown to a delta; checksum valid."),
    ];
    assemble(table)
}

/// The header offset of the format version (u16 LE, `docs/protocol.md` §3).
const FORMAT_AT: usize = 8;
/// The header offset of the flags (u16 LE).
const FLAGS_AT: usize = 10;
/// The header offset of the tick (u64 LE).
const TICK_AT: usize = 16;
/// The header offset of the payload length (u64 LE).
const LENGTH_AT: usize = 56;
/// The header offset of the MAC (32 bytes, the last of the header).
const MAC_AT: usize = 96;

/// What the vectors of a physics-version are made from: `ball_drop` adopted under it in match 7
/// and stepped 30 times, its four snapshots, its payload and what continuing it gives, and the
/// same scene under the other version.
struct Base {
    /// The physics-version of the vectors.
    version: PhysicsVersion,
    /// The version the mismatch vectors are made with ([`other_version`]).
    other: PhysicsVersion,
    /// The world's config: `version` in match 7.
    config: WorldConfig,
    /// `accept.snap`: the snapshot without a key.
    plain: Vec<u8>,
    /// `accept_mac.snap`: the snapshot with the test key.
    mac: Vec<u8>,
    /// `accept_compressed.snap`: the compressed snapshot (format 2) without a key.
    compressed: Vec<u8>,
    /// `accept_compressed_mac.snap`: the compressed snapshot with the test key.
    compressed_mac: Vec<u8>,
    /// The world's encoding: the payload of `accept.snap`.
    payload: Vec<u8>,
    /// The stored payload of `accept_compressed.snap`: the uncompressed length (u32 LE), then
    /// the LZ4 block.
    stored: Vec<u8>,
    /// The verdict of every snapshot of the world: tick 30 and the digests of the next steps.
    accepted: Expect,
    /// The snapshot without a key of `ball_drop` after 30 steps under `other` (same match).
    other_plain: Vec<u8>,
    /// Its payload.
    other_payload: Vec<u8>,
}

impl Base {
    /// The base of `version`, after checking that the generator's checksum, MAC and format-2
    /// framing are the wrapper's.
    fn new(version: PhysicsVersion) -> Result<Base, String> {
        let config = WorldConfig::new(version)
            .map_err(|e| format!("physics-version {version}: {e}"))?
            .with_match_id(MATCH_ID);
        let other = other_version(version);
        let other_config = WorldConfig::new(other)
            .map_err(|e| format!("physics-version {other} (the other version): {e}"))?
            .with_match_id(MATCH_ID);
        let key = SnapshotKey::new(TEST_KEY);
        let world = ball_drop(config, TICK)?;
        let other_world = ball_drop(other_config, TICK)?;
        let payload = encode_world(world.world());
        let base = Base {
            version,
            other,
            config,
            plain: world.snapshot(None),
            mac: world.snapshot(Some(&key)),
            compressed: world.snapshot_compressed(None),
            compressed_mac: world.snapshot_compressed(Some(&key)),
            stored: compress_payload(&payload),
            payload,
            accepted: accepted(world),
            other_plain: other_world.snapshot(None),
            other_payload: encode_world(other_world.world()),
        };
        reseal_matches_wrapper(&base.plain, &base.mac)?;
        format2_matches_wrapper(
            &base.plain,
            &base.stored,
            &base.compressed,
            &base.compressed_mac,
        )?;
        Ok(base)
    }

    /// `payload` sealed as a snapshot of this version at tick 30 in match 7, with a valid
    /// checksum and no MAC.
    fn sealed(&self, payload: &[u8]) -> Vec<u8> {
        seal(self.version, TICK, self.config.digest(), payload, None)
    }

    /// The payload of `accept.snap`'s world changed by `change`.
    fn changed(&self, change: Change) -> Result<Vec<u8>, String> {
        let mut world = decode(&self.payload)?;
        change(&mut world)?;
        Ok(encode_world(&world))
    }

    /// `accept.snap`'s world changed by `change`, re-encoded and [sealed](Base::sealed).
    fn sealed_world(&self, change: Change) -> Result<Vec<u8>, String> {
        Ok(self.sealed(&self.changed(change)?))
    }

    /// `accept_compressed.snap` with `stored` as its stored payload, length field and checksum
    /// recomputed.
    fn compressed_with(&self, stored: &[u8]) -> Vec<u8> {
        reframed(&self.compressed, stored)
    }

    /// `accept_compressed.snap` with the uncompressed length its payload states (the first 4
    /// stored bytes) set to `stated`, checksum recomputed.
    fn compressed_stating(&self, stated: u32) -> Vec<u8> {
        self.compressed_with(&overwrite(&self.stored, 0, &stated.to_le_bytes()))
    }

    /// The forged snapshot: `accept_mac.snap` with the ball's linear velocity set to 5 m/s up in
    /// the payload, length field and checksum recomputed and the old MAC kept; and its verdict
    /// without a key: the changed world's, at tick 30.
    fn forged(&self) -> Result<(Vec<u8>, Expect), String> {
        let payload = self.changed(ball_up)?;
        let world = PinnedWorld::adopt(self.config, decode(&payload)?)
            .map_err(|e| format!("the forged world cannot be adopted: {e}"))?;
        let mut expect = accepted(world);
        if let Expect::Accept(a) = &mut expect {
            a.tick = TICK;
        }
        Ok((reframed(&self.mac, &payload), expect))
    }

    /// The offset in the payload of `ccd_persistent_contact_policy`, the last integration
    /// parameter (after the 12 bytes of gravity; every parameter has a fixed size, the policy
    /// one byte), and its value under this version. Err if the payload holds another value there.
    fn policy_byte(&self) -> Result<(usize, u8), String> {
        let at = 12
            + bincode::serialize(&IntegrationParameters::default())
                .map_err(|e| e.to_string())?
                .len()
            - 1;
        let policy = self.config.params().ccd_persistent_contact_policy as u8;
        if self.payload[at] != policy {
            return Err(format!(
                "payload byte {at} is {}, not the CCD persistent-contact policy {policy}",
                self.payload[at]
            ));
        }
        Ok((at, policy))
    }
}

/// The tick of the delta vectors: 10 steps after their baseline, `accept.snap`.
const DELTA_TICK: u64 = TICK + 10;

impl Base {
    /// `ball_drop` after `steps` steps as a delta against `accept.snap`'s payload, and its
    /// verdict.
    fn delta(&self, steps: u64) -> Result<(Vec<u8>, Expect), String> {
        let world = ball_drop(self.config, steps)?;
        let baseline = Baseline::from_payload(self.payload.clone());
        Ok((world.snapshot_delta(&baseline, None), accepted(world)))
    }

    /// A format-4 snapshot of this version at tick 30 in match 7 against `accept.snap`'s
    /// payload, with a valid checksum: the baseline's id, then `stream`, with `flags`.
    fn delta_with(&self, flags: u16, stream: &[u8]) -> Vec<u8> {
        let id = Baseline::from_payload(self.payload.clone()).id();
        let stored = [&id.0[..], stream].concat();
        seal_stored(
            FORMAT_VERSION_4,
            flags,
            self.version,
            TICK,
            self.config.digest(),
            &stored,
            None,
        )
    }

    /// A format-3 snapshot of this version at tick 30 in match 7 on no level, with a valid
    /// checksum: the level id (zero), then `stream`, with `flags`.
    fn linked_with(&self, flags: u16, stream: &[u8]) -> Vec<u8> {
        self.linked_stored(&[&[0; 32][..], stream].concat(), flags)
    }

    /// A format-3 snapshot of this version at tick 30 in match 7 storing `stored`, with `flags`.
    fn linked_stored(&self, stored: &[u8], flags: u16) -> Vec<u8> {
        seal_stored(
            FORMAT_VERSION_3,
            flags,
            self.version,
            TICK,
            self.config.digest(),
            stored,
            None,
        )
    }
}

/// A record stream of one literal record: the expanded length (u64 LE), tag 0, the length (u32
/// LE), `payload`.
fn literal_stream(payload: &[u8]) -> Vec<u8> {
    let mut out = (payload.len() as u64).to_le_bytes().to_vec();
    out.push(0);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// What the format-3 vectors are made from: `ball_drop`'s linked snapshots, and `ball_drop` on a
/// level.
struct LevelBase {
    /// `accept_linked.snap`: ball_drop's linked snapshot without a key.
    linked: Vec<u8>,
    /// `accept_linked_mac.snap`: with the test key.
    linked_mac: Vec<u8>,
    /// The level of the vectors ([`vector_level`]).
    level: Level,
    /// `accept_level.snap`: ball_drop on the level, linked.
    on_level: Vec<u8>,
    /// Its verdict.
    accepted: Expect,
}

impl LevelBase {
    /// The format-3 base of `b`'s version.
    fn new(b: &Base) -> Result<LevelBase, String> {
        let world = ball_drop(b.config, TICK)?;
        let key = SnapshotKey::new(TEST_KEY);
        let linked = world
            .snapshot_linked(None, None)
            .map_err(|e| e.to_string())?;
        let linked_mac = world
            .snapshot_linked(None, Some(&key))
            .map_err(|e| e.to_string())?;
        let level = vector_level(0.0)?;
        let config = b.config.with_level(level.id());
        let scene = rapier_pinned_scenes::find(SCENE).ok_or(format!("no scene {SCENE}"))?;
        let mut built = scene.build(config.params());
        let terrain =
            ColliderBuilder::new(level.shapes()[0].clone()).translation(Vec3::new(50.0, 0.0, 0.0));
        built.colliders.insert(terrain);
        let mut on = PinnedWorld::adopt(config, built).map_err(|e| e.to_string())?;
        for _ in 0..TICK {
            on.step();
        }
        let on_level = on
            .snapshot_linked(Some(&level), None)
            .map_err(|e| e.to_string())?;
        // The generator's format-3 framing is the wrapper's.
        let sealed = seal_linked(
            b.version,
            TICK,
            b.config.digest(),
            &b.payload,
            None,
            &[],
            None,
        );
        if sealed != linked {
            return Err("seal_linked does not write PinnedWorld::snapshot_linked's bytes".into());
        }
        Ok(LevelBase {
            linked,
            linked_mac,
            level,
            on_level,
            accepted: accepted(on),
        })
    }
}

/// The level of the format-3 vectors: a 5 x 5 grid of vertices 1 m apart at height `y`, 32
/// triangles (`y` 0: `level.level`; 1: `other.level`).
fn vector_level(y: f32) -> Result<Level, String> {
    let n = 5u32;
    let vertices = (0..n * n)
        .map(|k| Vec3::new((k % n) as f32, y, (k / n) as f32))
        .collect();
    let indices = (0..(n - 1) * (n - 1))
        .flat_map(|k| {
            let a = k / (n - 1) * n + k % (n - 1);
            [[a, a + n, a + 1], [a + 1, a + n, a + n + 1]]
        })
        .collect();
    let mesh = SharedShape::trimesh(vertices, indices).map_err(|e| e.to_string())?;
    Level::new(vec![mesh]).map_err(|e| e.to_string())
}

/// The level files the vectors name, with their bytes: the same for every physics-version.
pub fn level_files() -> Result<Vec<(String, Vec<u8>)>, ConformanceError> {
    let files = || -> Result<Vec<(String, Vec<u8>)>, String> {
        let level = vector_level(0.0)?;
        let other = vector_level(1.0)?;
        let cut = level.bytes()[..level.bytes().len() - 1].to_vec();
        Ok(vec![
            ("level.level".to_string(), level.bytes().to_vec()),
            ("not_a_level.level".to_string(), cut),
            ("other.level".to_string(), other.bytes().to_vec()),
        ])
    };
    files().map_err(ConformanceError::Generate)
}

/// `ball_drop` adopted under `config` and stepped `steps` times, snapshotted without a key, and
/// the verdict of that snapshot.
fn unauthenticated(config: WorldConfig, steps: u64) -> Result<(Vec<u8>, Expect), String> {
    let world = ball_drop(config, steps)?;
    Ok((world.snapshot(None), accepted(world)))
}

/// `bytes` with `new` written at offset `at`; the checksum is not recomputed.
fn overwrite(bytes: &[u8], at: usize, new: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[at..at + new.len()].copy_from_slice(new);
    out
}

/// [`overwrite`], then the checksum recomputed.
fn resealed(bytes: &[u8], at: usize, new: &[u8]) -> Vec<u8> {
    let mut out = overwrite(bytes, at, new);
    reseal(&mut out, None);
    out
}

/// `bytes` with the bits of `mask` flipped in byte `at`; the checksum is not recomputed.
fn flip(bytes: &[u8], at: usize, mask: u8) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[at] ^= mask;
    out
}

/// The header of `snapshot` over `payload`: its length field and checksum recomputed, its MAC
/// field (if any) kept.
fn reframed(snapshot: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut out = overwrite(
        &snapshot[..HEADER_LEN],
        LENGTH_AT,
        &(payload.len() as u64).to_le_bytes(),
    );
    out.extend_from_slice(payload);
    reseal(&mut out, None);
    out
}

/// A change to `accept.snap`'s world ([`Base::changed`]); Err if the world lacks what it changes.
type Change = fn(&mut PhysicsWorld) -> Result<(), String>;

/// Integration parameter dt set to 1/30.
fn dt_one_thirtieth(w: &mut PhysicsWorld) -> Result<(), String> {
    w.integration_parameters.dt = 1.0 / 30.0;
    Ok(())
}

/// Gravity's y set to -9.8.
fn gravity_y_9_8(w: &mut PhysicsWorld) -> Result<(), String> {
    w.gravity[1] = -9.8;
    Ok(())
}

/// Every rigid body removed from the body set; the ball's collider keeps its parent handle.
fn no_bodies(w: &mut PhysicsWorld) -> Result<(), String> {
    w.bodies = RigidBodySet::new();
    Ok(())
}

/// The ball's collider removed from the collider set against an empty body set: the ball keeps
/// listing it.
fn collider_gone_still_listed(w: &mut PhysicsWorld) -> Result<(), String> {
    let collider = ball_collider(w)?;
    let PhysicsWorld {
        colliders,
        islands,
        soft_bodies,
        ..
    } = w;
    colliders.remove(
        collider,
        islands,
        &mut RigidBodySet::new(),
        soft_bodies,
        false,
    );
    Ok(())
}

/// A fixed impulse joint from the ball to body handle (index 1, generation 0), which does not
/// exist.
fn impulse_joint_to_nothing(w: &mut PhysicsWorld) -> Result<(), String> {
    let ball = first_body(w)?;
    let nothing = RigidBodyHandle::from_raw_parts(1, 0);
    w.impulse_joints
        .insert(ball, nothing, FixedJointBuilder::new(), false);
    Ok(())
}

/// A fixed multibody joint from the ball to body handle (index 1, generation 0), which does not
/// exist.
fn multibody_joint_to_nothing(w: &mut PhysicsWorld) -> Result<(), String> {
    let ball = first_body(w)?;
    let nothing = RigidBodyHandle::from_raw_parts(1, 0);
    w.multibody_joints
        .insert(ball, nothing, FixedJointBuilder::new(), false);
    Ok(())
}

/// The ball's collider removed properly from the sets, while the narrow phase keeps its contact
/// pair with the ground. Err if there is no contact pair to keep.
fn collider_gone_contact_kept(w: &mut PhysicsWorld) -> Result<(), String> {
    let collider = ball_collider(w)?;
    let PhysicsWorld {
        colliders,
        islands,
        bodies,
        soft_bodies,
        ..
    } = w;
    colliders.remove(collider, islands, bodies, soft_bodies, false);
    if w.narrow_phase.contact_pairs().count() == 0 {
        return Err("ball_drop has no contact pair at the snapshot's tick".to_string());
    }
    Ok(())
}

/// The ball and its collider removed against an empty island manager, and the narrow phase
/// emptied: the world's active set keeps the ball.
fn ball_gone_still_active(w: &mut PhysicsWorld) -> Result<(), String> {
    let ball = first_body(w)?;
    let PhysicsWorld {
        colliders,
        bodies,
        impulse_joints,
        multibody_joints,
        soft_bodies,
        ..
    } = w;
    bodies.remove(
        ball,
        &mut IslandManager::new(),
        colliders,
        impulse_joints,
        multibody_joints,
        soft_bodies,
        true,
    );
    w.narrow_phase = NarrowPhase::new();
    Ok(())
}

/// The ball's translation set to (NaN, 0, 0).
fn nan_translation(w: &mut PhysicsWorld) -> Result<(), String> {
    let ball = first_body(w)?;
    w.bodies[ball].set_translation(Vec3::new(f32::NAN, 0.0, 0.0), false);
    Ok(())
}

/// The ball's linear velocity set to (0, +inf, 0).
fn infinite_velocity(w: &mut PhysicsWorld) -> Result<(), String> {
    let ball = first_body(w)?;
    w.bodies[ball].set_linvel(Vec3::new(0.0, f32::INFINITY, 0.0), false);
    Ok(())
}

/// The ball's linear velocity set to 5 m/s up, waking it (the forged snapshot).
fn ball_up(w: &mut PhysicsWorld) -> Result<(), String> {
    let ball = first_body(w)?;
    w.bodies[ball].set_linvel(Vec3::new(0.0, 5.0, 0.0), true);
    Ok(())
}

/// One row of [`generate`]'s table: a vector, and its file's bytes unless it restores an earlier
/// row's file again.
struct Row {
    /// The vector's name.
    name: &'static str,
    /// Its verdict.
    expect: Expect,
    /// The bytes of its file; `None`: an earlier row's file.
    bytes: Option<Vec<u8>>,
    /// Its file; `None`: `<name>.snap`.
    file: Option<&'static str>,
    /// The key it is restored with.
    key: Option<[u8; 32]>,
    /// The match it is restored into.
    match_id: u64,
    /// The level file given to the restore.
    level: Option<&'static str>,
    /// The level the reader's world is on, when not the level file's.
    level_id: Option<[u8; 32]>,
    /// The baseline file given to the restore.
    baseline: Option<&'static str>,
    /// What was done to the bytes.
    about: String,
}

/// A row whose restore succeeds with `expect` (the verdict of the world that was snapshotted).
fn accept(name: &'static str, expect: &Expect) -> Row {
    Row::new(name, expect.clone())
}

/// A row whose restore fails with the `rapier_pinned::ErrorKind` named `kind`.
fn reject(name: &'static str, kind: &str) -> Row {
    Row::new(name, Expect::Reject(kind.to_string()))
}

impl Row {
    /// A row restored from its own file without a key into match 7, as yet without bytes.
    fn new(name: &'static str, expect: Expect) -> Row {
        Row {
            name,
            expect,
            bytes: None,
            file: None,
            key: None,
            match_id: MATCH_ID,
            level: None,
            level_id: None,
            baseline: None,
            about: String::new(),
        }
    }

    /// Restored with the level in `file` (one of [`level_files`]), its world on that level.
    fn level(mut self, file: &'static str) -> Row {
        self.level = Some(file);
        self
    }

    /// Restored into a world on the level `id` (rather than the level file's).
    fn level_id(mut self, id: LevelId) -> Row {
        self.level_id = Some(id.0);
        self
    }

    /// Restored as a delta against the payload of `file` (an earlier row's format-1 snapshot).
    fn baseline(mut self, file: &'static str) -> Row {
        self.baseline = Some(file);
        self
    }

    /// The bytes of the row's (new) file.
    fn bytes(mut self, bytes: impl AsRef<[u8]>) -> Row {
        self.bytes = Some(bytes.as_ref().to_vec());
        self
    }

    /// The row's file is `file` rather than `<name>.snap`; without [`Row::bytes`], that of an
    /// earlier row, restored again.
    fn file(mut self, file: &'static str) -> Row {
        self.file = Some(file);
        self
    }

    /// Restored with `key` rather than without a key.
    fn key(mut self, key: [u8; 32]) -> Row {
        self.key = Some(key);
        self
    }

    /// Restored into a world of `match_id` rather than [`MATCH_ID`].
    fn match_id(mut self, match_id: u64) -> Row {
        self.match_id = match_id;
        self
    }

    /// What was done to the bytes: the manifest's `about`.
    fn about(mut self, about: impl Into<String>) -> Row {
        self.about = about.into();
        self
    }
}

/// The table's vectors with their files' bytes, in order. Err if a name comes twice, a file is
/// made twice, or a row without bytes names no earlier row's file.
fn assemble(table: Vec<Row>) -> Result<Vec<(Vector, Vec<u8>)>, String> {
    let mut names = BTreeSet::new();
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut out = Vec::new();
    for row in table {
        if !names.insert(row.name) {
            return Err(format!("vector {} generated twice", row.name));
        }
        let file = row
            .file
            .map_or_else(|| format!("{}.snap", row.name), str::to_string);
        let bytes = match row.bytes {
            Some(_) if files.contains_key(&file) => {
                return Err(format!("file {file} generated twice"));
            }
            Some(bytes) => {
                files.insert(file.clone(), bytes.clone());
                bytes
            }
            None => files.get(&file).cloned().ok_or_else(|| {
                format!(
                    "vector {}: no bytes, and no earlier vector makes {file}",
                    row.name
                )
            })?,
        };
        let vector = Vector {
            name: row.name.to_string(),
            about: row.about,
            file,
            match_id: row.match_id,
            key: row.key.map(|k| hex(&k)),
            level: row.level.map(str::to_string),
            level_id: row.level_id.map(|k| hex(&k)),
            baseline: row.baseline.map(str::to_string),
            expect: row.expect,
        };
        out.push((vector, bytes));
    }
    Ok(out)
}

/// The released version a mismatch vector of `version` is made with: version 1 uses 2, every
/// later version the one before it.
fn other_version(version: PhysicsVersion) -> PhysicsVersion {
    if version == PhysicsVersion::V1 {
        PhysicsVersion::V2
    } else {
        PhysicsVersion::new(version.get() - 1)
    }
}

/// The catalog's `ball_drop` adopted under `config` and stepped `steps` times (the path of
/// `rapier-pinned snapshot save`).
fn ball_drop(config: WorldConfig, steps: u64) -> Result<PinnedWorld, String> {
    let scene = rapier_pinned_scenes::find(SCENE).ok_or(format!("no scene {SCENE}"))?;
    let mut world = PinnedWorld::adopt(config, scene.build(config.params()))
        .map_err(|e| format!("{SCENE} under {config:?}: {e}"))?;
    for _ in 0..steps {
        world.step();
    }
    Ok(world)
}

/// The verdict of a snapshot of `world` taken now: its tick and the digests of the next
/// [`STEPS`] steps, from `world` itself.
fn accepted(mut world: PinnedWorld) -> Expect {
    let tick = world.tick();
    let digests = (0..STEPS)
        .map(|_| {
            world.step();
            digest(&world)
        })
        .collect();
    Expect::Accept(Accept {
        tick,
        steps: STEPS,
        digests,
    })
}

fn digest(world: &PinnedWorld) -> String {
    format!(
        "{:016x}",
        rapier_pinned_scenes::state_digest(world.bodies())
    )
}

fn decode(payload: &[u8]) -> Result<PhysicsWorld, String> {
    bincode::deserialize(payload).map_err(|e| format!("payload does not decode: {e}"))
}

fn ball_collider(world: &PhysicsWorld) -> Result<rapier3d::prelude::ColliderHandle, String> {
    world
        .colliders
        .iter()
        .find(|(_, c)| c.parent().is_some())
        .map(|(h, _)| h)
        .ok_or_else(|| "the world has no attached collider".to_string())
}

fn first_body(world: &PhysicsWorld) -> Result<RigidBodyHandle, String> {
    world
        .bodies
        .iter()
        .next()
        .map(|(h, _)| h)
        .ok_or_else(|| "the world has no body".to_string())
}

/// BLAKE3 of the bytes the checksum and the MAC cover (`docs/protocol.md` §3): the header with
/// offsets 64..128 zeroed, then the payload.
fn covered(bytes: &[u8], mut hasher: blake3::Hasher) -> [u8; 32] {
    hasher.update(&bytes[..64]);
    hasher.update(&[0; 64]);
    hasher.update(&bytes[HEADER_LEN..]);
    *hasher.finalize().as_bytes()
}

/// Recomputes the checksum of a header the wrapper would not write (and the MAC, with `key`).
fn reseal(bytes: &mut [u8], key: Option<&[u8; 32]>) {
    let checksum = covered(bytes, blake3::Hasher::new());
    bytes[64..96].copy_from_slice(&checksum);
    if let Some(key) = key {
        let mac = covered(bytes, blake3::Hasher::new_keyed(key));
        bytes[96..128].copy_from_slice(&mac);
    }
}

/// The wrapper's format-2 compressed snapshots are the protocol's: `accept.snap`'s header with
/// format 2 and flag bit 1 (and the MAC flag), the payload length of the stored bytes, and the
/// stored bytes = the uncompressed length (u32 LE) then the block; checksum and MAC over them.
fn format2_matches_wrapper(
    plain: &[u8],
    stored: &[u8],
    compressed: &[u8],
    compressed_mac: &[u8],
) -> Result<(), String> {
    let payload_len = (plain.len() - HEADER_LEN) as u32;
    if stored[..4] != payload_len.to_le_bytes() {
        return Err("the compressed payload does not start with its uncompressed length".into());
    }
    for (bytes, key) in [(compressed, None), (compressed_mac, Some(&TEST_KEY))] {
        let flags = FLAG_COMPRESSED | if key.is_some() { FLAG_MAC } else { 0 };
        let mut made = plain[..HEADER_LEN].to_vec();
        made[8..10].copy_from_slice(&FORMAT_VERSION_2.to_le_bytes());
        made[10..12].copy_from_slice(&flags.to_le_bytes());
        made[56..64].copy_from_slice(&(stored.len() as u64).to_le_bytes());
        made[64..].fill(0);
        made.extend_from_slice(stored);
        reseal(&mut made, key);
        if made != bytes {
            return Err("the wrapper's format-2 snapshot differs from the protocol's".into());
        }
    }
    Ok(())
}

/// The offset, in a stored compressed payload, of the high byte of its LZ4 block's first match
/// offset: after the u32 length, the first sequence's token, literal-length bytes and literals.
fn first_match_offset_high_byte(stored: &[u8]) -> Result<usize, String> {
    let block = &stored[4..];
    let mut i = 1;
    let mut literals = (block[0] >> 4) as usize;
    if literals == 15 {
        loop {
            let b = *block.get(i).ok_or("LZ4 block ends in a literal length")?;
            i += 1;
            literals += b as usize;
            if b != 255 {
                break;
            }
        }
    }
    let at = i + literals + 1;
    // The offset must exist and flipping its bit 15 must put it past the output so far.
    if at >= block.len() || literals >= 1 << 15 {
        return Err("the LZ4 block's first sequence has no match".into());
    }
    Ok(4 + at)
}

/// [`reseal`] computes what the wrapper's `seal` writes.
fn reseal_matches_wrapper(plain: &[u8], mac: &[u8]) -> Result<(), String> {
    for (bytes, key) in [(plain, None), (mac, Some(&TEST_KEY))] {
        let mut again = bytes.to_vec();
        again[64..128].fill(0);
        reseal(&mut again, key);
        if again != bytes {
            return Err("the generator's checksum/MAC differs from the wrapper's".to_string());
        }
    }
    Ok(())
}

/// Lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A 32-byte key from 64 hex digits.
pub fn parse_key(text: &str) -> Result<[u8; 32], ConformanceError> {
    if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ConformanceError::BadKey(text.to_string()));
    }
    let mut key = [0; 32];
    for (i, k) in key.iter_mut().enumerate() {
        *k = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).expect("two hex digits");
    }
    Ok(key)
}
