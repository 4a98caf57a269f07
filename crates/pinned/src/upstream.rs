//! Import of plain-upstream worlds: `bincode::serialize(&PhysicsWorld)` of pristine rapier3d
//! 0.36.1, as a physics-version 1 snapshot.
//!
//! The fork's `IntegrationParameters` ends with two fields upstream lacks:
//! `ccd_relative_motion: bool` (patch `0004-rapier-ccd-relative-motion`, one byte) and
//! `ccd_persistent_contact_policy` (patch `0006-rapier-ccd-persistent-contact-policy`, serialized
//! as a u8). A `PhysicsWorld` serializes `gravity` (3 × f32, 12 bytes) then
//! `integration_parameters`, whose every field has a fixed size in bincode's fixint encoding;
//! so in an upstream world the two bytes belong at offset `12 + (fork parameters length − 2)`.
//! The import inserts `0, 0` there (`false`, `Upstream`: upstream's behaviour), decodes the result
//! as a fork world, and requires it to pass every check of a physics-version 1 restore.

use crate::codec;
use crate::config::WorldConfig;
use crate::error::Error;
use crate::snapshot::{self, SnapshotHeader};
use crate::version::PhysicsVersion;
use rapier3d::prelude::IntegrationParameters;

/// Bytes of the gravity vector at the start of a serialized `PhysicsWorld`.
const GRAVITY_LEN: usize = 12;
/// Bytes the fork's two settings add to `IntegrationParameters`.
const FORK_FIELDS_LEN: usize = 2;

/// Converts an upstream rapier3d 0.36.1 bincode world into a physics-version 1 snapshot for
/// `config` (which must be physics-version 1), at tick 0, unauthenticated.
pub fn import_upstream(config: WorldConfig, bytes: &[u8]) -> Result<Vec<u8>, Error> {
    if config.physics_version() != PhysicsVersion::V1 {
        return Err(Error::PhysicsVersionMismatch {
            snapshot: PhysicsVersion::V1,
            world: config.physics_version(),
        });
    }
    let params_len = codec::encode(&IntegrationParameters::default()).len();
    let at = GRAVITY_LEN + params_len - FORK_FIELDS_LEN;
    if bytes.len() < at {
        return Err(Error::Truncated {
            needed: at as u64,
            got: bytes.len() as u64,
        });
    }
    let mut payload = Vec::with_capacity(bytes.len() + FORK_FIELDS_LEN);
    payload.extend_from_slice(&bytes[..at]);
    payload.extend_from_slice(&[0; FORK_FIELDS_LEN]);
    payload.extend_from_slice(&bytes[at..]);
    let sealed = snapshot::seal(
        SnapshotHeader {
            physics_version: PhysicsVersion::V1,
            tick: 0,
            config_digest: config.digest(),
        },
        &payload,
        None,
    );
    // Every check of a restore, so nothing that would be refused later is produced.
    let held = snapshot::Held::default();
    snapshot::open(&config, &sealed, None, held, snapshot::Match::Checked)?;
    Ok(sealed)
}
