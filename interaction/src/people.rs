//! Who acts on a desk: people's names and roles, and the surfaces an ask
//! is finished through. The desk records both with every finish; nothing
//! an agent sends sets them.

use crate::problem::{quoted, Problem, ProblemCode};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The longest person's name, in characters.
pub const MAX_PERSON_NAME_CHARS: usize = 64;
/// The most people one ask may be routed to.
pub const MAX_RECIPIENTS: usize = 20;

/// Whether `name` is a person's name: 1 to [`MAX_PERSON_NAME_CHARS`]
/// characters of `A-Z a-z 0-9 . _ -`, starting with a letter or digit.
pub fn is_person_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    name.len() <= MAX_PERSON_NAME_CHARS
        && bytes.next().is_some_and(|b| b.is_ascii_alphanumeric())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// The problem with `name` as a person's name, reported at `path`, if it
/// is not one (see [`is_person_name`]).
pub fn person_name_problem(name: &str, path: &str) -> Option<Problem> {
    (!is_person_name(name)).then(|| {
        Problem::new(
            path,
            ProblemCode::InvalidRecipient,
            format!(
                "{} is not a person's name: 1–{MAX_PERSON_NAME_CHARS} characters of \
                 A-Z a-z 0-9 . _ -, starting with a letter or digit",
                quoted(name)
            ),
        )
    })
}

/// The longest email address a person may have, in characters.
pub const MAX_EMAIL_CHARS: usize = 254;

/// A person's email address as the desk keeps it (trimmed, lower case, so
/// that an identity provider's spelling matches), or the problem with
/// `email`, reported at `path`, when it is not one.
pub fn person_email(email: &str, path: &str) -> Result<String, Problem> {
    let email = email.trim().to_lowercase();
    if email.chars().count() <= MAX_EMAIL_CHARS && crate::format::is_email(&email) {
        return Ok(email);
    }
    Err(Problem::new(
        path,
        ProblemCode::InvalidFormat,
        format!(
            "{} is not an email address: local@host.domain, at most {MAX_EMAIL_CHARS} characters",
            quoted(&email)
        ),
    ))
}

/// Checks an ask's `to`: people's names, each once, at most
/// [`MAX_RECIPIENTS`]. Every problem is reported at `to[i]`.
pub fn check_recipients(to: &[String]) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (i, name) in to.iter().enumerate() {
        let path = format!("to[{i}]");
        if let Some(problem) = person_name_problem(name, &path) {
            problems.push(problem);
        } else if to[..i].contains(name) {
            problems.push(Problem::new(
                path,
                ProblemCode::InvalidRecipient,
                format!("{} is named twice; name each person once", quoted(name)),
            ));
        }
    }
    if to.len() > MAX_RECIPIENTS {
        problems.push(Problem::new(
            format!("to[{MAX_RECIPIENTS}]"),
            ProblemCode::InvalidRecipient,
            format!(
                "an ask names {} people; at most {MAX_RECIPIENTS} are allowed",
                to.len()
            ),
        ));
    }
    problems
}

/// What someone with a token may do on the desk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Creates, reads, waits on and cancels asks.
    Agent,
    /// Reads, answers and declines asks.
    Person,
    /// Everything, including people.
    Admin,
}

impl Role {
    /// Every role.
    pub const ALL: [Self; 3] = [Self::Agent, Self::Person, Self::Admin];

    /// The role as written: `agent`, `person` or `admin`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Agent => "agent",
            Self::Person => "person",
            Self::Admin => "admin",
        }
    }

    /// Reads a role from its [`as_str`](Self::as_str) form.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|role| role.as_str() == text)
    }

    /// Whether its token may put questions (create asks, use MCP): an
    /// agent's and an admin's; a person answers.
    pub fn asks(self) -> bool {
        self != Self::Person
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who the caller of `GET /api/v1/me` is, as the desk knows them from
/// their credentials.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Me {
    /// Their name, when they are a person of the desk; `null` for the
    /// shared token and on an open desk.
    pub name: Option<String>,
    /// What they may do; the shared token and an open desk may do
    /// everything, as an admin.
    pub role: Role,
    /// Whether answers a person gives inside this caller's host (an MCP
    /// client's own form, askdesk's form there) are taken when its client
    /// relays them.
    pub relays_answers: bool,
}

/// The surface an ask was finished through. Written as its
/// [`as_str`](Via::as_str) form, and read through [`Via::parse`] (a
/// derived reader would cost the page's wasm a second copy of the names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "&'static str")]
pub enum Via {
    /// The ask's page, with its script.
    Web,
    /// The ask's page as a plain form post (no script).
    Form,
    /// The terminal UI (`askdesk tui`).
    Tui,
    /// The HTTP API.
    Api,
    /// An MCP tool (`cancel_ask`, or `ask_user` giving up).
    Mcp,
    /// The agent's own MCP client, asked by elicitation.
    McpClient,
    /// askdesk's form shown inside the agent's host (an MCP App).
    McpApp,
    /// A Slack message's button.
    Slack,
    /// An ntfy notification's button.
    Ntfy,
    /// A browser's push notification's button.
    Push,
}

impl Via {
    /// Every surface.
    pub const ALL: [Self; 10] = [
        Self::Web,
        Self::Form,
        Self::Tui,
        Self::Api,
        Self::Mcp,
        Self::McpClient,
        Self::McpApp,
        Self::Slack,
        Self::Ntfy,
        Self::Push,
    ];

    /// The surface as written: `web`, `form`, `tui`, `api`, `mcp`,
    /// `mcp-client`, `mcp-app`, `slack`, `ntfy` or `push`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Web => "web",
            Self::Form => "form",
            Self::Tui => "tui",
            Self::Api => "api",
            Self::Mcp => "mcp",
            Self::McpClient => "mcp-client",
            Self::McpApp => "mcp-app",
            Self::Slack => "slack",
            Self::Ntfy => "ntfy",
            Self::Push => "push",
        }
    }

    /// Reads a surface from its [`as_str`](Self::as_str) form.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|via| via.as_str() == text)
    }

    /// Whether an answer through this surface is given inside an agent's
    /// host and carried to the desk by the agent's connection: its client's
    /// own form, or askdesk's form shown in the host.
    pub fn is_relayed(self) -> bool {
        matches!(self, Self::McpClient | Self::McpApp)
    }
}

impl TryFrom<String> for Via {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        Self::parse(&text)
            .ok_or_else(|| format!("{} is not a surface askdesk knows", quoted(&text)))
    }
}

impl From<Via> for &'static str {
    fn from(via: Via) -> Self {
        via.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_short_plain_and_start_with_a_letter_or_digit() {
        for good in ["alice", "Bob", "ops.team", "a", "x_1-2", &"a".repeat(64)] {
            assert!(is_person_name(good), "{good}");
        }
        for bad in [
            "",
            "-alice",
            ".x",
            "al ice",
            "ålice",
            "a@b",
            &"a".repeat(65),
        ] {
            assert!(!is_person_name(bad), "{bad}");
        }
    }

    #[test]
    fn recipients_are_checked_at_their_place() {
        let to: Vec<String> = ["alice", "no one", "alice"].map(str::to_owned).to_vec();
        let problems = check_recipients(&to);
        let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(paths, ["to[1]", "to[2]"]);
        assert!(problems
            .iter()
            .all(|p| p.code == ProblemCode::InvalidRecipient));
        let many: Vec<String> = (0..=MAX_RECIPIENTS).map(|i| format!("p{i}")).collect();
        assert_eq!(check_recipients(&many).len(), 1);
        assert!(check_recipients(&many[..MAX_RECIPIENTS]).is_empty());
    }

    #[test]
    fn an_email_is_kept_trimmed_in_lower_case_and_a_non_address_is_refused_at_its_path() {
        assert_eq!(
            person_email(" Alice@Example.COM ", "email").as_deref(),
            Ok("alice@example.com")
        );
        let long = format!("{}@example.com", "a".repeat(MAX_EMAIL_CHARS));
        for bad in [
            "",
            "alice",
            "alice@",
            "@example.com",
            "a@b",
            "a b@c.d",
            &long,
        ] {
            let problem = person_email(bad, "email").expect_err(bad);
            assert_eq!(problem.path, "email");
            assert_eq!(problem.code, ProblemCode::InvalidFormat);
            assert!(
                problem.message.contains("not an email address"),
                "{problem:?}"
            );
        }
    }

    #[test]
    fn an_unknown_surface_is_refused() {
        let refused = serde_json::from_str::<Via>("\"fax\"").expect_err("refused");
        assert!(refused.to_string().contains("fax"), "{refused}");
    }

    #[test]
    fn roles_and_surfaces_read_back_what_they_write() {
        for role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()), Some(role));
        }
        for via in Via::ALL {
            assert_eq!(Via::parse(via.as_str()), Some(via));
            let json = serde_json::to_string(&via).expect("json");
            assert_eq!(json, format!("\"{}\"", via.as_str()));
            assert_eq!(serde_json::from_str::<Via>(&json).expect("read"), via);
        }
    }
}
