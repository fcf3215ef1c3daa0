//! Serving https directly: the certificate and key read from PEM files,
//! handed to rustls (with ring, as the rest of askdesk's TLS) through a
//! resolver whose pair is swapped when either file changes, so a renewed
//! certificate is served without a restart.
//!
//! A change is read once the files have held still for one look, so a
//! renewal caught halfway through writing is not read. A change that
//! cannot be used (unreadable, not PEM, a key that does not fit) is logged
//! and the pair being served stays.

use std::{
    fmt, io,
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc, PoisonError, RwLock,
    },
    time::{Duration, SystemTime},
};
use tokio_rustls::{
    rustls::{
        self,
        crypto::CryptoProvider,
        pki_types::{pem, pem::PemObject, CertificateDer, PrivateKeyDer},
        server::{ClientHello, ResolvesServerCert},
        sign::CertifiedKey,
        ServerConfig,
    },
    TlsAcceptor,
};
use tokio_util::sync::CancellationToken;

/// How often the files are looked at for a renewal.
const LOOK_EVERY: Duration = Duration::from_secs(1);

/// How long a client may take over its TLS handshake before its connection
/// is dropped: the handshake runs in the connection's own task, and this
/// bounds how long a client that stalls it holds that task.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The one protocol the server speaks, offered in ALPN.
const HTTP_1_1: &[u8] = b"http/1.1";

/// Where the certificate and its key are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsFiles {
    /// The certificate chain, PEM: the server's certificate first.
    pub cert: PathBuf,
    /// Its private key, PEM (PKCS #8, PKCS #1 or SEC1).
    pub key: PathBuf,
}

/// Which of the two files a problem is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TlsFile {
    /// The certificate chain.
    Certificate,
    /// The private key.
    Key,
}

impl fmt::Display for TlsFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Certificate => "TLS certificate",
            Self::Key => "TLS key",
        })
    }
}

/// Why a certificate and key cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A file could not be read.
    #[error("cannot read the {file} {}: {source}", path.display())]
    Read {
        file: TlsFile,
        path: PathBuf,
        source: io::Error,
    },
    /// A file is not PEM that askdesk can read.
    #[error("the {file} {} is not usable PEM: {source}", path.display())]
    Pem {
        file: TlsFile,
        path: PathBuf,
        source: pem::Error,
    },
    /// The certificate file holds no certificate.
    #[error("the TLS certificate {} holds no PEM CERTIFICATE", path.display())]
    NoCertificate { path: PathBuf },
    /// The key file holds no private key.
    #[error("the TLS key {} holds no PEM PRIVATE KEY", path.display())]
    NoKey { path: PathBuf },
    /// The key is of a kind rustls cannot sign with, or is not the
    /// certificate's.
    #[error("the TLS key {} cannot serve the certificate {}: {source}", key.display(), cert.display())]
    Mismatch {
        key: PathBuf,
        cert: PathBuf,
        source: rustls::Error,
    },
    /// rustls refused the protocol settings.
    #[error("TLS cannot be set up: {0}")]
    Setup(rustls::Error),
}

fn provider() -> CryptoProvider {
    rustls::crypto::ring::default_provider()
}

/// Reads the certificate chain and key `files` name, checking that the key
/// is the certificate's.
pub fn load(files: &TlsFiles) -> Result<CertifiedKey, TlsError> {
    let read = |file, path: &Path| {
        std::fs::read(path).map_err(|source| TlsError::Read {
            file,
            path: path.to_owned(),
            source,
        })
    };
    let pem_error = |file, path: &Path| {
        let path = path.to_owned();
        move |source| TlsError::Pem { file, path, source }
    };
    let chain = CertificateDer::pem_slice_iter(&read(TlsFile::Certificate, &files.cert)?)
        .collect::<Result<Vec<_>, _>>()
        .map_err(pem_error(TlsFile::Certificate, &files.cert))?;
    if chain.is_empty() {
        return Err(TlsError::NoCertificate {
            path: files.cert.clone(),
        });
    }
    let key = match PrivateKeyDer::from_pem_slice(&read(TlsFile::Key, &files.key)?) {
        Ok(key) => key,
        Err(pem::Error::NoItemsFound) => {
            return Err(TlsError::NoKey {
                path: files.key.clone(),
            })
        }
        Err(source) => return Err(pem_error(TlsFile::Key, &files.key)(source)),
    };
    // ring's keys all show their public half, so `from_der` refuses a key
    // that is not the certificate's.
    CertifiedKey::from_der(chain, key, &provider()).map_err(|source| TlsError::Mismatch {
        key: files.key.clone(),
        cert: files.cert.clone(),
        source,
    })
}

/// The certificate being served: rustls asks it at every handshake, and a
/// renewal swaps it.
#[derive(Debug)]
pub struct Certificates {
    files: TlsFiles,
    current: RwLock<Arc<CertifiedKey>>,
    refused: AtomicU64,
}

impl Certificates {
    /// How many changes of the files were refused since the server started
    /// (each logged; the pair before them kept being served).
    pub fn refused(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }

    fn current(&self) -> Arc<CertifiedKey> {
        // A writer that panicked left a whole `Arc` behind: still usable.
        Arc::clone(&self.current.read().unwrap_or_else(PoisonError::into_inner))
    }

    fn replace(&self, certified: CertifiedKey) {
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(certified);
    }
}

impl ResolvesServerCert for Certificates {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.current())
    }
}

/// https for the server: the acceptor its connections go through, and the
/// certificate it presents.
pub struct Tls {
    acceptor: TlsAcceptor,
    certificates: Arc<Certificates>,
    /// What the files looked like when they were read.
    read_as: Stamps,
}

impl Tls {
    /// Reads `files` and sets up rustls to serve them over HTTP/1.1.
    pub fn open(files: TlsFiles) -> Result<Self, TlsError> {
        // Looked at before reading, so a write during the read is seen as
        // a change at the first look.
        let read_as = stamps(&files);
        let certified = load(&files)?;
        let certificates = Arc::new(Certificates {
            files,
            current: RwLock::new(Arc::new(certified)),
            refused: AtomicU64::new(0),
        });
        let mut config = ServerConfig::builder_with_provider(Arc::new(provider()))
            .with_safe_default_protocol_versions()
            .map_err(TlsError::Setup)?
            .with_no_client_auth()
            .with_cert_resolver(certificates.clone());
        config.alpn_protocols = vec![HTTP_1_1.to_vec()];
        Ok(Self {
            acceptor: TlsAcceptor::from(Arc::new(config)),
            certificates,
            read_as,
        })
    }

    /// What accepted connections are handed to for their handshake.
    pub fn acceptor(&self) -> TlsAcceptor {
        self.acceptor.clone()
    }

    /// The certificate being served.
    pub fn certificates(&self) -> Arc<Certificates> {
        Arc::clone(&self.certificates)
    }

    /// Looks at the files every second until `stop` is cancelled, and
    /// serves what they hold once they changed and held still.
    pub async fn follow_renewals(self, stop: CancellationToken) {
        let certificates = self.certificates;
        let mut renewal = Renewal::new(self.read_as);
        let mut tick = tokio::time::interval(LOOK_EVERY);
        loop {
            tokio::select! {
                () = stop.cancelled() => return,
                _ = tick.tick() => {}
            }
            let files = certificates.files.clone();
            let Ok(now) = tokio::task::spawn_blocking(move || stamps(&files)).await else {
                continue;
            };
            if !renewal.due(now) {
                continue;
            }
            let files = certificates.files.clone();
            match tokio::task::spawn_blocking(move || load(&files)).await {
                Ok(Ok(certified)) => {
                    certificates.replace(certified);
                    tracing::info!(
                        cert = %certificates.files.cert.display(),
                        "serving the renewed TLS certificate"
                    );
                }
                Ok(Err(e)) => {
                    certificates.refused.fetch_add(1, Ordering::Relaxed);
                    tracing::warn!("{e}; still serving the TLS certificate read before");
                }
                Err(e) => tracing::warn!("reading the TLS certificate again failed: {e}"),
            }
        }
    }
}

/// What a file looked like: enough to notice it was written or replaced
/// (a renewal tool may write in place, rename over it, or move a symlink).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
    inode: u64,
}

/// The certificate's and the key's stamps; `None` for a file that cannot be
/// looked at (such as one missing for a moment while it is replaced).
type Stamps = [Option<Stamp>; 2];

fn stamp(path: &Path) -> Option<Stamp> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    Some(Stamp {
        modified: meta.modified().ok(),
        len: meta.len(),
        inode: meta.ino(),
    })
}

fn stamps(files: &TlsFiles) -> Stamps {
    [stamp(&files.cert), stamp(&files.key)]
}

/// When the files are read again.
#[derive(Debug)]
struct Renewal {
    /// What they looked like when last read.
    read_as: Stamps,
    /// What they looked like at the last look.
    last_look: Stamps,
}

impl Renewal {
    fn new(read_as: Stamps) -> Self {
        Self {
            read_as,
            last_look: read_as,
        }
    }

    /// Whether to read the files, given how they look `now`: when they
    /// differ from what was last read and are as they were at the last
    /// look, that is, done being written.
    fn due(&mut self, now: Stamps) -> bool {
        let held_still = now == self.last_look;
        self.last_look = now;
        if held_still && now != self.read_as {
            self.read_as = now;
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests;
