//! The one implementation of [`Retention`](crate::retention::Retention)
//! over SQL, for every database: the same statements, expanded once per
//! pool type by [`sql_retention!`].

/// The asks of one batch: finished before `$1`, oldest first, at most `$2`.
/// Every statement of a batch names them by this same query inside one
/// transaction, with the cut-off fixed, so they all speak of the same asks.
macro_rules! batch {
    () => {
        "SELECT id FROM asks WHERE finished_at IS NOT NULL AND finished_at < $1 \
         ORDER BY finished_at, id LIMIT $2"
    };
}

/// Implements [`Retention`](crate::retention::Retention) for an SQL store
/// (a struct with a `pool` field).
macro_rules! sql_retention {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl $crate::retention::Retention for $store {
            async fn remove_finished(
                &self,
                before: i64,
                batch: u32,
                now: i64,
            ) -> Result<u64, $crate::error::StoreError> {
                let mut tx = self.pool.begin().await?;
                for dependent in [
                    concat!(
                        "DELETE FROM events WHERE ask_id IN (",
                        $crate::sql::retention::batch!(),
                        ")"
                    ),
                    concat!(
                        "DELETE FROM deliveries WHERE ask_id IN (",
                        $crate::sql::retention::batch!(),
                        ")"
                    ),
                    concat!(
                        "DELETE FROM action_uses WHERE ask_id IN (",
                        $crate::sql::retention::batch!(),
                        ")"
                    ),
                    concat!(
                        "DELETE FROM messages WHERE ask_id IN (",
                        $crate::sql::retention::batch!(),
                        ")"
                    ),
                ] {
                    sqlx::query(dependent)
                        .bind(before)
                        .bind(i64::from(batch))
                        .execute(&mut *tx)
                        .await?;
                }
                let removed = sqlx::query(concat!(
                    "DELETE FROM asks WHERE id IN (",
                    $crate::sql::retention::batch!(),
                    ")"
                ))
                .bind(before)
                .bind(i64::from(batch))
                .execute(&mut *tx)
                .await?
                .rows_affected();
                if removed > 0 {
                    sqlx::query(
                        "UPDATE retention SET removed = removed + $1, last_at = $2 WHERE id = 1",
                    )
                    .bind(i64::try_from(removed).unwrap_or(i64::MAX))
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(removed)
            }

            async fn removed(
                &self,
            ) -> Result<$crate::retention::Removed, $crate::error::StoreError> {
                let (total, last_at): (i64, Option<i64>) =
                    sqlx::query_as("SELECT removed, last_at FROM retention WHERE id = 1")
                        .fetch_one(&self.pool)
                        .await?;
                Ok($crate::retention::Removed {
                    total: u64::try_from(total).unwrap_or(0),
                    last_at: last_at.map(interaction::Timestamp::from_ms),
                })
            }
        }
    };
}

pub(crate) use batch;
pub(crate) use sql_retention;
