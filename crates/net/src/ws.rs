//! `serve --ws ADDR`: WebSocket clients of the reference server (a browser's), bridged to its
//! own TCP listener (docs/multiplayer.md, "WebSocket transport").
//!
//! Each WebSocket binary message carries exactly one wire frame, byte for byte the frame a TCP
//! client sends or receives (`crate::wire`). Each accepted connection is relayed to a
//! loopback TCP connection to the server: a binary message from the client, once checked to be
//! one whole frame of a client message (of at most [`MAX_CLIENT_FRAME`] payload bytes), is
//! written to the TCP connection as it is; each whole frame read from the TCP connection goes to
//! the client as one binary message. The lockstep server stays one loop over one listener, and a
//! WebSocket client is a client like any other (seated, refused, logged, waited for, dropped when
//! it stops reading).
//!
//! Bounds. The loopback connection is opened only when the client's first frame has come, and
//! the HTTP upgrade and that first frame share one deadline, `timeout` after the connection
//! (in total, however the client dribbles its bytes or pings), so a slow or silent WebSocket
//! never holds the server's accept loop. A write to the client that makes no progress within
//! `timeout` ends that connection (the server then sees it leave), so a client that stops reading
//! never holds the match. The connections not linked yet are bounded as the server bounds its
//! handshakes ([`admission::Pending`]): at most [`admission::MAX_PENDING_PER_ADDRESS`] from one
//! address (one more gets close 1013, try again later, with the reason) and
//! [`admission::MAX_PENDING`] in all (one more takes the place of the oldest, which is cut). A
//! linked connection is no longer counted.
//!
//! Refusals. Before the link, a text message or a binary message that is not exactly one frame of
//! a client message gets `Refused { reason }` as a frame (the reasons of the TCP server: `bad
//! hello: ...`) and then a close frame; after it, a close frame with the reason (the server sees
//! the client leave). Either way only that connection closes, with a log line. The bridge never
//! panics: a thread the OS refuses drops that connection with a log line.
//!
//! Sync `tungstenite`, one thread per connection and one more once linked, each blocking on one
//! side: the thread that reads the client owns one WebSocket end, the thread that reads the server
//! another, and both write through one lock that takes whole WebSocket frames ([`Shared`]). Why
//! the connection ended is kept outside that lock, so a write blocked on a slow client never keeps
//! the other end from seeing that it is over; the close frame and that mark are one write under
//! the lock, so no frame follows a close frame. Once linked, the reader of the client blocks with
//! no timeout: the client's frames, its close frame (the answer to ours), or the socket cut by the
//! other end (a failed write, a client that does not answer our close frame within [`LINGER`])
//! wake it.

use std::io::{self, ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{
    channel, sync_channel, Receiver, RecvTimeoutError, Sender, SyncSender, TrySendError,
};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::admission::{self, read_by, Pending, Slot};
use crate::error::Refusal;
use crate::wire::{
    decode_frame, encode_frame, is_timeout, read_frame, ClientMsg, ServerMsg, WireError,
    HEADER_LEN, MAX_CLIENT_FRAME,
};
use tungstenite::error::{CapacityError, ProtocolError};
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tungstenite::{Bytes, Error, HandshakeError, Message, WebSocket};

/// The stack of each bridge thread: it holds no large buffer (frames live on the heap).
const STACK: usize = 256 << 10;

/// How long a closing connection waits for the client's close frame before it is cut.
const LINGER: Duration = Duration::from_secs(1);

/// How many connections over a cap on handshakes wait to be refused with a close frame; more are
/// dropped at once.
const BUSY_QUEUE: usize = 8;

/// How long a connection over a cap has to upgrade before it is refused (at most
/// the timeout).
const BUSY_WAIT: Duration = Duration::from_secs(2);

/// Why a connection ends when the client closes it.
const CLIENT_CLOSED: &str = "the client closed";

/// Why a connection ends when the server closes its side.
const SERVER_CLOSED: &str = "the server closed the connection";

/// Writes one line to the server's log (stdout), ignoring a closed stdout rather than panicking.
fn say(line: &str) {
    let _ = writeln!(io::stdout(), "{line}");
}

/// A thread of the bridge: named, with a small stack.
fn thread(name: String) -> std::thread::Builder {
    std::thread::Builder::new().name(name).stack_size(STACK)
}

/// The connections of the bridge, counted.
#[derive(Default)]
struct Counts {
    /// The connections not linked yet (upgrade and first frame under way), within the server's
    /// caps on handshakes ([`admission::Pending`]).
    pending: Pending,
    /// The connections relayed to the server, which the end of `serve` waits for.
    linked: AtomicUsize,
}

/// The bridge's connections: the end of `serve` waits for the linked ones, so that the server's
/// last frames are relayed and each connection's line is logged before the process exits.
#[derive(Clone, Default)]
pub struct Bridges(Arc<Counts>);

impl Bridges {
    /// Waits until every linked connection has ended and logged its line, at most `timeout`.
    pub fn wait(&self, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while self.0.linked.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// One more linked connection.
    fn link(&self) -> Linked {
        self.0.linked.fetch_add(1, Ordering::SeqCst);
        Linked(self.clone())
    }
}

/// One linked connection, counted while it lives.
struct Linked(Bridges);

impl Drop for Linked {
    /// Counts it out.
    fn drop(&mut self) {
        self.0 .0.linked.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Accepts WebSocket connections on `listener` in a background thread, for the life of the
/// process, bridging each, in threads of its own, to the server listening on `server`.
/// `timeout` bounds the HTTP upgrade and the client's first frame together, and each write to the
/// client. Returns the connections to wait for at the end, or why the threads could not start.
pub fn spawn(listener: TcpListener, server: SocketAddr, timeout: Duration) -> io::Result<Bridges> {
    let bridges = Bridges::default();
    let (busy, over) = sync_channel(BUSY_QUEUE);
    thread("websocket busy".into()).spawn(move || {
        for (socket, peer, why) in over {
            turn_away(socket, peer, timeout, why);
        }
    })?;
    let all = bridges.clone();
    thread("websocket accept".into())
        .spawn(move || accept(&listener, server, timeout, &all, &busy))?;
    Ok(bridges)
}

/// The accept loop: each connection is bridged in a thread of its own, or, over a cap on
/// connections not linked yet, handed to the thread that refuses it ([`turn_away`]).
fn accept(
    listener: &TcpListener,
    server: SocketAddr,
    timeout: Duration,
    bridges: &Bridges,
    busy: &SyncSender<(TcpStream, SocketAddr, String)>,
) {
    loop {
        let (socket, peer) = match listener.accept() {
            Ok(accepted) => accepted,
            Err(e) => {
                say(&format!("websocket accept failed: {e}"));
                // Out of descriptors and the like: do not spin.
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        let slot = match bridges.0.pending.admit_accepted(&socket, peer) {
            Ok(slot) => slot,
            Err(why) => {
                if let Err(
                    TrySendError::Full((_, peer, why)) | TrySendError::Disconnected((_, peer, why)),
                ) = busy.try_send((socket, peer, why))
                {
                    say(&format!("websocket {peer} refused: {why}"));
                }
                continue;
            }
        };
        let linked = bridges.clone();
        let started = thread(format!("websocket {peer}"))
            .spawn(move || bridge(socket, peer, server, timeout, &linked, slot));
        if let Err(e) = started {
            // The closure, and so the connection and its slot, is dropped.
            say(&format!("websocket {peer} refused: no thread for it: {e}"));
        }
    }
}

/// Refuses a connection over a cap for `why`: once upgraded (within [`BUSY_WAIT`]),
/// `Refused { reason }` and close 1013; logs `websocket PEER refused: WHY`.
fn turn_away(socket: TcpStream, peer: SocketAddr, timeout: Duration, why: String) {
    let wait = timeout.min(BUSY_WAIT);
    let line = match upgrade(&socket, Instant::now() + wait, wait) {
        Ok(mut client) => {
            refuse(&mut client, CloseCode::Again, &why, true);
            why
        }
        Err(e) => format!("{why} ({e})"),
    };
    say(&format!("websocket {peer} refused: {line}"));
}

/// A client's connection as both WebSocket ends see it: each write is whole WebSocket frames
/// under the lock, so the two ends' frames never interleave; why the connection is over, once it
/// is, outside the lock (the first reason given wins), and nothing is written after.
struct Shared {
    /// The socket's write handle, under the lock.
    writer: Mutex<TcpStream>,
    /// A handle to shut the socket down without the lock (a write may hold it).
    socket: TcpStream,
    /// Why the connection is over.
    closed: OnceLock<String>,
    /// The socket's write timeout, for the reason a write fails with.
    timeout: Duration,
}

impl Shared {
    /// Marks the connection over for `why`, unless it already is; returns the reason that won.
    fn close(&self, why: impl Into<String>) -> &str {
        self.closed.get_or_init(|| why.into())
    }

    /// Why the connection is over, if it is.
    fn closed(&self) -> Option<&str> {
        self.closed.get().map(String::as_str)
    }

    /// Marks the connection over for `why` and shuts the socket down: the end reading the client
    /// wakes at once.
    fn cut(&self, why: impl Into<String>) {
        self.close(why);
        let _ = self.socket.shutdown(Shutdown::Both);
    }

    /// Why a write to the client failed with `e`.
    fn failed(&self, e: &io::Error) -> String {
        if is_timeout(e) {
            format!(
                "the client is not reading: a write made no progress within {:?}",
                self.timeout
            )
        } else {
            format!("the client's connection failed: {e}")
        }
    }
}

/// One WebSocket end's stream: reads from its own handle of the socket (only one end reads), by
/// a deadline if it has one; writes through [`Shared`].
struct End {
    read: TcpStream,
    shared: Arc<Shared>,
    /// Reads fail with `TimedOut` once it has passed (the socket's read timeout is what is left).
    deadline: Option<Instant>,
    /// Set while writing a close frame: the write that carries it marks the connection closed
    /// for this reason, under the same lock, so that no frame follows it.
    last: Option<String>,
}

impl End {
    /// An end of `shared`'s connection reading `socket`, by `deadline`.
    fn new(socket: &TcpStream, shared: &Arc<Shared>, deadline: Option<Instant>) -> io::Result<End> {
        Ok(End {
            read: socket.try_clone()?,
            shared: shared.clone(),
            deadline,
            last: None,
        })
    }

    /// Reads by `deadline` from now on; `None`: reads block until data or the end.
    fn until(&mut self, deadline: Option<Instant>) -> io::Result<()> {
        self.deadline = deadline;
        if deadline.is_none() {
            self.read.set_read_timeout(None)?;
        }
        Ok(())
    }
}

impl Read for End {
    /// Reads from the socket, waiting at most until the deadline ([`read_by`]).
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.deadline {
            Some(deadline) => read_by(&self.read, deadline, buf),
            None => self.read.read(buf),
        }
    }
}

impl Write for End {
    /// Writes all of `buf` (whole frames, as tungstenite hands them over) under the lock, or
    /// fails once the connection is closed. Any failure is the end: part of a frame may have
    /// gone out, so the connection is marked closed and the socket shut down (tungstenite would
    /// otherwise write its buffer again).
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut socket = self
            .shared
            .writer
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if self.shared.closed().is_some() {
            return Err(io::Error::new(
                ErrorKind::BrokenPipe,
                "the connection is closed",
            ));
        }
        match socket.write_all(buf) {
            Ok(()) => {
                if let Some(why) = self.last.take() {
                    self.shared.close(why);
                }
                Ok(buf.len())
            }
            Err(e) => {
                let why = self.last.take().unwrap_or_else(|| self.shared.failed(&e));
                self.shared.close(why);
                let _ = socket.shutdown(Shutdown::Both);
                Err(e)
            }
        }
    }

    /// Nothing to flush: each write is on the socket.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The limits of a client's messages, one frame of at most [`MAX_CLIENT_FRAME`] payload bytes;
/// frames are written at once. The end that reads the client keeps a small read buffer (a
/// client's message is small), the end that only writes the server's frames a minimal one it
/// never fills.
fn config(reads: bool) -> WebSocketConfig {
    let most = HEADER_LEN + MAX_CLIENT_FRAME as usize;
    WebSocketConfig::default()
        .max_message_size(Some(most))
        .max_frame_size(Some(most))
        .read_buffer_size(if reads { 4 << 10 } else { 64 })
        .write_buffer_size(0)
}

/// How a bridged connection ended, for its log line.
struct Ending {
    /// The loopback connection's local address (the server logs it as the client's), once linked.
    via: Option<SocketAddr>,
    /// The bridge refused the client (rather than either side closing).
    refused: bool,
    why: String,
}

/// Bridges one accepted connection from `peer` to the server at `server` until either side
/// ends it, then logs one line: `websocket PEER [via LOCAL] closed: WHY` or `... refused: WHY`.
/// It holds its `slot` among the handshakes under way until it is linked (or until just before
/// the line), and once relayed to the server counts in `bridges`' linked connections until the
/// line is logged.
fn bridge(
    socket: TcpStream,
    peer: SocketAddr,
    server: SocketAddr,
    timeout: Duration,
    bridges: &Bridges,
    slot: Slot,
) {
    let (mut slot, mut linked) = (Some(slot), None);
    let mut end = run(&socket, server, timeout, || {
        slot = None;
        linked = Some(bridges.link());
    });
    if slot.as_ref().is_some_and(Slot::evicted) {
        let max = admission::MAX_PENDING;
        end.why = Refusal::Evicted { max }.to_string();
        end.refused = true;
    }
    let via = end.via.map(|a| format!(" via {a}")).unwrap_or_default();
    let verdict = if end.refused { "refused" } else { "closed" };
    // The slot is free once the line is out (a client that saw it can come back); the link is
    // waited for until then.
    drop(slot);
    say(&format!("websocket {peer}{via} {verdict}: {}", end.why));
    drop(linked);
}

/// Upgrades `socket` by `deadline` (`timeout` after the connection) into the WebSocket end that
/// reads the client; writes to the client fail after `timeout` without progress.
fn upgrade(
    socket: &TcpStream,
    deadline: Instant,
    timeout: Duration,
) -> Result<WebSocket<End>, String> {
    let io = |e: io::Error| format!("connection: {e}");
    socket.set_nodelay(true).map_err(io)?;
    socket.set_write_timeout(Some(timeout)).map_err(io)?;
    let shared = Arc::new(Shared {
        writer: Mutex::new(socket.try_clone().map_err(io)?),
        socket: socket.try_clone().map_err(io)?,
        closed: OnceLock::new(),
        timeout,
    });
    let end = End::new(socket, &shared, Some(deadline)).map_err(io)?;
    let late = || format!("no WebSocket upgrade within {timeout:?}");
    match tungstenite::accept_with_config(end, Some(config(true))) {
        Ok(ws) => Ok(ws),
        Err(HandshakeError::Interrupted(_)) => Err(late()),
        Err(HandshakeError::Failure(Error::Io(e))) if is_timeout(&e) => Err(late()),
        Err(HandshakeError::Failure(e)) => Err(format!("WebSocket handshake: {e}")),
    }
}

/// The loopback connection to the server and the thread relaying its frames to the client.
struct Link {
    /// The connection, written by the thread reading the client.
    stream: TcpStream,
    /// The thread relaying the server's frames ([`to_client`]).
    to_client: JoinHandle<()>,
    /// Dropped when the thread reading the client is done: [`to_client`], lingering after its
    /// close frame, stops waiting.
    done: Sender<()>,
}

impl Link {
    /// Ends the link once the client's side is done: the server sees the client leave, and the
    /// thread reading the server stops.
    fn end(self) {
        drop(self.done);
        let _ = self.stream.shutdown(Shutdown::Both);
        let _ = self.to_client.join();
    }
}

/// Upgrades `socket` and relays it to the server (calling `linked` when the loopback connection
/// opens), until either side ends it: how it ended. One deadline, `timeout` after the
/// connection, bounds the upgrade and the first frame.
fn run(socket: &TcpStream, server: SocketAddr, timeout: Duration, linked: impl FnOnce()) -> Ending {
    let deadline = Instant::now() + timeout;
    let mut client = match upgrade(socket, deadline, timeout) {
        Ok(client) => client,
        Err(why) => {
            let (via, refused) = (None, true);
            return Ending { via, refused, why };
        }
    };
    let mut link = None;
    let end = relay(&mut client, server, timeout, deadline, &mut link, linked);
    let shared = client.get_ref().shared.clone();
    let (refused, why) = match (end, shared.closed()) {
        // The first reason wins: the server's side may have closed first.
        (Ok(why), _) => (false, shared.close(why).to_string()),
        // The server's side closed, or a write failed, first: nothing more is sent.
        (Err(_), Some(first)) => (false, first.to_string()),
        (Err((code, why)), None) => {
            refuse(&mut client, code, &why, link.is_none());
            shared.close(why.as_str());
            (true, why)
        }
    };
    let via = link.as_ref().and_then(|l| l.stream.local_addr().ok());
    if let Some(link) = link {
        link.end();
    }
    Ending { via, refused, why }
}

/// What the client sent next, as the relay sees it.
enum Next {
    /// A binary message: a frame to check and relay.
    Frame(Bytes),
    /// Nothing to relay (a ping or pong, answered by tungstenite; a read that timed out).
    Idle,
    /// The client ended the connection, for this reason.
    End(String),
    /// The client is refused with this close code, for this reason.
    Refuse(CloseCode, String),
}

/// Reads the client's next message ([`Next`]): the close code of a refusal says why
/// (unsupported data for a text message, invalid data for text that is not UTF-8, too large,
/// a WebSocket protocol error).
fn next(client: &mut WebSocket<End>) -> Next {
    match client.read() {
        Ok(Message::Binary(bytes)) => Next::Frame(bytes),
        Ok(Message::Text(_)) => Next::Refuse(
            CloseCode::Unsupported,
            "a text message; each message must be one binary wire frame".to_string(),
        ),
        Ok(Message::Close(_)) => {
            // Answers the client's close frame.
            let _ = client.flush();
            Next::End(CLIENT_CLOSED.to_string())
        }
        Ok(_) => Next::Idle,
        Err(Error::Io(e)) if is_timeout(&e) => Next::Idle,
        Err(Error::ConnectionClosed | Error::AlreadyClosed) => Next::End(CLIENT_CLOSED.to_string()),
        Err(Error::Protocol(ProtocolError::ResetWithoutClosingHandshake)) => {
            Next::End("the client left without a close frame".to_string())
        }
        Err(Error::Io(e)) => Next::End(format!("connection: {e}")),
        Err(Error::Capacity(CapacityError::MessageTooLong { size, max_size })) => Next::Refuse(
            CloseCode::Size,
            format!(
                "a message of {size} bytes exceeds the limit {max_size} of a client's message \
                 (one frame)"
            ),
        ),
        Err(Error::Utf8(e)) => Next::Refuse(
            CloseCode::Invalid,
            format!(
                "a text message that is not UTF-8 ({e}); each message must be one binary wire \
                 frame"
            ),
        ),
        Err(e) => Next::Refuse(CloseCode::Protocol, e.to_string()),
    }
}

/// Relays the client's messages to the server until the connection ends: `Ok` with why it
/// ended, `Err` with why the client is refused and the close code that says it ([`next`]'s,
/// invalid data for a binary message that is not a frame of a client message, policy for a
/// client that sends no frame by `deadline`, an internal error when the server's side fails).
/// Each binary message must decode as exactly one frame of a client message ([`decode_frame`])
/// and is then written to the server as it is. The loopback connection is opened at the first
/// one, into `link` ([`open`]), and `linked` called; reads then have no deadline.
fn relay(
    client: &mut WebSocket<End>,
    server: SocketAddr,
    timeout: Duration,
    deadline: Instant,
    link: &mut Option<Link>,
    linked: impl FnOnce(),
) -> Result<String, (CloseCode, String)> {
    let mut linked = Some(linked);
    loop {
        let bytes = match next(client) {
            Next::Frame(bytes) => bytes,
            Next::Idle if link.is_none() && Instant::now() >= deadline => {
                let why = format!("no first message within {timeout:?} of connecting");
                return Err((CloseCode::Policy, why));
            }
            Next::Idle => continue,
            Next::End(why) => return Ok(why),
            Next::Refuse(code, why) => return Err((code, why)),
        };
        if client.get_ref().shared.closed().is_some() {
            // The server's side closed: nothing more is relayed; the client's close frame ends it.
            continue;
        }
        if let Err(e) = decode_frame::<ClientMsg>(&bytes) {
            // Before the link the frame is the hello, refused as the server refuses it on TCP.
            let why = match link {
                None => Refusal::BadHello(e).to_string(),
                Some(_) => e.to_string(),
            };
            return Err((CloseCode::Invalid, why));
        }
        if link.is_none() {
            let failed = |why| (CloseCode::Error, why);
            *link = Some(open(server, timeout, client.get_ref()).map_err(failed)?);
            let blocking = client.get_mut().until(None);
            blocking.map_err(|e| failed(format!("connection: {e}")))?;
            if let Some(linked) = linked.take() {
                linked();
            }
        }
        if let Some(link) = link.as_mut() {
            if let Err(e) = link.stream.write_all(&bytes) {
                let why = format!("the server's side failed: {e}");
                return Err((CloseCode::Error, why));
            }
        }
    }
}

/// Refuses the client: before the link (`hello`), `Refused { reason }` as a frame, as the server
/// refuses a hello; then a close frame with `code` and the reason, nothing written after. Then
/// waits a moment ([`LINGER`]) for the client's close frame, so that what was sent is read before
/// the connection goes.
fn refuse(client: &mut WebSocket<End>, code: CloseCode, reason: &str, hello: bool) {
    if hello {
        if let Ok(frame) = encode_frame(&ServerMsg::Refused {
            reason: reason.to_string(),
        }) {
            let _ = client.send(Message::Binary(frame.into()));
        }
    }
    if close(client, code, reason).is_ok() {
        linger(client);
    }
}

/// Writes a close frame with `code` and `why` (cut to fit), marking the connection closed for
/// `why` by the same write, under the same lock: no frame of the other end follows it.
fn close(client: &mut WebSocket<End>, code: CloseCode, why: &str) -> Result<(), Error> {
    client.get_mut().last = Some(why.to_string());
    let frame = CloseFrame {
        code,
        reason: close_reason(why).into(),
    };
    let closed = client.close(Some(frame));
    // Not written (the connection was closed already): the reason is not used.
    client.get_mut().last = None;
    closed
}

/// Reads, and drops, what the client sends until its close frame, at most [`LINGER`].
fn linger(client: &mut WebSocket<End>) {
    if client
        .get_mut()
        .until(Some(Instant::now() + LINGER))
        .is_err()
    {
        return;
    }
    loop {
        match client.read() {
            Ok(Message::Close(_)) => return,
            Ok(_) => {}
            Err(_) => return,
        }
    }
}

/// `why` cut to fit a close frame (at most 123 bytes of UTF-8).
fn close_reason(why: &str) -> String {
    let mut end = why.len().min(123);
    while !why.is_char_boundary(end) {
        end -= 1;
    }
    why[..end].to_string()
}

/// Opens the loopback connection to the server (within `timeout`) and starts the thread relaying
/// its frames to the client whose end reading it is `client`: the link, or why it could not be
/// opened.
fn open(server: SocketAddr, timeout: Duration, client: &End) -> Result<Link, String> {
    let failed = |e: io::Error| format!("the server {server} is unreachable: {e}");
    let stream = TcpStream::connect_timeout(&server, timeout).map_err(failed)?;
    stream.set_nodelay(true).map_err(failed)?;
    stream.set_write_timeout(Some(timeout)).map_err(failed)?;
    let from_server = stream.try_clone().map_err(failed)?;
    let end = End::new(&client.read, &client.shared, None).map_err(failed)?;
    let to = WebSocket::from_raw_socket(end, Role::Server, Some(config(false)));
    let (done, wait) = channel();
    let name = format!("websocket to {}", stream.local_addr().map_err(failed)?);
    let to_client = thread(name)
        .spawn(move || to_client(from_server, to, &wait))
        .map_err(|e| format!("no thread to relay the server: {e}"))?;
    Ok(Link {
        stream,
        to_client,
        done,
    })
}

/// Relays each whole frame the server sends to the client as one binary message, until the
/// server closes (then closes the WebSocket: normal closure, or 1011 when the server's side
/// failed; then waits for the client's close frame at most [`LINGER`] before cutting the
/// connection) or the bridge does. A failed write ends it ([`End`]'s).
fn to_client(mut server: TcpStream, mut client: WebSocket<End>, done: &Receiver<()>) {
    let (code, why) = loop {
        match read_frame(&mut server) {
            Ok(frame) => {
                if let Err(e) = client.send(Message::Binary(frame.into())) {
                    // A failed write, or the bridge closing, has marked it closed already.
                    let shared = &client.get_ref().shared;
                    if shared.closed().is_none() {
                        shared.cut(format!("the client's connection failed: {e}"));
                    }
                    return;
                }
            }
            Err(WireError::Io(e)) if e.kind() == ErrorKind::UnexpectedEof => {
                break (CloseCode::Normal, SERVER_CLOSED.to_string())
            }
            Err(e) => break (CloseCode::Error, format!("the server's side failed: {e}")),
        }
    };
    if client.get_ref().shared.closed().is_some() {
        // The bridge ended it (and shut the loopback connection down).
        return;
    }
    let _ = close(&mut client, code, &why);
    // The client's close frame ends the thread reading it; one that does not answer is cut.
    if let Err(RecvTimeoutError::Timeout) = done.recv_timeout(LINGER) {
        client.get_ref().shared.cut(why);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_close_reason_is_cut_to_123_bytes_on_a_char_boundary() {
        assert_eq!(close_reason("short"), "short");
        let ascii = "x".repeat(200);
        assert_eq!(close_reason(&ascii), "x".repeat(123));
        // 'é' is two bytes: 61 of them are 122; byte 123 would end inside the 62nd.
        let two = "é".repeat(100);
        assert_eq!(close_reason(&two), "é".repeat(61));
        let three = format!("x{}", "€".repeat(60));
        assert_eq!(close_reason(&three).len(), 121);
        assert_eq!(close_reason(&three), format!("x{}", "€".repeat(40)));
        let exact = "y".repeat(123);
        assert_eq!(close_reason(&exact), exact);
    }

    #[test]
    fn a_read_by_a_deadline_times_out_in_total_however_the_bytes_dribble() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut peer = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (socket, _) = listener.accept().unwrap();
        let shared = Arc::new(Shared {
            writer: Mutex::new(socket.try_clone().unwrap()),
            socket: socket.try_clone().unwrap(),
            closed: OnceLock::new(),
            timeout: Duration::from_secs(1),
        });
        let start = Instant::now();
        let mut end = End::new(&socket, &shared, Some(start + Duration::from_millis(300))).unwrap();
        let mut buf = [0; 1];
        let mut got = 0;
        let e = loop {
            peer.write_all(b"x").unwrap();
            match end.read(&mut buf) {
                Ok(n) => got += n,
                Err(e) => break e,
            }
            std::thread::sleep(Duration::from_millis(40));
        };
        assert!(is_timeout(&e), "{e}");
        assert!(got > 2, "{got}");
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(300), "{took:?}");
        assert!(took < Duration::from_secs(2), "{took:?}");
    }
}
