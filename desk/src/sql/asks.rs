//! The one implementation of [`Store`](crate::store::Store) over SQL, for every
//! database: the same statements (`$1` placeholders, which SQLite reads
//! too) and the same binds, expanded once per pool type by
//! [`sql_store!`], so the SQLite and PostgreSQL stores cannot drift apart.

/// Implements `Store` for `$store` (a struct with a `pool` field of
/// database `$db`) whose asks are ordered among equals by the column
/// `$order` (SQLite's `rowid`, PostgreSQL's `seq`). Its people and its
/// outbox are `sql_people!`'s and `sql_outbox!`'s.
macro_rules! sql_store {
    ($store:ty, $db:ty, $order:literal) => {
        impl $store {
            /// Writes the notifications owed for ask `id` at `at`, inside
            /// the change's transaction.
            async fn add_owed(
                tx: &mut sqlx::Transaction<'static, $db>,
                id: &$crate::id::AskId,
                owed: &[$crate::outbox::Owed],
                at: i64,
            ) -> Result<(), $crate::error::StoreError> {
                for owed in owed {
                    sqlx::query(
                        "INSERT INTO deliveries (id, ask_id, channel, event, created_at, due_at) \
                         VALUES ($1, $2, $3, $4, $5, $5)",
                    )
                    .bind(&owed.id)
                    .bind(id.as_str())
                    .bind(&owed.channel)
                    .bind(owed.notice.as_str())
                    .bind(at.saturating_add(owed.delay_ms))
                    .execute(&mut **tx)
                    .await?;
                }
                Ok(())
            }

            /// Numbers the change of ask `id` to `status` at `at` as the
            /// next event, inside the change's transaction. Updating the
            /// one counter row holds it until the transaction ends, so
            /// events commit in number order.
            async fn add_event(
                tx: &mut sqlx::Transaction<'static, $db>,
                id: &$crate::id::AskId,
                status: interaction::AskStatus,
                at: i64,
            ) -> Result<(), $crate::error::StoreError> {
                let seq: i64 = sqlx::query_scalar(
                    "UPDATE event_log SET seq = seq + 1 WHERE id = 1 RETURNING seq",
                )
                .fetch_one(&mut **tx)
                .await?;
                sqlx::query("INSERT INTO events (seq, ask_id, status, at) VALUES ($1, $2, $3, $4)")
                    .bind(seq)
                    .bind(id.as_str())
                    .bind(status.as_str())
                    .bind(at)
                    .execute(&mut **tx)
                    .await?;
                Ok(())
            }
        }

        #[async_trait::async_trait]
        impl $crate::store::Store for $store {
            async fn insert(
                &self,
                record: &$crate::record::Record,
                key: Option<&$crate::store::Keyed>,
                owed: &[$crate::outbox::Owed],
            ) -> Result<bool, $crate::error::StoreError> {
                use $crate::sql::rows::json;
                let mut tx = self.pool.begin().await?;
                let inserted = sqlx::query(
                    "INSERT INTO asks (id, status, title, agent, request, question_count, \
                     created_at, expires_at, idempotency_key, fingerprint, search, recipients, \
                     default_answers, session, asked_by, asker_known, key_scope) \
                     VALUES ($1, 'pending', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, \
                     $14, 1, $15)",
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
                .bind(record.search_text())
                .bind($crate::sql::rows::stored_recipients(&record.to))
                .bind(
                    record
                        .defaults
                        .as_ref()
                        .map(|d| json(&record.id, &d.items()))
                        .transpose()?,
                )
                .bind(&record.session)
                .bind(record.asked_by.name())
                .bind(record.asked_by.scope())
                .execute(&mut *tx)
                .await;
                match inserted {
                    Ok(_) => {
                        Self::add_event(
                            &mut tx,
                            &record.id,
                            interaction::AskStatus::Pending,
                            record.created_at,
                        )
                        .await?;
                        Self::add_owed(&mut tx, &record.id, owed, record.created_at).await?;
                        tx.commit().await?;
                        Ok(true)
                    }
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
                scope: &str,
            ) -> Result<Option<($crate::id::AskId, String)>, $crate::error::StoreError> {
                use sqlx::Row;
                let row = sqlx::query(
                    "SELECT id, fingerprint FROM asks \
                     WHERE idempotency_key = $1 AND key_scope = $2",
                )
                .bind(key)
                .bind(scope)
                .fetch_optional(&self.pool)
                .await?;
                row.map(|row| {
                    let id = $crate::sql::rows::parse_id(&row.try_get::<String, _>("id")?)?;
                    let fingerprint: Option<String> = row.try_get("fingerprint")?;
                    Ok((id, fingerprint.unwrap_or_default()))
                })
                .transpose()
            }

            async fn get(
                &self,
                id: &$crate::id::AskId,
            ) -> Result<Option<$crate::record::Record>, $crate::error::StoreError> {
                use $crate::sql::rows::{record, RECORD_COLUMNS};
                let row = sqlx::query(&format!("SELECT {RECORD_COLUMNS} FROM asks WHERE id = $1"))
                    .bind(id.as_str())
                    .fetch_optional(&self.pool)
                    .await?;
                row.as_ref().map(record).transpose()
            }

            async fn list(
                &self,
                filter: &$crate::store::ListFilter,
                asked_by: Option<&str>,
                limit: u32,
            ) -> Result<Vec<($crate::store::Cursor, $crate::record::Entry)>, $crate::error::StoreError>
            {
                use sqlx::Row;
                use $crate::sql::rows::{entry, ENTRY_COLUMNS};
                let rows = sqlx::query(&format!(
                    "SELECT {ENTRY_COLUMNS}, {order} AS position FROM asks \
                     WHERE (CAST($1 AS TEXT) IS NULL OR status = $1) \
                     AND (CAST($2 AS TEXT) IS NULL OR agent = $2) \
                     AND (CAST($3 AS TEXT) IS NULL OR search LIKE $3 ESCAPE '\\') \
                     AND (CAST($4 AS BIGINT) IS NULL OR created_at < $4 \
                          OR (created_at = $4 AND {order} < $5)) \
                     AND (CAST($7 AS TEXT) IS NULL OR (asker_known = 1 AND asked_by = $7)) \
                     ORDER BY created_at DESC, {order} DESC LIMIT $6",
                    order = $order
                ))
                .bind(filter.status.map(interaction::AskStatus::as_str))
                .bind(filter.agent.as_deref())
                .bind(filter.text.as_deref().map($crate::sql::asks::contains_pattern))
                .bind(filter.after.map(|c| c.created_at))
                .bind(filter.after.map(|c| c.position))
                .bind(i64::from(limit))
                .bind(asked_by)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|row| {
                        let entry = entry(row)?;
                        let cursor = $crate::store::Cursor {
                            created_at: entry.created_at,
                            position: row.try_get("position")?,
                        };
                        Ok((cursor, entry))
                    })
                    .collect()
            }

            async fn finish(
                &self,
                id: &$crate::id::AskId,
                end: &$crate::record::End,
                owed: &[$crate::outbox::Owed],
            ) -> Result<bool, $crate::error::StoreError> {
                use $crate::sql::rows::json;
                let outcome = end.outcome();
                let answers = outcome
                    .answers()
                    .map(|a| json(id, &a.items()))
                    .transpose()?;
                // The status condition makes this the one transition out of
                // `pending`: of two racing calls, on any instance, exactly
                // one changes the row.
                let mut tx = self.pool.begin().await?;
                let done = sqlx::query(
                    "UPDATE asks SET status = $1, answers = $2, decline_reason = $3, \
                     finished_at = $4, projection = $5, finished_by = $7, finished_via = $8, \
                     relayed_by = $9 WHERE id = $6 AND status = 'pending'",
                )
                .bind(outcome.status().as_str())
                .bind(answers)
                .bind(outcome.reason())
                .bind(end.at())
                .bind(json(id, end.projection())?)
                .bind(id.as_str())
                .bind(end.finisher().and_then(|f| f.by.as_deref()))
                .bind(end.finisher().map(|f| f.via.as_str()))
                .bind(end.finisher().and_then(|f| f.relayed_by.as_deref()))
                .execute(&mut *tx)
                .await?;
                if done.rows_affected() != 1 {
                    return Ok(false);
                }
                Self::add_event(&mut tx, id, outcome.status(), end.at()).await?;
                // Reminders not yet sent are owed no more.
                sqlx::query(
                    "DELETE FROM deliveries WHERE ask_id = $1 AND event = 'ask.reminder' \
                     AND attempts = 0",
                )
                .bind(id.as_str())
                .execute(&mut *tx)
                .await?;
                Self::add_owed(&mut tx, id, owed, end.at()).await?;
                tx.commit().await?;
                Ok(true)
            }

            async fn due(
                &self,
                now: i64,
            ) -> Result<Vec<$crate::id::AskId>, $crate::error::StoreError> {
                use sqlx::Row;
                let rows =
                    sqlx::query("SELECT id FROM asks WHERE status = 'pending' AND expires_at <= $1")
                        .bind(now)
                        .fetch_all(&self.pool)
                        .await?;
                rows.iter()
                    .map(|row| $crate::sql::rows::parse_id(&row.try_get::<String, _>("id")?))
                    .collect()
            }

            async fn events_after(
                &self,
                after: u64,
                limit: u32,
            ) -> Result<Vec<(u64, $crate::record::Entry)>, $crate::error::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(
                    "SELECT e.seq, a.id, e.status, a.title, a.agent, a.created_at, \
                     a.expires_at, a.question_count, a.recipients, a.session, a.asked_by, \
                     a.asker_known \
                     FROM events e JOIN asks a ON a.id = e.ask_id \
                     WHERE e.seq > $1 ORDER BY e.seq LIMIT $2",
                )
                .bind(i64::try_from(after).unwrap_or(i64::MAX))
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|row| {
                        let seq: i64 = row.try_get("seq")?;
                        Ok((u64::try_from(seq).unwrap_or(0), $crate::sql::rows::entry(row)?))
                    })
                    .collect()
            }

            async fn event_bounds(
                &self,
            ) -> Result<$crate::store::EventBounds, $crate::error::StoreError> {
                let (pruned, last): (i64, i64) =
                    sqlx::query_as("SELECT pruned, seq FROM event_log WHERE id = 1")
                        .fetch_one(&self.pool)
                        .await?;
                Ok($crate::store::EventBounds {
                    pruned: u64::try_from(pruned).unwrap_or(0),
                    last: u64::try_from(last).unwrap_or(0),
                })
            }

            async fn prune_events(&self, keep: u64) -> Result<(), $crate::error::StoreError> {
                let bounds = self.event_bounds().await?;
                let through = bounds.last.saturating_sub(keep);
                // Nothing to forget: no write at all.
                if through <= bounds.pruned {
                    return Ok(());
                }
                let through = i64::try_from(through).unwrap_or(i64::MAX);
                let mut tx = self.pool.begin().await?;
                sqlx::query("UPDATE event_log SET pruned = $1 WHERE id = 1 AND pruned < $1")
                    .bind(through)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("DELETE FROM events WHERE seq <= $1")
                    .bind(through)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn counts(&self) -> Result<$crate::store::Counts, $crate::error::StoreError> {
                let (pending, backlog): (i64, i64) = sqlx::query_as(
                    "SELECT (SELECT COUNT(*) FROM asks WHERE status = 'pending'), \
                     (SELECT COUNT(*) FROM deliveries \
                      WHERE delivered_at IS NULL AND failed_at IS NULL)",
                )
                .fetch_one(&self.pool)
                .await?;
                Ok($crate::store::Counts {
                    pending: u64::try_from(pending).unwrap_or_default(),
                    backlog: u64::try_from(backlog).unwrap_or_default(),
                })
            }
        }
    };
}

pub(crate) use sql_store;

/// `text` as a `LIKE` pattern that matches it anywhere, in lower case,
/// with `%`, `_` and `\` matching only themselves (`ESCAPE '\'`).
pub(crate) fn contains_pattern(text: &str) -> String {
    let mut pattern = String::from("%");
    for c in text.to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}
