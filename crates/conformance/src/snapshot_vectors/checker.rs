//! The reader's side: every vector of a directory restored as a game would, with its key, level
//! and baseline, and the outcome compared with its manifest's verdict; an accepted world must
//! re-snapshot to the same bytes (in canonical form for the formats whose bytes are not
//! canonical across targets) and step to the manifest's digests.

use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use rapier_pinned::testing::{
    compress_payload, decompress_payload, encode_world, expand_delta, seal_stored,
};
use rapier_pinned::{
    Baseline, Level, LevelId, PhysicsVersion, PinnedWorld, SnapshotHeader, SnapshotKey,
    WorldConfig, FLAG_COMPRESSED, FLAG_MAC, FORMAT_VERSION_3, FORMAT_VERSION_4, HEADER_LEN,
};

use super::header::FLAGS_AT;
use super::manifest::{
    digest, file_path, io, parse_key, read_manifest, version_dir, Vector, MANIFEST,
};
use crate::verdict::{Accept, Expect};
use crate::{ConformanceError, VectorFailure};

/// Checks every vector of `conformance/snapshots/<version>/` against its manifest.
/// Ok((passed, failures)): one human-readable line per failed vector naming the vector, expected and got.
/// Err: the directory or manifest cannot be read/parsed (an error, never a silent pass; an empty manifest is an error too).
pub fn check(version: PhysicsVersion) -> Result<(usize, Vec<String>), ConformanceError> {
    check_dir(&version_dir(version), version)
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
    let fail = |got: VectorFailure| ConformanceError::VectorFailed {
        name: vector.name.clone(),
        expected: expected.clone(),
        got: Box::new(got),
    };
    let config = WorldConfig::new(version)
        .map_err(|e| fail(VectorFailure::NoWorld(e)))?
        .with_match_id(vector.match_id);
    let key = match &vector.key {
        None => None,
        Some(text) => Some(SnapshotKey::new(
            parse_key(text).map_err(|e| fail(VectorFailure::BadKey(Box::new(e))))?,
        )),
    };
    let level_id = match &vector.level_id {
        None => None,
        Some(text) => Some(LevelId(
            parse_key(text).map_err(|e| fail(VectorFailure::BadLevelId(Box::new(e))))?,
        )),
    };
    // The baseline file is a format-1 snapshot: its payload is the baseline.
    let baseline = match baseline {
        None => None,
        Some(file) => Some(Baseline::from_payload(
            file.get(HEADER_LEN..)
                .ok_or_else(|| fail(VectorFailure::ShortBaseline))?
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
            (_, Err(e)) => Err(fail(VectorFailure::Rejected(e))),
            (Expect::Reject(_), Ok(world)) => Err(fail(VectorFailure::AcceptedAt(world.tick()))),
            (Expect::Accept(accept), Ok(world)) => {
                let level = loaded.ok().flatten();
                let held = (level.as_ref(), baseline.as_ref());
                check_accepted(world, accept, bytes, key.as_ref(), held).map_err(fail)
            }
        }
    };
    catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|_| Err(fail(VectorFailure::Panic)))
}

/// The tick, the re-snapshotted bytes and the per-step digests of a restored world.
fn check_accepted(
    mut world: PinnedWorld,
    accept: &Accept,
    bytes: &[u8],
    key: Option<&SnapshotKey>,
    held: (Option<&Level>, Option<&Baseline>),
) -> Result<(), VectorFailure> {
    if world.tick() != accept.tick {
        return Err(VectorFailure::AcceptedAt(world.tick()));
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
            .map_err(VectorFailure::NoSnapshot)?
    } else if let (FORMAT_VERSION_4, Some(baseline)) = (format, held.1) {
        world.snapshot_delta(baseline, key)
    } else {
        seal_stored(
            format,
            flags & FLAG_COMPRESSED,
            SnapshotHeader::new(world.config(), world.tick()),
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
        return Err(VectorFailure::OtherBytes {
            len: again.len(),
            at: again
                .iter()
                .zip(bytes)
                .position(|(a, b)| a != b)
                .unwrap_or(again.len().min(bytes.len())),
        });
    }
    if accept.digests.len() != accept.steps as usize {
        return Err(VectorFailure::DigestCount {
            digests: accept.digests.len(),
            steps: accept.steps,
        });
    }
    for (step, expected) in accept.digests.iter().enumerate() {
        world.step();
        let got = digest(&world);
        if got != *expected {
            return Err(VectorFailure::Digest {
                step: step + 1,
                tick: world.tick(),
                got,
                expected: expected.clone(),
            });
        }
    }
    Ok(())
}

/// A format-2 compressed, format-3 or format-4 snapshot in canonical form: its header with the
/// payload length set to the format-1 payload's, flag bit 1 clear and the checksum and MAC fields
/// zeroed (they cover the stored bytes; the restore verified them), then the format-1 payload.
/// Two such snapshots of the same world at the same tick have the same canonical form whatever
/// encoder wrote them.
fn canonical(
    bytes: &[u8],
    held: (Option<&Level>, Option<&Baseline>),
) -> Result<Vec<u8>, VectorFailure> {
    let format = u16::from_le_bytes([bytes[8], bytes[9]]);
    let expanded = match (format, held.1) {
        (FORMAT_VERSION_3, _) => Some(rapier_pinned::testing::expand_linked(bytes, held.0)),
        (FORMAT_VERSION_4, Some(baseline)) => Some(expand_delta(bytes, baseline)),
        _ => None,
    };
    let payload = if let Some(expanded) = expanded {
        expanded.map_err(VectorFailure::NoExpand)?
    } else {
        decompress_payload(&bytes[HEADER_LEN..]).map_err(VectorFailure::NoDecompress)?
    };
    let mut out = bytes[..HEADER_LEN].to_vec();
    out[56..64].copy_from_slice(&(payload.len() as u64).to_le_bytes());
    out[64..HEADER_LEN].fill(0);
    // How the stored bytes are stored (flag bit 1) is not part of the world.
    out[FLAGS_AT] &= !(FLAG_COMPRESSED as u8);
    out.extend_from_slice(&payload);
    Ok(out)
}
