//! The one implementation of [`Outbox`](crate::outbox::Outbox) over SQL,
//! for every database, as `sql_store!` is for asks: the same statements,
//! expanded once per pool type by [`sql_outbox!`].

use crate::{
    error::{corrupt, StoreError},
    outbox::Notice,
};

/// Implements [`Outbox`](crate::outbox::Outbox) for an SQL store (a struct
/// with a `pool` field of database `$db`) whose workers claim deliveries
/// with the row lock `$skip_locked` (PostgreSQL's `FOR UPDATE SKIP LOCKED`;
/// nothing for SQLite, which has one writer).
macro_rules! sql_outbox {
    ($store:ty, $db:ty, $skip_locked:literal) => {
        #[async_trait::async_trait]
        impl $crate::outbox::Outbox for $store {
            async fn claim_deliveries(
                &self,
                now: i64,
                lease_until: i64,
                limit: u32,
            ) -> Result<Vec<$crate::outbox::Claimed>, $crate::error::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(concat!(
                    "UPDATE deliveries SET due_at = $1, attempts = attempts + 1, last_at = $2 \
                     WHERE id IN (SELECT id FROM deliveries \
                     WHERE delivered_at IS NULL AND failed_at IS NULL AND due_at <= $2 \
                     ORDER BY due_at LIMIT $3 ",
                    $skip_locked,
                    ") RETURNING id, ask_id, channel, event, created_at, attempts"
                ))
                .bind(lease_until)
                .bind(now)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|row| {
                        let id: String = row.try_get("id")?;
                        Ok($crate::outbox::Claimed {
                            ask_id: $crate::sql::rows::parse_id(
                                &row.try_get::<String, _>("ask_id")?,
                            )?,
                            channel: row.try_get("channel")?,
                            notice: $crate::sql::outbox::parse_notice(
                                &id,
                                &row.try_get::<String, _>("event")?,
                            )?,
                            created_at: row.try_get("created_at")?,
                            attempts: $crate::sql::outbox::count(row.try_get("attempts")?),
                            id,
                        })
                    })
                    .collect()
            }

            async fn record_attempt(
                &self,
                id: &str,
                at: i64,
                attempt: &$crate::outbox::Attempt,
            ) -> Result<(), $crate::error::StoreError> {
                use $crate::outbox::Attempt;
                let query = match attempt {
                    Attempt::Delivered => sqlx::query(
                        "UPDATE deliveries SET delivered_at = $1, last_error = NULL WHERE id = $2",
                    )
                    .bind(at),
                    Attempt::Retry { error, retry_at } => sqlx::query(
                        "UPDATE deliveries SET due_at = $1, last_error = $2 WHERE id = $3",
                    )
                    .bind(*retry_at)
                    .bind(error),
                    Attempt::GaveUp { error } => sqlx::query(
                        "UPDATE deliveries SET failed_at = $1, last_error = $2 WHERE id = $3",
                    )
                    .bind(at)
                    .bind(error),
                };
                query.bind(id).execute(&self.pool).await?;
                Ok(())
            }

            async fn server_key(
                &self,
                name: &str,
                fresh: &str,
            ) -> Result<String, $crate::error::StoreError> {
                sqlx::query(
                    "INSERT INTO server_keys (name, value) VALUES ($1, $2) \
                     ON CONFLICT (name) DO NOTHING",
                )
                .bind(name)
                .bind(fresh)
                .execute(&self.pool)
                .await?;
                Ok(
                    sqlx::query_scalar("SELECT value FROM server_keys WHERE name = $1")
                        .bind(name)
                        .fetch_one(&self.pool)
                        .await?,
                )
            }

            async fn use_action(
                &self,
                token: &str,
                ask: &$crate::id::AskId,
                at: i64,
            ) -> Result<bool, $crate::error::StoreError> {
                let done = sqlx::query(
                    "INSERT INTO action_uses (token, ask_id, at) VALUES ($1, $2, $3) \
                     ON CONFLICT (token) DO NOTHING",
                )
                .bind(token)
                .bind(ask.as_str())
                .bind(at)
                .execute(&self.pool)
                .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn unuse_action(&self, token: &str) -> Result<(), $crate::error::StoreError> {
                sqlx::query("DELETE FROM action_uses WHERE token = $1")
                    .bind(token)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn add_push_subscription(
                &self,
                subscription: &$crate::outbox::PushSubscription,
                at: i64,
            ) -> Result<(), $crate::error::StoreError> {
                sqlx::query(
                    "INSERT INTO push_subscriptions (endpoint, p256dh, auth, created_at) \
                     VALUES ($1, $2, $3, $4) ON CONFLICT (endpoint) \
                     DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth",
                )
                .bind(&subscription.endpoint)
                .bind(&subscription.p256dh)
                .bind(&subscription.auth)
                .bind(at)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn remove_push_subscription(
                &self,
                endpoint: &str,
            ) -> Result<bool, $crate::error::StoreError> {
                let done = sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1")
                    .bind(endpoint)
                    .execute(&self.pool)
                    .await?;
                Ok(done.rows_affected() > 0)
            }

            async fn push_subscriptions(
                &self,
            ) -> Result<Vec<$crate::outbox::PushSubscription>, $crate::error::StoreError> {
                let rows: Vec<(String, String, String)> = sqlx::query_as(
                    "SELECT endpoint, p256dh, auth FROM push_subscriptions \
                     ORDER BY created_at, endpoint",
                )
                .fetch_all(&self.pool)
                .await?;
                Ok(rows
                    .into_iter()
                    .map(
                        |(endpoint, p256dh, auth)| $crate::outbox::PushSubscription {
                            endpoint,
                            p256dh,
                            auth,
                        },
                    )
                    .collect())
            }

            async fn deliveries(
                &self,
                ask: &$crate::id::AskId,
            ) -> Result<Vec<$crate::outbox::DeliveryRow>, $crate::error::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(
                    "SELECT id, channel, event, created_at, attempts, last_at, last_error, \
                     delivered_at, failed_at FROM deliveries WHERE ask_id = $1 \
                     ORDER BY created_at, channel, event",
                )
                .bind(ask.as_str())
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|row| {
                        let id: String = row.try_get("id")?;
                        Ok($crate::outbox::DeliveryRow {
                            channel: row.try_get("channel")?,
                            notice: $crate::sql::outbox::parse_notice(
                                &id,
                                &row.try_get::<String, _>("event")?,
                            )?,
                            created_at: row.try_get("created_at")?,
                            attempts: $crate::sql::outbox::count(row.try_get("attempts")?),
                            last_at: row.try_get("last_at")?,
                            last_error: row.try_get("last_error")?,
                            delivered_at: row.try_get("delivered_at")?,
                            failed_at: row.try_get("failed_at")?,
                            id,
                        })
                    })
                    .collect()
            }
        }
    };
}

pub(crate) use sql_outbox;

/// The notice a delivery row of `id` names as `name`.
pub(crate) fn parse_notice(id: &str, name: &str) -> Result<Notice, StoreError> {
    Notice::parse(name).ok_or_else(|| corrupt(id, format!("unknown notice {name:?}")))
}

/// A stored count of attempts as a `u32`, clamped to its range.
pub(crate) fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}
