//! Admission, off the match loop: one thread accepts connections, and each, within the caps on
//! handshakes under way ([`MAX_PENDING`] in all, [`MAX_PENDING_PER_ADDRESS`] from one address),
//! is handshaken in a thread of its own. Its whole hello must come within one deadline of the
//! connection, however its bytes come ([`ByDeadline`]). A hello that passes the checks that do
//! not depend on the match's tick (physics-version, settings, match id) waits at the [`Door`]
//! until the match loop seats it at a tick boundary; every refusal reaches the loop as a line for
//! its log, with the address and the reason. The match loop never waits on a stranger: it takes
//! what has come ([`Door::poll`]) and goes on. Seated clients are not counted against the caps.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::{self, Read, Write};
use std::net::{IpAddr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rapier_pinned::{EventKind, LevelId, PhysicsVersion, WorldConfig};

use crate::error::{NetError, Refusal};
use crate::record::Journal;
use crate::wire::WireError;
use crate::wire::{encode_frame, is_timeout, receive_client, send, ClientMsg, Resume, ServerMsg};

/// The most handshakes under way at once (connected, hello not yet seated or refused); one more
/// connection takes the place of the oldest ([`Pending`], [`Refusal::Evicted`]).
pub const MAX_PENDING: usize = 64;

/// The most handshakes under way at once from one IP address ([`Refusal::BusyAddress`]).
pub const MAX_PENDING_PER_ADDRESS: usize = 8;

/// The stack of a handshake thread: it holds no large buffer (a hello is at most
/// [`crate::wire::MAX_CLIENT_FRAME`] bytes, on the heap).
const STACK: usize = 128 << 10;

/// The handshakes under way, in all and per address: each [`Slot`] counts one while it lives.
/// When as many as [`MAX_PENDING`] are under way, a new one takes the place of the one under way
/// longest, whose socket is cut ([`Refusal::Evicted`]): a client that says its hello at once
/// (a few milliseconds) is never the oldest, so strangers that hold their connections open
/// cannot keep it out, from however many addresses.
#[derive(Clone, Default)]
pub struct Pending(Arc<Mutex<Counts>>);

/// The counts of [`Pending`] and each slot's socket by age: an address is in the map only while
/// it has one under way, so nothing outgrows the caps.
#[derive(Default)]
struct Counts {
    by_address: HashMap<IpAddr, usize>,
    /// Every slot counted, by its number (the oldest first), with its socket.
    open: BTreeMap<u64, (IpAddr, TcpStream)>,
    next: u64,
}

impl Counts {
    /// Stops counting slot `seq`, if it still is; whether it was.
    fn remove(&mut self, seq: u64) -> bool {
        let Some((ip, _)) = self.open.remove(&seq) else {
            return false;
        };
        if let Some(n) = self.by_address.get_mut(&ip) {
            *n -= 1;
            if *n == 0 {
                self.by_address.remove(&ip);
            }
        }
        true
    }
}

impl Pending {
    /// Counts one more handshake from `ip` on `socket` (a handle to cut it by), or says why not:
    /// its address's cap is reached. At the cap in all the oldest is cut to make room.
    pub fn admit(&self, ip: IpAddr, socket: TcpStream) -> Result<Slot, Refusal> {
        let mut counts = self.lock();
        let from = counts.by_address.get(&ip).copied().unwrap_or(0);
        if from >= MAX_PENDING_PER_ADDRESS {
            let max = MAX_PENDING_PER_ADDRESS;
            return Err(Refusal::BusyAddress { ip, max });
        }
        if counts.open.len() >= MAX_PENDING {
            let oldest = *counts.open.keys().next().expect("at the cap");
            let (_, socket) = &counts.open[&oldest];
            let _ = socket.shutdown(Shutdown::Both);
            counts.remove(oldest);
        }
        *counts.by_address.entry(ip).or_insert(0) += 1;
        let seq = counts.next;
        counts.next += 1;
        counts.open.insert(seq, (ip, socket));
        Ok(Slot {
            pending: self.clone(),
            seq,
        })
    }

    /// [`Self::admit`] for `stream`, accepted from `peer`: the slot, or why not as the text a
    /// refusal sends and logs.
    pub fn admit_accepted(&self, stream: &TcpStream, peer: SocketAddr) -> Result<Slot, String> {
        let handle = stream.try_clone().map_err(|e| format!("connection: {e}"))?;
        self.admit(peer.ip(), handle).map_err(|r| r.to_string())
    }

    /// How many handshakes are under way.
    pub fn count(&self) -> usize {
        self.lock().open.len()
    }

    /// Cuts every handshake under way (each still counts until its slot is dropped).
    pub fn cut_all(&self) {
        for (_, socket) in self.lock().open.values() {
            let _ = socket.shutdown(Shutdown::Both);
        }
    }

    /// The counts, locked.
    fn lock(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// One handshake under way, counted in its [`Pending`] until dropped or cut to make room.
pub struct Slot {
    pending: Pending,
    seq: u64,
}

impl Slot {
    /// Whether it was cut to make room for a newer one.
    pub fn evicted(&self) -> bool {
        !self.pending.lock().open.contains_key(&self.seq)
    }
}

impl Drop for Slot {
    /// Counts it out.
    fn drop(&mut self) {
        self.pending.lock().remove(self.seq);
    }
}

/// Reads `socket` by `deadline`: at most what is left of it, and `TimedOut` once it has passed.
pub fn read_by(socket: &TcpStream, deadline: Instant, buf: &mut [u8]) -> io::Result<usize> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the deadline passed",
        ));
    }
    socket.set_read_timeout(Some(left))?;
    let mut socket = socket;
    socket.read(buf)
}

/// A socket read by one deadline in total ([`read_by`]): a peer sending a byte at a time cannot
/// stretch it.
pub struct ByDeadline<'a> {
    /// The socket read.
    pub socket: &'a TcpStream,
    /// When reads stop.
    pub deadline: Instant,
}

impl Read for ByDeadline<'_> {
    /// Reads by the deadline.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_by(self.socket, self.deadline, buf)
    }
}

/// A hello that passed the checks of [`check_hello`], waiting to be seated.
pub(crate) struct Hello {
    pub id: usize,
    pub stream: TcpStream,
    pub from: SocketAddr,
    pub resume: Option<Resume>,
    pub sends_inputs: bool,
    /// Counts it as under way until it is seated or refused.
    pub _slot: Slot,
}

/// What the door hands the match loop.
enum Admission {
    Hello(Hello),
    /// A line for the log: the door failed to accept.
    Failed(String),
    /// Client `id` from `from` was refused for `reason` (and told so, when it could be);
    /// `hello`: after it sent a message (a player of another version, settings, match or
    /// level), not a connection that never said one (what a replay records).
    Refused {
        id: usize,
        from: SocketAddr,
        reason: String,
        hello: bool,
    },
}

/// The match's door: the thread accepting connections, the handshakes it started, and the hellos
/// waiting to be seated.
pub(crate) struct Door {
    admissions: Receiver<Admission>,
    waiting: VecDeque<Hello>,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
    addr: SocketAddr,
}

/// What the door's threads share: whether it is closing, and the handshakes under way, to cut
/// them when it is.
#[derive(Default)]
struct Shared {
    closing: AtomicBool,
    pending: Pending,
}

impl Door {
    /// Opens the door on `listener` for a match of `config`: a hello must come within `timeout`
    /// of its connection.
    pub fn open(listener: TcpListener, config: WorldConfig, timeout: Duration) -> io::Result<Door> {
        let addr = listener.local_addr()?;
        let (tx, admissions) = channel();
        let shared = Arc::new(Shared::default());
        let all = shared.clone();
        let accept = std::thread::Builder::new()
            .name("accept".into())
            .stack_size(STACK)
            .spawn(move || accept(&listener, config, timeout, &all, &tx))?;
        Ok(Door {
            admissions,
            waiting: VecDeque::new(),
            shared,
            accept: Some(accept),
            addr,
        })
    }

    /// Takes every admission come so far, without waiting: logs each refusal; a hello waits to
    /// be seated ([`Self::next`]).
    pub fn poll(&mut self, log: &mut Journal<'_>) -> Result<(), NetError> {
        while let Ok(admission) = self.admissions.try_recv() {
            self.take(admission, log)?;
        }
        Ok(())
    }

    /// Waits until a hello waits to be seated, at most until `deadline`: whether one does.
    pub fn wait(&mut self, deadline: Instant, log: &mut Journal<'_>) -> Result<bool, NetError> {
        while self.waiting.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.admissions.recv_timeout(left) {
                Ok(admission) => self.take(admission, log)?,
                Err(_) => return Ok(false),
            }
        }
        Ok(true)
    }

    /// How many hellos wait to be seated.
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// The next hello waiting to be seated.
    pub fn next(&mut self) -> Option<Hello> {
        self.waiting.pop_front()
    }

    /// Logs a refusal, or queues a hello.
    fn take(&mut self, admission: Admission, log: &mut Journal<'_>) -> Result<(), NetError> {
        match admission {
            Admission::Hello(hello) => self.waiting.push_back(hello),
            Admission::Refused {
                id,
                from,
                reason,
                hello,
            } => {
                let line = format!("refused client#{id} from {from}: {reason}");
                // A connection that never said hello is no part of the match: logged only.
                match hello {
                    true => log.log_event(EventKind::Refused, id, None, &line)?,
                    false => writeln!(log, "{line}").map_err(NetError::Log)?,
                }
            }
            Admission::Failed(line) => writeln!(log, "{line}").map_err(NetError::Log)?,
        }
        Ok(())
    }

    /// Closes the door: no more connections are accepted, every handshake under way is cut and
    /// every hello not seated is refused (the match is over), each logged; waits at most `wait`
    /// for the handshake threads to report.
    pub fn close(mut self, wait: Duration, log: &mut Journal<'_>) -> Result<(), NetError> {
        self.shut();
        // Each handshake thread reports and drops its sender; the accept thread's is gone.
        let deadline = Instant::now() + wait;
        while let Ok(admission) = self
            .admissions
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.take(admission, log)?;
        }
        while let Some(mut hello) = self.waiting.pop_front() {
            let (id, from) = (hello.id, hello.from);
            let reason = refuse(&mut hello.stream, &Refusal::Over);
            let line = format!("refused client#{id} from {from}: {reason}");
            log.log_event(EventKind::Refused, id, None, &line)?;
        }
        Ok(())
    }
}

impl Door {
    /// Stops accepting (the accept thread ends, dropping the listener) and cuts every handshake
    /// under way; once is enough.
    fn shut(&mut self) {
        self.shared.closing.store(true, Ordering::SeqCst);
        if let Some(accept) = self.accept.take() {
            // Wakes the accept thread, which sees the door closing and ends.
            let wake = loopback(self.addr);
            if TcpStream::connect_timeout(&wake, Duration::from_secs(1)).is_ok() {
                let _ = accept.join();
            }
        }
        // No more are admitted: the accept thread has ended, or sees the door closing.
        self.shared.pending.cut_all();
    }
}

impl Drop for Door {
    /// A match that ends early (a join point that timed out) leaves no thread accepting.
    fn drop(&mut self) {
        self.shut();
    }
}

/// A listening address as a client on this machine dials it: an unspecified one (`0.0.0.0`,
/// `[::]`) is reached on loopback.
pub fn loopback(mut addr: SocketAddr) -> SocketAddr {
    if addr.ip().is_unspecified() {
        addr.set_ip(match addr {
            SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    addr
}

/// Tells a client it is refused, if it can without waiting, and returns the reason.
pub(crate) fn refuse(stream: &mut TcpStream, refusal: &Refusal) -> String {
    let reason = refusal.to_string();
    refuse_with(stream, &reason);
    reason
}

/// Sends `Refused { reason }` if the socket takes it without waiting, and shuts the socket down.
fn refuse_with(stream: &mut TcpStream, reason: &str) {
    let _ = stream.set_nonblocking(true);
    let reason = reason.to_string();
    if let Ok(frame) = encode_frame(&ServerMsg::Refused { reason }) {
        let _ = stream.write_all(&frame);
    }
    let _ = stream.shutdown(Shutdown::Both);
}

/// The accept loop: numbers each connection (from 1), refuses it at once over a cap, or starts
/// its handshake in a thread of its own; ends when the door closes.
fn accept(
    listener: &TcpListener,
    config: WorldConfig,
    timeout: Duration,
    shared: &Arc<Shared>,
    tx: &Sender<Admission>,
) {
    let mut next_id = 1;
    loop {
        let accepted = listener.accept();
        if shared.closing.load(Ordering::SeqCst) {
            return;
        }
        let (mut stream, from) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of descriptors and the like: no client to refuse; do not spin.
                let _ = tx.send(Admission::Failed(format!("accept failed: {e}")));
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        let (id, at) = (next_id, Instant::now());
        next_id += 1;
        let slot = match shared.pending.admit_accepted(&stream, from) {
            Ok(slot) => slot,
            Err(reason) => {
                refuse_with(&mut stream, &reason);
                let _ = tx.send(Admission::Refused {
                    id,
                    from,
                    reason,
                    hello: false,
                });
                continue;
            }
        };
        let (all, tx2) = (shared.clone(), tx.clone());
        let started = std::thread::Builder::new()
            .name(format!("hello client#{id}"))
            .stack_size(STACK)
            .spawn(move || {
                let end = handshake(id, stream, from, at, config, timeout, slot, &all);
                let _ = tx2.send(end);
            });
        if let Err(e) = started {
            // The closure, and so the connection and its slot, is dropped.
            let reason = format!("no thread for its handshake: {e}");
            let _ = tx.send(Admission::Refused {
                id,
                from,
                reason,
                hello: false,
            });
        }
    }
}

/// Reads client `id`'s hello by `timeout` after `at`, when it connected, and checks it
/// ([`check_hello`]): the hello, or the refusal (sent to the client, when it can take it).
#[allow(clippy::too_many_arguments)]
fn handshake(
    id: usize,
    mut stream: TcpStream,
    from: SocketAddr,
    at: Instant,
    config: WorldConfig,
    timeout: Duration,
    slot: Slot,
    shared: &Shared,
) -> Admission {
    let read = match stream.set_write_timeout(Some(timeout)) {
        Err(e) => Err(WireError::Io(e)),
        Ok(()) => {
            let _ = stream.set_nodelay(true);
            receive_client(&mut ByDeadline {
                socket: &stream,
                deadline: at + timeout,
            })
        }
    };
    let hello = read.is_ok();
    let checked = match read {
        _ if shared.closing.load(Ordering::SeqCst) => Err(Refusal::Over),
        Err(_) if slot.evicted() => Err(Refusal::Evicted { max: MAX_PENDING }),
        Ok(msg) => check_hello(&config, msg),
        Err(WireError::Io(e)) if is_timeout(&e) => Err(Refusal::NoHello { timeout }),
        Err(e) => Err(Refusal::BadHello(e)),
    };
    match checked {
        Ok((resume, sends_inputs)) => Admission::Hello(Hello {
            id,
            stream,
            from,
            resume,
            sends_inputs,
            _slot: slot,
        }),
        Err(refusal) => {
            // Its socket may be cut already: nothing is sent then.
            let reason = refusal.to_string();
            let _ = send(
                &mut stream,
                &ServerMsg::Refused {
                    reason: reason.clone(),
                },
            );
            Admission::Refused {
                id,
                from,
                reason,
                hello,
            }
        }
    }
}

/// Checks what does not depend on the match's tick: the first message is a hello of `config`'s
/// physics-version, settings and match. Its resume and whether it sends inputs, or the refusal.
pub fn check_hello(
    config: &WorldConfig,
    msg: ClientMsg,
) -> Result<(Option<Resume>, bool), Refusal> {
    let ClientMsg::Hello {
        physics_version,
        match_id,
        settings,
        resume,
        sends_inputs,
        level,
    } = msg
    else {
        return Err(Refusal::NotHello(Box::new(msg)));
    };
    let version = PhysicsVersion::new(physics_version);
    if version != config.physics_version() {
        let server = config.physics_version();
        return Err(Refusal::PhysicsVersion {
            client: version,
            server,
        });
    }
    let differ = config.settings().diff(&settings);
    if !differ.is_empty() {
        let server = config.settings();
        return Err(Refusal::Settings { differ, server });
    }
    if match_id != config.match_id() {
        let server = config.match_id();
        return Err(Refusal::Match {
            client: match_id,
            server,
        });
    }
    let level = level.map(LevelId);
    if level != config.level() {
        return Err(Refusal::Level {
            client: level,
            server: config.level(),
        });
    }
    Ok((resume, sends_inputs))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The server's end of a new loopback connection to `listener`, and the client's.
    fn pair(listener: &TcpListener) -> (TcpStream, TcpStream) {
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        (listener.accept().unwrap().0, client)
    }

    #[test]
    fn handshakes_are_capped_per_address_and_the_oldest_makes_room_past_the_cap_in_all() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let pending = Pending::default();
        let ip = |n: usize| IpAddr::from([127, 0, (n / 256) as u8, (n % 256) as u8]);
        let mut held = Vec::new();
        for _ in 0..MAX_PENDING_PER_ADDRESS {
            let (server, client) = pair(&listener);
            held.push((pending.admit(ip(1), server).unwrap(), client));
        }
        let refused = pending.admit(ip(1), pair(&listener).0).err().unwrap();
        assert!(matches!(refused, Refusal::BusyAddress { max: 8, .. }));
        assert_eq!(
            refused.to_string(),
            "too many handshakes under way from 127.0.0.1 (at most 8 at once); try again later"
        );
        // Other addresses fill the cap in all; one more makes room by cutting the oldest.
        for n in 2.. {
            if held.len() == MAX_PENDING {
                break;
            }
            let (server, client) = pair(&listener);
            held.push((pending.admit(ip(n), server).unwrap(), client));
        }
        assert!(held.iter().all(|(slot, _)| !slot.evicted()));
        let newest = pending.admit(ip(999), pair(&listener).0).unwrap();
        assert_eq!(pending.count(), MAX_PENDING);
        let (oldest, client) = &mut held[0];
        assert!(oldest.evicted());
        assert_eq!(client.read(&mut [0; 1]).unwrap(), 0, "cut");
        assert!(held[1..].iter().all(|(slot, _)| !slot.evicted()));
        // Its address has a place again; a slot dropped frees its own; none stays counted.
        let again = pending.admit(ip(1), pair(&listener).0).unwrap();
        drop((held, newest, again));
        assert_eq!(pending.count(), 0);
        assert!(pending.lock().by_address.is_empty());
    }
}
