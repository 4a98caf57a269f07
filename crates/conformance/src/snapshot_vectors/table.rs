//! [`generate`]: every vector of a physics-version, one row each, grouped by the check of
//! `docs/protocol.md` §5 that decides it. The table is the one list of vectors; the rows are
//! made by `row`, their bytes from `base` and `level` with `byte_edits` and `world_edits`.

use rapier_pinned::testing::{compress_payload, seal};
use rapier_pinned::{
    PhysicsVersion, SnapshotHeader, FLAG_COMPRESSED, FORMAT_VERSION_2, HEADER_LEN, PAYLOAD_LIMIT,
};

use super::base::{
    unauthenticated, Base, DELTA_TICK, MATCH_ID, OTHER_KEY, TEST_KEY, TICK, WIDE_MATCH_ID,
};
use super::byte_edits::{first_match_offset_high_byte, flip, literal_stream, overwrite, resealed};
use super::header::{FLAGS_AT, FORMAT_AT, LENGTH_AT, MAC_AT, TICK_AT};
use super::level::LevelBase;
use super::manifest::Vector;
use super::row::{accept, assemble, reject};
use super::world_edits::{
    ball_gone_still_active, collider_gone_contact_kept, collider_gone_still_listed,
    dt_one_thirtieth, gravity_y_9_8, impulse_joint_to_nothing, infinite_velocity,
    multibody_joint_to_nothing, nan_translation, no_bodies,
};
use crate::{ConformanceError, GenerateError};

/// Every vector of `version` with its file's bytes, in manifest order (vectors sharing a file
/// carry the same bytes).
///
/// A table, one row a vector, grouped by the check of `docs/protocol.md` §5 that decides it
/// (format 2's last). A row is three lines: what it is (`accept` with the verdict of the
/// snapshotted world, or `reject` with the error kind); its bytes, made from `Base` and
/// `LevelBase` with `byte_edits` and `world_edits`, or the file of an earlier row (`Row::file`),
/// and how the reader restores it (`Row::key`, `Row::match_id`; otherwise without a key into
/// match 7); what was done to the bytes (`Row::about`).
pub fn generate(version: PhysicsVersion) -> Result<Vec<(Vector, Vec<u8>)>, ConformanceError> {
    Ok(table(version)?)
}

/// [`generate`]'s table; `Err`: the generator's reason.
fn table(version: PhysicsVersion) -> Result<Vec<(Vector, Vec<u8>)>, GenerateError> {
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
            .bytes(seal(SnapshotHeader { physics_version: PhysicsVersion::new(0), tick: TICK, config_digest: b.config.digest() }, &b.payload, None))
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
