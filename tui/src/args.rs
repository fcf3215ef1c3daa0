//! The command lines of `askdesk tui` and `askdesk answer`, as clap
//! argument groups the `askdesk` binary puts under its subcommands.

use crate::i18n::Lang;
use clap::Args;
use std::{fmt, path::PathBuf};

/// Options of `askdesk tui`: a server's queue in the terminal.
#[derive(Clone, Args)]
pub struct TuiArgs {
    /// The askdesk server.
    #[arg(long, env = "ASKDESK_URL", default_value = "http://127.0.0.1:3000")]
    pub url: String,
    /// The server's token, when it has one.
    #[arg(long, env = "ASKDESK_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// A PEM file with the CA certificate that signed the server's TLS
    /// certificate, when no system-wide CA did (a private CA, or a
    /// self-signed certificate).
    #[arg(long, env = "ASKDESK_CA_CERT")]
    pub ca_cert: Option<PathBuf>,
    #[command(flatten)]
    pub lang: LangArg,
}

impl fmt::Debug for TuiArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TuiArgs")
            .field("url", &self.url)
            .field("token", &self.token.as_ref().map(|_| "<set>"))
            .field("ca_cert", &self.ca_cert)
            .field("lang", &self.lang)
            .finish()
    }
}

/// Options of `askdesk answer`: a request file answered with no server.
/// Exit codes: 0 answered (the answers JSON on stdout), 3 declined, 130
/// interrupted (Ctrl-C), 1 the request is invalid.
#[derive(Debug, Clone, Args)]
pub struct AnswerArgs {
    /// The request JSON, `{"questions": [...], "title": "..."}`, or `-` to
    /// read it from stdin.
    pub file: String,
    #[command(flatten)]
    pub lang: LangArg,
}

/// The language option both commands share.
#[derive(Debug, Clone, Args)]
pub struct LangArg {
    /// The language of askdesk's own words in the terminal: en or zh.
    /// Default: from the locale (LC_ALL, LC_MESSAGES, LANG).
    #[arg(long = "lang", env = "ASKDESK_LANG")]
    pub code: Option<String>,
}

impl LangArg {
    /// The language chosen, or the locale's.
    pub fn lang(&self) -> Result<Lang, String> {
        match self.code.as_deref() {
            Some(code) => Lang::parse(code).ok_or_else(|| format!("--lang {code:?}: use en or zh")),
            None => Ok(Lang::from_locale(|name| std::env::var(name).ok())),
        }
    }
}
