//! The one error of every call: what the server said (its status, message,
//! problems and the ask that had ended), or why it could not be asked.

use interaction::{Ask, ErrorBody, Problem};
use reqwest::StatusCode;
use std::{error::Error as StdError, fmt};

/// Why a call to askdesk did not succeed.
#[derive(Debug)]
pub enum Error {
    /// The input broke rules of the `interaction` crate (`422` with
    /// problems): every problem, each with its path and rule.
    Invalid {
        /// The server's message.
        message: String,
        /// Every problem of the input.
        problems: Vec<Problem>,
    },
    /// The ask had already ended (`409`, or `410` when it was cancelled or
    /// expired), as shown.
    Finished {
        /// `409 Conflict` or `410 Gone`.
        status: StatusCode,
        /// The server's message.
        message: String,
        /// The ask as it ended.
        ask: Box<Ask>,
    },
    /// Any other refusal: the status and what the server said (or the
    /// status's own words when the reply had no error body).
    Refused {
        /// The reply's status.
        status: StatusCode,
        /// The server's message.
        message: String,
    },
    /// The server's TLS certificate is not one this client trusts.
    Untrusted {
        /// The server's URL.
        url: String,
        /// The failure, with its causes.
        source: reqwest::Error,
    },
    /// Nothing answered, the connection broke, or the call took too long.
    Unreachable {
        /// The server's URL.
        url: String,
        /// The failure, with its causes.
        source: reqwest::Error,
    },
    /// The reply was not what API v1 sends.
    Unreadable {
        /// The reply's status.
        status: StatusCode,
        /// Why it could not be read.
        detail: String,
    },
    /// The client could not be set up (a bad URL or CA certificate).
    Setup(String),
}

impl Error {
    /// Sorts an error reply of the API by its status and body.
    pub fn from_reply(status: StatusCode, body: Option<ErrorBody>) -> Self {
        let Some(body) = body else {
            return Self::Refused {
                status,
                message: status
                    .canonical_reason()
                    .unwrap_or("no reason given")
                    .to_owned(),
            };
        };
        match (status, body) {
            (StatusCode::UNPROCESSABLE_ENTITY, body) if !body.problems.is_empty() => {
                Self::Invalid {
                    message: body.message,
                    problems: body.problems,
                }
            }
            (
                StatusCode::CONFLICT | StatusCode::GONE,
                ErrorBody {
                    message,
                    ask: Some(ask),
                    ..
                },
            ) => Self::Finished {
                status,
                message,
                ask,
            },
            (status, body) => Self::Refused {
                status,
                message: body.message,
            },
        }
    }

    /// Sorts a failure to get a reply at all.
    pub(crate) fn transport(url: &str, source: reqwest::Error) -> Self {
        let url = url.to_owned();
        if refused_certificate(&source) {
            Self::Untrusted { url, source }
        } else {
            Self::Unreachable { url, source }
        }
    }

    /// The reply's HTTP status, when the server replied.
    pub fn status(&self) -> Option<StatusCode> {
        match self {
            Self::Invalid { .. } => Some(StatusCode::UNPROCESSABLE_ENTITY),
            Self::Finished { status, .. }
            | Self::Refused { status, .. }
            | Self::Unreadable { status, .. } => Some(*status),
            Self::Untrusted { .. } | Self::Unreachable { .. } | Self::Setup(_) => None,
        }
    }

    /// The problems of a refused input (empty for other errors).
    pub fn problems(&self) -> &[Problem] {
        match self {
            Self::Invalid { problems, .. } => problems,
            _ => &[],
        }
    }

    /// The ask, when the call failed because it had already ended.
    pub fn finished_ask(&self) -> Option<&Ask> {
        match self {
            Self::Finished { ask, .. } => Some(ask),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Invalid { message, problems } => {
                write!(f, "askdesk refused the input: {message}")?;
                for p in problems {
                    write!(f, "\n- {}: {} ({})", p.path, p.message, p.code)?;
                }
                Ok(())
            }
            Self::Finished { message, .. } => write!(f, "{message}"),
            Self::Refused { status, .. } if *status == StatusCode::UNAUTHORIZED => {
                write!(
                    f,
                    "askdesk wants its token: pass --token or set ASKDESK_TOKEN"
                )
            }
            Self::Refused { status, message } => write!(f, "askdesk refused ({status}): {message}"),
            Self::Untrusted { url, source } => write!(
                f,
                "askdesk at {url} showed a TLS certificate this machine does not trust ({}); \
                 pass --ca-cert FILE or set ASKDESK_CA_CERT to the PEM file of the CA that signed it",
                causes(source)
            ),
            Self::Unreachable { url, source } => {
                write!(f, "cannot reach askdesk at {url}: {}", causes(source))
            }
            Self::Unreadable { status, detail } => {
                write!(f, "askdesk sent a reply this client cannot read ({status}): {detail}")
            }
            Self::Setup(message) => write!(f, "{message}"),
        }
    }
}

impl StdError for Error {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            Self::Untrusted { source, .. } | Self::Unreachable { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// An error and its causes in one line, without repeats: reqwest's own
/// words ("error sending request") say little without the cause.
fn causes(error: &(dyn StdError + 'static)) -> String {
    let mut text = error.to_string();
    let mut cause = chain_next(error);
    while let Some(e) = cause {
        let part = e.to_string();
        if !text.contains(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
        cause = chain_next(e);
    }
    text
}

/// The next cause of `error`, looking inside an `io::Error` too (whose
/// `source` skips the error it wraps).
fn chain_next<'a>(error: &'a (dyn StdError + 'static)) -> Option<&'a (dyn StdError + 'static)> {
    if let Some(io) = error.downcast_ref::<std::io::Error>() {
        if let Some(inner) = io.get_ref() {
            return Some(inner);
        }
    }
    error.source()
}

/// Whether rustls refused the server's certificate somewhere among the
/// causes of `error`.
fn refused_certificate(error: &(dyn StdError + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(e) = cause {
        if matches!(
            e.downcast_ref::<rustls::Error>(),
            Some(rustls::Error::InvalidCertificate(_))
        ) {
            return true;
        }
        cause = chain_next(e);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(message: &str) -> ErrorBody {
        ErrorBody {
            message: message.to_owned(),
            problems: Vec::new(),
            ask: None,
        }
    }

    #[test]
    fn a_missing_token_says_how_to_give_it() {
        let e = Error::from_reply(StatusCode::UNAUTHORIZED, Some(body("token please")));
        assert_eq!(
            e.to_string(),
            "askdesk wants its token: pass --token or set ASKDESK_TOKEN"
        );
        assert_eq!(e.status(), Some(StatusCode::UNAUTHORIZED));
    }

    #[test]
    fn problems_and_the_server_message_are_kept() {
        let problem: Problem = serde_json::from_value(serde_json::json!({
            "path": "answers[0].selected[0]", "code": "unknown_label",
            "message": "no such option", "questionId": "features"
        }))
        .expect("problem");
        let mut refused = body("the input was refused with 1 problem(s)");
        refused.problems.push(problem.clone());
        let e = Error::from_reply(StatusCode::UNPROCESSABLE_ENTITY, Some(refused));
        assert_eq!(e.problems(), [problem]);
        let text = e.to_string();
        assert!(text.contains("refused with 1 problem(s)"), "{text}");
        assert!(
            text.contains("answers[0].selected[0]: no such option (unknown_label)"),
            "{text}"
        );
    }

    #[test]
    fn a_422_without_problems_and_a_bare_status_are_plain_refusals() {
        let e = Error::from_reply(StatusCode::UNPROCESSABLE_ENTITY, Some(body("bad JSON")));
        assert!(
            matches!(&e, Error::Refused { message, .. } if message == "bad JSON"),
            "{e:?}"
        );
        let e = Error::from_reply(StatusCode::BAD_GATEWAY, None);
        assert_eq!(
            e.to_string(),
            "askdesk refused (502 Bad Gateway): Bad Gateway"
        );
    }
}
