//! Who asks: a client known by its metadata document (named by its
//! domain, verified by its HTTPS) or by its registration (named as it
//! named itself, unverified), and where it may be sent back to.

use crate::{cimd, redirects::same_loopback, AuthServer};
use desk::Desk;

/// A client, as the consent page shows it and the flow checks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Client {
    /// Its `client_id`.
    pub id: String,
    /// What the person is shown: the document's host, or the
    /// registration's own name.
    pub name: String,
    /// Whether `name` is the host that serves its metadata document
    /// (`false`: a name it gave itself, which nobody checked).
    pub verified: bool,
    /// Where it may be sent back to.
    pub redirect_uris: Vec<String>,
}

impl Client {
    /// The client `id` names, fetched or registered; why there is none.
    pub async fn find(server: &AuthServer, desk: &Desk, id: &str) -> Result<Client, String> {
        if cimd::is_document_id(id) {
            let document = server.documents.get(id).await?;
            return Ok(Client {
                id: document.client_id,
                name: document.host,
                verified: true,
                redirect_uris: document.redirect_uris,
            });
        }
        match desk.oauth_client(id).await {
            Ok(Some(client)) => Ok(Client {
                id: client.client_id,
                name: client.name,
                verified: false,
                redirect_uris: client.redirect_uris,
            }),
            Ok(None) => Err(format!(
                "client_id {id:?} is neither registered here nor an https URL of a metadata document"
            )),
            Err(e) => {
                tracing::warn!("OAuth: could not read a client: {e}");
                Err("the desk could not read its clients".to_owned())
            }
        }
    }

    /// The redirect URI to use: `asked`, if it is one of the client's
    /// (exactly, or a loopback one on another port, RFC 8252 section
    /// 7.3), or its only one when none is named.
    pub fn redirect(&self, asked: Option<&str>) -> Result<String, String> {
        match asked {
            None | Some("") => match self.redirect_uris.as_slice() {
                [only] => Ok(only.clone()),
                _ => Err("redirect_uri is required: the client has several".to_owned()),
            },
            Some(asked) => {
                let allowed = self
                    .redirect_uris
                    .iter()
                    .any(|known| known == asked || same_loopback(known, asked));
                if allowed {
                    Ok(asked.to_owned())
                } else {
                    Err(format!(
                        "redirect_uri {asked:?} is not one of the client's redirect URIs"
                    ))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(uris: &[&str]) -> Client {
        Client {
            id: "c".to_owned(),
            name: "c".to_owned(),
            verified: false,
            redirect_uris: uris.iter().map(|u| (*u).to_owned()).collect(),
        }
    }

    #[test]
    fn a_redirect_is_one_of_the_clients_exactly() {
        let c = client(&["https://app.example/cb", "http://127.0.0.1:3000/cb"]);
        assert!(c.redirect(Some("https://app.example/cb")).is_ok());
        assert!(c.redirect(Some("https://app.example/cb/")).is_err());
        assert!(c.redirect(Some("https://app.example/cb?x=1")).is_err());
        assert!(c.redirect(Some("https://evil.example/cb")).is_err());
        // A native app's loopback port changes from run to run.
        assert!(c.redirect(Some("http://127.0.0.1:49152/cb")).is_ok());
        assert!(c.redirect(Some("http://127.0.0.1:49152/other")).is_err());
        assert!(c.redirect(Some("http://localhost:3000/cb")).is_err());
        assert!(c.redirect(None).is_err(), "two: one must be named");
        assert_eq!(
            client(&["https://a.example/cb"]).redirect(None),
            Ok("https://a.example/cb".to_owned())
        );
    }
}
