//! Ask ids.

use std::fmt;

/// An ask's id: 128 random bits as 32 lowercase hex digits. Nobody can
/// guess one, so the page URL that contains it is the capability to answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AskId(String);

impl AskId {
    /// A new random id.
    pub fn random() -> Result<Self, getrandom::Error> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)?;
        Ok(Self(hex::encode(bytes)))
    }

    /// Reads an id; `None` unless it has the shape of one.
    pub fn parse(s: &str) -> Option<Self> {
        (s.len() == 32 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
            .then(|| Self(s.to_owned()))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for AskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An ask's id as the log writes it: its first eight characters, enough
/// to follow one ask through the log and too few to open it. The whole id
/// is the ask link's capability, and logs are read by more people than
/// may answer.
pub struct Logged<'a>(pub &'a str);

impl std::fmt::Display for Logged<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let start: String = self.0.chars().take(8).collect();
        write!(f, "{start}…")
    }
}
