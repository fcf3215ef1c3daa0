//! The one implementation of [`Messages`](crate::messages::Messages) over
//! SQL, for every database: the same statements, expanded once per pool
//! type by [`sql_messages!`].

/// Implements [`Messages`](crate::messages::Messages) for an SQL store (a
/// struct with a `pool` field).
macro_rules! sql_messages {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl $crate::messages::Messages for $store {
            async fn add_message(
                &self,
                session: &str,
                ask: &$crate::id::AskId,
                text: &str,
                from: Option<&str>,
                at: i64,
            ) -> Result<u64, $crate::error::StoreError> {
                let seq: i64 = sqlx::query_scalar(
                    "INSERT INTO messages (session, ask_id, text, sender, at) \
                     VALUES ($1, $2, $3, $4, $5) RETURNING seq",
                )
                .bind(session)
                .bind(ask.as_str())
                .bind(text)
                .bind(from)
                .bind(at)
                .fetch_one(&self.pool)
                .await?;
                Ok(u64::try_from(seq).unwrap_or_default())
            }

            async fn messages_on(
                &self,
                ask: &$crate::id::AskId,
                limit: u32,
            ) -> Result<Vec<interaction::SessionMessage>, $crate::error::StoreError> {
                let rows: Vec<$crate::sql::messages::Row> = sqlx::query_as(
                    "SELECT seq, ask_id, text, sender, at FROM messages \
                     WHERE ask_id = $1 ORDER BY seq LIMIT $2",
                )
                .bind(ask.as_str())
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                Ok(rows
                    .into_iter()
                    .map($crate::sql::messages::message)
                    .collect())
            }

            async fn messages_after(
                &self,
                session: &str,
                after: u64,
                limit: u32,
            ) -> Result<Vec<interaction::SessionMessage>, $crate::error::StoreError> {
                let rows: Vec<$crate::sql::messages::Row> = sqlx::query_as(
                    "SELECT seq, ask_id, text, sender, at FROM messages \
                     WHERE session = $1 AND seq > $2 ORDER BY seq LIMIT $3",
                )
                .bind(session)
                .bind(i64::try_from(after).unwrap_or(i64::MAX))
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                Ok(rows
                    .into_iter()
                    .map($crate::sql::messages::message)
                    .collect())
            }
        }
    };
}

pub(crate) use sql_messages;

/// A message's row: its number, ask, text, writer and time.
pub(crate) type Row = (i64, String, String, Option<String>, i64);

/// The message a row holds.
pub(crate) fn message((seq, ask, text, from, at): Row) -> interaction::SessionMessage {
    interaction::SessionMessage {
        seq: u64::try_from(seq).unwrap_or_default(),
        ask,
        text,
        from,
        at: interaction::Timestamp::from_ms(at),
    }
}
