//! The server's accepted connections, bounded (docs/protocol.md, "Limits
//! and security"): at most `--max-connections` open at once and
//! `--max-connections-per-address` from one address (past either a
//! connection is answered `503 Service Unavailable` and closed), each with
//! `TCP_NODELAY` set (a reply of two messages is not held back by Nagle's
//! algorithm waiting for the client's delayed acknowledgement), and each
//! given [`Limits::handshake`] to send a whole HTTP request (a WebSocket
//! handshake included) of at most [`MAX_REQUEST`] bytes, and as long again
//! after each response for the next request: a connection that does not
//! is closed. Once a connection is a WebSocket ([`Peer::upgraded`]) these
//! two rules end and the connection's own ([`super::connection`]) apply.
//!
//! A connection closed by the server lingers a moment (at most
//! [`LINGER`]): its sending side is shut and what the client still sends
//! is read and dropped, so that the client reads the last response or
//! close frame before the socket goes (closing a socket with unread data
//! would reset it, and the client could lose them).

use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener};
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{ready, Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep};

/// The most bytes a connection that is not yet a WebSocket may send
/// between two responses (an HTTP request with its headers): past this it
/// is closed.
pub const MAX_REQUEST: usize = 16 * 1024;

/// The longest a closed connection lingers (above).
pub const LINGER: Duration = Duration::from_secs(1);

/// The most bytes read and dropped from a closed connection lingering.
pub const LINGER_BYTES: usize = 64 * 1024;

/// Refusals (`503`) being written at once at most; past this a connection
/// over a limit is closed without one.
const MAX_REFUSING: usize = 64;

/// The bounds on connections.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Connections open at once, in all.
    pub max_connections: usize,
    /// Connections open at once from one IP address.
    pub max_per_address: usize,
    /// The time a connection is given to send a whole HTTP request (and
    /// again after each response), until it is a WebSocket.
    pub handshake: Duration,
}

/// The connections open: in all and by address.
#[derive(Debug, Default)]
struct Counts {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// A place among the connections open, given back when dropped.
#[derive(Debug)]
struct Slot {
    counts: Arc<Mutex<Counts>>,
    ip: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = super::lock(&self.counts);
        counts.total = counts.total.saturating_sub(1);
        if let Some(n) = counts.by_address.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                counts.by_address.remove(&self.ip);
            }
        }
    }
}

/// The server's listener: a TCP listener that bounds what it accepts.
#[derive(Debug)]
pub struct GuardedListener {
    tcp: TcpListener,
    limits: Limits,
    counts: Arc<Mutex<Counts>>,
    refusing: Arc<AtomicUsize>,
}

impl GuardedListener {
    /// Bounds the connections `tcp` accepts by `limits`.
    pub fn new(tcp: TcpListener, limits: Limits) -> GuardedListener {
        GuardedListener {
            tcp,
            limits,
            counts: Arc::default(),
            refusing: Arc::default(),
        }
    }

    /// A place for a connection from `ip`, or why there is none.
    fn admit(&self, ip: IpAddr) -> Result<Slot, String> {
        let mut counts = super::lock(&self.counts);
        if counts.total >= self.limits.max_connections {
            return Err(format!(
                "the server is full: {} connections are open (--max-connections)",
                counts.total
            ));
        }
        let from = counts.by_address.get(&ip).copied().unwrap_or(0);
        if from >= self.limits.max_per_address {
            return Err(format!(
                "too many connections from {ip}: {from} are open \
                 (--max-connections-per-address)"
            ));
        }
        counts.total += 1;
        *counts.by_address.entry(ip).or_insert(0) += 1;
        Ok(Slot {
            counts: Arc::clone(&self.counts),
            ip,
        })
    }

    /// Answers a connection over a limit with `503` and closes it.
    fn refuse(&self, tcp: TcpStream, why: String) {
        if self.refusing.fetch_add(1, Ordering::AcqRel) >= MAX_REFUSING {
            self.refusing.fetch_sub(1, Ordering::AcqRel);
            return; // dropped: closed at once
        }
        let refusing = Arc::clone(&self.refusing);
        tokio::spawn(async move {
            let body = format!("{why}\n");
            let response = format!(
                "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n\
                 content-length: {}\r\nretry-after: 5\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let mut tcp = tcp;
            let _ = tokio::time::timeout(LINGER, tcp.write_all(response.as_bytes())).await;
            linger(tcp).await;
            refusing.fetch_sub(1, Ordering::AcqRel);
        });
    }
}

/// Whether an error of `accept` concerns only the connection it was
/// accepting (then the next is accepted at once).
fn connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

impl Listener for GuardedListener {
    type Io = Guarded;
    type Addr = Peer;

    async fn accept(&mut self) -> (Guarded, Peer) {
        loop {
            let (tcp, addr) = match self.tcp.accept().await {
                Ok(accepted) => accepted,
                Err(e) if connection_error(&e) => continue,
                Err(_) => {
                    // Out of file descriptors, say: wait for some to close.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            // Every reply goes out at once (docs/protocol.md).
            let _ = tcp.set_nodelay(true);
            match self.admit(addr.ip()) {
                Ok(slot) => {
                    let peer = Peer::new(addr);
                    let io = Guarded {
                        tcp: Some(tcp),
                        slot: Some(slot),
                        upgraded: Arc::clone(&peer.upgraded),
                        handshake: self.limits.handshake,
                        deadline: Box::pin(tokio::time::sleep(self.limits.handshake)),
                        read: 0,
                    };
                    return (io, peer);
                }
                Err(why) => self.refuse(tcp, why),
            }
        }
    }

    fn local_addr(&self) -> io::Result<Peer> {
        self.tcp.local_addr().map(Peer::new)
    }
}

/// A connection as the routes see it ([`axum::extract::ConnectInfo`]):
/// its address, and the switch that ends its HTTP time limit once it is a
/// WebSocket.
#[derive(Clone, Debug)]
pub struct Peer {
    /// The client's address.
    pub addr: SocketAddr,
    upgraded: Arc<AtomicBool>,
}

impl Peer {
    fn new(addr: SocketAddr) -> Peer {
        Peer {
            addr,
            upgraded: Arc::default(),
        }
    }

    /// The connection is a WebSocket now: the limits of an HTTP request
    /// no longer apply.
    pub fn upgraded(&self) {
        self.upgraded.store(true, Ordering::Release);
    }
}

impl Connected<IncomingStream<'_, GuardedListener>> for Peer {
    fn connect_info(stream: IncomingStream<'_, GuardedListener>) -> Peer {
        stream.remote_addr().clone()
    }
}

/// An accepted connection: a TCP stream that keeps its place among the
/// connections open while it lives, and holds the HTTP time and size
/// limits until it is a WebSocket.
#[derive(Debug)]
pub struct Guarded {
    /// `None` once dropped (taken to linger).
    tcp: Option<TcpStream>,
    slot: Option<Slot>,
    upgraded: Arc<AtomicBool>,
    handshake: Duration,
    /// When the request being read must be complete.
    deadline: Pin<Box<Sleep>>,
    /// Bytes read since the last response.
    read: usize,
}

impl Guarded {
    fn http(&self) -> bool {
        !self.upgraded.load(Ordering::Acquire)
    }

    /// A response went out: the next request has its own time and size.
    fn responded(&mut self, written: usize) {
        if written > 0 && self.http() {
            self.read = 0;
            let at = Instant::now() + self.handshake;
            self.deadline.as_mut().reset(at);
        }
    }
}

fn gone() -> io::Error {
    io::Error::from(io::ErrorKind::NotConnected)
}

impl AsyncRead for Guarded {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let http = this.http();
        if http && this.deadline.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the HTTP request took too long",
            )));
        }
        let Some(tcp) = this.tcp.as_mut() else {
            return Poll::Ready(Err(gone()));
        };
        let before = buf.filled().len();
        ready!(Pin::new(tcp).poll_read(cx, buf))?;
        if http {
            this.read += buf.filled().len() - before;
            if this.read > MAX_REQUEST {
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "the HTTP request is too long",
                )));
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let Some(tcp) = this.tcp.as_mut() else {
            return Poll::Ready(Err(gone()));
        };
        let written = ready!(Pin::new(tcp).poll_write(cx, buf))?;
        this.responded(written);
        Poll::Ready(Ok(written))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let Some(tcp) = this.tcp.as_mut() else {
            return Poll::Ready(Err(gone()));
        };
        let written = ready!(Pin::new(tcp).poll_write_vectored(cx, bufs))?;
        this.responded(written);
        Poll::Ready(Ok(written))
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.as_ref().is_some_and(|t| t.is_write_vectored())
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut().tcp.as_mut() {
            Some(tcp) => Pin::new(tcp).poll_flush(cx),
            None => Poll::Ready(Err(gone())),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut().tcp.as_mut() {
            Some(tcp) => Pin::new(tcp).poll_shutdown(cx),
            None => Poll::Ready(Err(gone())),
        }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        let (Some(tcp), slot) = (self.tcp.take(), self.slot.take()) else {
            return;
        };
        // The place is given back once the socket is closed.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                linger(tcp).await;
                drop(slot);
            });
        }
    }
}

/// Closes `tcp` gracefully: shuts its sending side, then reads and drops
/// what the client still sends until it closes too, for at most
/// [`LINGER`] and [`LINGER_BYTES`] (a client that goes on sending is
/// not waited for).
async fn linger(mut tcp: TcpStream) {
    let _ = tcp.shutdown().await;
    let drain = async {
        let mut sink = [0u8; 4096];
        let mut left = LINGER_BYTES;
        while let Ok(n) = tcp.read(&mut sink).await {
            if n == 0 || n >= left {
                break;
            }
            left -= n;
        }
    };
    let _ = tokio::time::timeout(LINGER, drain).await;
}
