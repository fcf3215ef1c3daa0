//! The one implementation of [`Grants`](crate::grants::Grants) over SQL,
//! for every database, expanded once per pool type by [`sql_grants!`].

use crate::{
    error::StoreError,
    grants::{GrantRecord, OAuthClient, Terms},
};

/// The columns [`grant_of`] reads, from `oauth_grants` as `g`.
pub(crate) const GRANT_COLUMNS: &str = "g.id, g.owner, g.agent, g.client_id, g.client_name, \
     g.verified, g.scope, g.resource, g.created_at AS grant_created_at";

/// A grant, from a row with [`GRANT_COLUMNS`].
pub(crate) fn grant_of<'r, R>(row: &'r R) -> Result<GrantRecord, StoreError>
where
    R: sqlx::Row,
    &'static str: sqlx::ColumnIndex<R>,
    String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    bool: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    Ok(GrantRecord {
        id: row.try_get("id")?,
        agent: row.try_get("agent")?,
        terms: Terms {
            owner: row.try_get("owner")?,
            client_id: row.try_get("client_id")?,
            client_name: row.try_get("client_name")?,
            verified: row.try_get("verified")?,
            scope: row.try_get("scope")?,
            resource: row.try_get("resource")?,
        },
        created_at: row.try_get("grant_created_at")?,
    })
}

/// A registered client, from its row.
pub(crate) fn client_of<'r, R>(row: &'r R) -> Result<OAuthClient, StoreError>
where
    R: sqlx::Row,
    &'static str: sqlx::ColumnIndex<R>,
    String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    let client_id: String = row.try_get("client_id")?;
    let uris: String = row.try_get("redirect_uris")?;
    let redirect_uris = serde_json::from_str(&uris)
        .map_err(|e| crate::error::corrupt(&format!("OAuth client {client_id}"), e.to_string()))?;
    Ok(OAuthClient {
        name: row.try_get("name")?,
        application_type: row.try_get("application_type")?,
        created_at: row.try_get("created_at")?,
        redirect_uris,
        client_id,
    })
}

/// How long a used or expired code is kept after it expires, so that its
/// second use is still known as one (ms).
pub(crate) const CODES_KEPT_MS: i64 = 10 * 60 * 1000;

/// Implements [`Grants`](crate::grants::Grants) for an SQL store (a struct
/// with a `pool` field).
macro_rules! sql_grants {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl $crate::grants::Grants for $store {
            async fn register_client(
                &self,
                client: &$crate::grants::OAuthClient,
                cap: u64,
            ) -> Result<bool, $crate::error::StoreError> {
                let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM oauth_clients")
                    .fetch_one(&self.pool)
                    .await?;
                if u64::try_from(count).unwrap_or(u64::MAX) >= cap {
                    return Ok(false);
                }
                let uris = serde_json::to_string(&client.redirect_uris).unwrap_or_default();
                sqlx::query(
                    "INSERT INTO oauth_clients (client_id, name, redirect_uris, application_type, \
                     created_at) VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(&client.client_id)
                .bind(&client.name)
                .bind(uris)
                .bind(&client.application_type)
                .bind(client.created_at)
                .execute(&self.pool)
                .await?;
                Ok(true)
            }

            async fn oauth_client(
                &self,
                client_id: &str,
            ) -> Result<Option<$crate::grants::OAuthClient>, $crate::error::StoreError> {
                let row = sqlx::query(
                    "SELECT client_id, name, redirect_uris, application_type, created_at \
                     FROM oauth_clients WHERE client_id = $1",
                )
                .bind(client_id)
                .fetch_optional(&self.pool)
                .await?;
                row.as_ref().map($crate::sql::grants::client_of).transpose()
            }

            async fn insert_code(
                &self,
                digest: &str,
                code: &$crate::grants::Code,
                now: i64,
            ) -> Result<(), $crate::error::StoreError> {
                sqlx::query("DELETE FROM oauth_codes WHERE expires_at < $1")
                    .bind(now - $crate::sql::grants::CODES_KEPT_MS)
                    .execute(&self.pool)
                    .await?;
                let terms = &code.terms;
                sqlx::query(
                    "INSERT INTO oauth_codes (digest, owner, client_id, client_name, verified, \
                     redirect_uri, challenge, scope, resource, expires_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                )
                .bind(digest)
                .bind(&terms.owner)
                .bind(&terms.client_id)
                .bind(&terms.client_name)
                .bind(terms.verified)
                .bind(&code.redirect_uri)
                .bind(&code.challenge)
                .bind(&terms.scope)
                .bind(&terms.resource)
                .bind(code.expires_at)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn take_code(
                &self,
                digest: &str,
                now: i64,
            ) -> Result<$crate::grants::CodeTaken, $crate::error::StoreError> {
                use sqlx::Row;
                let mut tx = self.pool.begin().await?;
                let taken = sqlx::query(
                    "UPDATE oauth_codes SET used = TRUE WHERE digest = $1 AND NOT used \
                     AND expires_at > $2",
                )
                .bind(digest)
                .bind(now)
                .execute(&mut *tx)
                .await?;
                let row = sqlx::query(
                    "SELECT owner, client_id, client_name, verified, redirect_uri, challenge, \
                     scope, resource, expires_at, grant_id FROM oauth_codes WHERE digest = $1",
                )
                .bind(digest)
                .fetch_optional(&mut *tx)
                .await?;
                let Some(row) = row else {
                    return Ok($crate::grants::CodeTaken::Unknown);
                };
                if taken.rows_affected() == 1 {
                    let code = $crate::grants::Code {
                        terms: $crate::grants::Terms {
                            owner: row.try_get("owner")?,
                            client_id: row.try_get("client_id")?,
                            client_name: row.try_get("client_name")?,
                            verified: row.try_get("verified")?,
                            scope: row.try_get("scope")?,
                            resource: row.try_get("resource")?,
                        },
                        redirect_uri: row.try_get("redirect_uri")?,
                        challenge: row.try_get("challenge")?,
                        expires_at: row.try_get("expires_at")?,
                    };
                    tx.commit().await?;
                    return Ok($crate::grants::CodeTaken::Fresh(code));
                }
                let used: bool = sqlx::query_scalar("SELECT used FROM oauth_codes WHERE digest = $1")
                    .bind(digest)
                    .fetch_one(&mut *tx)
                    .await?;
                if !used {
                    // Expired, never used.
                    return Ok($crate::grants::CodeTaken::Unknown);
                }
                let grant: Option<String> = row.try_get("grant_id")?;
                if let Some(grant) = grant {
                    sqlx::query("DELETE FROM oauth_tokens WHERE grant_id = $1")
                        .bind(&grant)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query("DELETE FROM oauth_grants WHERE id = $1")
                        .bind(&grant)
                        .execute(&mut *tx)
                        .await?;
                }
                tx.commit().await?;
                Ok($crate::grants::CodeTaken::Reused)
            }

            async fn open_grant(
                &self,
                grant: &$crate::grants::GrantRecord,
                code: &str,
                tokens: &[$crate::grants::NewToken],
            ) -> Result<(), $crate::error::StoreError> {
                let mut tx = self.pool.begin().await?;
                let terms = &grant.terms;
                sqlx::query(
                    "INSERT INTO oauth_grants (id, owner, agent, client_id, client_name, \
                     verified, scope, resource, created_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                )
                .bind(&grant.id)
                .bind(&terms.owner)
                .bind(&grant.agent)
                .bind(&terms.client_id)
                .bind(&terms.client_name)
                .bind(terms.verified)
                .bind(&terms.scope)
                .bind(&terms.resource)
                .bind(grant.created_at)
                .execute(&mut *tx)
                .await?;
                sqlx::query("UPDATE oauth_codes SET grant_id = $1 WHERE digest = $2")
                    .bind(&grant.id)
                    .bind(code)
                    .execute(&mut *tx)
                    .await?;
                for token in tokens {
                    sqlx::query(
                        "INSERT INTO oauth_tokens (digest, grant_id, kind, expires_at) \
                         VALUES ($1, $2, $3, $4)",
                    )
                    .bind(&token.digest)
                    .bind(&grant.id)
                    .bind(token.kind.as_str())
                    .bind(token.expires_at)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn bearer(
                &self,
                digest: &str,
                now: i64,
            ) -> Result<Option<$crate::grants::Bearer>, $crate::error::StoreError> {
                let row = sqlx::query(&format!(
                    "SELECT p.name, p.role, p.created_at, p.relays_answers, p.email, {} \
                     FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id \
                     JOIN people o ON o.name = g.owner JOIN people p ON p.name = g.agent \
                     WHERE t.digest = $1 AND t.kind = 'access' AND t.expires_at > $2",
                    $crate::sql::grants::GRANT_COLUMNS
                ))
                .bind(digest)
                .bind(now)
                .fetch_optional(&self.pool)
                .await?;
                let Some(row) = row else {
                    return Ok(None);
                };
                Ok(Some($crate::grants::Bearer {
                    agent: $crate::sql::people::person_of(&row)?,
                    grant: $crate::sql::grants::grant_of(&row)?,
                }))
            }

            async fn refresh(
                &self,
                digest: &str,
                now: i64,
                tokens: &[$crate::grants::NewToken],
            ) -> Result<$crate::grants::Refreshed, $crate::error::StoreError> {
                let mut tx = self.pool.begin().await?;
                let used = sqlx::query(
                    "UPDATE oauth_tokens SET used = TRUE WHERE digest = $1 AND kind = 'refresh' \
                     AND NOT used AND expires_at > $2",
                )
                .bind(digest)
                .bind(now)
                .execute(&mut *tx)
                .await?;
                let grant: Option<String> = sqlx::query_scalar(
                    "SELECT grant_id FROM oauth_tokens WHERE digest = $1 AND kind = 'refresh'",
                )
                .bind(digest)
                .fetch_optional(&mut *tx)
                .await?;
                let Some(grant) = grant else {
                    return Ok($crate::grants::Refreshed::Unknown);
                };
                if used.rows_affected() == 0 {
                    let was_used: bool =
                        sqlx::query_scalar("SELECT used FROM oauth_tokens WHERE digest = $1")
                            .bind(digest)
                            .fetch_one(&mut *tx)
                            .await?;
                    if !was_used {
                        return Ok($crate::grants::Refreshed::Unknown);
                    }
                    sqlx::query("DELETE FROM oauth_tokens WHERE grant_id = $1")
                        .bind(&grant)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query("DELETE FROM oauth_grants WHERE id = $1")
                        .bind(&grant)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    return Ok($crate::grants::Refreshed::Reused);
                }
                let row = sqlx::query(&format!(
                    "SELECT {} FROM oauth_grants g JOIN people o ON o.name = g.owner \
                     JOIN people p ON p.name = g.agent WHERE g.id = $1",
                    $crate::sql::grants::GRANT_COLUMNS
                ))
                .bind(&grant)
                .fetch_optional(&mut *tx)
                .await?;
                let Some(row) = row else {
                    return Ok($crate::grants::Refreshed::Unknown);
                };
                let record = $crate::sql::grants::grant_of(&row)?;
                for token in tokens {
                    sqlx::query(
                        "INSERT INTO oauth_tokens (digest, grant_id, kind, expires_at) \
                         VALUES ($1, $2, $3, $4)",
                    )
                    .bind(&token.digest)
                    .bind(&grant)
                    .bind(token.kind.as_str())
                    .bind(token.expires_at)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok($crate::grants::Refreshed::Rotated(record))
            }

            async fn grant_of_token(
                &self,
                digest: &str,
            ) -> Result<Option<$crate::grants::GrantRecord>, $crate::error::StoreError> {
                let row = sqlx::query(&format!(
                    "SELECT {} FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id \
                     WHERE t.digest = $1",
                    $crate::sql::grants::GRANT_COLUMNS
                ))
                .bind(digest)
                .fetch_optional(&self.pool)
                .await?;
                row.as_ref().map($crate::sql::grants::grant_of).transpose()
            }

            async fn revoke_grant(&self, id: &str) -> Result<bool, $crate::error::StoreError> {
                let mut tx = self.pool.begin().await?;
                sqlx::query("DELETE FROM oauth_tokens WHERE grant_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                let removed = sqlx::query("DELETE FROM oauth_grants WHERE id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(removed.rows_affected() == 1)
            }

            async fn grants(
                &self,
                owner: Option<&str>,
            ) -> Result<Vec<$crate::grants::GrantRecord>, $crate::error::StoreError> {
                let rows = sqlx::query(&format!(
                    "SELECT {} FROM oauth_grants g WHERE $1 IS NULL OR g.owner = $1 \
                     ORDER BY g.created_at DESC, g.id",
                    $crate::sql::grants::GRANT_COLUMNS
                ))
                .bind(owner)
                .fetch_all(&self.pool)
                .await?;
                rows.iter().map($crate::sql::grants::grant_of).collect()
            }
        }
    };
}

pub(crate) use sql_grants;
