//! The byte-mutation kit: a snapshot's bytes overwritten, flipped, resealed or reframed over
//! another payload, a record stream of one literal record, and the offset in an LZ4 block that
//! a flipped bit sends out of bounds. Each rejection's bytes are made with these from the base
//! snapshots, so that its verdict follows from what was changed.

use rapier_pinned::HEADER_LEN;

use super::header::{reseal, LENGTH_AT};
use crate::GenerateError;

/// `bytes` with `new` written at offset `at`; the checksum is not recomputed.
pub(super) fn overwrite(bytes: &[u8], at: usize, new: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[at..at + new.len()].copy_from_slice(new);
    out
}

/// [`overwrite`], then the checksum recomputed.
pub(super) fn resealed(bytes: &[u8], at: usize, new: &[u8]) -> Vec<u8> {
    let mut out = overwrite(bytes, at, new);
    reseal(&mut out, None);
    out
}

/// `bytes` with the bits of `mask` flipped in byte `at`; the checksum is not recomputed.
pub(super) fn flip(bytes: &[u8], at: usize, mask: u8) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[at] ^= mask;
    out
}

/// The header of `snapshot` over `payload`: its length field and checksum recomputed, its MAC
/// field (if any) kept.
pub(super) fn reframed(snapshot: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut out = overwrite(
        &snapshot[..HEADER_LEN],
        LENGTH_AT,
        &(payload.len() as u64).to_le_bytes(),
    );
    out.extend_from_slice(payload);
    reseal(&mut out, None);
    out
}

/// A record stream of one literal record: the expanded length (u64 LE), tag 0, the length (u32
/// LE), `payload`.
pub(super) fn literal_stream(payload: &[u8]) -> Vec<u8> {
    let mut out = (payload.len() as u64).to_le_bytes().to_vec();
    out.push(0);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The offset, in a stored compressed payload, of the high byte of its LZ4 block's first match
/// offset: after the u32 length, the first sequence's token, literal-length bytes and literals.
pub(super) fn first_match_offset_high_byte(stored: &[u8]) -> Result<usize, GenerateError> {
    let block = &stored[4..];
    let mut i = 1;
    let mut literals = (block[0] >> 4) as usize;
    if literals == 15 {
        loop {
            let b = *block.get(i).ok_or(GenerateError::LiteralLengthCut)?;
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
        return Err(GenerateError::NoMatch);
    }
    Ok(4 + at)
}
