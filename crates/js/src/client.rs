//! The reference client in a page: [`NetClient`] is `rapier_pinned_net::client::Lockstep`, the
//! native client's logic without I/O, over whatever carries the frames (a browser's WebSocket to
//! `rapier-pinned serve --ws`: one wire frame per binary message). JavaScript hands it each
//! frame from the server and sends the frames it returns.

use rapier_pinned_net::client::{Lockstep, Session};
use rapier_pinned_net::wire::{decode_frame, encode_frame, ServerMsg};
use rapier_pinned_net::NetError;
use wasm_bindgen::prelude::*;

use crate::error::js_error;
use crate::pinned::config;

/// A client of a match that sends no inputs (the server may seat it): joins, restores the
/// server's snapshot and steps in lockstep, reporting its digest.
#[wasm_bindgen]
pub struct NetClient {
    core: Lockstep,
    log: Vec<String>,
    end: Option<Result<Session, NetError>>,
}

fn frames(msgs: &[rapier_pinned_net::wire::ClientMsg]) -> Result<Vec<js_sys::Uint8Array>, JsValue> {
    msgs.iter()
        .map(|m| {
            let bytes = encode_frame(m).map_err(|e| js_error(&e.to_string()))?;
            Ok(js_sys::Uint8Array::from(bytes.as_slice()))
        })
        .collect()
}

#[wasm_bindgen]
impl NetClient {
    /// A client of `version`, `match_id` and `settings` (as [`crate::pinned::config`] takes
    /// them), checking the snapshot's MAC with `key` when given, on the level whose bytes are
    /// `level` when given.
    #[wasm_bindgen(constructor)]
    pub fn new(
        version: u32,
        match_id: u64,
        settings: Option<Vec<f64>>,
        key: Option<Vec<u8>>,
        level: Option<Vec<u8>>,
    ) -> Result<NetClient, JsValue> {
        let config = config(version, match_id, settings)?;
        let key = crate::pinned::key(key)?;
        let mut core = Lockstep::new(config, key, false, None);
        if let Some(level) = crate::pinned::level(level)? {
            core = core.on_level(level);
        }
        Ok(NetClient {
            core,
            log: Vec::new(),
            end: None,
        })
    }

    /// The hello frame to send first.
    pub fn hello(&self) -> Result<Vec<js_sys::Uint8Array>, JsValue> {
        frames(&[self.core.hello()])
    }

    /// Takes one frame from the server; returns the frames to send back, in order. Any error
    /// (a refusal, a divergence, a frame that is not the protocol's) throws and ends the session.
    #[wasm_bindgen(js_name = onFrame)]
    pub fn on_frame(&mut self, bytes: &[u8]) -> Result<Vec<js_sys::Uint8Array>, JsValue> {
        let msg: ServerMsg = decode_frame(bytes).map_err(|e| js_error(&e.to_string()))?;
        let step = self
            .core
            .on_message(msg)
            .map_err(|e| js_error(&e.to_string()))?;
        self.log.extend(step.log);
        if step.reconnect.is_some() {
            return Err(js_error("host migration is not followed over WebSocket"));
        }
        self.end = step.end;
        frames(&step.send)
    }

    /// The log lines so far, taken.
    #[wasm_bindgen(js_name = takeLog)]
    pub fn take_log(&mut self) -> Vec<String> {
        std::mem::take(&mut self.log)
    }

    /// Whether the server said goodbye.
    #[wasm_bindgen(getter)]
    pub fn ended(&self) -> bool {
        self.end.is_some()
    }

    /// How the session ended: `[joined, tick, reported]` and the digest as 16 hex digits, or
    /// throws with the reason the ends differ, or because it has not ended.
    pub fn outcome(&self) -> Result<Vec<String>, JsValue> {
        match &self.end {
            Some(Ok(s)) => Ok(vec![
                s.joined.to_string(),
                s.tick.to_string(),
                s.reported.to_string(),
                format!("{:016x}", s.digest),
            ]),
            Some(Err(e)) => Err(js_error(&e.to_string())),
            None => Err(js_error("the session has not ended")),
        }
    }

    /// The client's tick (0 before the welcome).
    pub fn tick(&self) -> f64 {
        self.core.world().map_or(0.0, |w| w.tick() as f64)
    }
}
