//! Recording a match as a replay file (`serve --record`, `join --record`; the format:
//! `docs/protocol.md` §7): the start, each tick's confirmed inputs (every seat's, as the `Tick`
//! message carries them: [`rapier_pinned::NET_INPUTS`]) and digest, a keyframe every so many
//! ticks, and the server's events. A recording that fails (a full disk) is logged once and
//! stops; the match goes on: players are not dropped because a file could not be written.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use rapier_pinned::{
    EventKind, Level, PinnedWorld, ReplayEvent, ReplayWriter, SnapshotKey, NET_INPUTS,
};

use crate::error::NetError;
use crate::inputs::Input;
use crate::wire::encode_inputs;

/// Where and how a match is recorded.
#[derive(Clone, Debug)]
pub struct RecordConfig {
    /// The replay file (created, or truncated).
    pub path: PathBuf,
    /// A keyframe after every this many ticks.
    pub keyframe_every: u32,
}

/// A replay being written; `None` inside once it failed.
pub struct Recorder {
    writer: Option<ReplayWriter<BufWriter<File>>>,
    path: PathBuf,
}

impl Recorder {
    /// Starts recording `world` (on `level`, MACs with `key`) into `config.path`.
    pub fn start(
        config: &RecordConfig,
        world: &PinnedWorld,
        level: Option<&Level>,
        key: Option<&SnapshotKey>,
    ) -> Result<Self, NetError> {
        let failed = |reason: String| NetError::Record {
            path: config.path.clone(),
            reason,
        };
        let file = File::create(&config.path).map_err(|e| failed(e.to_string()))?;
        let writer = ReplayWriter::start(
            BufWriter::new(file),
            world,
            level,
            config.keyframe_every,
            NET_INPUTS,
            key.cloned(),
        )
        .map_err(|e| failed(e.to_string()))?;
        Ok(Self {
            writer: Some(writer),
            path: config.path.clone(),
        })
    }

    /// Records the tick `world` just stepped with `inputs`.
    pub fn tick(&mut self, world: &PinnedWorld, inputs: &[Input], log: &mut dyn Write) {
        let bytes = encode_inputs(inputs);
        self.with(log, |w| w.tick(world, &bytes));
    }

    /// Records an event at `tick`.
    pub fn event(
        &mut self,
        tick: u64,
        kind: EventKind,
        client: usize,
        seat: Option<u32>,
        text: &str,
        log: &mut dyn Write,
    ) {
        let event = ReplayEvent {
            tick,
            kind,
            client: client as u32,
            seat,
            text: text.to_string(),
        };
        self.with(log, |w| w.event(&event));
    }

    /// Runs one write; on failure logs it and stops recording.
    fn with(
        &mut self,
        log: &mut dyn Write,
        write: impl FnOnce(&mut ReplayWriter<BufWriter<File>>) -> Result<(), rapier_pinned::ReplayError>,
    ) {
        let Some(writer) = self.writer.as_mut() else {
            return;
        };
        if let Err(e) = write(writer) {
            let _ = writeln!(
                log,
                "recording stopped: {}: {e} (the match goes on)",
                self.path.display()
            );
            self.writer = None;
        }
    }
}

/// The server's log, and its recording when it records: what every part of the server that
/// logs an event writes to.
pub struct Journal<'a> {
    /// The log.
    pub log: &'a mut dyn Write,
    /// The recording.
    pub recorder: Option<Recorder>,
    /// The world's tick now: the tick events are recorded at.
    pub now: u64,
}

impl Journal<'_> {
    /// Writes `line` to the log and records it as an event of `kind` at the tick now (when
    /// recording).
    pub fn log_event(
        &mut self,
        kind: EventKind,
        client: usize,
        seat: Option<u32>,
        line: &str,
    ) -> Result<(), NetError> {
        writeln!(self.log, "{line}").map_err(NetError::Log)?;
        if let Some(r) = self.recorder.as_mut() {
            r.event(self.now, kind, client, seat, line, self.log);
        }
        Ok(())
    }

    /// Records the tick `world` just stepped (when recording); events are at its tick from now.
    pub fn tick(&mut self, world: &PinnedWorld, inputs: &[Input]) {
        self.now = world.tick();
        if let Some(r) = self.recorder.as_mut() {
            r.tick(world, inputs, self.log);
        }
    }
}

impl Write for Journal<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.log.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.log.flush()
    }
}
