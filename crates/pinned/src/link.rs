//! The linked payload of snapshot format 3 (`docs/protocol.md` §3.2): the format-1 payload as a
//! stream of records, each either literal bytes, one of the level's shapes by its index, or a
//! repeat of bytes already written. Expanding the records gives the format-1 payload byte for
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
//!
//! The stream is `m: u64` (the expanded length) followed by records to its end.

use memchr::memmem;

/// Record tag: literal bytes.
const LITERAL: u8 = 0;
/// Record tag: a level shape by index.
const LEVEL_SHAPE: u8 = 1;
/// Record tag: bytes already written.
const REPEAT: u8 = 2;

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
    /// A record tag that is not 0, 1 or 2.
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
    /// The stated expanded length is more than the stream may expand to (255 × its size, plus
    /// its level shapes).
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

/// The payload a record stream expands to, with `shapes` the level's shapes' bytes (empty
/// without a level). Bounded: the stated length is checked against `limit` and against what the
/// stream may expand to before anything is allocated, and no record may write past it.
pub(crate) fn expand(stream: &[u8], shapes: &[&[u8]], limit: u64) -> Result<Vec<u8>, ExpandError> {
    let mut reader = Reader { stream, at: 0 };
    let stated = u64::from_le_bytes(reader.take_array()?);
    if stated > limit {
        return Err(ExpandError::TooLarge(stated));
    }
    let level_bytes: u64 = shapes.iter().map(|s| s.len() as u64).sum();
    let reachable = MAX_RATIO * stream.len() as u64 + level_bytes;
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
            LEVEL_SHAPE => {
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

    fn expand_ok(stream: &[u8], shapes: &[&[u8]]) -> Vec<u8> {
        match expand(stream, shapes, u64::MAX) {
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
            let level: Vec<&[u8]> =
                owned.iter().filter(|(_, l)| *l).map(|(b, _)| b.as_slice()).collect();
            let mut patterns = Vec::new();
            let mut index = 0;
            for (bytes, is_level) in &owned {
                let source = if *is_level { index += 1; Source::Level(index - 1) } else { Source::Shared };
                patterns.push(Pattern { bytes, source });
            }
            let stream = link(&payload, &patterns);
            prop_assert_eq!(expand_ok(&stream, &level), payload);
        }

        /// Arbitrary bytes never panic the expansion, and never make it allocate beyond its
        /// bound.
        #[test]
        fn any_stream_is_refused_or_expanded_within_its_bound(
            stream in proptest::collection::vec(any::<u8>(), 0..200),
        ) {
            let shapes: [&[u8]; 1] = [&[7; 100]];
            if let Ok(out) = expand(&stream, &shapes, 1 << 30) {
                prop_assert!(out.len() as u64 <= MAX_RATIO * stream.len() as u64 + 100);
            }
        }
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
        assert_eq!(expand_ok(&stream, &[]), payload);
    }

    #[test]
    fn each_bad_stream_has_its_cause() {
        let cause = |stream: &[u8]| match expand(stream, &[&[0; 64]], 1 << 30) {
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
