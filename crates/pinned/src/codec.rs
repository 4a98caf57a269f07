//! The one encoding of a world: bincode 1.3 with the encoding of `bincode::serialize` (fixed-width
//! integers, little endian; `usize` and lengths as u64). The only module that uses bincode.
//!
//! Same bytes on every target: fixint encoding does not depend on pointer width (lengths and
//! `usize` are written as u64) and little endian is forced, whatever the host. Same bytes on
//! every run: with `enhanced-determinism` (which this crate's dependency line enables), rapier's
//! and parry's hash sets/maps are `indexmap` sets/maps with a fixed hasher, serialized in insertion
//! order; no `std` HashMap/HashSet with a random seed is serialized.

use bincode::Options;
use rapier3d::prelude::PhysicsWorld;
use serde::Serialize;

/// The options of `bincode::serialize` spelled out, plus a read limit and no trailing bytes.
fn options(limit: u64) -> impl Options {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .with_little_endian()
        .with_limit(limit)
        .reject_trailing_bytes()
}

/// The bytes of `value` (identical to `bincode::serialize(value)`).
pub(crate) fn encode<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    // Serializing rapier's types into memory has no failure path (no map of unknown length,
    // no size limit); an error here would be a bug in a Serialize impl.
    options(u64::MAX)
        .serialize(value)
        .expect("bincode serialization into memory cannot fail")
}

/// Appends the bytes of `value` to `out`; an error for a value with no serialization (a custom
/// shape).
pub(crate) fn encode_into<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), ()> {
    options(u64::MAX).serialize_into(out, value).map_err(|_| ())
}

/// Decodes a `T` from exactly `bytes`, reading at most `bytes.len()` bytes.
pub(crate) fn decode_exact<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    options(bytes.len() as u64)
        .deserialize(bytes)
        .map_err(|e| e.to_string())
}

/// Decodes a whole world from exactly `bytes`, reading at most `bytes.len()` bytes.
pub(crate) fn decode_world(bytes: &[u8]) -> Result<PhysicsWorld, String> {
    decode_exact(bytes)
}

/// Decodes a `T` from the start of `bytes` (what follows is not read): a payload's leading
/// fields, e.g. a world's gravity and integration parameters.
pub(crate) fn decode_prefix<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .with_little_endian()
        .with_limit(bytes.len() as u64)
        .allow_trailing_bytes()
        .deserialize(bytes)
        .map_err(|e| e.to_string())
}

/// Bytes of the uncompressed-length prefix of a compressed payload (u32 little-endian).
pub(crate) const LENGTH_PREFIX: usize = 4;

/// Largest expansion of an LZ4 block: every sequence of `3 + k` input bytes (token, offset, `k`
/// match-length bytes) writes at most `18 + 255 k` bytes and a literal byte writes one, so a block
/// of `n` bytes decompresses to fewer than `255 n` bytes.
pub(crate) const LZ4_MAX_RATIO: u64 = 255;

/// The stored form of a compressed payload (snapshot format 2, flag bit 1): the uncompressed
/// length as a u32 little-endian, then one LZ4 block (the layout of `lz4_flex`'s
/// `compress_prepend_size` and of python-lz4's `block.compress(store_size=True)`).
pub(crate) fn compress(payload: &[u8]) -> Vec<u8> {
    debug_assert!(payload.len() as u64 <= crate::format::PAYLOAD_LIMIT);
    lz4_flex::block::compress_prepend_size(payload)
}

/// Why a stored compressed payload was refused.
pub(crate) enum DecompressError {
    /// The stated uncompressed length is over the payload limit.
    TooLarge(u64),
    /// Anything else.
    Invalid(DecompressionError),
}

/// Why a compressed payload (format 2, flag bit 1) does not decompress to exactly its stated
/// uncompressed length: [`crate::Error::Decompression`]'s cause. Every case but an invalid
/// block's and a panic's carries its numbers.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecompressionError {
    /// The stored payload is shorter than its 4-byte length prefix.
    #[error(
        "compressed payload of {len} bytes is shorter than its {}-byte length prefix",
        LENGTH_PREFIX
    )]
    NoLengthPrefix {
        /// Bytes of the stored payload.
        len: u64,
    },
    /// The stated uncompressed length is more than an LZ4 block of this size can expand to
    /// (255 × its size).
    #[error(
        "stated uncompressed length {stated} is more than an LZ4 block of {block} bytes can \
         expand to ({})",
        LZ4_MAX_RATIO * .block
    )]
    BeyondBlock {
        /// The stated uncompressed length.
        stated: u64,
        /// Bytes of the LZ4 block (the stored payload after the prefix).
        block: u64,
    },
    /// The block decompresses to fewer bytes than stated.
    #[error("LZ4 block decompresses to {written} bytes, stated uncompressed length {stated}")]
    ShortBlock {
        /// Bytes the block wrote.
        written: u64,
        /// The stated uncompressed length.
        stated: u64,
    },
    /// The block decompresses to more bytes than stated.
    #[error("LZ4 block decompresses to more than the stated uncompressed length {stated}")]
    LongBlock {
        /// The stated uncompressed length.
        stated: u64,
    },
    /// The block is not valid LZ4: `lz4_flex`'s message, kept as its text (another library's
    /// error, of no structure this crate defines).
    #[error("invalid LZ4 block: {0}")]
    InvalidBlock(String),
    /// The decompression panicked (none is known): `panic while decoding: <the panic's
    /// message>`, the message as text (a panic carries nothing else).
    #[error("{0}")]
    Panic(String),
}

/// The payload of a stored compressed payload, bounded: the stated length is checked against
/// `limit` and against what the block's size can expand to before anything is allocated, the
/// output buffer is exactly the stated length (the decoder cannot write past it), and the block
/// must fill it exactly.
pub(crate) fn decompress(stored: &[u8], limit: u64) -> Result<Vec<u8>, DecompressError> {
    let invalid = |cause: DecompressionError| Err(DecompressError::Invalid(cause));
    let Some((prefix, block)) = stored.split_first_chunk::<LENGTH_PREFIX>() else {
        return invalid(DecompressionError::NoLengthPrefix {
            len: stored.len() as u64,
        });
    };
    let stated = u64::from(u32::from_le_bytes(*prefix));
    if stated > limit {
        return Err(DecompressError::TooLarge(stated));
    }
    let reachable = LZ4_MAX_RATIO * block.len() as u64;
    if stated > reachable {
        return invalid(DecompressionError::BeyondBlock {
            stated,
            block: block.len() as u64,
        });
    }
    let mut out = vec![0; stated as usize];
    match lz4_flex::block::decompress_into(block, &mut out) {
        Ok(n) if n as u64 == stated => Ok(out),
        Ok(n) => invalid(DecompressionError::ShortBlock {
            written: n as u64,
            stated,
        }),
        Err(lz4_flex::block::DecompressError::OutputTooSmall { .. }) => {
            invalid(DecompressionError::LongBlock { stated })
        }
        Err(e) => invalid(DecompressionError::InvalidBlock(e.to_string())),
    }
}
