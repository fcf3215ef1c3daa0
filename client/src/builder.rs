//! A client's settings, and the HTTP client with its TLS roots they make.

use crate::{Client, Error, CONNECT_TIMEOUT};
use interaction::Via;
use std::path::PathBuf;

/// Settings for a [`Client`].
#[derive(Debug, Clone)]
pub struct Builder {
    base: String,
    token: Option<String>,
    ca_cert: Option<PathBuf>,
    via: Option<Via>,
}

impl Builder {
    /// No token, no extra CA and no `via`, for the server at `base`.
    pub(crate) fn new(base: String) -> Self {
        Self {
            base,
            token: None,
            ca_cert: None,
            via: None,
        }
    }

    /// The server's token, sent as `Authorization: Bearer <token>`.
    pub fn token(mut self, token: Option<String>) -> Self {
        self.token = token;
        self
    }

    /// The surface this client's answers come from, as the server records
    /// it (`X-Askdesk-Via`): [`Via::Tui`] for the terminal UI,
    /// [`Via::McpClient`] for an MCP client's own form, [`Via::McpApp`] for
    /// askdesk's form inside an MCP host. Without it, `api`.
    pub fn via(mut self, via: Option<Via>) -> Self {
        self.via = via;
        self
    }

    /// A PEM file with one more CA certificate to trust, for a server whose
    /// certificate a private CA (or the server itself) signed.
    pub fn ca_cert(mut self, path: Option<PathBuf>) -> Self {
        self.ca_cert = path;
        self
    }

    /// The client, or why these settings cannot make one.
    pub fn build(self) -> Result<Client, Error> {
        let base = self.base.trim_end_matches('/').to_owned();
        let url = reqwest::Url::parse(&base)
            .map_err(|e| Error::Setup(format!("{base:?} is not a URL: {e}")))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(Error::Setup(format!(
                "{base:?} is not an http:// or https:// URL"
            )));
        }
        let mut http = reqwest::Client::builder().connect_timeout(CONNECT_TIMEOUT);
        if let Some(path) = &self.ca_cert {
            let pem = std::fs::read(path).map_err(|e| {
                Error::Setup(format!(
                    "cannot read the CA certificate {}: {e}",
                    path.display()
                ))
            })?;
            let certificates = reqwest::Certificate::from_pem_bundle(&pem).map_err(|e| {
                Error::Setup(format!(
                    "{} is not a PEM certificate file: {e}",
                    path.display()
                ))
            })?;
            if certificates.is_empty() {
                return Err(Error::Setup(format!(
                    "{} holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
                    path.display()
                )));
            }
            for certificate in certificates {
                http = http.add_root_certificate(certificate);
            }
        }
        let http = http
            .build()
            .map_err(|e| Error::Setup(format!("cannot make an HTTP client: {e}")))?;
        Ok(Client {
            http,
            base,
            token: self.token,
            via: self.via,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::Client;

    #[test]
    fn a_bad_url_or_ca_file_is_refused_when_building() {
        let e = Client::builder("not a url").build().expect_err("refused");
        assert!(e.to_string().contains("is not a URL"), "{e}");
        let e = Client::builder("http://127.0.0.1:3000")
            .ca_cert(Some("/nonexistent/ca.pem".into()))
            .build()
            .expect_err("refused");
        assert!(
            e.to_string()
                .contains("cannot read the CA certificate /nonexistent/ca.pem"),
            "{e}"
        );
    }
}
