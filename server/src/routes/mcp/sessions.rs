//! MCP sessions kept in PostgreSQL, so that one client session may reach
//! any instance: rmcp restores a session it does not hold from here (the
//! client's `initialize` parameters) instead of refusing the request.

use desk::PostgresStore;
use rmcp::transport::streamable_http_server::session::store::{
    SessionState, SessionStore, SessionStoreError,
};

/// rmcp's session store over the instances' shared database.
pub struct SharedSessions(pub PostgresStore);

#[async_trait::async_trait]
impl SessionStore for SharedSessions {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        match self.0.session(session_id).await? {
            Some(json) => Ok(Some(serde_json::from_str(&json)?)),
            None => Ok(None),
        }
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let json = serde_json::to_string(state)?;
        Ok(self.0.keep_session(session_id, &json).await?)
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        Ok(self.0.drop_session(session_id).await?)
    }
}
