//! The snapshot format's constants (`docs/protocol.md` §3): a leaf, so the codec and the
//! snapshot module both read them without importing each other.

/// The first 8 bytes of every snapshot.
pub const MAGIC: [u8; 8] = *b"RPINSNAP";
/// Snapshot format 1, what [`crate::PinnedWorld::snapshot`] writes: the payload stored as it is.
/// Still read, with exactly its checks and verdicts, by every build.
pub const FORMAT_VERSION: u16 = 1;
/// Snapshot format 2, what [`crate::PinnedWorld::snapshot_compressed`] writes: format 1 plus
/// flag bit 1 ([`FLAG_COMPRESSED`]).
pub const FORMAT_VERSION_2: u16 = 2;
/// Snapshot format 3, what [`crate::PinnedWorld::snapshot_linked`] writes: the payload as a
/// linked record stream (`docs/protocol.md` §3.2) after the id of the level it refers to, the
/// stream compressed when flag bit 1 is set.
pub const FORMAT_VERSION_3: u16 = 3;
/// Snapshot format 4, what [`crate::PinnedWorld::snapshot_delta`] writes: a delta, the payload
/// as a record stream against a baseline payload the receiver holds (`docs/protocol.md` §3.4),
/// after the baseline's id, the stream compressed when flag bit 1 is set.
pub const FORMAT_VERSION_4: u16 = 4;
/// Flag bit 0: the MAC field holds a keyed MAC.
pub const FLAG_MAC: u16 = 1 << 0;
/// Flag bit 1: the payload is stored compressed (u32 little-endian uncompressed length, then one
/// LZ4 block). Defined by formats 2 and 3 (in format 3 the record stream is compressed); refused by
/// format 1 (`UnknownFlags`).
pub const FLAG_COMPRESSED: u16 = 1 << 1;
/// The header length in bytes.
pub const HEADER_LEN: usize = 128;
/// The largest payload length a reader accepts (1 GiB).
pub const PAYLOAD_LIMIT: u64 = 1 << 30;
