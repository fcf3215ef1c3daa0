//! `askdesk setup claude-ai|chatgpt --url URL`: nothing to write, since
//! these hosts connect from their makers' clouds by OAuth. It checks that
//! the URL is one they can reach and that a desk answers there with its
//! OAuth metadata, then prints the URL to paste and the host's steps.

use crate::cli::config::Connector;
use anyhow::{bail, Context};
use std::{process::ExitCode, time::Duration};

/// What is wrong with `url` as a desk's public URL for a connector, if
/// anything: it must be https (or loopback http, to try it out on this
/// machine), with no path, query or credentials.
pub fn url_problem(url: &str) -> Option<String> {
    let Ok(parsed) = url::Url::parse(url) else {
        return Some(format!(
            "{url:?} is not a URL; give the desk's public URL, e.g. https://desk.example.com"
        ));
    };
    let loopback = matches!(parsed.host_str(), Some("localhost" | "127.0.0.1" | "[::1]"));
    match parsed.scheme() {
        "https" => {}
        "http" if loopback => {}
        _ => {
            return Some(format!(
                "{url} must be https: the host connects from the internet. Put a reverse proxy or \
                 a tunnel with a certificate in front of askdesk and start it with --public-url"
            ))
        }
    }
    if parsed.path() != "/" || parsed.query().is_some() || !parsed.username().is_empty() {
        return Some(format!(
            "{url} must be the desk's own URL, with no path, query or credentials (the MCP \
             endpoint is its /mcp)"
        ));
    }
    None
}

/// The host's steps, to add the desk at `mcp`.
fn steps(host: Connector, mcp: &str) -> String {
    match host {
        Connector::ClaudeAi => format!(
            "In claude.ai (the same connector then works in Claude Desktop and Claude's mobile apps):\n\
             1. Settings → Connectors → Add custom connector.\n\
             2. Name: askdesk. Remote MCP server URL: {mcp}\n\
             3. Connect: askdesk's page asks you to sign in (if you are not) and to allow claude.ai.\n\
             4. In a chat, turn the askdesk connector on in the tools menu.\n\
             A Team or Enterprise organisation's owner adds the connector for everyone first."
        ),
        Connector::ChatGpt => format!(
            "In ChatGPT:\n\
             1. Settings → Apps & Connectors → Advanced settings: turn on developer mode.\n\
             2. Apps & Connectors → Create: name askdesk, MCP server URL {mcp}, authentication OAuth.\n\
             3. Create, then Connect: askdesk's page asks you to sign in (if you are not) and to allow ChatGPT.\n\
             4. In a chat, choose askdesk from the developer-mode tools."
        ),
    }
}

/// Checks the desk at `url` and prints what to paste where.
pub async fn run(host: Connector, url: Option<&str>) -> anyhow::Result<ExitCode> {
    let Some(url) = url else {
        bail!(
            "askdesk setup {} needs --url: the desk's public https URL, as --public-url gives it",
            host.name()
        );
    };
    let url = url.trim_end_matches('/');
    if let Some(problem) = url_problem(&format!("{url}/")) {
        bail!(problem);
    }
    let metadata = format!(
        "{url}{}{}",
        oauth::RESOURCE_METADATA_PATH,
        oauth::RESOURCE_PATH
    );
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()?;
    let reply = client
        .get(&metadata)
        .send()
        .await
        .with_context(|| format!("no desk answers at {url}"))?;
    if !reply.status().is_success() {
        bail!(
            "{metadata} answered {}: is askdesk serving there (with this version)?",
            reply.status()
        );
    }
    let body: serde_json::Value = reply
        .json()
        .await
        .with_context(|| format!("{metadata} is not askdesk's OAuth metadata"))?;
    let mcp = format!("{url}{}", oauth::RESOURCE_PATH);
    if body["resource"].as_str() != Some(mcp.as_str()) {
        bail!(
            "the desk at {url} calls its MCP endpoint {}, not {mcp}: start it with --public-url {url}",
            body["resource"]
        );
    }
    // Aligned as `askdesk doctor` writes its lines.
    println!(
        "{:<5}the desk at {url} answers, with its OAuth metadata\n",
        "ok"
    );
    println!("{}\n", steps(host, &mcp));
    println!(
        "Nothing is written on this machine. `askdesk people grants` lists connected \
         applications; `askdesk people revoke ID` disconnects one."
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::url_problem;

    #[test]
    fn a_connectors_url_is_the_desks_own_https_url() {
        for fine in [
            "https://desk.example.com/",
            "http://127.0.0.1:3000/",
            "http://localhost:3000/",
        ] {
            assert_eq!(url_problem(fine), None, "{fine}");
        }
        for (bad, says) in [
            ("http://desk.example.com/", "https"),
            ("https://desk.example.com/mcp", "no path"),
            ("https://desk.example.com/?x=1", "no path"),
            ("desk.example.com", "not a URL"),
        ] {
            let problem = url_problem(bad).expect(bad);
            assert!(problem.contains(says), "{bad}: {problem}");
        }
    }
}
