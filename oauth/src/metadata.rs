//! What the desk says of itself: the MCP endpoint's protected resource
//! metadata (RFC 9728) and the authorization server's metadata (RFC 8414).

use crate::{AuthServer, AUTHORIZE_PATH, REGISTER_PATH, REVOKE_PATH, SCOPE, TOKEN_PATH};
use serde_json::{json, Value};

impl AuthServer {
    /// RFC 9728: the resource, and askdesk as its one authorization
    /// server.
    pub fn resource_metadata(&self) -> Value {
        json!({
            "resource": self.resource(),
            "authorization_servers": [self.issuer()],
            "scopes_supported": [SCOPE],
            "bearer_methods_supported": ["header"],
            "resource_name": "askdesk",
        })
    }

    /// RFC 8414, with what the MCP specification asks for: S256 only,
    /// public clients (`none`), client metadata documents, `iss` on the
    /// redirect.
    pub fn server_metadata(&self) -> Value {
        let issuer = self.issuer();
        json!({
            "issuer": issuer,
            "authorization_endpoint": format!("{issuer}{AUTHORIZE_PATH}"),
            "token_endpoint": format!("{issuer}{TOKEN_PATH}"),
            "registration_endpoint": format!("{issuer}{REGISTER_PATH}"),
            "revocation_endpoint": format!("{issuer}{REVOKE_PATH}"),
            "scopes_supported": [SCOPE],
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none"],
            "revocation_endpoint_auth_methods_supported": ["none"],
            "client_id_metadata_document_supported": true,
            "authorization_response_iss_parameter_supported": true,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{cimd, AuthServer};

    #[test]
    fn the_metadata_name_each_other_and_the_endpoints() {
        let server = AuthServer::new(
            "http://127.0.0.1:3000",
            1,
            cimd::Documents::new(cimd::Fetching::default()).expect("documents"),
        );
        let resource = server.resource_metadata();
        assert_eq!(resource["resource"], "http://127.0.0.1:3000/mcp");
        assert_eq!(
            resource["authorization_servers"][0],
            "http://127.0.0.1:3000"
        );
        let meta = server.server_metadata();
        assert_eq!(meta["issuer"], "http://127.0.0.1:3000");
        assert_eq!(meta["token_endpoint"], "http://127.0.0.1:3000/oauth/token");
        assert_eq!(
            meta["code_challenge_methods_supported"],
            serde_json::json!(["S256"])
        );
        assert_eq!(meta["client_id_metadata_document_supported"], true);
        assert_eq!(meta["authorization_response_iss_parameter_supported"], true);
        assert_eq!(
            meta["token_endpoint_auth_methods_supported"],
            serde_json::json!(["none"])
        );
    }
}
