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
//! Snapshot formats 1 and 2 both have vectors: format 2's (flag bit 1, a compressed payload,
//! `docs/protocol.md` §3.1) are compared, when accepted, in a canonical form over the
//! decompressed payload, since compressed bytes are not canonical across targets.
//!
//! The generator never asks the wrapper which verdict a file gets: rejections are named from the
//! change made to the bytes (`docs/protocol.md` §5), and accepted worlds are continued from the
//! world that was snapshotted (not from a restore) to get the expected per-step digests.

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use rapier3d::prelude::{
    FixedJointBuilder, IntegrationParameters, IslandManager, NarrowPhase, PhysicsWorld,
    RigidBodyHandle, RigidBodySet, Vector as Vec3,
};
use rapier_pinned::testing::{
    compress_payload, decompress_payload, encode_world, seal, seal_stored,
};
use rapier_pinned::{
    PhysicsVersion, PinnedWorld, SnapshotKey, WorldConfig, FLAG_COMPRESSED, FLAG_MAC,
    FORMAT_VERSION_2, HEADER_LEN, PAYLOAD_LIMIT,
};
use serde::{Deserialize, Serialize};

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
    /// The verdict.
    pub expect: Expect,
}

/// The verdict of a vector.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum Expect {
    /// The restore succeeds.
    Accept(Accept),
    /// The restore fails with this `rapier_pinned::ErrorKind` (its Debug name).
    Reject(String),
}

/// What an accepted vector must give.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Accept {
    /// The restored world's tick.
    pub tick: u64,
    /// How many steps to continue.
    pub steps: u32,
    /// The state digest (`rapier_pinned_scenes::state_digest`, 16 hex digits) after each step.
    pub digests: Vec<String>,
}

impl std::fmt::Display for Expect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expect::Accept(a) => write!(f, "accept at tick {} ({} steps checked)", a.tick, a.steps),
            Expect::Reject(kind) => write!(f, "reject {kind}"),
        }
    }
}

/// `conformance/snapshots/<version>/`.
pub fn version_dir(version: u32) -> PathBuf {
    crate::conformance_dir()
        .join("snapshots")
        .join(version.to_string())
}

/// Checks every vector of `conformance/snapshots/<version>/` against its manifest.
/// Ok((passed, failures)): one human-readable line per failed vector naming the vector, expected and got.
/// Err: the directory or manifest cannot be read/parsed (an error, never a silent pass; an empty manifest is an error too).
pub fn check(version: u32) -> Result<(usize, Vec<String>), String> {
    check_dir(&version_dir(version), version)
}

/// Writes the vectors of `version` that do not exist yet; a file that exists must equal the generated bytes exactly,
/// otherwise Err naming the file ("released vector bytes changed"). Returns how many files were written.
pub fn write(version: u32) -> Result<usize, String> {
    write_to(&version_dir(version), version)
}

/// [`check`] of the vectors in `dir`, restored under physics-version `version`. A `.snap` file
/// of `dir` that no vector names is reported as a failure too.
pub fn check_dir(dir: &Path, version: u32) -> Result<(usize, Vec<String>), String> {
    let vectors = read_manifest(dir)?;
    let mut passed = 0;
    let mut failures = Vec::new();
    let mut named = BTreeSet::new();
    for vector in &vectors {
        named.insert(vector.file.clone());
        let outcome = file_path(dir, &vector.file)
            .and_then(|path| {
                std::fs::read(&path)
                    .map_err(|e| format!("{}: cannot read {}: {e}", vector.name, path.display()))
            })
            .and_then(|bytes| check_vector(version, vector, &bytes));
        match outcome {
            Ok(()) => passed += 1,
            Err(line) => failures.push(line),
        }
    }
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut stray = Vec::new();
    for entry in entries {
        let name = entry
            .map_err(|e| format!("{}: {e}", dir.display()))?
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
pub fn read_manifest(dir: &Path) -> Result<Vec<Vector>, String> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let vectors: Vec<Vector> =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if vectors.is_empty() {
        return Err(format!("{}: no vectors", path.display()));
    }
    let mut names = BTreeSet::new();
    for v in &vectors {
        if !names.insert(v.name.as_str()) {
            return Err(format!("{}: vector {} twice", path.display(), v.name));
        }
    }
    Ok(vectors)
}

/// The manifest text of `vectors`: pretty-printed JSON and a final newline.
pub fn manifest_json(vectors: &[Vector]) -> String {
    let mut text = serde_json::to_string_pretty(vectors).expect("vectors serialize");
    text.push('\n');
    text
}

/// `dir/file`, if `file` is a plain file name.
fn file_path(dir: &Path, file: &str) -> Result<PathBuf, String> {
    let plain = !file.is_empty() && file != "." && file != ".." && !file.contains(['/', '\\']);
    if plain {
        Ok(dir.join(file))
    } else {
        Err(format!("file {file:?} is not a plain file name"))
    }
}

/// Restores `bytes` as a game would and compares the outcome with `vector.expect`. Err: one line
/// naming the vector, what was expected and what happened.
pub fn check_vector(version: u32, vector: &Vector, bytes: &[u8]) -> Result<(), String> {
    let expected = &vector.expect;
    let fail = |got: String| format!("{}: expected {expected}, got {got}", vector.name);
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
    let run = || -> Result<(), String> {
        let result = PinnedWorld::restore(config, bytes, key.as_ref());
        match (expected, result) {
            (Expect::Reject(kind), Err(e)) if e.kind().as_str() == kind.as_str() => Ok(()),
            (_, Err(e)) => Err(fail(format!("reject {} ({e})", e.kind()))),
            (Expect::Reject(_), Ok(world)) => Err(fail(format!("accept at tick {}", world.tick()))),
            (Expect::Accept(accept), Ok(world)) => {
                check_accepted(world, accept, bytes, key.as_ref()).map_err(fail)
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
    let remade = seal_stored(
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
    );
    let (again, canonical_file);
    let bytes = if compressed {
        again = canonical(&remade)?;
        canonical_file = canonical(bytes)?;
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

/// A format-2 compressed snapshot in canonical form: its header with the payload length set to
/// the uncompressed length and the checksum and MAC fields zeroed (they cover the compressed
/// bytes; the restore verified them), then the decompressed payload. Two compressed snapshots of
/// the same world at the same tick have the same canonical form whatever encoder compressed them.
fn canonical(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let payload = decompress_payload(&bytes[HEADER_LEN..])
        .map_err(|e| format!("accept, but the payload does not decompress: {e}"))?;
    let mut out = bytes[..HEADER_LEN].to_vec();
    out[56..64].copy_from_slice(&(payload.len() as u64).to_le_bytes());
    out[64..HEADER_LEN].fill(0);
    out.extend_from_slice(&payload);
    Ok(out)
}

/// Writes the vectors of `version` into `dir` (see [`write`]). The manifest may gain vectors but
/// none that it lists may change or go. Everything is compared before anything is written.
pub fn write_to(dir: &Path, version: u32) -> Result<usize, String> {
    let generated = generate(version)?;
    let mut files = BTreeMap::new();
    for (vector, bytes) in &generated {
        files.insert(vector.file.as_str(), bytes.as_slice());
    }
    let mut missing = Vec::new();
    for (file, bytes) in files {
        let path = file_path(dir, file)?;
        match std::fs::read(&path) {
            Ok(stored) if stored == bytes => {}
            Ok(_) => {
                return Err(format!(
                    "{}: released vector bytes changed (the generator no longer makes the stored \
                     bytes; a released physics-version's vectors never change)",
                    path.display()
                ))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => missing.push((path, bytes)),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        }
    }
    let vectors: Vec<Vector> = generated.iter().map(|(v, _)| v.clone()).collect();
    let text = manifest_json(&vectors);
    let manifest = dir.join(MANIFEST);
    let manifest_changes = match std::fs::read_to_string(&manifest) {
        Ok(stored) if stored == text => false,
        Ok(stored) => {
            let stored: Vec<Vector> = serde_json::from_str(&stored)
                .map_err(|e| format!("{}: {e}", manifest.display()))?;
            if let Some(old) = stored.iter().find(|old| !vectors.contains(old)) {
                return Err(format!(
                    "{}: released vector {} changed or removed (a released physics-version's \
                     vectors never change)",
                    manifest.display(),
                    old.name
                ));
            }
            true
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => true,
        Err(e) => return Err(format!("{}: {e}", manifest.display())),
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut written = 0;
    for (path, bytes) in missing {
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        written += 1;
    }
    if manifest_changes {
        std::fs::write(&manifest, text).map_err(|e| format!("{}: {e}", manifest.display()))?;
        written += 1;
    }
    Ok(written)
}

/// Every vector of `version` with its file's bytes, in manifest order (vectors sharing a file
/// carry the same bytes).
pub fn generate(version: u32) -> Result<Vec<(Vector, Vec<u8>)>, String> {
    let config = WorldConfig::new(version)
        .map_err(|e| format!("physics-version {version}: {e}"))?
        .with_match_id(MATCH_ID);
    let other = other_version(version);
    let other_config = WorldConfig::new(other)
        .map_err(|e| format!("physics-version {other} (the other version): {e}"))?
        .with_match_id(MATCH_ID);
    let digest = config.digest();
    let key = SnapshotKey::new(TEST_KEY);
    let mut out = Vectors::default();

    // The world every vector is made from, and what continuing it gives.
    let world = ball_drop(config, TICK)?;
    let plain = world.snapshot(None);
    let mac = world.snapshot(Some(&key));
    let compressed = world.snapshot_compressed(None);
    let compressed_mac = world.snapshot_compressed(Some(&key));
    let payload = encode_world(world.world());
    let accepted = accept(world);
    reseal_matches_wrapper(&plain, &mac)?;

    let k = Some(&TEST_KEY);
    let plain_file = "accept.snap";
    let mac_file = "accept_mac.snap";
    out.add(
        "accept",
        "ball_drop after 30 steps, snapshotted unauthenticated: nothing changed.",
        plain_file,
        MATCH_ID,
        None,
        accepted.clone(),
        &plain,
    );
    out.add(
        "accept_mac",
        "ball_drop after 30 steps, snapshotted with the test key (MAC flag set), restored with the test key.",
        mac_file,
        MATCH_ID,
        k,
        accepted.clone(),
        &mac,
    );
    out.add(
        "accept_mac_without_key",
        "The authenticated snapshot of accept_mac restored without a key: only the checksum is verified, the MAC is not.",
        mac_file,
        MATCH_ID,
        None,
        accepted.clone(),
        &mac,
    );
    let fresh = ball_drop(config, 0)?;
    let fresh_bytes = fresh.snapshot(None);
    out.add(
        "accept_tick_0",
        "ball_drop as adopted, before its first step (tick 0), snapshotted unauthenticated.",
        "accept_tick_0.snap",
        MATCH_ID,
        None,
        accept(fresh),
        &fresh_bytes,
    );
    let wide = ball_drop(config.with_match_id(WIDE_MATCH_ID), TICK)?;
    let wide_bytes = wide.snapshot(None);
    out.add(
        "accept_wide_match_id",
        "ball_drop after 30 steps in match 0x00123456789abcde (the config digest hashes all 8 bytes of the match id, little-endian).",
        "accept_wide_match_id.snap",
        WIDE_MATCH_ID,
        None,
        accept(wide),
        &wide_bytes,
    );

    // Framing: checks 1-5.
    out.reject("empty", "A file of zero bytes.", &[], "Truncated");
    out.reject(
        "truncated_magic_prefix",
        "The first 5 bytes of accept.snap (a correct prefix of the magic, too short for a header).",
        &plain[..5],
        "Truncated",
    );
    let mut bytes = plain.clone();
    bytes[0] = b'X';
    out.reject(
        "bad_magic",
        "accept.snap with its first byte changed from 'R' to 'X'.",
        &bytes,
        "BadMagic",
    );
    out.reject(
        "truncated_header",
        "The first 100 bytes of accept.snap.",
        &plain[..100],
        "Truncated",
    );
    let mut bytes = plain.clone();
    bytes[8..10].copy_from_slice(&0u16.to_le_bytes());
    reseal(&mut bytes, None);
    out.reject(
        "unknown_format_version",
        "accept.snap with the format version set to 0, which is never a format, checksum recomputed.",
        &bytes,
        "UnknownFormatVersion",
    );
    let mut bytes = plain.clone();
    bytes[10..12].copy_from_slice(&FLAG_COMPRESSED.to_le_bytes());
    reseal(&mut bytes, None);
    out.reject(
        "unknown_flags_compressed",
        "accept.snap with flag bit 1 (reserved: compressed payload) set, checksum recomputed.",
        &bytes,
        "UnknownFlags",
    );
    let mut bytes = plain.clone();
    bytes[10..12].copy_from_slice(&0x8000u16.to_le_bytes());
    reseal(&mut bytes, None);
    out.reject(
        "unknown_flags_high_bit",
        "accept.snap with flag bit 15 set, checksum recomputed.",
        &bytes,
        "UnknownFlags",
    );
    let mut bytes = plain.clone();
    bytes[96..128].copy_from_slice(&mac[96..128]);
    out.reject(
        "stray_mac",
        "accept.snap (MAC flag clear) with accept_mac.snap's MAC copied into its MAC field (the checksum does not cover that field, so it stays valid).",
        &bytes,
        "StrayMac",
    );

    // Versions and config: checks 6-7.
    let other_world = ball_drop(other_config, TICK)?;
    let other_bytes = other_world.snapshot(None);
    let other_payload = encode_world(other_world.world());
    out.reject(
        "physics_version_mismatch",
        &format!(
            "A genuine snapshot of ball_drop after 30 steps under physics-version {other} (same match), restored into a version-{version} world."
        ),
        &other_bytes,
        "PhysicsVersionMismatch",
    );
    out.reject(
        "unknown_physics_version",
        "accept.snap's payload sealed (valid checksum) with physics-version 0, which is never released.",
        &seal(0, TICK, digest, &payload, None),
        "UnknownPhysicsVersion",
    );
    out.add(
        "config_digest_mismatch",
        "accept.snap (match 7) restored into a world of match 8.",
        plain_file,
        MATCH_ID + 1,
        None,
        Expect::Reject("ConfigDigestMismatch".to_string()),
        &plain,
    );

    // Lengths: check 8.
    let mut bytes = plain.clone();
    bytes[56..64].copy_from_slice(&(PAYLOAD_LIMIT + 1).to_le_bytes());
    reseal(&mut bytes, None);
    out.reject(
        "payload_too_large",
        "accept.snap with the payload length field set to 2^30 + 1, checksum recomputed.",
        &bytes,
        "PayloadTooLarge",
    );
    let mut bytes = plain.clone();
    bytes[56..64].copy_from_slice(&PAYLOAD_LIMIT.to_le_bytes());
    reseal(&mut bytes, None);
    out.reject(
        "payload_length_at_limit",
        "accept.snap with the payload length field set to 2^30 (allowed, but more than the bytes present), checksum recomputed.",
        &bytes,
        "Truncated",
    );
    out.reject(
        "truncated_payload",
        "accept.snap without its last byte.",
        &plain[..plain.len() - 1],
        "Truncated",
    );
    let mut bytes = plain.clone();
    bytes.push(0);
    out.reject(
        "trailing_bytes",
        "accept.snap with one zero byte appended.",
        &bytes,
        "TrailingBytes",
    );

    // Integrity: check 9.
    let mut bytes = plain.clone();
    let middle = HEADER_LEN + payload.len() / 2;
    bytes[middle] ^= 0x01;
    out.reject(
        "checksum_mismatch_payload",
        &format!("accept.snap with bit 0 of byte {middle} (in the payload) flipped."),
        &bytes,
        "ChecksumMismatch",
    );
    let mut bytes = plain.clone();
    bytes[16..24].copy_from_slice(&(TICK + 1).to_le_bytes());
    out.reject(
        "checksum_mismatch_tick",
        "accept.snap with the tick field changed from 30 to 31 (the checksum covers the header).",
        &bytes,
        "ChecksumMismatch",
    );

    // Authentication: check 10.
    out.add(
        "mac_missing",
        "accept.snap (unauthenticated) restored with the test key.",
        plain_file,
        MATCH_ID,
        k,
        Expect::Reject("MacMissing".to_string()),
        &plain,
    );
    out.add(
        "mac_mismatch_wrong_key",
        "accept_mac.snap (made with the test key) restored with another key, 20 21 .. 3f.",
        mac_file,
        MATCH_ID,
        Some(&OTHER_KEY),
        Expect::Reject("MacMismatch".to_string()),
        &mac,
    );
    let mut bytes = mac.clone();
    bytes[96] ^= 0x01;
    out.reject_with_key(
        "mac_mismatch_flipped_mac",
        "accept_mac.snap with bit 0 of the MAC's first byte (offset 96) flipped, restored with the test key.",
        &bytes,
        "MacMismatch",
    );
    let mut forged_world = decode(&payload)?;
    let ball = first_body(&forged_world)?;
    forged_world.bodies[ball].set_linvel(Vec3::new(0.0, 5.0, 0.0), true);
    let forged_payload = encode_world(&forged_world);
    let mut forged = mac.clone();
    forged.truncate(HEADER_LEN);
    forged.extend_from_slice(&forged_payload);
    forged[56..64].copy_from_slice(&(forged_payload.len() as u64).to_le_bytes());
    reseal(&mut forged, None);
    let forged_file = "forged_checksum.snap";
    out.add(
        "forged_checksum_with_key",
        "accept_mac.snap with the ball's linear velocity set to 5 m/s up in the payload, the length field and checksum recomputed and the old MAC kept, restored with the test key.",
        forged_file,
        MATCH_ID,
        k,
        Expect::Reject("MacMismatch".to_string()),
        &forged,
    );
    let forged_adopted = PinnedWorld::adopt(config, decode(&forged_payload)?)
        .map_err(|e| format!("the forged world cannot be adopted: {e}"))?;
    let mut forged_accept = accept(forged_adopted);
    if let Expect::Accept(a) = &mut forged_accept {
        a.tick = TICK;
    }
    out.add(
        "forged_checksum_without_key",
        "The forged snapshot of forged_checksum_with_key restored without a key: its checksum is valid, so the changed world is accepted.",
        forged_file,
        MATCH_ID,
        None,
        forged_accept,
        &forged,
    );

    // Decoding: check 11.
    let sealed = |p: &[u8]| seal(version, TICK, digest, p, None);
    out.reject(
        "undecodable_empty_payload",
        "A valid header (checksum included) with a payload of zero bytes.",
        &sealed(&[]),
        "Undecodable",
    );
    out.reject(
        "undecodable_garbage",
        "A valid header (checksum included) over a payload of 64 bytes 0xff.",
        &sealed(&[0xff; 64]),
        "Undecodable",
    );
    out.reject(
        "undecodable_cut_short",
        "accept.snap's payload without its last 10 bytes, sealed with a valid checksum.",
        &sealed(&payload[..payload.len() - 10]),
        "Undecodable",
    );
    let policy_at = 12
        + bincode::serialize(&IntegrationParameters::default())
            .map_err(|e| e.to_string())?
            .len()
        - 1;
    let policy = config.params().ccd_persistent_contact_policy as u8;
    if payload[policy_at] != policy {
        return Err(format!(
            "payload byte {policy_at} is {}, not the CCD persistent-contact policy {policy}",
            payload[policy_at]
        ));
    }
    let mut p = payload.clone();
    p[policy_at] = 9;
    out.reject(
        "undecodable_bad_enum",
        &format!(
            "accept.snap's payload with byte {policy_at} (ccd_persistent_contact_policy, the last integration parameter, {policy} here) set to 9, which is no variant, sealed with a valid checksum."
        ),
        &sealed(&p),
        "Undecodable",
    );

    // Parameters and gravity: check 12.
    let mut w = decode(&payload)?;
    w.integration_parameters.dt = 1.0 / 30.0;
    out.reject(
        "config_mismatch_dt",
        "accept.snap's world with integration parameter dt set to 1/30, re-encoded and sealed with a valid checksum.",
        &sealed(&encode_world(&w)),
        "ConfigMismatch",
    );
    let mut w = decode(&payload)?;
    w.gravity[1] = -9.8;
    out.reject(
        "config_mismatch_gravity",
        "accept.snap's world with gravity.y set to -9.8, re-encoded and sealed with a valid checksum.",
        &sealed(&encode_world(&w)),
        "ConfigMismatch",
    );
    out.reject(
        "config_mismatch_other_version_params",
        &format!(
            "The payload of physics_version_mismatch (a version-{other} world) sealed as version {version} of match 7 with a valid checksum: the two CCD parameters differ."
        ),
        &sealed(&other_payload),
        "ConfigMismatch",
    );

    // Structure: check 13.
    let mut w = decode(&payload)?;
    w.bodies = RigidBodySet::new();
    out.reject(
        "structural_dangling_parent",
        "accept.snap's world with every rigid body removed from the body set (the ball's collider keeps its parent handle), sealed with a valid checksum.",
        &sealed(&encode_world(&w)),
        "Structural",
    );
    let mut w = decode(&payload)?;
    let collider = ball_collider(&w)?;
    let PhysicsWorld {
        colliders,
        islands,
        soft_bodies,
        ..
    } = &mut w;
    // Removed against an empty body set: the ball keeps listing the collider.
    colliders.remove(
        collider,
        islands,
        &mut RigidBodySet::new(),
        soft_bodies,
        false,
    );
    out.reject(
        "structural_body_lists_missing_collider",
        "accept.snap's world with the ball's collider removed from the collider set while the ball still lists it, sealed with a valid checksum.",
        &sealed(&encode_world(&w)),
        "Structural",
    );
    let mut w = decode(&payload)?;
    let ball = first_body(&w)?;
    w.impulse_joints.insert(
        ball,
        RigidBodyHandle::from_raw_parts(1, 0),
        FixedJointBuilder::new(),
        false,
    );
    out.reject(
        "structural_dangling_joint",
        "accept.snap's world with a fixed impulse joint from the ball to body handle (index 1, generation 0), which does not exist, sealed with a valid checksum.",
        &sealed(&encode_world(&w)),
        "Structural",
    );
    let mut w = decode(&payload)?;
    let ball = first_body(&w)?;
    w.multibody_joints.insert(
        ball,
        RigidBodyHandle::from_raw_parts(1, 0),
        FixedJointBuilder::new(),
        false,
    );
    out.reject(
        "structural_dangling_multibody_link",
        "accept.snap's world with a fixed multibody joint from the ball to body handle (index 1, generation 0), which does not exist, sealed with a valid checksum.",
        &sealed(&encode_world(&w)),
        "Structural",
    );
    let mut w = decode(&payload)?;
    let collider = ball_collider(&w)?;
    let PhysicsWorld {
        colliders,
        islands,
        bodies,
        soft_bodies,
        ..
    } = &mut w;
    // Removed properly from the sets, but the narrow phase keeps its contact pair with the ground.
    colliders.remove(collider, islands, bodies, soft_bodies, false);
    if w.narrow_phase.contact_pairs().count() == 0 {
        return Err("ball_drop has no contact pair at the snapshot's tick".to_string());
    }
    out.reject(
        "structural_dangling_contact_pair",
        "accept.snap's world with the ball's collider removed from the collider set and the ball, while the narrow phase keeps its contact pair with the ground, sealed with a valid checksum.",
        &sealed(&encode_world(&w)),
        "Structural",
    );
    let mut w = decode(&payload)?;
    let ball = first_body(&w)?;
    let PhysicsWorld {
        colliders,
        bodies,
        impulse_joints,
        multibody_joints,
        soft_bodies,
        ..
    } = &mut w;
    // Removed against an empty island manager: the world's active set keeps the ball.
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
    out.reject(
        "structural_dangling_active_body",
        "accept.snap's world with the ball and its collider removed and the narrow phase emptied, while the island manager's active set still holds the ball, sealed with a valid checksum.",
        &sealed(&encode_world(&w)),
        "Structural",
    );

    // Finiteness: check 14.
    let mut w = decode(&payload)?;
    let ball = first_body(&w)?;
    w.bodies[ball].set_translation(Vec3::new(f32::NAN, 0.0, 0.0), false);
    out.reject(
        "non_finite_translation",
        "accept.snap's world with the ball's translation set to (NaN, 0, 0), sealed with a valid checksum.",
        &sealed(&encode_world(&w)),
        "NonFinite",
    );
    let mut w = decode(&payload)?;
    let ball = first_body(&w)?;
    w.bodies[ball].set_linvel(Vec3::new(0.0, f32::INFINITY, 0.0), false);
    out.reject(
        "non_finite_velocity",
        "accept.snap's world with the ball's linear velocity set to (0, +inf, 0), sealed with a valid checksum.",
        &sealed(&encode_world(&w)),
        "NonFinite",
    );

    // Format 2, compressed payload (flag bit 1): decompressed after checks 1-10, check 11.1.
    let stored = compress_payload(&payload);
    format2_matches_wrapper(&plain, &stored, &compressed, &compressed_mac)?;
    out.add(
        "accept_compressed",
        "ball_drop after 30 steps, snapshotted compressed: format 2, flags 0x0002, payload = uncompressed length (u32 LE) then one LZ4 block.",
        "accept_compressed.snap",
        MATCH_ID,
        None,
        accepted.clone(),
        &compressed,
    );
    out.add(
        "accept_compressed_mac",
        "ball_drop after 30 steps, snapshotted compressed with the test key (flags 0x0003; checksum and MAC over the compressed bytes), restored with the test key.",
        "accept_compressed_mac.snap",
        MATCH_ID,
        k,
        accepted.clone(),
        &compressed_mac,
    );
    let mut bytes = plain.clone();
    bytes[8..10].copy_from_slice(&FORMAT_VERSION_2.to_le_bytes());
    reseal(&mut bytes, None);
    out.add(
        "accept_format2_uncompressed",
        "accept.snap with the format version set to 2 and flag bit 1 clear (the payload stored as it is), checksum recomputed.",
        "accept_format2_uncompressed.snap",
        MATCH_ID,
        None,
        accepted.clone(),
        &bytes,
    );
    out.add(
        "compressed_mac_missing",
        "accept_compressed.snap (unauthenticated) restored with the test key.",
        "accept_compressed.snap",
        MATCH_ID,
        k,
        Expect::Reject("MacMissing".to_string()),
        &compressed,
    );
    let mut bytes = compressed.clone();
    bytes[10..12].copy_from_slice(&(FLAG_COMPRESSED | 1 << 2).to_le_bytes());
    reseal(&mut bytes, None);
    out.reject(
        "unknown_flags_format2_bit2",
        "accept_compressed.snap with flag bit 2 set as well (flags 0x0006), checksum recomputed: format 2 defines bits 0 and 1 only.",
        &bytes,
        "UnknownFlags",
    );
    let mut bytes = compressed.clone();
    let middle = HEADER_LEN + stored.len() / 2;
    bytes[middle] ^= 0x01;
    out.reject(
        "checksum_mismatch_compressed",
        &format!("accept_compressed.snap with bit 0 of byte {middle} (in the compressed payload) flipped: the checksum covers the stored bytes and is checked before decompressing."),
        &bytes,
        "ChecksumMismatch",
    );
    // A compressed snapshot whose stored payload is `stored`, length and checksum recomputed.
    let with_stored = |stored: &[u8]| {
        let mut bytes = compressed[..HEADER_LEN].to_vec();
        bytes[56..64].copy_from_slice(&(stored.len() as u64).to_le_bytes());
        bytes.extend_from_slice(stored);
        reseal(&mut bytes, None);
        bytes
    };
    let with_stated = |stated: u32| {
        let mut s = stored.clone();
        s[..4].copy_from_slice(&stated.to_le_bytes());
        with_stored(&s)
    };
    out.reject(
        "compressed_no_length_prefix",
        "accept_compressed.snap's payload cut to its first 3 bytes (shorter than the 4-byte uncompressed length), length field and checksum recomputed.",
        &with_stored(&stored[..3]),
        "Decompression",
    );
    out.reject(
        "compressed_truncated_stream",
        "accept_compressed.snap's payload without the last 8 bytes of its LZ4 block, length field and checksum recomputed.",
        &with_stored(&stored[..stored.len() - 8]),
        "Decompression",
    );
    out.reject(
        "compressed_length_over_limit",
        "accept_compressed.snap with the stated uncompressed length set to 2^30 + 1, checksum recomputed: refused before anything is allocated.",
        &with_stated(PAYLOAD_LIMIT as u32 + 1),
        "PayloadTooLarge",
    );
    let block = stored.len() - 4;
    out.reject(
        "compressed_length_beyond_block",
        &format!("accept_compressed.snap with the stated uncompressed length set to 2^30 (within the limit, but more than 255 x the {block}-byte LZ4 block can expand to), checksum recomputed: refused before anything is allocated."),
        &with_stated(PAYLOAD_LIMIT as u32),
        "Decompression",
    );
    let n = payload.len() as u32;
    out.reject(
        "compressed_length_one_more",
        &format!("accept_compressed.snap with the stated uncompressed length {} instead of {n}, checksum recomputed: the block decompresses to fewer bytes than stated.", n + 1),
        &with_stated(n + 1),
        "Decompression",
    );
    out.reject(
        "compressed_length_one_less",
        &format!("accept_compressed.snap with the stated uncompressed length {} instead of {n}, checksum recomputed: the block decompresses to more bytes than stated.", n - 1),
        &with_stated(n - 1),
        "Decompression",
    );
    let at = first_match_offset_high_byte(&stored)?;
    let mut s = stored.clone();
    s[at] ^= 0x80;
    out.reject(
        "compressed_bit_flip_offset",
        &format!("accept_compressed.snap with bit 7 of payload byte {at} flipped (the high byte of the LZ4 block's first match offset, which then points before the start of the output), checksum recomputed."),
        &with_stored(&s),
        "Decompression",
    );
    out.reject(
        "compressed_undecodable",
        "A format-2 compressed snapshot (valid checksum) whose payload is a valid LZ4 block of 64 bytes 0xff: it decompresses, then does not decode.",
        &with_stored(&compress_payload(&[0xff; 64])),
        "Undecodable",
    );

    out.finish()
}

/// The vectors being generated.
#[derive(Default)]
struct Vectors(Vec<(Vector, Vec<u8>)>);

impl Vectors {
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        name: &str,
        about: &str,
        file: &str,
        match_id: u64,
        key: Option<&[u8; 32]>,
        expect: Expect,
        bytes: &[u8],
    ) {
        let vector = Vector {
            name: name.to_string(),
            about: about.to_string(),
            file: file.to_string(),
            match_id,
            key: key.map(|k| hex(k)),
            expect,
        };
        self.0.push((vector, bytes.to_vec()));
    }

    /// A rejected vector in its own file `<name>.snap`, restored without a key.
    fn reject(&mut self, name: &str, about: &str, bytes: &[u8], kind: &str) {
        let expect = Expect::Reject(kind.to_string());
        let file = format!("{name}.snap");
        self.add(name, about, &file, MATCH_ID, None, expect, bytes);
    }

    /// A rejected vector in its own file, restored with the test key.
    fn reject_with_key(&mut self, name: &str, about: &str, bytes: &[u8], kind: &str) {
        let expect = Expect::Reject(kind.to_string());
        let file = format!("{name}.snap");
        self.add(name, about, &file, MATCH_ID, Some(&TEST_KEY), expect, bytes);
    }

    /// The vectors, after checking that names are unique and shared files have the same bytes.
    fn finish(self) -> Result<Vec<(Vector, Vec<u8>)>, String> {
        let mut names = BTreeSet::new();
        let mut files: BTreeMap<&str, &[u8]> = BTreeMap::new();
        for (v, bytes) in &self.0 {
            if !names.insert(v.name.as_str()) {
                return Err(format!("vector {} generated twice", v.name));
            }
            if let Some(other) = files.insert(v.file.as_str(), bytes) {
                if other != bytes.as_slice() {
                    return Err(format!("file {} generated with two contents", v.file));
                }
            }
        }
        Ok(self.0)
    }
}

/// The released version a mismatch vector of `version` is made with: version 1 uses 2, every
/// later version the one before it.
fn other_version(version: PhysicsVersion) -> PhysicsVersion {
    if version == 1 {
        2
    } else {
        version - 1
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
fn accept(mut world: PinnedWorld) -> Expect {
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
pub fn parse_key(text: &str) -> Result<[u8; 32], String> {
    if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("{text:?} is not 64 hex digits"));
    }
    let mut key = [0; 32];
    for (i, k) in key.iter_mut().enumerate() {
        *k = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).map_err(|e| e.to_string())?;
    }
    Ok(key)
}
