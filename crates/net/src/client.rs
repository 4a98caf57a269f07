//! The reference client: joins a match, restores the server's snapshot, steps in lockstep with
//! the server's confirmed inputs, reports its digest, follows a host migration; as a bot, sends
//! its player's scripted inputs ahead.
//!
//! [`Lockstep`] is that client without any I/O (sans-IO): it is given each message from the
//! server and answers with a [`Step`], the messages to send back, the lines to log, a host to
//! move to, and the end of the session. [`join`] runs it over TCP; a WebSocket client (a
//! browser's, over `rapier-pinned serve --ws`) runs the same core over its own transport, one
//! frame per binary message ([`crate::wire::encode_frame`], [`crate::wire::decode_frame`]).

use std::io::Write;
use std::net::TcpStream;
use std::ops::RangeInclusive;
use std::time::{Duration, Instant};

use rapier_pinned::{Level, PinnedWorld, SnapshotKey, WorldConfig};
use rapier_pinned_digest::state_digest;

use crate::error::{NetError, Violation};
use crate::inputs::{apply, scripted_for, seat, Action, Input};
use crate::record::{RecordConfig, Recorder};
use crate::wire::{receive, send, ClientMsg, Resume, ServerMsg};

/// What a finished session saw.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// The tick the client joined at, and its seat (`None`: a spectator).
    pub joined: u64,
    pub player: Option<u32>,
    /// The last tick, and the client's digest there (equal to the server's).
    pub tick: u64,
    pub digest: u64,
    /// Digests the client reported.
    pub reported: usize,
    /// Host migrations followed.
    pub migrations: usize,
}

/// What the client does after one message from the server ([`Lockstep::on_message`]). A
/// transport logs `log`, sends `send` in order, then follows `reconnect` or stops at `end`.
#[derive(Debug, Default)]
pub struct Step {
    /// Messages to send to the server, in order.
    pub send: Vec<ClientMsg>,
    /// Lines for the client's log, in order (`join` prints them).
    pub log: Vec<String>,
    /// The match moves to the server at this address: close this connection, connect there and
    /// send [`Lockstep::hello`] (now a resumption); the next message comes from the new host.
    pub reconnect: Option<String>,
    /// The server said goodbye and the session is over, once `send` (the client's last digest)
    /// is sent: `Ok` when the client ends at the server's tick and digest,
    /// [`NetError::EndMismatch`] with both ends when it does not.
    pub end: Option<Result<Session, NetError>>,
}

/// Where a [`Lockstep`] client is.
enum Phase {
    /// Said hello; waits for the welcome.
    Joining,
    /// Steps the world on the server's ticks.
    Playing,
    /// Told to move to `addr`, which holds the match at `tick`; waits for its resumption.
    Migrating { addr: String, tick: u64 },
    /// The session ended, at the goodbye or on an error.
    Ended,
}

/// The world a client holds once welcomed, and what the welcome said.
struct Game {
    world: PinnedWorld,
    digest_every: u64,
    input_delay: u64,
    session: Session,
}

/// The reference client's logic without I/O: restores the welcome's snapshot, steps each tick
/// the server confirms, reports its digest every `digest_every` ticks, checks the goodbye,
/// follows a migration and, as a bot, sends its player's scripted inputs ([`scripted_for`])
/// `input_delay` ticks ahead. Every refusal, divergence or message out of order is an `Err`
/// naming it, after which the session is over.
pub struct Lockstep {
    config: WorldConfig,
    level: Option<Level>,
    key: Option<SnapshotKey>,
    bot: bool,
    desync_at: Option<u64>,
    phase: Phase,
    game: Option<Game>,
}

impl Lockstep {
    /// A client of `config`'s physics-version, match and settings that checks the server's
    /// snapshot with `key` when given. A `bot` sends its player's scripted inputs; otherwise the
    /// client sends no inputs. `desync_at` nudges a body after that tick on purpose, to show
    /// that the digest exchange catches a divergence. Send [`Self::hello`] first.
    pub fn new(
        config: WorldConfig,
        key: Option<SnapshotKey>,
        bot: bool,
        desync_at: Option<u64>,
    ) -> Lockstep {
        Lockstep {
            config,
            level: None,
            key,
            bot,
            desync_at,
            phase: Phase::Joining,
            game: None,
        }
    }

    /// The same client on `level`: its world is on the level (`config` with the level's id), and
    /// it restores the welcome's snapshot with the level's bytes.
    pub fn on_level(self, level: Level) -> Lockstep {
        Lockstep {
            config: self.config.with_level(level.id()),
            level: Some(level),
            ..self
        }
    }

    /// The first message on a connection: the client's physics-version, match, settings and level;
    /// after a [`Step::reconnect`], a resumption at the migration's tick in the seat it held.
    pub fn hello(&self) -> ClientMsg {
        let resume = match (&self.phase, &self.game) {
            (Phase::Migrating { tick, .. }, Some(game)) => Some(Resume {
                tick: *tick,
                player: game.session.player,
            }),
            _ => None,
        };
        ClientMsg::Hello {
            physics_version: self.config.physics_version().get(),
            match_id: self.config.match_id(),
            settings: self.config.settings(),
            resume,
            sends_inputs: self.bot,
            level: self.config.level().map(|id| id.0),
        }
    }

    /// Takes the server's next message and says what to do ([`Step`]). An `Err` ends the
    /// session: a refusal, a snapshot that fails its checks, a divergence the server reports, a
    /// message out of order.
    pub fn on_message(&mut self, msg: ServerMsg) -> Result<Step, NetError> {
        match std::mem::replace(&mut self.phase, Phase::Ended) {
            Phase::Joining => self.welcome(msg),
            Phase::Playing => self.play(msg),
            Phase::Migrating { addr, tick } => self.resume(msg, addr, tick),
            Phase::Ended => Err(NetError::Protocol(Violation::AfterEnd(Box::new(msg)))),
        }
    }

    /// The world the client holds: `None` until the welcome.
    pub fn world(&self) -> Option<&PinnedWorld> {
        self.game.as_ref().map(|g| &g.world)
    }

    /// The session so far (`None` until the welcome): where it joined, its seat, the digests
    /// reported and migrations followed; `tick` and `digest` are set at the goodbye.
    pub fn session(&self) -> Option<&Session> {
        self.game.as_ref().map(|g| &g.session)
    }

    /// The player whose inputs this client sends: its seat if it is a bot.
    fn plays(&self) -> Option<u32> {
        let player = self.game.as_ref().and_then(|g| g.session.player);
        player.filter(|_| self.bot)
    }

    /// Joining: restores the welcome's world and sends the first inputs.
    fn welcome(&mut self, msg: ServerMsg) -> Result<Step, NetError> {
        let (tick, digest_every, player, input_delay, snapshot) = match msg {
            ServerMsg::Welcome {
                tick,
                digest_every,
                player,
                input_delay,
                snapshot,
                ..
            } => (tick, digest_every, player, input_delay, snapshot),
            ServerMsg::Refused { reason } => return Err(NetError::Refused { by: None, reason }),
            other => {
                return Err(NetError::Protocol(Violation::NotWelcome(Box::new(other))));
            }
        };
        let world = PinnedWorld::restore_on(
            self.config,
            self.level.as_ref(),
            &snapshot,
            self.key.as_ref(),
        )
        .map_err(NetError::Snapshot)?;
        if world.tick() != tick {
            return Err(NetError::SnapshotTick {
                snapshot: world.tick(),
                welcome: tick,
            });
        }
        let session = Session {
            joined: tick,
            player,
            tick,
            digest: 0,
            reported: 0,
            migrations: 0,
        };
        self.game = Some(Game {
            world,
            digest_every: digest_every.max(1),
            input_delay,
            session,
        });
        self.phase = Phase::Playing;
        Ok(Step {
            send: script(self.plays(), tick + 1..=tick + input_delay),
            log: vec![format!(
                "joined at tick {tick} as {} (snapshot {} bytes)",
                seat(player),
                snapshot.len()
            )],
            ..Step::default()
        })
    }

    /// Playing: a tick, a migration, a refused input, the goodbye or a divergence.
    fn play(&mut self, msg: ServerMsg) -> Result<Step, NetError> {
        let plays = self.plays();
        let Some(game) = self.game.as_mut() else {
            return Err(NetError::Protocol(Violation::NoWorld { doing: "playing" }));
        };
        let world = &mut game.world;
        let mut step = Step::default();
        match msg {
            ServerMsg::Tick { tick, inputs } => {
                if tick != world.tick() + 1 {
                    let after = world.tick();
                    return Err(NetError::Protocol(Violation::TickOutOfOrder {
                        tick,
                        after,
                    }));
                }
                apply(world, &inputs);
                world.step();
                let ahead = tick + game.input_delay;
                step.send = script(plays, ahead..=ahead);
                if self.desync_at == Some(tick) {
                    let nudge = [Input {
                        body: (0, 0),
                        action: Action::Impulse([0.0, 0.0, 1e-3]),
                    }];
                    apply(world, &nudge);
                    step.log
                        .push(format!("nudged body 0v0 after tick {tick} on purpose"));
                }
                if tick % game.digest_every == 0 {
                    let digest = state_digest(world.bodies());
                    step.send.push(ClientMsg::Digest { tick, digest });
                    game.session.reported += 1;
                }
                self.phase = Phase::Playing;
            }
            ServerMsg::Migrate { addr, tick } => {
                if tick != world.tick() {
                    let client = world.tick();
                    return Err(NetError::Protocol(Violation::MigrationTick {
                        tick,
                        client,
                    }));
                }
                step.reconnect = Some(addr.clone());
                self.phase = Phase::Migrating { addr, tick };
            }
            ServerMsg::InputRefused { tick, reason } => {
                step.log
                    .push(format!("inputs for tick {tick} refused: {reason}"));
                self.phase = Phase::Playing;
            }
            ServerMsg::Bye { tick, digest } => {
                let ours = state_digest(world.bodies());
                step.send.push(ClientMsg::Digest { tick, digest: ours });
                game.session.reported += 1;
                step.end = Some(if (tick, digest) != (world.tick(), ours) {
                    Err(NetError::EndMismatch {
                        server_tick: tick,
                        server_digest: digest,
                        client_tick: world.tick(),
                        client_digest: ours,
                    })
                } else {
                    (game.session.tick, game.session.digest) = (tick, ours);
                    step.log.push(format!(
                        "done tick {tick} digest {ours:016x}, equal to the server's"
                    ));
                    Ok(game.session.clone())
                });
            }
            ServerMsg::Diverged {
                tick,
                server,
                client,
            } => {
                return Err(NetError::Diverged {
                    tick,
                    server,
                    client,
                });
            }
            other => return Err(NetError::Protocol(Violation::Unexpected(Box::new(other)))),
        }
        Ok(step)
    }

    /// Migrating: the new host at `addr` resumes the match at `tick`; the inputs sent to the
    /// old host for the next ticks are gone with it, so they are sent again.
    fn resume(&mut self, msg: ServerMsg, addr: String, tick: u64) -> Result<Step, NetError> {
        let input_delay = match msg {
            ServerMsg::Resumed {
                tick: t,
                input_delay,
                ..
            } if t == tick => input_delay,
            ServerMsg::Refused { reason } => {
                return Err(NetError::Refused {
                    by: Some(addr),
                    reason,
                })
            }
            other => {
                let got = Box::new(other);
                return Err(NetError::Protocol(Violation::NotResumption { addr, got }));
            }
        };
        let plays = self.plays();
        let Some(game) = self.game.as_mut() else {
            return Err(NetError::Protocol(Violation::NoWorld { doing: "resuming" }));
        };
        game.input_delay = input_delay;
        game.session.migrations += 1;
        self.phase = Phase::Playing;
        Ok(Step {
            send: script(plays, tick + 1..=tick + input_delay),
            log: vec![format!("migrated to {addr} at tick {tick}")],
            ..Step::default()
        })
    }
}

/// Player `plays`'s scripted inputs for each of `ticks` (nothing for `None`: not a bot, or a
/// spectator).
fn script(plays: Option<u32>, ticks: RangeInclusive<u64>) -> Vec<ClientMsg> {
    let Some(player) = plays else {
        return Vec::new();
    };
    ticks
        .map(|tick| ClientMsg::Inputs {
            tick,
            inputs: scripted_for(player, tick),
        })
        .collect()
}

/// Joins the match at `addr` as a client of `config`'s physics-version and match, restores the
/// snapshot (checked with `key` when given) and steps until the server says goodbye: a
/// [`Lockstep`] over TCP, writing its log lines to `log`. Every refusal, divergence or broken
/// connection is an `Err` naming it. A `bot` sends its player's scripted inputs
/// ([`scripted_for`]) `input_delay` ticks ahead; otherwise the client sends no inputs.
/// `desync_at` nudges a body after that tick on purpose, to show that the digest exchange
/// catches a divergence.
pub fn join(
    addr: &str,
    config: WorldConfig,
    key: Option<&SnapshotKey>,
    bot: bool,
    desync_at: Option<u64>,
    log: &mut dyn Write,
) -> Result<Session, NetError> {
    join_with(
        Lockstep::new(config, key.cloned(), bot, desync_at),
        addr,
        None,
        log,
    )
}

/// [`join`] with a client made by the caller (e.g. [`Lockstep::on_level`]), recording what it
/// sees into a replay file with `record`: from the welcome's world, each tick's inputs and the
/// client's own digest after it (a client that diverges records its divergence).
pub fn join_with(
    mut client: Lockstep,
    addr: &str,
    record: Option<&RecordConfig>,
    log: &mut dyn Write,
) -> Result<Session, NetError> {
    let mut stream = connect(addr, &client.hello())?;
    let mut recorder: Option<Recorder> = None;
    loop {
        let msg = receive::<ServerMsg>(&mut stream)?;
        let inputs = match (&msg, record) {
            (ServerMsg::Tick { inputs, .. }, Some(_)) => Some(inputs.clone()),
            _ => None,
        };
        let step = client.on_message(msg)?;
        if let (Some(config), Some(world)) = (record, client.world()) {
            match (&mut recorder, inputs) {
                (None, _) => {
                    let level = client.level.as_ref();
                    recorder = Some(Recorder::start(config, world, level, client.key.as_ref())?);
                }
                (Some(r), Some(inputs)) => {
                    r.tick(world, &inputs, log);
                }
                (Some(_), None) => {}
            }
        }
        for line in &step.log {
            writeln!(log, "{line}").map_err(NetError::Log)?;
        }
        for msg in &step.send {
            send(&mut stream, msg).map_err(NetError::Io)?;
        }
        if let Some(end) = step.end {
            return end;
        }
        if let Some(addr) = step.reconnect {
            drop(stream);
            let hello = client.hello();
            // The new host may still be starting (restoring the snapshot): retry for a while.
            let deadline = Instant::now() + Duration::from_secs(30);
            stream = loop {
                match connect(&addr, &hello) {
                    Ok(stream) => break stream,
                    Err(e) if Instant::now() > deadline => return Err(e),
                    Err(_) => std::thread::sleep(Duration::from_millis(20)),
                }
            };
        }
    }
}

/// Connects and says `hello`.
fn connect(addr: &str, hello: &ClientMsg) -> Result<TcpStream, NetError> {
    let failed = |source| NetError::Connect {
        addr: addr.to_string(),
        source,
    };
    let mut stream = TcpStream::connect(addr).map_err(failed)?;
    // Inputs are small frames the server may be waiting for: no Nagle delay.
    stream.set_nodelay(true).map_err(failed)?;
    send(&mut stream, hello).map_err(failed)?;
    Ok(stream)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arena(config: WorldConfig) -> PinnedWorld {
        let scene = rapier_pinned_scenes::find("arena").unwrap();
        PinnedWorld::adopt(config, scene.build(config.params())).unwrap()
    }

    #[test]
    fn the_core_restores_steps_reports_follows_a_migration_and_checks_the_goodbye() {
        let config = WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap();
        let mut server = arena(config);
        for _ in 0..10 {
            server.step();
        }
        let mut client = Lockstep::new(config, None, true, None);
        assert!(matches!(
            client.hello(),
            ClientMsg::Hello {
                resume: None,
                sends_inputs: true,
                ..
            }
        ));
        let snapshot = server.snapshot(None);
        let step = client
            .on_message(ServerMsg::Welcome {
                tick: 10,
                digest_every: 5,
                player: Some(1),
                input_delay: 2,
                level: None,
                snapshot: snapshot.clone(),
            })
            .unwrap();
        assert_eq!(step.send, script(Some(1), 11..=12));
        assert_eq!(
            step.log,
            [format!(
                "joined at tick 10 as player 1 (snapshot {} bytes)",
                snapshot.len()
            )]
        );
        for tick in 11..=20 {
            let inputs = scripted_for(1, tick);
            apply(&mut server, &inputs);
            server.step();
            let step = client.on_message(ServerMsg::Tick { tick, inputs }).unwrap();
            let mut expected = script(Some(1), tick + 2..=tick + 2);
            if tick % 5 == 0 {
                let digest = state_digest(server.bodies());
                expected.push(ClientMsg::Digest { tick, digest });
            }
            assert_eq!(step.send, expected);
        }
        let step = client
            .on_message(ServerMsg::Migrate {
                addr: "b:1".into(),
                tick: 20,
            })
            .unwrap();
        assert_eq!(step.reconnect.as_deref(), Some("b:1"));
        assert!(matches!(
            client.hello(),
            ClientMsg::Hello {
                resume: Some(Resume {
                    tick: 20,
                    player: Some(1)
                }),
                ..
            }
        ));
        let step = client
            .on_message(ServerMsg::Resumed {
                tick: 20,
                digest_every: 5,
                player: Some(1),
                input_delay: 3,
            })
            .unwrap();
        assert_eq!(step.send, script(Some(1), 21..=23));
        assert_eq!(step.log, ["migrated to b:1 at tick 20"]);
        let digest = state_digest(server.bodies());
        let step = client
            .on_message(ServerMsg::Bye { tick: 20, digest })
            .unwrap();
        assert_eq!(step.send, [ClientMsg::Digest { tick: 20, digest }]);
        let session = Session {
            joined: 10,
            player: Some(1),
            tick: 20,
            digest,
            reported: 3,
            migrations: 1,
        };
        assert_eq!(
            step.end.map(|end| end.map_err(|e| e.to_string())),
            Some(Ok(session))
        );
        assert!(client
            .on_message(ServerMsg::Bye { tick: 20, digest })
            .is_err());
    }

    #[test]
    fn the_core_refuses_what_is_out_of_order_and_reports_its_last_digest_at_a_wrong_end() {
        let config = WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap();
        let mut client = Lockstep::new(config, None, false, None);
        let refused = ServerMsg::Refused {
            reason: "no".into(),
        };
        assert_eq!(
            client.on_message(refused).unwrap_err().to_string(),
            "refused by the server: no"
        );
        let welcome = ServerMsg::Welcome {
            tick: 0,
            digest_every: 60,
            player: None,
            input_delay: 2,
            level: None,
            snapshot: arena(config).snapshot(None),
        };
        let mut client = Lockstep::new(config, None, false, None);
        let step = client.on_message(welcome.clone()).unwrap();
        assert!(step.send.is_empty(), "a spectator sends no inputs");
        let tick = ServerMsg::Tick {
            tick: 2,
            inputs: Vec::new(),
        };
        assert_eq!(
            client.on_message(tick).unwrap_err().to_string(),
            "tick 2 after tick 0"
        );

        let mut client = Lockstep::new(config, None, false, None);
        client.on_message(welcome).unwrap();
        let ours = state_digest(client.world().unwrap().bodies());
        let step = client
            .on_message(ServerMsg::Bye { tick: 0, digest: 1 })
            .unwrap();
        assert_eq!(
            step.send,
            [ClientMsg::Digest {
                tick: 0,
                digest: ours
            }]
        );
        assert_eq!(
            step.end.map(|end| end.map_err(|e| e.to_string())),
            Some(Err(format!(
                "at the end: server tick 0 digest 0000000000000001, client tick 0 digest {ours:016x}"
            )))
        );
    }
}
