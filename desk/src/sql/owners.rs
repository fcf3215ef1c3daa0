//! The one implementation of [`Owners`](crate::owners::Owners) over SQL,
//! for every database, expanded once per pool type by [`sql_owners!`].

/// Implements [`Owners`](crate::owners::Owners) for an SQL store (a struct
/// with a `pool` field).
macro_rules! sql_owners {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl $crate::owners::Owners for $store {
            async fn claim_session(
                &self,
                session: &str,
                owner: &str,
                at: i64,
            ) -> Result<String, $crate::error::StoreError> {
                // One statement each, so two instances claiming at once
                // agree on the first.
                sqlx::query(
                    "INSERT INTO session_owners (session, owner, created_at) VALUES ($1, $2, $3) \
                     ON CONFLICT (session) DO NOTHING",
                )
                .bind(session)
                .bind(owner)
                .bind(at)
                .execute(&self.pool)
                .await?;
                Ok(self.session_owner(session).await?.unwrap_or_default())
            }

            async fn session_owner(
                &self,
                session: &str,
            ) -> Result<Option<String>, $crate::error::StoreError> {
                Ok(
                    sqlx::query_scalar("SELECT owner FROM session_owners WHERE session = $1")
                        .bind(session)
                        .fetch_optional(&self.pool)
                        .await?,
                )
            }

            async fn hold_mcp_session(
                &self,
                digest: &str,
                holder: &str,
                at: i64,
                before: i64,
            ) -> Result<(), $crate::error::StoreError> {
                sqlx::query("DELETE FROM mcp_session_holders WHERE created_at < $1")
                    .bind(before)
                    .execute(&self.pool)
                    .await?;
                sqlx::query(
                    "INSERT INTO mcp_session_holders (session_digest, holder, created_at) \
                     VALUES ($1, $2, $3) ON CONFLICT (session_digest) DO NOTHING",
                )
                .bind(digest)
                .bind(holder)
                .bind(at)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn mcp_session_holder(
                &self,
                digest: &str,
            ) -> Result<Option<String>, $crate::error::StoreError> {
                Ok(sqlx::query_scalar(
                    "SELECT holder FROM mcp_session_holders WHERE session_digest = $1",
                )
                .bind(digest)
                .fetch_optional(&self.pool)
                .await?)
            }
        }
    };
}

pub(crate) use sql_owners;
