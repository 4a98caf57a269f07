//! Recorded matches in a page or in Node: [`verify_replay`] re-steps a replay file of the
//! reference server's inputs (`serve --record`, `join --record`) with the same Rust code as
//! native `rapier-pinned replay verify`, and gives its verdict in the same words.

use rapier_pinned::{PinnedWorld, Replay, ReplayVerdict, NET_INPUTS};
use rapier_pinned_net::inputs::apply;
use rapier_pinned_net::wire::decode_inputs;
use wasm_bindgen::prelude::*;

use crate::error::js_error;
use crate::pinned::{key, level};

/// What [`verify_replay`] found.
#[wasm_bindgen]
pub struct ReplayCheck {
    verified: bool,
    text: String,
    tick: Option<u64>,
    torn: Option<u64>,
}

#[wasm_bindgen]
impl ReplayCheck {
    /// Whether every tick stepped to its recorded digest.
    #[wasm_bindgen(getter)]
    pub fn verified(&self) -> bool {
        self.verified
    }

    /// The verdict in `replay verify`'s words: `ticks A..B verified (N ticks)`, or the
    /// divergence (tick, both digests, the body, its quantity and both values).
    #[wasm_bindgen(getter)]
    pub fn text(&self) -> String {
        self.text.clone()
    }

    /// The first tick whose digest differs, if one does.
    #[wasm_bindgen(getter)]
    pub fn tick(&self) -> Option<u64> {
        self.tick
    }

    /// Bytes of an incomplete last chunk (a recording cut short), not read; none when whole.
    #[wasm_bindgen(getter)]
    pub fn torn(&self) -> Option<u64> {
        self.torn
    }
}

/// Reads and re-steps the replay in `bytes` (its MACs checked with `key` when given; on the
/// level whose file's bytes are `level` when the match is on one). A file refused by the
/// reader, or of another input format than the reference server's, throws.
#[wasm_bindgen(js_name = verifyReplay)]
pub fn verify_replay(
    bytes: &[u8],
    key_bytes: Option<Vec<u8>>,
    level_bytes: Option<Vec<u8>>,
) -> Result<ReplayCheck, JsValue> {
    let key = key(key_bytes)?;
    let level = level(level_bytes)?;
    let replay = Replay::read(bytes, key.as_ref()).map_err(|e| js_error(&e.to_string()))?;
    if replay.header.input_format != NET_INPUTS {
        return Err(js_error(&format!(
            "inputs in `{}`, not the reference server's ({NET_INPUTS})",
            replay.header.input_format
        )));
    }
    let mut net_inputs = |bytes: &[u8], world: &mut PinnedWorld| {
        let inputs = decode_inputs(bytes).map_err(|e| e.to_string())?;
        apply(world, &inputs);
        Ok(())
    };
    let verdict = replay
        .verify(
            level.as_ref(),
            key.as_ref(),
            None,
            &mut net_inputs,
            &mut |_| {},
        )
        .map_err(|e| js_error(&e.to_string()))?;
    let tick = match &verdict {
        ReplayVerdict::Diverges(d) => Some(d.tick),
        ReplayVerdict::Same { .. } => None,
    };
    Ok(ReplayCheck {
        verified: tick.is_none(),
        text: verdict.to_string(),
        tick,
        torn: replay.tear.map(|t| t.len),
    })
}
