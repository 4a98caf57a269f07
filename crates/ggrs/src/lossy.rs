//! A socket that loses and delays packets: GGRS's own `UdpNonBlockingSocket` behind a seeded
//! filter, for tests of a match over a bad network on loopback.

use ggrs::{Message, NonBlockingSocket, UdpNonBlockingSocket};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How bad the network is: the share of packets dropped and the range each kept packet is
/// delayed by (uniform; packets may arrive out of order, as on a real network).
#[derive(Copy, Clone, Debug)]
pub struct Network {
    pub loss: f64,
    pub delay: (Duration, Duration),
}

/// GGRS's UDP socket with [`Network`]'s losses and delays on every packet it sends.
pub struct LossySocket {
    inner: UdpNonBlockingSocket,
    network: Network,
    rng: StdRng,
    /// Kept packets not sent yet: when each is due, where to, what.
    pending: Vec<(Instant, SocketAddr, Message)>,
    traffic: Arc<Traffic>,
}

/// What a [`LossySocket`] sent: readable while GGRS owns the socket.
#[derive(Debug, Default)]
pub struct Traffic {
    /// Packets kept (sent after their delay).
    pub sent: AtomicU64,
    /// Packets dropped.
    pub dropped: AtomicU64,
    /// Bytes of the kept packets, as GGRS's UDP socket encodes them (bincode).
    pub bytes: AtomicU64,
}

impl LossySocket {
    /// GGRS's socket on `port` (all interfaces) behind `network`, seeded by `seed`.
    pub fn bind(port: u16, network: Network, seed: u64) -> std::io::Result<Self> {
        Ok(LossySocket {
            inner: UdpNonBlockingSocket::bind_to_port(port)?,
            network,
            rng: StdRng::seed_from_u64(seed),
            pending: Vec::new(),
            traffic: Arc::default(),
        })
    }

    /// Its traffic counters, shared.
    pub fn traffic(&self) -> Arc<Traffic> {
        Arc::clone(&self.traffic)
    }

    /// Sends every pending packet that is due, oldest due first.
    fn flush(&mut self) {
        let now = Instant::now();
        self.pending.sort_by_key(|(due, _, _)| *due);
        let due = self
            .pending
            .iter()
            .take_while(|(t, _, _)| *t <= now)
            .count();
        for (_, addr, msg) in self.pending.drain(..due) {
            self.inner.send_to(&msg, &addr);
        }
    }
}

impl NonBlockingSocket<SocketAddr> for LossySocket {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        self.flush();
        if self.rng.gen_bool(self.network.loss) {
            self.traffic.dropped.fetch_add(1, Relaxed);
            return;
        }
        let (low, high) = self.network.delay;
        let delay = self.rng.gen_range(low..=high);
        self.traffic.sent.fetch_add(1, Relaxed);
        self.traffic.bytes.fetch_add(message_len(msg), Relaxed);
        self.pending
            .push((Instant::now() + delay, *addr, msg.clone()));
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        self.flush();
        self.inner.receive_all_messages()
    }
}

/// A message's size on the wire: what GGRS's UDP socket sends for it (`bincode::serialize`,
/// which GGRS's socket unwraps too).
fn message_len(msg: &Message) -> u64 {
    bincode::serialized_size(msg).expect("a GGRS message encodes")
}
