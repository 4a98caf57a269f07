//! The snapshot format: a fixed 128-byte little-endian header, then the payload (the world in the
//! codec's encoding, stored as it is or compressed). Specified byte by byte in `docs/protocol.md`.
//!
//! | offset | size | field |
//! |---:|---:|---|
//! | 0 | 8 | magic `RPINSNAP` |
//! | 8 | 2 | format version: 1, 2, 3 or 4 |
//! | 10 | 2 | flags: bit 0 MAC present; bit 1 (formats 2-4) payload compressed; every other bit refused |
//! | 12 | 4 | physics-version |
//! | 16 | 8 | tick |
//! | 24 | 32 | config digest |
//! | 56 | 8 | payload length (the stored bytes: compressed when bit 1 is set) |
//! | 64 | 32 | checksum: BLAKE3 of (header with checksum and MAC zeroed) ‖ stored payload |
//! | 96 | 32 | MAC: BLAKE3 keyed by the fleet key over the same bytes; zero if unauthenticated |
//!
//! A compressed payload is the uncompressed length (u32 little-endian) followed by one LZ4 block;
//! it is decompressed, bounded, after the checksum and the MAC have verified the stored bytes.
//! A format-3 payload is the 32-byte id of the level it refers to (zero: none), then the linked
//! record stream ([`crate::link`]), compressed the same way when bit 1 is set. A format-4 payload
//! (a delta) is the same with the 32-byte id of the baseline it is written against.

use crate::baseline::{Baseline, BaselineId};
use crate::codec;
use crate::config::{self, WorldConfig};
use crate::error::Error;
use crate::format::{
    FLAG_COMPRESSED, FLAG_MAC, FORMAT_VERSION, FORMAT_VERSION_2, FORMAT_VERSION_3,
    FORMAT_VERSION_4, HEADER_LEN, MAGIC, PAYLOAD_LIMIT,
};
use crate::level::{Level, LevelId};
use crate::link::{self, ExpandError, LinkError, Pattern, Refs};
use crate::panic::catch_panic;
use crate::validate;
use crate::version::{self, PhysicsVersion};
use rapier3d::prelude::{IntegrationParameters, PhysicsWorld, Vector};

/// The flags a format version defines (none for a format this build does not read).
fn flags_known(format_version: u16) -> u16 {
    match format_version {
        FORMAT_VERSION => FLAG_MAC,
        FORMAT_VERSION_2 | FORMAT_VERSION_3 | FORMAT_VERSION_4 => FLAG_MAC | FLAG_COMPRESSED,
        _ => 0,
    }
}
const CHECKSUM: std::ops::Range<usize> = 64..96;
const MAC: std::ops::Range<usize> = 96..128;
/// Bytes of the id a format-3 payload (its level's) or a format-4 payload (its baseline's)
/// starts with.
const ID_LEN: usize = 32;

/// A 32-byte fleet key for the snapshot MAC. Its `Debug` does not print the key.
#[derive(Clone)]
pub struct SnapshotKey([u8; 32]);

impl SnapshotKey {
    /// The key with these bytes.
    pub fn new(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// The key's bytes, for the crate's other MACs (replay files).
    pub(crate) fn bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl std::fmt::Debug for SnapshotKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SnapshotKey(..)")
    }
}

/// What a snapshot's header says of the world it holds (the other fields frame the payload):
/// what every `seal*` function writes, and [`SnapshotInfo::header`] reads back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SnapshotHeader {
    /// The physics-version (possibly one this build does not know, when read).
    pub physics_version: PhysicsVersion,
    /// The tick (steps taken by the world).
    pub tick: u64,
    /// The config digest.
    pub config_digest: [u8; 32],
}

impl SnapshotHeader {
    /// The header of a snapshot of a world under `config` at `tick`.
    pub fn new(config: &WorldConfig, tick: u64) -> Self {
        Self {
            physics_version: config.physics_version(),
            tick,
            config_digest: config.digest(),
        }
    }
}

/// The header of a snapshot whose framing and checksum are valid (see [`inspect`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotInfo {
    /// The snapshot format version (1, 2, 3 or 4).
    pub format_version: u16,
    /// The flags.
    pub flags: u16,
    /// Whether the MAC flag is set (the MAC itself is only checked by a restore with a key).
    pub authenticated: bool,
    /// Whether the payload is stored compressed (formats 2-4, flag bit 1). [`inspect`] does
    /// not decompress it: a restore does.
    pub compressed: bool,
    /// The level a format-3 snapshot refers to (`None`: no level, or format 1 or 2). Read by
    /// [`inspect`] from the stored payload's first 32 bytes.
    pub level: Option<LevelId>,
    /// The baseline a format-4 snapshot (a delta) is written against (`None` for formats 1-3).
    /// Read by [`inspect`] from the stored payload's first 32 bytes.
    pub baseline: Option<BaselineId>,
    /// The physics-version, tick and config digest.
    pub header: SnapshotHeader,
    /// The payload length in bytes, as stored (compressed when [`Self::compressed`]).
    pub payload_len: u64,
    /// The checksum.
    pub checksum: [u8; 32],
}

/// Frames `payload` as a format-1 snapshot: header, checksum, and a MAC when `key` is given.
///
/// Low level (used by [`crate::PinnedWorld::snapshot`], the upstream import and tests): it does
/// not look at the payload; a restore still validates everything.
pub fn seal(header: SnapshotHeader, payload: &[u8], key: Option<&SnapshotKey>) -> Vec<u8> {
    seal_stored(FORMAT_VERSION, 0, header, payload, key)
}

/// Frames `payload` (the uncompressed world encoding) as a format-2 snapshot with its payload
/// compressed ([`compress_payload`]): header with flag bit 1, checksum and MAC over the stored,
/// compressed bytes.
///
/// Low level, like [`seal`]: used by [`crate::PinnedWorld::snapshot_compressed`] and tests.
pub fn seal_compressed(
    header: SnapshotHeader,
    payload: &[u8],
    key: Option<&SnapshotKey>,
) -> Vec<u8> {
    seal_stored(
        FORMAT_VERSION_2,
        FLAG_COMPRESSED,
        header,
        &compress_payload(payload),
        key,
    )
}

/// Frames `stored` verbatim after a header of `format_version` with `flags` (the MAC flag is set
/// when `key` is given, whatever `flags` says), with its checksum and MAC.
///
/// Lowest level, for tests and conformance vectors: it writes any format version and flags,
/// including ones every reader refuses, and does not look at `stored`.
pub fn seal_stored(
    format_version: u16,
    flags: u16,
    header: SnapshotHeader,
    stored: &[u8],
    key: Option<&SnapshotKey>,
) -> Vec<u8> {
    let flags = match key {
        Some(_) => flags | FLAG_MAC,
        None => flags & !FLAG_MAC,
    };
    let mut out = Vec::with_capacity(HEADER_LEN + stored.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&format_version.to_le_bytes());
    out.extend_from_slice(&flags.to_le_bytes());
    out.extend_from_slice(&header.physics_version.get().to_le_bytes());
    out.extend_from_slice(&header.tick.to_le_bytes());
    out.extend_from_slice(&header.config_digest);
    out.extend_from_slice(&(stored.len() as u64).to_le_bytes());
    out.extend_from_slice(&[0; 64]);
    out.extend_from_slice(stored);
    let checksum = checksum(&out);
    out[CHECKSUM].copy_from_slice(checksum.as_bytes());
    if let Some(key) = key {
        let mac = mac(&out, key);
        out[MAC].copy_from_slice(mac.as_bytes());
    }
    out
}

/// Frames `payload` (the format-1 world encoding) as a format-3 snapshot: the id of `level` (zero
/// without one), then the payload as a record stream in which every occurrence of a level shape
/// and every repeat of a `shared` shape is a reference ([`crate::link`]), LZ4-compressed (flag
/// bit 1); checksum and MAC over the stored bytes.
///
/// Low level, like [`seal`]: used by [`crate::PinnedWorld::snapshot_linked`] and tests.
pub fn seal_linked(
    header: SnapshotHeader,
    payload: &[u8],
    level: Option<&Level>,
    shared: &[Vec<u8>],
    key: Option<&SnapshotKey>,
) -> Vec<u8> {
    let level_shapes = level.map(Level::shape_bytes).unwrap_or_default();
    let patterns: Vec<Pattern<'_>> = (level_shapes.iter().enumerate())
        .map(|(i, bytes)| Pattern {
            bytes,
            source: link::Source::Level(i as u32),
        })
        .chain(shared.iter().map(|bytes| Pattern {
            bytes,
            source: link::Source::Shared,
        }))
        .collect();
    let id = level.map_or([0; ID_LEN], |l| l.id().0);
    let stream = link::link(payload, &patterns);
    seal_records(FORMAT_VERSION_3, header, id, &stream, key)
}

/// Frames `payload` (the format-1 world encoding) as a format-4 snapshot, a delta: the id of
/// `baseline`, then the payload as a record stream of literal, baseline and XOR records against
/// the baseline's payload ([`crate::link`]), LZ4-compressed (flag bit 1); checksum and MAC over
/// the stored bytes.
///
/// Low level, like [`seal`]: used by [`crate::PinnedWorld::snapshot_delta`] and tests.
pub fn seal_delta(
    header: SnapshotHeader,
    payload: &[u8],
    baseline: &Baseline,
    key: Option<&SnapshotKey>,
) -> Vec<u8> {
    let stream = link::delta(payload, baseline.payload(), baseline.index());
    seal_records(FORMAT_VERSION_4, header, baseline.id().0, &stream, key)
}

/// A format-3 or format-4 snapshot with `header`: the 32-byte `id` of what its records refer
/// to, then the record `stream` LZ4-compressed (flag bit 1), as [`linked_payload`] reads it back.
fn seal_records(
    format_version: u16,
    header: SnapshotHeader,
    id: [u8; ID_LEN],
    stream: &[u8],
    key: Option<&SnapshotKey>,
) -> Vec<u8> {
    let mut stored = id.to_vec();
    stored.extend_from_slice(&codec::compress(stream));
    seal_stored(format_version, FLAG_COMPRESSED, header, &stored, key)
}

/// The stored form of a compressed payload (format 2, flag bit 1): the uncompressed length as a
/// u32 little-endian, then one LZ4 block (`docs/protocol.md` §3.1). `payload` must be at most
/// [`PAYLOAD_LIMIT`] bytes.
pub fn compress_payload(payload: &[u8]) -> Vec<u8> {
    codec::compress(payload)
}

/// The payload a stored compressed payload holds, with the bounds a restore applies (check 11.1
/// of `docs/protocol.md` §5): a stated uncompressed length over [`PAYLOAD_LIMIT`] is
/// [`Error::PayloadTooLarge`]; no length prefix, a stated length more than the block can expand
/// to (255 × its size), an invalid LZ4 block, or one that does not fill exactly the stated
/// length is [`Error::Decompression`]. Never allocates more than the stated length.
pub fn decompress_payload(stored: &[u8]) -> Result<Vec<u8>, Error> {
    codec::decompress(stored, PAYLOAD_LIMIT).map_err(|e| match e {
        codec::DecompressError::TooLarge(claimed) => Error::PayloadTooLarge {
            claimed,
            limit: PAYLOAD_LIMIT,
        },
        codec::DecompressError::Invalid(cause) => Error::Decompression(cause),
    })
}

/// Reads and checks the header, the lengths and the checksum, without decoding the payload.
///
/// Checks, in order: magic, header length, format version, flags, MAC field zero when
/// unauthenticated, payload length (limit, truncation, trailing bytes), checksum. The
/// physics-version is reported as found, known or not. A compressed payload is not
/// decompressed.
pub fn inspect(bytes: &[u8]) -> Result<SnapshotInfo, Error> {
    let mut info = frame(bytes)?;
    lengths(bytes, info.payload_len)?;
    if checksum(bytes) != blake3::Hash::from(info.checksum) {
        return Err(Error::ChecksumMismatch);
    }
    match info.format_version {
        FORMAT_VERSION_3 => info.level = level_id(&bytes[HEADER_LEN..])?,
        FORMAT_VERSION_4 => info.baseline = Some(BaselineId(id(&bytes[HEADER_LEN..])?)),
        _ => {}
    }
    Ok(info)
}

/// The 32-byte id a format-3 or format-4 stored payload starts with (a payload shorter than it
/// is [`LinkError::Truncated`]).
fn id(stored: &[u8]) -> Result<[u8; ID_LEN], Error> {
    match stored.first_chunk::<ID_LEN>() {
        Some(id) => Ok(*id),
        None => Err(Error::Link(LinkError::Truncated {
            at: 0,
            needed: ID_LEN as u64,
        })),
    }
}

/// `given`, when it is the level `needed` (a snapshot's or a world config's):
/// [`Error::LevelMissing`] without one, [`Error::WrongLevel`] for another.
pub(crate) fn require_level(needed: LevelId, given: Option<&Level>) -> Result<&Level, Error> {
    match given {
        None => Err(Error::LevelMissing { needed }),
        Some(given) if given.id() != needed => Err(Error::WrongLevel {
            needed,
            given: given.id(),
        }),
        Some(given) => Ok(given),
    }
}

/// The level a format-3 stored payload refers to, `None` when its id is all zero.
fn level_id(stored: &[u8]) -> Result<Option<LevelId>, Error> {
    let id = id(stored)?;
    Ok((id != [0; ID_LEN]).then_some(LevelId(id)))
}

/// What a restore holds besides the snapshot: the match's level (format 3) and the baseline a
/// delta is written against (format 4).
#[derive(Copy, Clone, Default)]
pub(crate) struct Held<'a> {
    pub level: Option<&'a Level>,
    pub baseline: Option<&'a Baseline>,
}

impl<'a> Held<'a> {
    /// A level, or nothing.
    pub fn level(level: Option<&'a Level>) -> Self {
        let baseline = None;
        Self { level, baseline }
    }

    /// A baseline.
    pub fn baseline(baseline: &'a Baseline) -> Self {
        let (level, baseline) = (None, Some(baseline));
        Self { level, baseline }
    }
}

/// Whether [`open`] checks the config digest (check 7), or skips it to tell a snapshot of
/// another match from a bad one.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum Match {
    Checked,
    Ignored,
}

/// Every check of `docs/protocol.md` in order (but the config digest's when `Match::Ignored`);
/// on success the decoded world and the tick.
pub(crate) fn open(
    config: &WorldConfig,
    bytes: &[u8],
    key: Option<&SnapshotKey>,
    held: Held<'_>,
    match_id: Match,
) -> Result<(PhysicsWorld, u64), Error> {
    let info = frame(bytes)?;
    version::entry(info.header.physics_version)?;
    if info.header.physics_version != config.physics_version() {
        return Err(Error::PhysicsVersionMismatch {
            snapshot: info.header.physics_version,
            world: config.physics_version(),
        });
    }
    if match_id == Match::Checked && info.header.config_digest != config.digest() {
        return Err(
            settings_mismatch(config, bytes, &info, key, held).unwrap_or(
                Error::ConfigDigestMismatch {
                    snapshot: info.header.config_digest,
                    world: config.digest(),
                },
            ),
        );
    }
    let world = with_payload(bytes, &info, key, held, decode)?;
    validate::validate_world(config, &world)?;
    Ok((world, info.header.tick))
}

/// Checks 8-11.1 (lengths, checksum, MAC, level or baseline, decompression, expansion), then
/// `read` on the payload.
fn with_payload<T>(
    bytes: &[u8],
    info: &SnapshotInfo,
    key: Option<&SnapshotKey>,
    held: Held<'_>,
    read: fn(&[u8]) -> Result<T, Error>,
) -> Result<T, Error> {
    lengths(bytes, info.payload_len)?;
    // A compressed payload is verified before it is decompressed (`docs/protocol.md` §3.1: with a
    // key, the decompressor only ever reads authenticated bytes); its hash covers the compressed
    // bytes, a few percent of the restore.
    verify(bytes, info, key)?;
    let stored = &bytes[HEADER_LEN..];
    if [FORMAT_VERSION_3, FORMAT_VERSION_4].contains(&info.format_version) {
        return read(&linked_payload(stored, info, held)?);
    }
    if info.compressed {
        let payload = catch_panic(
            || decompress_payload(stored),
            "decoding",
            |msg| Error::Decompression(codec::DecompressionError::Panic(msg)),
        )?;
        read(&payload)
    } else {
        read(stored)
    }
}

/// The format-1 payload of a verified format-3 or format-4 stored payload: what it refers to
/// (format 3: the level given, if the snapshot names one; format 4: the baseline given, which
/// must be the one named), its record stream decompressed when compressed, then expanded; every
/// step bounded (check 11.1 of `docs/protocol.md` §5).
fn linked_payload(stored: &[u8], info: &SnapshotInfo, held: Held<'_>) -> Result<Vec<u8>, Error> {
    if info.format_version == FORMAT_VERSION_4 {
        let needed = BaselineId(id(stored)?);
        let baseline = match held.baseline {
            None => return Err(Error::BaselineMissing { needed }),
            Some(given) if given.id() != needed => {
                let given = given.id();
                return Err(Error::WrongBaseline { needed, given });
            }
            Some(given) => given.payload(),
        };
        let stream = stream(&stored[ID_LEN..], info.compressed)?;
        return expand_stream(&stream, Refs::baseline(baseline));
    }
    let shapes = match level_id(stored)? {
        None => Vec::new(),
        Some(needed) => require_level(needed, held.level)?.shape_bytes(),
    };
    let stream = stream(&stored[ID_LEN..], info.compressed)?;
    expand_stream(&stream, Refs::level(&shapes))
}

/// The record stream of a format-3 or format-4 payload after its id, decompressed (bounded)
/// when `compressed`.
fn stream(body: &[u8], compressed: bool) -> Result<std::borrow::Cow<'_, [u8]>, Error> {
    if !compressed {
        return Ok(body.into());
    }
    let decompressed = catch_panic(
        || decompress_payload(body),
        "decoding",
        |msg| Error::Decompression(codec::DecompressionError::Panic(msg)),
    )?;
    Ok(decompressed.into())
}

/// The payload a format-3 or format-4 record stream expands to with what it refers to, with the
/// bounds a restore applies (check 11.2 of `docs/protocol.md` §5): a stated length over
/// [`PAYLOAD_LIMIT`] is [`Error::PayloadTooLarge`]; a stated length beyond what the stream may
/// expand to, a record cut short, a tag the format does not know, a shape the level does not
/// have, a repeat of bytes not yet written, bytes beyond the baseline, or records writing another
/// length than stated is [`Error::Link`]. Never allocates more than the stated length.
fn expand_stream(stream: &[u8], refs: Refs<'_>) -> Result<Vec<u8>, Error> {
    catch_panic(
        || {
            link::expand(stream, refs, PAYLOAD_LIMIT).map_err(|e| match e {
                ExpandError::TooLarge(claimed) => Error::PayloadTooLarge {
                    claimed,
                    limit: PAYLOAD_LIMIT,
                },
                ExpandError::Invalid(cause) => Error::Link(cause),
            })
        },
        "decoding",
        Error::Undecodable,
    )
}

/// [`expand_stream`] with `level`'s shapes: what the `expand` fuzz target reaches directly.
pub fn expand_record_stream(stream: &[u8], level: Option<&Level>) -> Result<Vec<u8>, Error> {
    let shapes = level.map(Level::shape_bytes).unwrap_or_default();
    expand_stream(stream, Refs::level(&shapes))
}

/// [`expand_stream`] of a format-4 record stream against `baseline`.
pub fn expand_delta_stream(stream: &[u8], baseline: &Baseline) -> Result<Vec<u8>, Error> {
    expand_stream(stream, Refs::baseline(baseline.payload()))
}

/// The format-1 payload a format-3 snapshot expands to, with `level` (after its framing checks;
/// the checksum and MAC are not checked): what a format-3 snapshot is compared by.
pub fn expand_linked(bytes: &[u8], level: Option<&Level>) -> Result<Vec<u8>, Error> {
    expand_held(bytes, Held::level(level))
}

/// The format-1 payload a format-4 snapshot expands to against `baseline` (after its framing
/// checks; the checksum and MAC are not checked): what a delta is compared by.
pub fn expand_delta(bytes: &[u8], baseline: &Baseline) -> Result<Vec<u8>, Error> {
    expand_held(bytes, Held::baseline(baseline))
}

/// The format-1 payload a format-3 or format-4 snapshot expands to with what `held` holds.
fn expand_held(bytes: &[u8], held: Held<'_>) -> Result<Vec<u8>, Error> {
    let info = frame(bytes)?;
    lengths(bytes, info.payload_len)?;
    linked_payload(&bytes[HEADER_LEN..], &info, held)
}

/// The payload's leading fields, a world's gravity and integration parameters: what a
/// snapshot records of its config.
fn recorded(payload: &[u8]) -> Result<(Vector, IntegrationParameters), Error> {
    codec::decode_prefix(payload).map_err(Error::Undecodable)
}

/// Check 7's diagnosis: when the digests differ and the snapshot passes checks 8-11 up to its
/// recorded gravity and parameters, [`Error::ConfigMismatch`] naming every field that differs
/// from `config`'s; `None` (the digest mismatch stands: another match id, or a payload that
/// cannot say) otherwise.
fn settings_mismatch(
    config: &WorldConfig,
    bytes: &[u8],
    info: &SnapshotInfo,
    key: Option<&SnapshotKey>,
    held: Held<'_>,
) -> Option<Error> {
    let (gravity, params) = with_payload(bytes, info, key, held, recorded).ok()?;
    let diffs = config::diff_world(config, &params, gravity);
    (!diffs.is_empty()).then_some(Error::ConfigMismatch(diffs))
}

/// The gravity and integration parameters a snapshot records (the payload's leading fields),
/// after its framing, length, checksum and decompression checks: what `snapshot inspect`
/// prints as the world's settings. No key: the MAC is not checked.
pub fn recorded_params(bytes: &[u8]) -> Result<(Vector, IntegrationParameters), Error> {
    recorded_params_on(bytes, None)
}

/// [`recorded_params`] of a snapshot that may refer to `level` (format 3).
pub fn recorded_params_on(
    bytes: &[u8],
    level: Option<&Level>,
) -> Result<(Vector, IntegrationParameters), Error> {
    let info = frame(bytes)?;
    with_payload(bytes, &info, None, Held::level(level), recorded)
}

/// [`recorded_params`] of a delta (format 4) written against `baseline`.
pub fn recorded_params_against(
    bytes: &[u8],
    baseline: &Baseline,
) -> Result<(Vector, IntegrationParameters), Error> {
    let info = frame(bytes)?;
    let held = Held::baseline(baseline);
    with_payload(bytes, &info, None, held, recorded)
}

/// Checks 9 and 10 of `docs/protocol.md` §5, in order: the checksum (`ChecksumMismatch`); with a
/// key, the MAC flag (`MacMissing`) and the MAC (`MacMismatch`).
///
/// Both hashes are needed for the same verdicts: the MAC does not cover the checksum field (both
/// hash the header with it zeroed), so a MAC that verifies says nothing about the checksum field,
/// and a snapshot whose checksum field alone is damaged is `ChecksumMismatch` with a key too.
fn verify(bytes: &[u8], info: &SnapshotInfo, key: Option<&SnapshotKey>) -> Result<(), Error> {
    if checksum(bytes) != blake3::Hash::from(info.checksum) {
        return Err(Error::ChecksumMismatch);
    }
    if let Some(key) = key {
        if !info.authenticated {
            return Err(Error::MacMissing);
        }
        let found: [u8; 32] = bytes[MAC].try_into().expect("32-byte range");
        if mac(bytes, key) != blake3::Hash::from(found) {
            return Err(Error::MacMismatch);
        }
    }
    Ok(())
}

/// Check 11.2: the payload decoded (bounded; no trailing bytes). Runs under `catch_unwind`
/// (none is known, the decoder is fuzzed): a panic would be [`Error::Undecodable`].
fn decode(payload: &[u8]) -> Result<PhysicsWorld, Error> {
    catch_panic(
        || codec::decode_world(payload).map_err(Error::Undecodable),
        "decoding",
        Error::Undecodable,
    )
}

/// The header checks that need no world: magic, length, format, flags (as the format defines
/// them), stray MAC.
pub(crate) fn frame(bytes: &[u8]) -> Result<SnapshotInfo, Error> {
    let prefix = bytes.len().min(MAGIC.len());
    if bytes[..prefix] != MAGIC[..prefix] {
        return Err(Error::BadMagic);
    }
    if bytes.len() < HEADER_LEN {
        return Err(Error::Truncated {
            needed: HEADER_LEN as u64,
            got: bytes.len() as u64,
        });
    }
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
    let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
    let array_at = |i: usize| -> [u8; 32] { bytes[i..i + 32].try_into().expect("32 bytes") };
    let format_version = u16_at(8);
    let formats = [
        FORMAT_VERSION,
        FORMAT_VERSION_2,
        FORMAT_VERSION_3,
        FORMAT_VERSION_4,
    ];
    if !formats.contains(&format_version) {
        return Err(Error::UnknownFormatVersion(format_version));
    }
    let flags = u16_at(10);
    let known = flags_known(format_version);
    if flags & !known != 0 {
        return Err(Error::UnknownFlags(flags & !known));
    }
    let authenticated = flags & FLAG_MAC != 0;
    if !authenticated && bytes[MAC].iter().any(|&b| b != 0) {
        return Err(Error::StrayMac);
    }
    Ok(SnapshotInfo {
        format_version,
        flags,
        authenticated,
        compressed: flags & FLAG_COMPRESSED != 0,
        level: None,
        baseline: None,
        header: SnapshotHeader {
            physics_version: PhysicsVersion::new(u32_at(12)),
            tick: u64_at(16),
            config_digest: array_at(24),
        },
        payload_len: u64_at(56),
        checksum: array_at(CHECKSUM.start),
    })
}

/// The claimed payload length against the limit and the bytes present (no allocation).
fn lengths(bytes: &[u8], claimed: u64) -> Result<(), Error> {
    if claimed > PAYLOAD_LIMIT {
        return Err(Error::PayloadTooLarge {
            claimed,
            limit: PAYLOAD_LIMIT,
        });
    }
    let needed = HEADER_LEN as u64 + claimed;
    let got = bytes.len() as u64;
    if got < needed {
        return Err(Error::Truncated { needed, got });
    }
    if got > needed {
        return Err(Error::TrailingBytes {
            extra: got - needed,
        });
    }
    Ok(())
}

/// The bytes both the checksum and the MAC cover, fed to `hasher`.
fn covered(bytes: &[u8], mut hasher: blake3::Hasher) -> blake3::Hash {
    hasher.update(&bytes[..CHECKSUM.start]);
    hasher.update(&[0; 64]);
    hasher.update(&bytes[HEADER_LEN..]);
    hasher.finalize()
}

fn checksum(bytes: &[u8]) -> blake3::Hash {
    covered(bytes, blake3::Hasher::new())
}

fn mac(bytes: &[u8], key: &SnapshotKey) -> blake3::Hash {
    covered(bytes, blake3::Hasher::new_keyed(&key.0))
}
