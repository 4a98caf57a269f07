//! Snapshot format 2 with a compressed payload (flag bit 1, `docs/protocol.md` §3.1): it restores
//! to exactly the world a format-1 snapshot gives, for every catalog scene; format 1 keeps its
//! verdicts (the compressed flag is `UnknownFlags` there); the decompression is bounded and every
//! bad compressed payload is refused with a typed error, after the checksum and the MAC, never with
//! a panic and never leaving the target changed.

mod common;

use common::{
    assert_steps_alike, config, flipped_header_kind, tower, SplitMix, Tally, MATCH, VERSION,
};
use rapier3d::prelude::Vector;
use rapier_pinned::testing::{
    compress_payload, decompress_payload, encode_world, seal, seal_compressed, seal_stored,
};
use rapier_pinned::{
    inspect, Error, ErrorKind, PhysicsVersion, PinnedWorld, SnapshotHeader, SnapshotKey,
    WorldConfig, FLAG_COMPRESSED, FORMAT_VERSION, FORMAT_VERSION_2, HEADER_LEN, PAYLOAD_LIMIT,
};
use rapier_pinned_scenes::catalog;

/// `stored` framed as a format-2 compressed snapshot of the target's config at tick 3, with a
/// valid checksum: what reaches the decompression.
fn sealed_stored(stored: &[u8], key: Option<&SnapshotKey>) -> Vec<u8> {
    seal_stored(
        FORMAT_VERSION_2,
        FLAG_COMPRESSED,
        SnapshotHeader::new(&config(), 3),
        stored,
        key,
    )
}

/// The offset, in a stored compressed payload, of the high byte of the block's first match
/// offset (after the first sequence's token, literal-length bytes and literals).
fn first_match_offset_high_byte(stored: &[u8]) -> usize {
    let block = &stored[4..];
    let mut i = 1;
    let mut literals = (block[0] >> 4) as usize;
    if literals == 15 {
        loop {
            let b = block[i];
            i += 1;
            literals += b as usize;
            if b != 255 {
                break;
            }
        }
    }
    4 + i + literals + 1
}

#[test]
fn every_scene_restores_the_same_world() {
    for scene in catalog() {
        for version in [PhysicsVersion::V1, PhysicsVersion::V2] {
            let config = WorldConfig::new(version).unwrap().with_match_id(MATCH);
            let mut built = scene.build(config.params());
            // Gravity is pinned: zero-gravity scenes run under the pinned gravity here.
            built.gravity = Vector::from_array(config.entry().gravity);
            let mut world = PinnedWorld::adopt(config, built).unwrap();
            let steps = if scene.name == "mixed_5000" { 3 } else { 20 };
            for _ in 0..steps {
                world.step();
            }
            let key = SnapshotKey::new([3; 32]);
            let plain = world.snapshot(None);
            for k in [None, Some(&key)] {
                let bytes = world.snapshot_compressed(k);
                assert_eq!(bytes, world.snapshot_compressed(k), "{}: twice", scene.name);
                let info = inspect(&bytes).unwrap();
                assert_eq!(info.format_version, FORMAT_VERSION_2);
                assert!(info.compressed);
                assert_eq!(info.authenticated, k.is_some());
                assert_eq!(
                    decompress_payload(&bytes[HEADER_LEN..]).unwrap(),
                    plain[HEADER_LEN..],
                    "{}: the stored payload decompresses to the format-1 payload",
                    scene.name
                );
                let mut restored = PinnedWorld::restore(config, &bytes, k).unwrap();
                assert_eq!(restored.tick(), world.tick());
                assert_eq!(restored.snapshot(None), plain, "{} v{version}", scene.name);
                assert_eq!(restored.snapshot_compressed(k), bytes);
                if k.is_none() && scene.name != "mixed_5000" {
                    let mut original = PinnedWorld::restore(config, &plain, None).unwrap();
                    let what = format!("{} v{version}", scene.name);
                    assert_steps_alike(&mut original, &mut restored, 10, &what);
                }
            }
            let info = inspect(&plain).unwrap();
            assert_eq!(info.format_version, FORMAT_VERSION);
            assert!(!info.compressed);
            println!(
                "{} v{version}: {} bytes plain, {} compressed ({:.2}x)",
                scene.name,
                plain.len(),
                world.snapshot_compressed(None).len(),
                plain.len() as f64 / world.snapshot_compressed(None).len() as f64
            );
        }
    }
}

#[test]
fn formats_and_flags() {
    let mut target = tower(5);
    let mut tally = Tally::default();
    let source = tower(12);
    let payload = encode_world(source.world());
    let stored = compress_payload(&payload);
    let digest = config().digest();
    let frame = |format: u16, flags: u16, stored: &[u8]| {
        seal_stored(
            format,
            flags,
            SnapshotHeader {
                physics_version: VERSION,
                tick: 12,
                config_digest: digest,
            },
            stored,
            None,
        )
    };
    // Format 2 without the flag: the payload as it is.
    tally.attempt(
        &mut target,
        &frame(FORMAT_VERSION_2, 0, &payload),
        None,
        None,
        "format 2, uncompressed",
    );
    assert_eq!(target.snapshot(None), source.snapshot(None));
    assert_eq!(
        frame(FORMAT_VERSION_2, FLAG_COMPRESSED, &stored),
        source.snapshot_compressed(None)
    );
    assert_eq!(frame(FORMAT_VERSION, 0, &payload), source.snapshot(None));
    let mut target = tower(5);
    for (case, bytes, kind) in [
        (
            "format 1 with the compressed flag",
            frame(FORMAT_VERSION, FLAG_COMPRESSED, &stored),
            ErrorKind::UnknownFlags,
        ),
        (
            "format 1 with the compressed flag, uncompressed payload",
            frame(FORMAT_VERSION, FLAG_COMPRESSED, &payload),
            ErrorKind::UnknownFlags,
        ),
        (
            "format 2, flag bit 2",
            frame(FORMAT_VERSION_2, FLAG_COMPRESSED | 1 << 2, &stored),
            ErrorKind::UnknownFlags,
        ),
        (
            "format 2, flag bit 15",
            frame(FORMAT_VERSION_2, 1 << 15, &payload),
            ErrorKind::UnknownFlags,
        ),
        (
            "format 2 without the flag, compressed payload",
            frame(FORMAT_VERSION_2, 0, &stored),
            ErrorKind::Undecodable,
        ),
        (
            // Its first 4 bytes, gravity.x = -0.0, read as the stated length: 2^31.
            "format 2 with the flag, uncompressed payload",
            frame(FORMAT_VERSION_2, FLAG_COMPRESSED, &payload),
            ErrorKind::PayloadTooLarge,
        ),
        (
            "format 0",
            frame(0, FLAG_COMPRESSED, &stored),
            ErrorKind::UnknownFormatVersion,
        ),
        (
            // Format 3 reads its first 32 bytes as the id of a level it needs.
            "format 3 over a format-2 stored payload",
            frame(3, FLAG_COMPRESSED, &stored),
            ErrorKind::LevelMissing,
        ),
        (
            // Format 4 (a delta) reads them as the id of the baseline it is written against.
            "format 4 over a format-2 stored payload",
            frame(4, FLAG_COMPRESSED, &stored),
            ErrorKind::BaselineMissing,
        ),
        (
            "format 5",
            frame(5, FLAG_COMPRESSED, &stored),
            ErrorKind::UnknownFormatVersion,
        ),
        (
            "format 65535",
            frame(u16::MAX, 0, &payload),
            ErrorKind::UnknownFormatVersion,
        ),
    ] {
        if let Some(err) = tally.attempt(&mut target, &bytes, None, Some(kind), case) {
            println!("{case}: {err}");
        }
    }
    assert_eq!(
        inspect(&frame(FORMAT_VERSION, FLAG_COMPRESSED, &stored))
            .unwrap_err()
            .kind(),
        ErrorKind::UnknownFlags
    );
    tally.finish("formats and flags");
}

#[test]
fn framing_and_integrity() {
    let key = SnapshotKey::new([0x5a; 32]);
    let mut target = tower(5);
    let mut tally = Tally::default();
    let source = tower(20);
    for keyed in [false, true] {
        let k = keyed.then_some(&key);
        let good = source.snapshot_compressed(k);
        let stored_len = good.len() - HEADER_LEN;
        for len in (0..HEADER_LEN).chain((0..64).map(|i| HEADER_LEN + i * stored_len / 64)) {
            let case = format!("truncated to {len} (keyed {keyed})");
            let kind = Some(ErrorKind::Truncated);
            tally.attempt(&mut target, &good[..len], k, kind, &case);
        }
        for byte in 0..HEADER_LEN {
            for bit in 0..8 {
                let mut bytes = good.clone();
                bytes[byte] ^= 1 << bit;
                let expected = flipped_header_kind(&good, byte, bit, keyed);
                let case = format!("header byte {byte} bit {bit} flipped (keyed {keyed})");
                tally.attempt(&mut target, &bytes, k, Some(expected), &case);
            }
        }
        // Stored-payload flips without re-sealing: the checksum comes before the decompression.
        let mut rng = SplitMix(20261202);
        for _ in 0..256 {
            let at = HEADER_LEN + (rng.next() % stored_len as u64) as usize;
            let bit = rng.next() % 8;
            let mut bytes = good.clone();
            bytes[at] ^= 1 << bit;
            let case = format!("stored byte {at} bit {bit} flipped (keyed {keyed})");
            let kind = Some(ErrorKind::ChecksumMismatch);
            tally.attempt(&mut target, &bytes, k, kind, &case);
        }
        let mut bytes = good.clone();
        bytes.push(0);
        let kind = Some(ErrorKind::TrailingBytes);
        tally.attempt(&mut target, &bytes, k, kind, "a trailing byte");
        tally.attempt(&mut target, &good, k, None, "valid");
        assert_eq!(target.snapshot(None), source.snapshot(None));
        target = tower(5);
    }
    tally.finish("compressed: framing and integrity");
}

#[test]
fn bad_compressed_payloads() {
    let mut target = tower(5);
    let mut tally = Tally::default();
    let source = tower(3);
    let payload = encode_world(source.world());
    let stored = compress_payload(&payload);
    let block = &stored[4..];
    let with_stated = |n: u32| [&n.to_le_bytes()[..], block].concat();
    let n = payload.len() as u32;
    let mut cases: Vec<(String, Vec<u8>, ErrorKind)> = vec![
        ("empty".into(), vec![], ErrorKind::Decompression),
        (
            "3 bytes".into(),
            stored[..3].to_vec(),
            ErrorKind::Decompression,
        ),
        (
            "length prefix only".into(),
            stored[..4].to_vec(),
            ErrorKind::Decompression,
        ),
        (
            "stated 2^30 + 1".into(),
            with_stated(PAYLOAD_LIMIT as u32 + 1),
            ErrorKind::PayloadTooLarge,
        ),
        (
            "stated 2^32 - 1".into(),
            with_stated(u32::MAX),
            ErrorKind::PayloadTooLarge,
        ),
        (
            "stated 2^30 (more than 255 x the block)".into(),
            with_stated(PAYLOAD_LIMIT as u32),
            ErrorKind::Decompression,
        ),
        (
            "stated one byte more".into(),
            with_stated(n + 1),
            ErrorKind::Decompression,
        ),
        (
            "stated one byte less".into(),
            with_stated(n - 1),
            ErrorKind::Decompression,
        ),
        ("stated 0".into(), with_stated(0), ErrorKind::Decompression),
        (
            "first match offset's bit 15 flipped".into(),
            {
                let mut s = stored.clone();
                s[first_match_offset_high_byte(&stored)] ^= 0x80;
                s
            },
            ErrorKind::Decompression,
        ),
        (
            "valid LZ4 of 64 bytes 0xff".into(),
            compress_payload(&[0xff; 64]),
            ErrorKind::Undecodable,
        ),
        (
            "valid LZ4 of nothing".into(),
            compress_payload(&[]),
            ErrorKind::Undecodable,
        ),
    ];
    for cut in [1, 2, 10, block.len() / 2, block.len() - 1] {
        cases.push((
            format!("block without its last {cut} bytes"),
            stored[..stored.len() - cut].to_vec(),
            ErrorKind::Decompression,
        ));
    }
    for (case, s, kind) in cases {
        let err = tally.attempt(
            &mut target,
            &sealed_stored(&s, None),
            None,
            Some(kind),
            &case,
        );
        if let Some(err) = err {
            println!("{case}: {err}");
        }
        assert_eq!(decompress_payload(&s).err().map(|e| e.kind()), {
            match kind {
                ErrorKind::Undecodable => None,
                k => Some(k),
            }
        });
    }
    // The key is checked before anything is decompressed.
    let key = SnapshotKey::new([1; 32]);
    let junk = with_stated(n + 1);
    let kind = Some(ErrorKind::MacMissing);
    tally.attempt(
        &mut target,
        &sealed_stored(&junk, None),
        Some(&key),
        kind,
        "no MAC",
    );
    let wrong = SnapshotKey::new([2; 32]);
    let kind = Some(ErrorKind::MacMismatch);
    let bytes = sealed_stored(&junk, Some(&wrong));
    tally.attempt(&mut target, &bytes, Some(&key), kind, "wrong MAC");
    let kind = Some(ErrorKind::Decompression);
    let bytes = sealed_stored(&junk, Some(&key));
    tally.attempt(&mut target, &bytes, Some(&key), kind, "right MAC");
    // The compressed snapshot restores.
    let good = seal_compressed(SnapshotHeader::new(&config(), 3), &payload, None);
    assert_eq!(good, sealed_stored(&stored, None));
    tally.attempt(&mut target, &good, None, None, "valid");
    tally.finish("bad compressed payloads");
}

/// Every single-bit flip of a stored compressed payload, re-sealed (valid checksum): a typed
/// verdict, no panic, the target unchanged on error.
#[test]
fn resealed_bit_flips_of_the_stored_payload() {
    let mut target = tower(5);
    let source = tower(3);
    let stored = compress_payload(&encode_world(source.world()));
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    let mut cases = 0;
    let mut rng = SplitMix(99);
    // Every bit of the prefix and of the first 256 bytes of the block, then 1024 sampled ones.
    let positions: Vec<(usize, u32)> = (0..260.min(stored.len()))
        .flat_map(|at| (0..8).map(move |bit| (at, bit)))
        .chain((0..1024).map(|_| {
            (
                (rng.next() % stored.len() as u64) as usize,
                (rng.next() % 8) as u32,
            )
        }))
        .collect();
    for (at, bit) in positions {
        let mut s = stored.clone();
        s[at] ^= 1 << bit;
        let bytes = sealed_stored(&s, None);
        let before = (target.snapshot(None), target.tick());
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            target.restore_into(&bytes, None)
        }))
        .unwrap_or_else(|_| panic!("byte {at} bit {bit}: panicked"));
        cases += 1;
        let name = match &result {
            Ok(()) => "accepted".to_string(),
            Err(e) => {
                assert_eq!((target.snapshot(None), target.tick()), before, "{e}");
                assert!(!e.to_string().contains("panic while"), "{e}");
                format!("{:?}", e.kind())
            }
        };
        *kinds.entry(name).or_default() += 1;
        if result.is_ok() {
            target = tower(5);
        }
    }
    println!("{cases} re-sealed single-bit flips of the stored payload: {kinds:?}");
    assert!(kinds.contains_key("Decompression"));
}

#[test]
fn decompress_payload_is_bounded() {
    let payload = vec![7u8; 100_000];
    let stored = compress_payload(&payload);
    assert!(stored.len() < 1000, "{}", stored.len());
    assert_eq!(decompress_payload(&stored).unwrap(), payload);
    // Exactly what 255 x the block allows is not refused by the bound itself.
    let block_len = stored.len() as u64 - 4;
    let most = (255 * block_len) as u32;
    let mut s = stored.clone();
    s[..4].copy_from_slice(&most.to_le_bytes());
    let err = decompress_payload(&s).unwrap_err();
    assert!(
        err.to_string().contains("decompresses to 100000 bytes"),
        "{err}"
    );
    s[..4].copy_from_slice(&(most + 1).to_le_bytes());
    let err = decompress_payload(&s).unwrap_err();
    assert!(err.to_string().contains("can expand to"), "{err}");
    assert!(matches!(
        decompress_payload(&[0, 0, 0, 0x40, 0]).unwrap_err(),
        Error::Decompression(_)
    ));
    assert!(matches!(
        decompress_payload(&[1, 0, 0, 0x40, 0]).unwrap_err(),
        Error::PayloadTooLarge {
            claimed: 0x4000_0001,
            limit: PAYLOAD_LIMIT
        }
    ));
}

#[test]
fn format_1_is_unchanged() {
    // `snapshot` writes format 1, and `seal` frames format 1, byte for byte as before.
    let source = tower(7);
    let bytes = source.snapshot(None);
    assert_eq!(&bytes[8..10], &1u16.to_le_bytes());
    assert_eq!(&bytes[10..12], &0u16.to_le_bytes());
    let payload = encode_world(source.world());
    assert_eq!(
        bytes,
        seal(SnapshotHeader::new(&config(), 7), &payload, None)
    );
    assert_eq!(
        bytes,
        seal_stored(
            FORMAT_VERSION,
            0,
            SnapshotHeader::new(&config(), 7),
            &payload,
            None
        )
    );
}
