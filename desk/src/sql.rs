//! The one implementation of [`Store`](crate::Store) over SQL, for every
//! database: the same statements (`$1` placeholders, which SQLite reads
//! too) and the same binds, expanded once per pool type by
//! [`sql_store!`], so the SQLite and PostgreSQL stores cannot drift apart.

/// Implements `Store` for `$store` (a struct with a `pool` field) whose
/// asks are ordered among equals by the column `$order` (SQLite's `rowid`,
/// PostgreSQL's `seq`).
macro_rules! sql_store {
    ($store:ty, $order:literal) => {
        #[async_trait::async_trait]
        impl $crate::store::Store for $store {
            async fn insert(
                &self,
                record: &$crate::record::Record,
                key: Option<&$crate::store::Keyed>,
            ) -> Result<bool, $crate::store::StoreError> {
                use $crate::stored::json;
                let inserted = sqlx::query(
                    "INSERT INTO asks (id, status, title, agent, request, question_count, \
                     created_at, expires_at, idempotency_key, fingerprint) \
                     VALUES ($1, 'pending', $2, $3, $4, $5, $6, $7, $8, $9)",
                )
                .bind(record.id.as_str())
                .bind(&record.title)
                .bind(&record.agent)
                .bind(json(&record.id, &record.request)?)
                .bind(i64::try_from(record.request.questions().len()).unwrap_or(i64::MAX))
                .bind(record.created_at)
                .bind(record.expires_at)
                .bind(key.map(|k| k.key.as_str()))
                .bind(key.map(|k| k.fingerprint.as_str()))
                .execute(&self.pool)
                .await;
                match inserted {
                    Ok(_) => Ok(true),
                    // Only the key can collide: ids are 128 random bits.
                    Err(sqlx::Error::Database(e)) if key.is_some() && e.is_unique_violation() => {
                        Ok(false)
                    }
                    Err(e) => Err(e.into()),
                }
            }

            async fn by_key(
                &self,
                key: &str,
            ) -> Result<Option<($crate::id::AskId, String)>, $crate::store::StoreError> {
                use sqlx::Row;
                let row = sqlx::query(
                    "SELECT id, fingerprint FROM asks WHERE idempotency_key = $1",
                )
                .bind(key)
                .fetch_optional(&self.pool)
                .await?;
                row.map(|row| {
                    let id = $crate::stored::parse_id(&row.try_get::<String, _>("id")?)?;
                    let fingerprint: Option<String> = row.try_get("fingerprint")?;
                    Ok((id, fingerprint.unwrap_or_default()))
                })
                .transpose()
            }

            async fn get(
                &self,
                id: &$crate::id::AskId,
            ) -> Result<Option<$crate::record::Record>, $crate::store::StoreError> {
                use $crate::stored::{record, RECORD_COLUMNS};
                let row = sqlx::query(&format!("SELECT {RECORD_COLUMNS} FROM asks WHERE id = $1"))
                    .bind(id.as_str())
                    .fetch_optional(&self.pool)
                    .await?;
                row.as_ref().map(record).transpose()
            }

            async fn list(
                &self,
                status: Option<interaction::AskStatus>,
                limit: u32,
            ) -> Result<Vec<$crate::store::Entry>, $crate::store::StoreError> {
                use $crate::stored::{entry, ENTRY_COLUMNS};
                let rows = sqlx::query(&format!(
                    "SELECT {ENTRY_COLUMNS} FROM asks \
                     WHERE CAST($1 AS TEXT) IS NULL OR status = $1 \
                     ORDER BY created_at DESC, {} DESC LIMIT $2",
                    $order
                ))
                .bind(status.map(interaction::AskStatus::as_str))
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                rows.iter().map(entry).collect()
            }

            async fn finish(
                &self,
                id: &$crate::id::AskId,
                end: &$crate::record::End,
            ) -> Result<bool, $crate::store::StoreError> {
                use $crate::stored::json;
                let outcome = end.outcome();
                let answers = outcome
                    .answers()
                    .map(|a| json(id, &a.items()))
                    .transpose()?;
                // The status condition makes this the one transition out of
                // `pending`: of two racing calls, on any instance, exactly
                // one changes the row.
                let done = sqlx::query(
                    "UPDATE asks SET status = $1, answers = $2, decline_reason = $3, \
                     finished_at = $4, projection = $5 WHERE id = $6 AND status = 'pending'",
                )
                .bind(outcome.status().as_str())
                .bind(answers)
                .bind(outcome.reason())
                .bind(end.at())
                .bind(json(id, end.projection())?)
                .bind(id.as_str())
                .execute(&self.pool)
                .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn due(
                &self,
                now: i64,
            ) -> Result<Vec<$crate::id::AskId>, $crate::store::StoreError> {
                use sqlx::Row;
                let rows =
                    sqlx::query("SELECT id FROM asks WHERE status = 'pending' AND expires_at <= $1")
                        .bind(now)
                        .fetch_all(&self.pool)
                        .await?;
                rows.iter()
                    .map(|row| $crate::stored::parse_id(&row.try_get::<String, _>("id")?))
                    .collect()
            }
        }
    };
}

pub(crate) use sql_store;
