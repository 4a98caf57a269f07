//! The linked payload of snapshot formats 3 and 4 (`docs/protocol.md` §3.2, §3.4): the format-1
//! payload as a stream of records, each either literal bytes, one of the level's shapes by its
//! index (format 3), a repeat of bytes already written, or bytes of a baseline payload the
//! receiver holds (format 4, a delta). Expanding the records gives the format-1 payload byte for
//! byte, so everything after it (decode, checks) is format 1's.
//!
//! Decision: shapes are found by their bytes, not by walking the world's structure. A
//! [`SharedShape`](rapier3d::prelude::SharedShape) serializes to the same bincode bytes alone as
//! inside a collider (bincode has no context), so replacing any occurrence of a shape's bytes by a
//! reference to the same bytes is lossless wherever it is found, and the encoder needs no
//! knowledge of rapier's private field order.
//!
//! Records (all integers little-endian):
//!
//! | tag | then | writes |
//! |---:|---|---|
//! | 0 | `n: u32`, `n` bytes | the `n` bytes |
//! | 1 | `index: u32` | the level's shape `index`, its canonical bytes |
//! | 2 | `offset: u64`, `len: u32` | `len` bytes already written, from `offset` |
//! | 3 | `offset: u64`, `len: u32` | `len` bytes of the baseline payload, from `offset` |
//! | 4 | `offset: u64`, `len: u32`, `len` bytes | the baseline's bytes from `offset`, each XORed with the record's |
//!
//! The stream is `m: u64` (the expanded length) followed by records to its end. Format 3 knows
//! tags 0-2, format 4 tags 0 and 2-4 ([`Refs`]).

use memchr::memmem;

/// Record tag: literal bytes.
const LITERAL: u8 = 0;
/// Record tag: a level shape by index.
const LEVEL_SHAPE: u8 = 1;
/// Record tag: bytes already written.
const REPEAT: u8 = 2;
/// Record tag: bytes of the baseline payload.
const BASELINE: u8 = 3;
/// Record tag: bytes of the baseline payload, each XORed with a byte of the record.
const XOR: u8 = 4;

/// What a stream's records may refer to besides its own bytes: the level's shapes (format 3;
/// empty on no level) or the baseline payload (format 4). A tag whose source is `None` is
/// unknown to the format.
#[derive(Copy, Clone)]
pub(crate) struct Refs<'a> {
    /// The level shapes' bytes, by index.
    shapes: Option<&'a [&'a [u8]]>,
    /// The baseline's format-1 payload.
    baseline: Option<&'a [u8]>,
}

impl<'a> Refs<'a> {
    /// Format 3's: the level shapes' bytes (none on no level).
    pub fn level(shapes: &'a [&'a [u8]]) -> Self {
        let (shapes, baseline) = (Some(shapes), None);
        Self { shapes, baseline }
    }

    /// Format 4's: the baseline payload.
    pub fn baseline(baseline: &'a [u8]) -> Self {
        let (shapes, baseline) = (None, Some(baseline));
        Self { shapes, baseline }
    }
}

/// Shapes whose bytes are shorter than this stay literal: a reference (5 or 13 bytes) and the
/// search would cost more than they save.
pub(crate) const MIN_REFERENCED: usize = 64;

/// Largest expansion of a record stream, beyond what its level references write: a repeat
/// record of 13 bytes writes at most `u32::MAX` bytes, so without a bound a few hundred bytes
/// could claim a gigabyte. As for an LZ4 block (format 2), a stream of `n` bytes may expand to
/// at most `255 n` bytes plus the bytes of the level shapes it references.
pub(crate) const MAX_RATIO: u64 = 255;

/// Where the bytes of a pattern come from when it is found again in the payload.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// The level's shape of this index: every occurrence becomes a level record.
    Level(u32),
    /// A shape the world shares between colliders: its first occurrence stays literal, the
    /// later ones repeat it.
    Shared,
}

/// Bytes to look for in the payload, and what replaces them.
pub(crate) struct Pattern<'a> {
    pub bytes: &'a [u8],
    pub source: Source,
}

/// Why a linked payload does not expand to a format-1 payload: [`crate::Error::Link`]'s cause.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LinkError {
    /// The stream is shorter than its field or record.
    #[error("linked payload cut short at byte {at}: {needed} more bytes needed")]
    Truncated {
        /// Offset in the record stream where the missing field starts.
        at: u64,
        /// Bytes the field needs.
        needed: u64,
    },
    /// A record tag the format does not know (format 3: 0, 1, 2; format 4: 0, 2, 3, 4).
    #[error("unknown record tag {tag} at byte {at}")]
    UnknownRecord {
        /// The tag.
        tag: u8,
        /// Its offset in the record stream.
        at: u64,
    },
    /// A level record names a shape the level does not have.
    #[error("level shape {index} referenced, the level has {count}")]
    NoSuchShape {
        /// The index referenced.
        index: u32,
        /// Shapes in the level.
        count: u32,
    },
    /// A repeat record reads bytes not yet written.
    #[error("repeat of {len} bytes from {offset}, only {written} written")]
    RepeatAhead {
        /// The record's offset.
        offset: u64,
        /// The record's length.
        len: u32,
        /// Bytes written before the record.
        written: u64,
    },
    /// A baseline or XOR record reads past the end of the baseline payload.
    #[error("baseline bytes {offset}..+{len} referenced, the baseline has {baseline}")]
    BeyondBaseline {
        /// The record's offset.
        offset: u64,
        /// The record's length.
        len: u32,
        /// The baseline payload's length.
        baseline: u64,
    },
    /// The stated expanded length is more than the stream may expand to (255 × its size, plus
    /// its level shapes and its baseline).
    #[error("stated expanded length {stated} is more than the stream may expand to ({reachable})")]
    BeyondStream {
        /// The stated length.
        stated: u64,
        /// The bound.
        reachable: u64,
    },
    /// The records write another length than stated.
    #[error("records write {written} bytes, stated expanded length {stated}")]
    LengthMismatch {
        /// Bytes the records write (or, if more than stated, the total reached when it passed).
        written: u64,
        /// The stated length.
        stated: u64,
    },
}

/// The record stream of `payload`, with every non-overlapping occurrence of a pattern replaced
/// by a reference. Patterns are searched in the given order and an occurrence overlapping an
/// earlier-found one is left literal, so the stream depends only on the payload and the patterns.
pub(crate) fn link(payload: &[u8], patterns: &[Pattern<'_>]) -> Vec<u8> {
    let mut found: Vec<(usize, usize)> = Vec::new(); // (position, pattern index)
    for (i, pattern) in patterns.iter().enumerate() {
        if pattern.bytes.len() < MIN_REFERENCED {
            continue;
        }
        // Search for a short prefix and compare the rest where it occurs: a whole level shape
        // (megabytes) as the needle would make the substring search itself cost that much.
        let prefix = &pattern.bytes[..MIN_REFERENCED];
        let whole = |&pos: &usize| payload[pos..].starts_with(pattern.bytes);
        found.extend(
            memmem::find_iter(payload, prefix)
                .filter(whole)
                .map(|pos| (pos, i)),
        );
    }
    found.sort_unstable();
    let mut out = Vec::with_capacity(payload.len() / 2 + 64);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    let mut cursor = 0; // bytes of the payload already covered by records
    let mut literal_from = 0; // start of the pending literal run
    let mut first_seen: Vec<Option<usize>> = vec![None; patterns.len()];
    for (pos, i) in found {
        if pos < cursor {
            continue; // overlaps a reference already made
        }
        let pattern = &patterns[i];
        let end = pos + pattern.bytes.len();
        match pattern.source {
            Source::Level(index) => {
                push_literal(&mut out, &payload[literal_from..pos]);
                out.push(LEVEL_SHAPE);
                out.extend_from_slice(&index.to_le_bytes());
                literal_from = end;
            }
            Source::Shared => match first_seen[i] {
                // The first occurrence joins the literal run; it is what later ones repeat.
                None => first_seen[i] = Some(pos),
                Some(first) => {
                    push_literal(&mut out, &payload[literal_from..pos]);
                    out.push(REPEAT);
                    out.extend_from_slice(&(first as u64).to_le_bytes());
                    out.extend_from_slice(&(pattern.bytes.len() as u32).to_le_bytes());
                    literal_from = end;
                }
            },
        }
        cursor = end;
    }
    push_literal(&mut out, &payload[literal_from..]);
    out
}

/// Baseline matches shorter than this are not looked for: a baseline record is 13 bytes.
const MIN_COPY: usize = 32;
/// Unchanged runs at least this long are a baseline record rather than part of an XOR record:
/// LZ4 writes a run of `n` zero bytes in about `n / 255` bytes, a baseline record takes 13.
const LONG_COPY: usize = 4096;
/// Changed bytes between two matches of one alignment longer than this are literal, not XORed:
/// bytes that long unlike the baseline are more like the payload's own (LZ4 finds those).
const MAX_GAP: usize = 64;
/// Bytes hashed to find a match anywhere in the baseline.
const WINDOW: usize = 8;

/// Where each 8-byte window of a baseline last occurs, by hash: what [`delta`] looks matches up
/// in. Built once per baseline ([`crate::Baseline`] keeps it), as it costs more than a delta.
#[derive(Clone)]
pub(crate) struct Index {
    bits: u32,
    table: Vec<u32>,
}

impl Index {
    /// The index of `baseline` (at most [`u32::MAX`] bytes; a payload is at most 2^30).
    pub(crate) fn new(baseline: &[u8]) -> Self {
        let bits = baseline.len().max(2).ilog2().clamp(10, 22);
        let mut index = Self {
            bits,
            table: vec![u32::MAX; 1 << bits],
        };
        for pos in 0..(baseline.len() + 1).saturating_sub(WINDOW) {
            let slot = index.hash(&baseline[pos..]);
            index.table[slot] = pos as u32;
        }
        index
    }

    /// The slot of the 8 bytes `bytes` starts with.
    fn hash(&self, bytes: &[u8]) -> usize {
        let window = u64::from_le_bytes(bytes[..WINDOW].try_into().expect("8 bytes"));
        (window.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - self.bits)) as usize
    }
}

/// The record stream of `payload` as a delta against `baseline` (format 4): XOR records where
/// the payload lines up with the baseline, baseline records for long unchanged runs, literal
/// records for bytes that line up with nothing (inserted ones).
///
/// Greedy: at each byte it first tries the baseline position that continues the last match (a
/// changed number leaves the bytes after it where they were), then the last baseline position
/// whose 8 bytes hash the same (bytes inserted or removed shift them); a match of at least
/// [`MIN_COPY`] bytes at the same alignment as the open XOR record extends it over the changed
/// bytes between, so the record holds zeros where nothing changed and LZ4 (the stream is
/// compressed) writes those runs in a few bytes. Deterministic: `index` is a plain array,
/// filled in baseline order.
pub(crate) fn delta(payload: &[u8], baseline: &[u8], index: &Index) -> Vec<u8> {
    let table = &index.table;
    let hash = |bytes: &[u8]| index.hash(bytes);
    // An empty slot of the table is `u32::MAX`: checked, as on a 32-bit target it is usize::MAX.
    let matching = |from: usize, at: usize| {
        let theirs = from
            .checked_add(MIN_COPY)
            .and_then(|end| baseline.get(from..end));
        theirs.is_some() && theirs == payload.get(at..at + MIN_COPY)
    };
    let mut out = Vec::with_capacity(payload.len() / 4 + 64);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    let mut at = 0; // next byte of the payload to cover
    let mut literal_from = 0; // start of the bytes not yet in a record
    let mut next = 0; // the baseline position that continues the last match
    let mut region: Option<(usize, usize)> = None; // open XOR record: (payload, baseline) start
    while at + MIN_COPY <= payload.len() {
        let found = match matching(next, at) {
            true => Some(next),
            false => Some(table[hash(&payload[at..])] as usize).filter(|&from| matching(from, at)),
        };
        let Some(from) = found else {
            at += 1;
            next += 1;
            continue;
        };
        let same = payload[at..]
            .iter()
            .zip(&baseline[from..])
            .take(u32::MAX as usize)
            .take_while(|(a, b)| a == b)
            .count();
        if !region.is_some_and(|(p, b)| from + p == at + b && at - literal_from <= MAX_GAP) {
            // Another alignment: what lay between is literal, a new XOR record starts here.
            push_xor(&mut out, payload, baseline, region.take(), literal_from);
            push_literal(&mut out, &payload[literal_from..at]);
            region = Some((at, from));
        }
        if same >= LONG_COPY {
            push_xor(&mut out, payload, baseline, region.take(), at);
            out.push(BASELINE);
            out.extend_from_slice(&(from as u64).to_le_bytes());
            out.extend_from_slice(&(same as u32).to_le_bytes());
        }
        at += same;
        next = from + same;
        literal_from = at;
    }
    push_xor(&mut out, payload, baseline, region, literal_from);
    push_literal(&mut out, &payload[literal_from..]);
    out
}

/// Appends an XOR record of `payload` from the region's start up to `end` against the baseline
/// at the region's alignment (none when there is no region or it is empty).
fn push_xor(
    out: &mut Vec<u8>,
    payload: &[u8],
    baseline: &[u8],
    region: Option<(usize, usize)>,
    end: usize,
) {
    let Some((start, from)) = region.filter(|&(start, _)| end > start) else {
        return;
    };
    out.push(XOR);
    out.extend_from_slice(&(from as u64).to_le_bytes());
    out.extend_from_slice(&((end - start) as u32).to_le_bytes());
    let pairs = payload[start..end].iter().zip(&baseline[from..]);
    out.extend(pairs.map(|(a, b)| a ^ b));
}

/// Appends a literal record of `bytes` (none when empty).
fn push_literal(out: &mut Vec<u8>, bytes: &[u8]) {
    if bytes.is_empty() {
        return;
    }
    out.push(LITERAL);
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// Why a stream was refused: a cause, or a stated length over `limit`.
pub(crate) enum ExpandError {
    /// The stated expanded length is over the limit.
    TooLarge(u64),
    /// Anything else.
    Invalid(LinkError),
}

impl From<LinkError> for ExpandError {
    fn from(cause: LinkError) -> Self {
        ExpandError::Invalid(cause)
    }
}

/// The payload a record stream expands to, its level and baseline records reading `refs`.
/// Bounded: the stated length is checked against `limit` and against what the stream may expand
/// to before anything is allocated, and no record may write past it.
pub(crate) fn expand(stream: &[u8], refs: Refs<'_>, limit: u64) -> Result<Vec<u8>, ExpandError> {
    let mut reader = Reader { stream, at: 0 };
    let stated = u64::from_le_bytes(reader.take_array()?);
    if stated > limit {
        return Err(ExpandError::TooLarge(stated));
    }
    let level_bytes: u64 = (refs.shapes.unwrap_or_default().iter())
        .map(|s| s.len() as u64)
        .sum();
    let baseline_bytes = refs.baseline.map_or(0, |b| b.len() as u64);
    let reachable = MAX_RATIO * stream.len() as u64 + level_bytes + baseline_bytes;
    if stated > reachable {
        return Err(LinkError::BeyondStream { stated, reachable }.into());
    }
    let mut out: Vec<u8> = Vec::with_capacity(stated as usize);
    // A record of `more` bytes must fit in what is left of the stated length.
    let fits = |written: u64, more: u64| match written + more > stated {
        true => Err(LinkError::LengthMismatch {
            written: written + more,
            stated,
        }),
        false => Ok(()),
    };
    while reader.at < stream.len() {
        let at = reader.at as u64;
        let [tag] = reader.take_array()?;
        let written = out.len() as u64;
        match tag {
            LITERAL => {
                let n = u32::from_le_bytes(reader.take_array()?);
                fits(written, n.into())?;
                out.extend_from_slice(reader.take(n as usize)?);
            }
            LEVEL_SHAPE if refs.shapes.is_some() => {
                let shapes = refs.shapes.unwrap_or_default();
                let index = u32::from_le_bytes(reader.take_array()?);
                let count = shapes.len() as u32;
                let shape = shapes
                    .get(index as usize)
                    .ok_or(LinkError::NoSuchShape { index, count })?;
                fits(written, shape.len() as u64)?;
                out.extend_from_slice(shape);
            }
            REPEAT => {
                let offset = u64::from_le_bytes(reader.take_array()?);
                let len = u32::from_le_bytes(reader.take_array()?);
                if offset
                    .checked_add(len.into())
                    .is_none_or(|end| end > written)
                {
                    let ahead = LinkError::RepeatAhead {
                        offset,
                        len,
                        written,
                    };
                    return Err(ahead.into());
                }
                fits(written, len.into())?;
                let from = offset as usize;
                out.extend_from_within(from..from + len as usize);
            }
            BASELINE | XOR if refs.baseline.is_some() => {
                let baseline = refs.baseline.unwrap_or_default();
                let offset = u64::from_le_bytes(reader.take_array()?);
                let len = u32::from_le_bytes(reader.take_array()?);
                // Through `usize::try_from`: on a 32-bit target `as` would wrap a far offset.
                let range = (offset.checked_add(len.into())).and_then(|end| {
                    Some(usize::try_from(offset).ok()?..usize::try_from(end).ok()?)
                });
                let Some(bytes) = range.and_then(|range| baseline.get(range)) else {
                    let beyond = LinkError::BeyondBaseline {
                        offset,
                        len,
                        baseline: baseline.len() as u64,
                    };
                    return Err(beyond.into());
                };
                fits(written, len.into())?;
                match tag {
                    BASELINE => out.extend_from_slice(bytes),
                    _ => {
                        let mask = reader.take(len as usize)?;
                        out.extend(bytes.iter().zip(mask).map(|(b, m)| b ^ m));
                    }
                }
            }
            tag => return Err(LinkError::UnknownRecord { tag, at }.into()),
        }
    }
    let written = out.len() as u64;
    if written != stated {
        return Err(LinkError::LengthMismatch { written, stated }.into());
    }
    Ok(out)
}

/// A cursor over a record stream whose reads fail, typed, past its end.
struct Reader<'a> {
    stream: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// The next `n` bytes.
    fn take(&mut self, n: usize) -> Result<&'a [u8], LinkError> {
        let rest = &self.stream[self.at..];
        if rest.len() < n {
            return Err(LinkError::Truncated {
                at: self.at as u64,
                needed: n as u64,
            });
        }
        self.at += n;
        Ok(&rest[..n])
    }

    /// The next `N` bytes as an array.
    fn take_array<const N: usize>(&mut self) -> Result<[u8; N], LinkError> {
        Ok(self.take(N)?.try_into().expect("N bytes"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn expand_ok(stream: &[u8], refs: Refs<'_>) -> Vec<u8> {
        match expand(stream, refs, u64::MAX) {
            Ok(out) => out,
            Err(ExpandError::TooLarge(n)) => panic!("too large: {n}"),
            Err(ExpandError::Invalid(e)) => panic!("{e}"),
        }
    }

    proptest! {
        /// Any payload with any patterns (level shapes and shared shapes cut from it) links to a
        /// stream that expands to exactly the payload.
        #[test]
        fn link_then_expand_gives_the_payload(
            payload in proptest::collection::vec(0u8..4, 0..3000),
            cuts in proptest::collection::vec((0usize..3000, 64usize..300, any::<bool>()), 0..6),
        ) {
            let owned: Vec<(Vec<u8>, bool)> = cuts
                .iter()
                .filter(|(at, len, _)| at + len <= payload.len())
                .map(|&(at, len, level)| (payload[at..at + len].to_vec(), level))
                .collect();
            let shapes: Vec<&[u8]> =
                owned.iter().filter(|(_, l)| *l).map(|(b, _)| b.as_slice()).collect();
            let mut patterns = Vec::new();
            let mut index = 0;
            for (bytes, is_level) in &owned {
                let source = if *is_level { index += 1; Source::Level(index - 1) } else { Source::Shared };
                patterns.push(Pattern { bytes, source });
            }
            let stream = link(&payload, &patterns);
            prop_assert_eq!(expand_ok(&stream, Refs::level(&shapes)), payload);
        }

        /// Arbitrary bytes never panic the expansion, and never make it allocate beyond its
        /// bound.
        #[test]
        fn any_stream_is_refused_or_expanded_within_its_bound(
            stream in proptest::collection::vec(any::<u8>(), 0..200),
        ) {
            let shapes: [&[u8]; 1] = [&[7; 100]];
            if let Ok(out) = expand(&stream, Refs::level(&shapes), 1 << 30) {
                prop_assert!(out.len() as u64 <= MAX_RATIO * stream.len() as u64 + 100);
            }
            if let Ok(out) = expand(&stream, Refs::baseline(&[7; 100]), 1 << 30) {
                prop_assert!(out.len() as u64 <= MAX_RATIO * stream.len() as u64 + 100);
            }
        }

        /// Any payload against any baseline (a mutation of it: bytes changed, inserted,
        /// removed) makes a delta that expands to exactly the payload.
        #[test]
        fn delta_then_expand_gives_the_payload(
            baseline in proptest::collection::vec(0u8..8, 0..4000),
            edits in proptest::collection::vec((0usize..4000, 0u8..3, any::<u8>()), 0..20),
        ) {
            let mut payload = baseline.clone();
            for (at, op, byte) in edits {
                let at = at.min(payload.len());
                match op {
                    0 if at < payload.len() => payload[at] = byte,
                    1 => payload.insert(at, byte),
                    _ if at < payload.len() => { payload.remove(at); }
                    _ => {}
                }
            }
            let stream = delta(&payload, &baseline, &Index::new(&baseline));
            prop_assert_eq!(expand_ok(&stream, Refs::baseline(&baseline)), payload);
        }
    }

    #[test]
    fn a_delta_of_a_few_changed_numbers_compresses_to_a_few_bytes() {
        let baseline: Vec<u8> = (0..10_000u32).flat_map(|i| (i * 7).to_le_bytes()).collect();
        let mut payload = baseline.clone();
        payload[4000..4004].copy_from_slice(&1.5f32.to_le_bytes());
        payload.splice(20_000..20_000, [9; 3]);
        let stream = delta(&payload, &baseline, &Index::new(&baseline));
        // An XOR record of the 4,004 bytes up to the changed number's end (zeros but 4), a
        // baseline record for the 15,996 unchanged bytes to the insertion (over `LONG_COPY`), 3
        // literal bytes, a baseline record for the 20,000 bytes after them.
        assert_eq!(stream.len(), 8 + (13 + 4004) + 13 + (5 + 3) + 13);
        let compressed = crate::codec::compress(&stream).len();
        assert!(compressed < 200, "{compressed} bytes for a 40 kB payload");
        assert_eq!(expand_ok(&stream, Refs::baseline(&baseline)), payload);
    }

    #[test]
    fn each_format_refuses_the_other_formats_reference() {
        let cause = |stream: &[u8], refs| match expand(stream, refs, 1 << 30) {
            Err(ExpandError::Invalid(e)) => e,
            _ => panic!("not refused"),
        };
        let baseline_record = [&4u64.to_le_bytes()[..], &[3], &[0; 8], &[4, 0, 0, 0]].concat();
        let level_record = [&4u64.to_le_bytes()[..], &[1], &[0; 4]].concat();
        assert_eq!(
            cause(&baseline_record, Refs::level(&[&[0; 64]])),
            LinkError::UnknownRecord { tag: 3, at: 8 }
        );
        assert_eq!(
            cause(&level_record, Refs::baseline(&[0; 64])),
            LinkError::UnknownRecord { tag: 1, at: 8 }
        );
        let far = [
            &4u64.to_le_bytes()[..],
            &[3],
            &(1u64 << 32).to_le_bytes(),
            &[4, 0, 0, 0],
        ];
        assert_eq!(
            cause(&far.concat(), Refs::baseline(&[0; 64])),
            LinkError::BeyondBaseline {
                offset: 1 << 32,
                len: 4,
                baseline: 64
            }
        );
        assert_eq!(
            expand_ok(&baseline_record, Refs::baseline(&[1, 2, 3, 4, 5])),
            [1, 2, 3, 4]
        );
    }

    #[test]
    fn a_repeated_pattern_is_written_once() {
        let shape = [5u8; 100];
        let mut payload = vec![1, 2, 3];
        payload.extend_from_slice(&shape);
        payload.extend_from_slice(&[9; 10]);
        payload.extend_from_slice(&shape);
        let patterns = [Pattern {
            bytes: &shape,
            source: Source::Shared,
        }];
        let stream = link(&payload, &patterns);
        assert_eq!(
            stream.len(),
            8 + (5 + 113) + 13,
            "one literal run, then one repeat"
        );
        assert_eq!(expand_ok(&stream, Refs::level(&[])), payload);
    }

    #[test]
    fn each_bad_stream_has_its_cause() {
        let cause = |stream: &[u8]| match expand(stream, Refs::level(&[&[0; 64]]), 1 << 30) {
            Err(ExpandError::Invalid(e)) => e,
            Err(ExpandError::TooLarge(n)) => panic!("too large {n}"),
            Ok(_) => panic!("expanded"),
        };
        let with = |m: u64, records: &[u8]| [&m.to_le_bytes()[..], records].concat();
        assert_eq!(cause(&[1, 2]), LinkError::Truncated { at: 0, needed: 8 });
        assert_eq!(
            cause(&with(1, &[7])),
            LinkError::UnknownRecord { tag: 7, at: 8 }
        );
        assert_eq!(
            cause(&with(64, &[1, 1, 0, 0, 0])),
            LinkError::NoSuchShape { index: 1, count: 1 }
        );
        assert_eq!(
            cause(&with(4, &[2, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0])),
            LinkError::RepeatAhead {
                offset: 0,
                len: 4,
                written: 0
            }
        );
        assert_eq!(
            cause(&with(3, &[0, 2, 0, 0, 0, 1, 2])),
            LinkError::LengthMismatch {
                written: 2,
                stated: 3
            }
        );
        assert_eq!(
            cause(&with(1, &[0, 2, 0, 0, 0, 1, 2])),
            LinkError::LengthMismatch {
                written: 2,
                stated: 1
            }
        );
        assert_eq!(
            cause(&with(5000, &[0, 1, 0, 0, 0, 1])),
            LinkError::BeyondStream {
                stated: 5000,
                reachable: 255 * 14 + 64
            }
        );
        assert_eq!(
            cause(&with(2, &[0, 2, 0, 0, 0, 1])),
            LinkError::Truncated { at: 13, needed: 2 }
        );
    }
}
