//! Admission, off the match loop: one thread accepts connections, and each, within the caps on
//! handshakes under way ([`MAX_PENDING`] in all, [`MAX_PENDING_PER_ADDRESS`] from one address),
//! is handshaken in a thread of its own. Its whole hello must come within one deadline of the
//! connection, however its bytes come ([`ByDeadline`]). A hello that passes the checks that do
//! not depend on the match's tick (physics-version, settings, match id) waits at the [`Door`]
//! until the match loop seats it at a tick boundary; every refusal reaches the loop as a line for
//! its log, with the address and the reason. The match loop never waits on a stranger: it takes
//! what has come ([`Door::poll`]) and goes on. Seated clients are not counted against the caps.

use std::collections::{HashMap, VecDeque};
use std::io::{self, Read, Write};
use std::net::{IpAddr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rapier_pinned::{PhysicsVersion, WorldConfig};

use crate::error::{NetError, Refusal};
use crate::wire::WireError;
use crate::wire::{encode_frame, is_timeout, receive_client, send, ClientMsg, Resume, ServerMsg};

/// The most handshakes under way at once (connected, hello not yet seated or refused); one more
/// connection is refused at once with the reason ([`Refusal::Busy`]).
pub const MAX_PENDING: usize = 64;

/// The most handshakes under way at once from one IP address ([`Refusal::BusyAddress`]).
pub const MAX_PENDING_PER_ADDRESS: usize = 8;

/// The stack of a handshake thread: it holds no large buffer (a hello is at most
/// [`crate::wire::MAX_CLIENT_FRAME`] bytes, on the heap).
const STACK: usize = 128 << 10;

/// The handshakes under way, in all and per address: each [`Slot`] counts one while it lives.
#[derive(Clone, Default)]
pub struct Pending(Arc<Mutex<Counts>>);

/// The counts of [`Pending`]: an address is in the map only while it has one under way, so the
/// map never outgrows the caps.
#[derive(Default)]
struct Counts {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

impl Pending {
    /// Counts one more handshake from `ip`, or says which cap is reached.
    pub fn admit(&self, ip: IpAddr) -> Result<Slot, Refusal> {
        let mut counts = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if counts.total >= MAX_PENDING {
            return Err(Refusal::Busy { max: MAX_PENDING });
        }
        let from = counts.by_address.entry(ip).or_insert(0);
        if *from >= MAX_PENDING_PER_ADDRESS {
            let max = MAX_PENDING_PER_ADDRESS;
            return Err(Refusal::BusyAddress { ip, max });
        }
        *from += 1;
        counts.total += 1;
        Ok(Slot {
            pending: self.clone(),
            ip,
        })
    }

    /// How many handshakes are under way.
    pub fn count(&self) -> usize {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).total
    }
}

/// One handshake under way, counted in its [`Pending`] until dropped.
pub struct Slot {
    pending: Pending,
    ip: IpAddr,
}

impl Drop for Slot {
    /// Counts it out.
    fn drop(&mut self) {
        let mut counts = self
            .pending
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        counts.total -= 1;
        if let Some(n) = counts.by_address.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                counts.by_address.remove(&self.ip);
            }
        }
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
    pub socket: &'a TcpStream,
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
    /// Client `id` from `from` was refused for `reason` (and told so, when it could be).
    Refused {
        id: usize,
        from: SocketAddr,
        reason: String,
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

/// What the door's threads share: whether it is closing, and every handshake's socket, to cut
/// them when it is.
#[derive(Default)]
struct Shared {
    closing: AtomicBool,
    open: Mutex<HashMap<usize, TcpStream>>,
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
    pub fn poll(&mut self, log: &mut dyn Write) -> Result<(), NetError> {
        while let Ok(admission) = self.admissions.try_recv() {
            self.take(admission, log)?;
        }
        Ok(())
    }

    /// Waits until a hello waits to be seated, at most until `deadline`: whether one does.
    pub fn wait(&mut self, deadline: Instant, log: &mut dyn Write) -> Result<bool, NetError> {
        while self.waiting.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.admissions.recv_timeout(left) {
                Ok(admission) => self.take(admission, log)?,
                Err(_) => return Ok(false),
            }
        }
        Ok(true)
    }

    /// The next hello waiting to be seated.
    pub fn next(&mut self) -> Option<Hello> {
        self.waiting.pop_front()
    }

    /// Logs a refusal, or queues a hello.
    fn take(&mut self, admission: Admission, log: &mut dyn Write) -> Result<(), NetError> {
        match admission {
            Admission::Hello(hello) => self.waiting.push_back(hello),
            Admission::Refused { id, from, reason } => {
                writeln!(log, "refused client#{id} from {from}: {reason}").map_err(NetError::Log)?
            }
        }
        Ok(())
    }

    /// Closes the door: no more connections are accepted, every handshake under way is cut and
    /// every hello not seated is refused (the match is over), each logged; waits at most `wait`
    /// for the handshake threads to report.
    pub fn close(mut self, wait: Duration, log: &mut dyn Write) -> Result<(), NetError> {
        self.shut();
        while let Some(mut hello) = self.waiting.pop_front() {
            let (id, from) = (hello.id, hello.from);
            let reason = refuse(&mut hello.stream, &Refusal::Over);
            writeln!(log, "refused client#{id} from {from}: {reason}").map_err(NetError::Log)?;
        }
        // Each handshake thread reports and drops its sender; the accept thread's is gone.
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.admissions.recv_timeout(left) {
                Ok(Admission::Hello(mut hello)) => {
                    let (id, from) = (hello.id, hello.from);
                    let reason = refuse(&mut hello.stream, &Refusal::Over);
                    writeln!(log, "refused client#{id} from {from}: {reason}")
                        .map_err(NetError::Log)?;
                }
                Ok(refused) => self.take(refused, log)?,
                Err(RecvTimeoutError::Disconnected | RecvTimeoutError::Timeout) => return Ok(()),
            }
        }
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
        let open = self.shared.open.lock();
        for socket in open.unwrap_or_else(PoisonError::into_inner).values() {
            let _ = socket.shutdown(Shutdown::Both);
        }
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
    let _ = stream.set_nonblocking(true);
    if let Ok(frame) = encode_frame(&ServerMsg::Refused {
        reason: reason.clone(),
    }) {
        let _ = stream.write_all(&frame);
    }
    let _ = stream.shutdown(Shutdown::Both);
    reason
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
                let _ = tx.send(Admission::Refused {
                    id: next_id,
                    from: SocketAddr::from(([0, 0, 0, 0], 0)),
                    reason: format!("accept failed: {e}"),
                });
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        let (id, at) = (next_id, Instant::now());
        next_id += 1;
        let slot = match shared.pending.admit(from.ip()) {
            Ok(slot) => slot,
            Err(refusal) => {
                let reason = refuse(&mut stream, &refusal);
                let _ = tx.send(Admission::Refused { id, from, reason });
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
            let _ = tx.send(Admission::Refused { id, from, reason });
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
    let lock = || shared.open.lock().unwrap_or_else(PoisonError::into_inner);
    let handle = stream.try_clone();
    let read = match handle.and_then(|h| stream.set_write_timeout(Some(timeout)).map(|()| h)) {
        Err(e) => Err(WireError::Io(e)),
        Ok(handle) => {
            // Registered before the door's closing is looked at: a door that closes after this
            // is seen here, or cuts this socket.
            lock().insert(id, handle);
            if shared.closing.load(Ordering::SeqCst) {
                lock().remove(&id);
                let reason = refuse(&mut stream, &Refusal::Over);
                return Admission::Refused { id, from, reason };
            }
            let _ = stream.set_nodelay(true);
            receive_client(&mut ByDeadline {
                socket: &stream,
                deadline: at + timeout,
            })
        }
    };
    lock().remove(&id);
    let checked = match read {
        _ if shared.closing.load(Ordering::SeqCst) => Err(Refusal::Over),
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
            let reason = refusal.to_string();
            let _ = send(
                &mut stream,
                &ServerMsg::Refused {
                    reason: reason.clone(),
                },
            );
            Admission::Refused { id, from, reason }
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
    Ok((resume, sends_inputs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handshakes_are_capped_in_all_and_per_address_and_a_slot_frees_its_place() {
        let pending = Pending::default();
        let ip = |n: u8| IpAddr::from([127, 0, 0, n]);
        let mut held: Vec<Slot> = (0..MAX_PENDING_PER_ADDRESS)
            .map(|_| pending.admit(ip(1)).unwrap())
            .collect();
        let refused = pending.admit(ip(1)).err().unwrap();
        assert!(matches!(refused, Refusal::BusyAddress { max: 8, .. }));
        assert_eq!(
            refused.to_string(),
            "too many handshakes under way from 127.0.0.1 (at most 8 at once); try again later"
        );
        // Another address still has room, up to the cap in all.
        let mut n = 2;
        while held.len() < MAX_PENDING {
            match pending.admit(ip(n)) {
                Ok(slot) => held.push(slot),
                Err(_) => n += 1,
            }
        }
        assert!(matches!(
            pending.admit(ip(200)),
            Err(Refusal::Busy { max: MAX_PENDING })
        ));
        assert_eq!(pending.count(), MAX_PENDING);
        // A slot dropped is a place free, for its address and in all; none is left counted.
        held.remove(0);
        assert!(pending.admit(ip(1)).is_ok());
        drop(held);
        assert_eq!(pending.count(), 0);
        assert!(pending.0.lock().unwrap().by_address.is_empty());
    }
}
