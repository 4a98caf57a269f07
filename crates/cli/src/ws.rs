//! `serve --ws ADDR`: WebSocket clients of the reference server (a browser's), bridged to its
//! own TCP listener (docs/multiplayer.md, "WebSocket transport").
//!
//! Each WebSocket binary message carries exactly one wire frame, byte for byte the frame a TCP
//! client sends or receives (`rapier_pinned_net::wire`). Each accepted connection is relayed to a
//! loopback TCP connection to the server: a binary message from the client, once checked to be
//! one whole frame of a client message, is written to the TCP connection as it is; each whole
//! frame read from the TCP connection goes to the client as one binary message. The lockstep
//! server stays one loop over one listener, and a WebSocket client is a client like any other
//! (seated, refused, logged, waited for). The loopback connection is opened only when the
//! client's first frame has come, so a slow or silent WebSocket never holds the server's accept
//! loop. A text message, or a binary message that is not exactly one frame of a client message,
//! gets `Refused { reason }` (as a frame) and a close frame, and closes that connection alone
//! with a log line; the bridge never panics.
//!
//! Sync `tungstenite` and two threads per connection, each blocking on one side: the thread
//! that reads the client owns one WebSocket end, the thread that reads the server another, and
//! both write through one lock that takes whole WebSocket frames ([`Shared`]).

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rapier_pinned_net::wire::{
    decode_frame, encode_frame, read_frame, ClientMsg, ServerMsg, WireError, HEADER_LEN, MAX_FRAME,
};
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tungstenite::{Error, HandshakeError, Message, WebSocket};

/// How often the client's reader wakes to see whether the server's side has closed.
const POLL: Duration = Duration::from_millis(500);

/// Writes one line to the server's log (stdout), ignoring a closed stdout rather than panicking.
fn say(line: &str) {
    let _ = writeln!(std::io::stdout(), "{line}");
}

/// The bridged connections still open (those relayed to the server), which the end of `serve`
/// waits for: the server's last frames are relayed and each connection's line is logged before
/// the process exits.
#[derive(Clone, Default)]
pub struct Bridges(Arc<AtomicUsize>);

impl Bridges {
    /// Waits until every bridged connection has ended and logged its line, at most `timeout`.
    pub fn wait(&self, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while self.0.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// One bridged connection counted in [`Bridges`] while it lives.
struct Active(Bridges);

impl Active {
    /// Counts one more open connection.
    fn new(bridges: &Bridges) -> Active {
        bridges.0.fetch_add(1, Ordering::SeqCst);
        Active(bridges.clone())
    }
}

impl Drop for Active {
    /// Counts it out.
    fn drop(&mut self) {
        self.0 .0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Accepts WebSocket connections on `listener` in a background thread, for the life of the
/// process, bridging each, in threads of its own, to the server listening on `server`.
/// `timeout` bounds the HTTP upgrade and the wait for the client's first frame. Returns the
/// connections to wait for at the end.
pub fn spawn(listener: TcpListener, server: SocketAddr, timeout: Duration) -> Bridges {
    let bridges = Bridges::default();
    let all = bridges.clone();
    std::thread::spawn(move || loop {
        match listener.accept() {
            Ok((stream, peer)) => {
                let bridges = all.clone();
                std::thread::spawn(move || bridge(stream, peer, server, timeout, &bridges));
            }
            Err(e) => {
                say(&format!("websocket accept failed: {e}"));
                // Out of descriptors and the like: do not spin.
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    });
    bridges
}

/// The server's address as the bridge dials it: an unspecified listening address (`0.0.0.0`,
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

/// The write side of a client's socket, shared by the bridge's two WebSocket ends, and why the
/// connection is over once it is (the first reason given wins).
struct Outgoing {
    socket: TcpStream,
    closed: Option<String>,
}

/// A client's connection as both threads see it: each write is whole WebSocket frames under
/// the one lock, so the two ends' frames never interleave; once it is closed nothing more is
/// written.
#[derive(Clone)]
struct Shared(Arc<Mutex<Outgoing>>);

impl Shared {
    /// The lock; a poisoned one (a thread that panicked) is an I/O error, not a second panic.
    fn lock(&self) -> std::io::Result<MutexGuard<'_, Outgoing>> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("websocket bridge lock poisoned"))
    }

    /// Marks the connection over for `why`, unless it already is; nothing is written after.
    fn close(&self, why: impl Into<String>) {
        if let Ok(mut out) = self.lock() {
            out.closed.get_or_insert_with(|| why.into());
        }
    }

    /// Why the connection is over, if it is.
    fn closed(&self) -> Option<String> {
        self.lock().ok().and_then(|out| out.closed.clone())
    }
}

/// One WebSocket end's stream: reads from its own handle of the socket (only one end reads),
/// writes through [`Shared`].
struct Half {
    read: TcpStream,
    write: Shared,
}

impl Read for Half {
    /// Reads from the socket directly.
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.read.read(buf)
    }
}

impl Write for Half {
    /// Writes all of `buf` (whole frames, as tungstenite hands them over) under the lock, or
    /// fails once the connection is closed.
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut out = self.write.lock()?;
        if out.closed.is_some() {
            return Err(std::io::Error::new(
                ErrorKind::BrokenPipe,
                "websocket closed by the bridge",
            ));
        }
        out.socket.write_all(buf)?;
        Ok(buf.len())
    }

    /// Flushes the socket under the lock.
    fn flush(&mut self) -> std::io::Result<()> {
        self.write.lock()?.socket.flush()
    }
}

/// The limits of a client's messages: a frame's header and at most [`MAX_FRAME`] bytes, as on
/// TCP.
fn config() -> WebSocketConfig {
    let most = HEADER_LEN + MAX_FRAME as usize;
    WebSocketConfig::default()
        .max_message_size(Some(most))
        .max_frame_size(Some(most))
}

/// Bridges one accepted connection from `peer` to the server at `server` until either side
/// ends it, then logs one line: `websocket PEER closed: WHY` or `websocket PEER refused: WHY`.
/// Once relayed to the server, it counts in `bridges` until that line is logged.
fn bridge(
    socket: TcpStream,
    peer: SocketAddr,
    server: SocketAddr,
    timeout: Duration,
    bridges: &Bridges,
) {
    let mut active = None;
    let line = match run(socket, server, timeout, || {
        active = Some(Active::new(bridges))
    }) {
        Ok(why) => format!("websocket {peer} closed: {why}"),
        Err(why) => format!("websocket {peer} refused: {why}"),
    };
    say(&line);
    drop(active);
}

/// The loopback connection to the server and the thread relaying its frames to the client.
type Link = (TcpStream, std::thread::JoinHandle<()>);

/// Upgrades `socket` and relays it to the server (calling `linked` when the loopback connection
/// opens); `Ok` with why it ended, `Err` with why the client was refused.
fn run(
    socket: TcpStream,
    server: SocketAddr,
    timeout: Duration,
    linked: impl FnOnce(),
) -> Result<String, String> {
    let io = |e: std::io::Error| format!("connection: {e}");
    socket.set_nodelay(true).map_err(io)?;
    socket.set_read_timeout(Some(timeout)).map_err(io)?;
    let shared = Shared(Arc::new(Mutex::new(Outgoing {
        socket: socket.try_clone().map_err(io)?,
        closed: None,
    })));
    let half = Half {
        read: socket.try_clone().map_err(io)?,
        write: shared.clone(),
    };
    let mut client = match tungstenite::accept_with_config(half, Some(config())) {
        Ok(ws) => ws,
        Err(HandshakeError::Interrupted(_)) => {
            return Err(format!("no WebSocket upgrade within {timeout:?}"))
        }
        Err(HandshakeError::Failure(e)) => return Err(format!("WebSocket handshake: {e}")),
    };
    // From here the reader wakes every POLL to see whether the server's side has closed.
    socket.set_read_timeout(Some(POLL)).map_err(io)?;
    let mut link = None;
    let end = relay(&mut client, &shared, server, timeout, &mut link, linked);
    let end = end.map_err(|(code, why)| {
        refuse(&mut client, &shared, code, &why);
        why
    });
    shared.close(match &end {
        Ok(why) | Err(why) => why.as_str(),
    });
    if let Some((stream, writer)) = link {
        // The server sees the client leave; the thread reading the server stops.
        let _ = stream.shutdown(Shutdown::Both);
        let _ = writer.join();
    }
    // The first reason wins: the server's side may have ended the connection first.
    end.map(|why| shared.closed().unwrap_or(why))
}

/// Refuses the client: `Refused { reason }` as a frame and a close frame with `code`; nothing
/// is written after. Then waits a moment for the client's close frame, so that what was sent is
/// read before the connection goes.
fn refuse(client: &mut WebSocket<Half>, shared: &Shared, code: CloseCode, reason: &str) {
    if shared.closed().is_some() {
        return;
    }
    if let Ok(frame) = encode_frame(&ServerMsg::Refused {
        reason: reason.to_string(),
    }) {
        let _ = client.send(Message::Binary(frame.into()));
    }
    let frame = CloseFrame {
        code,
        reason: close_reason(reason).into(),
    };
    let closed = client.close(Some(frame));
    shared.close(reason);
    if closed.is_err() {
        return;
    }
    let deadline = Instant::now() + 2 * POLL;
    while Instant::now() < deadline {
        match client.read() {
            Ok(Message::Close(_)) => return,
            Ok(_) => {}
            Err(Error::Io(e))
                if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
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

/// Relays the client's messages to the server until the connection ends: `Ok` with why it
/// ended, `Err` with why the client is refused and the close code that says it (unsupported
/// data for a text message, invalid data for a binary one that is not a frame of a client
/// message, too large, a WebSocket protocol error, policy for a client that says nothing). Each binary message must decode as exactly one
/// frame of a client message ([`decode_frame`]) and is then written to the server as it is. The
/// loopback connection is opened at the first one, into `link` ([`open`]), and `linked` called.
fn relay(
    client: &mut WebSocket<Half>,
    shared: &Shared,
    server: SocketAddr,
    timeout: Duration,
    link: &mut Option<Link>,
    linked: impl FnOnce(),
) -> Result<String, (CloseCode, String)> {
    let opened = Instant::now();
    let mut linked = Some(linked);
    loop {
        if let Some(why) = shared.closed() {
            return Ok(why);
        }
        let bytes = match client.read() {
            Ok(Message::Binary(bytes)) => bytes,
            Ok(Message::Text(_)) => {
                let why = "a text message; each message must be one binary wire frame";
                return Err((CloseCode::Unsupported, why.to_string()));
            }
            Ok(Message::Close(_)) => {
                // Answers the client's close frame.
                let _ = client.flush();
                return Ok("the client closed".to_string());
            }
            Ok(_) => continue,
            Err(Error::Io(e))
                if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
            {
                if link.is_none() && opened.elapsed() > timeout {
                    return Err((CloseCode::Policy, format!("no message within {timeout:?}")));
                }
                continue;
            }
            Err(Error::ConnectionClosed | Error::AlreadyClosed) => {
                return Ok("the client closed".to_string())
            }
            Err(Error::Protocol(
                tungstenite::error::ProtocolError::ResetWithoutClosingHandshake,
            )) => return Ok("the client left without a close frame".to_string()),
            Err(Error::Io(e)) => return Ok(format!("connection: {e}")),
            Err(Error::Capacity(e)) => return Err((CloseCode::Size, format!("WebSocket: {e}"))),
            Err(e) => return Err((CloseCode::Protocol, format!("WebSocket: {e}"))),
        };
        decode_frame::<ClientMsg>(&bytes).map_err(|e| (CloseCode::Invalid, e.to_string()))?;
        if link.is_none() {
            let read = client.get_ref().read.try_clone();
            match open(server, read, shared) {
                Ok(opened) => {
                    *link = Some(opened);
                    if let Some(linked) = linked.take() {
                        linked();
                    }
                }
                Err(why) => return Ok(why),
            }
        }
        if let Some((stream, _)) = link.as_mut() {
            if let Err(e) = stream.write_all(&bytes) {
                return Ok(format!("the server closed the connection ({e})"));
            }
        }
    }
}

/// Opens the loopback connection to the server and starts the thread relaying its frames to
/// the client: the connection and the thread, or why it could not be opened.
fn open(
    server: SocketAddr,
    read: std::io::Result<TcpStream>,
    shared: &Shared,
) -> Result<Link, String> {
    let failed = |e: std::io::Error| format!("server {server} unreachable: {e}");
    let stream = TcpStream::connect(server).map_err(failed)?;
    stream.set_nodelay(true).map_err(failed)?;
    let from_server = stream.try_clone().map_err(failed)?;
    let to = WebSocket::from_raw_socket(
        Half {
            read: read.map_err(failed)?,
            write: shared.clone(),
        },
        Role::Server,
        Some(config()),
    );
    let shared = shared.clone();
    let writer = std::thread::spawn(move || to_client(from_server, to, &shared));
    Ok((stream, writer))
}

/// Relays each whole frame the server sends to the client as one binary message, until the
/// server closes (then closes the WebSocket with a normal close frame) or the bridge does.
fn to_client(mut server: TcpStream, mut client: WebSocket<Half>, shared: &Shared) {
    loop {
        match read_frame(&mut server) {
            Ok(frame) => {
                if client.send(Message::Binary(frame.into())).is_err() {
                    shared.close("the client's connection failed");
                    return;
                }
            }
            Err(e) => {
                if shared.closed().is_some() {
                    return;
                }
                let why = match e {
                    WireError::Io(e) if e.kind() == ErrorKind::UnexpectedEof => {
                        "the server closed the connection".to_string()
                    }
                    e => format!("the server's side failed: {e}"),
                };
                let _ = client.close(Some(CloseFrame {
                    code: CloseCode::Normal,
                    reason: close_reason(&why).into(),
                }));
                shared.close(why);
                return;
            }
        }
    }
}
