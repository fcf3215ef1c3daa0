//! The one implementation of [`Sessions`](crate::sessions::Sessions) over
//! SQL, for every database, as `sql_people!` is for people: the same
//! statements, expanded once per pool type by [`sql_sessions!`].

use crate::{
    error::{corrupt, StoreError},
    sessions::{Grant, Holder, LinkRefusal, LinkValid, Opened, SessionId, SessionInfo},
};
use interaction::Timestamp;

/// How long a used or expired sign-in link is kept, so that opening it
/// again says it was used or has expired rather than that it never was.
pub(crate) const LINKS_KEPT_MS: i64 = 24 * 60 * 60 * 1000;

/// The statement that reads a link without using it.
pub(crate) const READ_LINK: &str =
    "SELECT person, admin_tag, expires_at, used_at FROM sign_in_links WHERE digest = $1";

/// Implements [`Sessions`](crate::sessions::Sessions) for an SQL store (a
/// struct with a `pool` field of database `$db`): the same statements for
/// SQLite and PostgreSQL.
macro_rules! sql_sessions {
    ($store:ty, $db:ty) => {
        #[async_trait::async_trait]
        impl $crate::sessions::Sessions for $store {
            async fn add_session(
                &self,
                digest: &str,
                grant: &$crate::sessions::Grant,
                opened: $crate::sessions::Opened,
                at: i64,
                expires_at: i64,
            ) -> Result<(), $crate::error::StoreError> {
                let (person, tag) = $crate::sql::sessions::grant_columns(grant);
                let mut tx = self.pool.begin().await?;
                // Ended sessions go as new ones come.
                sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
                    .bind(at)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(
                    "INSERT INTO sessions (digest, person, admin_tag, opened, created_at, \
                     expires_at) VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(digest)
                .bind(person)
                .bind(tag)
                .bind(opened.as_str())
                .bind(at)
                .bind(expires_at)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn session(
                &self,
                digest: &str,
                now: i64,
            ) -> Result<Option<$crate::sessions::Grant>, $crate::error::StoreError> {
                use sqlx::Row;
                let row = sqlx::query(
                    "SELECT p.name, p.role, p.created_at, p.relays_answers, p.email, s.person, \
                     s.admin_tag \
                     FROM sessions s LEFT JOIN people p ON p.name = s.person \
                     WHERE s.digest = $1 AND s.expires_at > $2",
                )
                .bind(digest)
                .bind(now)
                .fetch_optional(&self.pool)
                .await?;
                let Some(row) = row else {
                    return Ok(None);
                };
                let person: Option<String> = row.try_get("person")?;
                let found: Option<String> = row.try_get("name")?;
                let tag: Option<String> = row.try_get("admin_tag")?;
                Ok(match (person, found, tag) {
                    (Some(_), Some(_), _) => Some($crate::sessions::Grant::Person(
                        $crate::sql::people::person_of(&row)?,
                    )),
                    (None, _, Some(tag)) => Some($crate::sessions::Grant::Admin { tag }),
                    // The person is gone.
                    _ => None,
                })
            }

            async fn remove_session(&self, digest: &str) -> Result<(), $crate::error::StoreError> {
                sqlx::query("DELETE FROM sessions WHERE digest = $1")
                    .bind(digest)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn sessions(
                &self,
                holder: Option<&$crate::sessions::Holder>,
                now: i64,
            ) -> Result<Vec<$crate::sessions::SessionInfo>, $crate::error::StoreError> {
                let (person, tag) = $crate::sql::sessions::holder_columns(holder);
                let rows = sqlx::query(
                    "SELECT digest, person, admin_tag, opened, created_at, expires_at \
                     FROM sessions WHERE expires_at > $1 \
                     AND ($2 IS NULL OR person = $2) AND ($3 IS NULL OR admin_tag = $3) \
                     ORDER BY created_at DESC, digest",
                )
                .bind(now)
                .bind(person)
                .bind(tag)
                .fetch_all(&self.pool)
                .await?;
                rows.iter().map($crate::sql::sessions::session_of).collect()
            }

            async fn remove_session_by_id(
                &self,
                id: &$crate::sessions::SessionId,
                holder: Option<&$crate::sessions::Holder>,
            ) -> Result<bool, $crate::error::StoreError> {
                let (person, tag) = $crate::sql::sessions::holder_columns(holder);
                // The id is the digest's first 16 digits (`SessionId::LEN`).
                let removed = sqlx::query(
                    "DELETE FROM sessions WHERE substr(digest, 1, 16) = $1 \
                     AND ($2 IS NULL OR person = $2) AND ($3 IS NULL OR admin_tag = $3)",
                )
                .bind(id.as_str())
                .bind(person)
                .bind(tag)
                .execute(&self.pool)
                .await?;
                Ok(removed.rows_affected() > 0)
            }

            async fn add_link(
                &self,
                digest: &str,
                grant: &$crate::sessions::Grant,
                at: i64,
                expires_at: i64,
            ) -> Result<(), $crate::error::StoreError> {
                let (person, tag) = $crate::sql::sessions::grant_columns(grant);
                let mut tx = self.pool.begin().await?;
                // Links long over go as new ones come.
                sqlx::query("DELETE FROM sign_in_links WHERE expires_at <= $1")
                    .bind(at.saturating_sub($crate::sql::sessions::LINKS_KEPT_MS))
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(
                    "INSERT INTO sign_in_links (digest, person, admin_tag, created_at, \
                     expires_at) VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(digest)
                .bind(person)
                .bind(tag)
                .bind(at)
                .bind(expires_at)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn link(
                &self,
                digest: &str,
                now: i64,
            ) -> Result<
                Result<$crate::sessions::LinkValid, $crate::sessions::LinkRefusal>,
                $crate::error::StoreError,
            > {
                let row = sqlx::query($crate::sql::sessions::READ_LINK)
                    .bind(digest)
                    .fetch_optional(&self.pool)
                    .await?;
                $crate::sql::sessions::link_of(row.as_ref(), now)
            }

            async fn use_link(
                &self,
                digest: &str,
                now: i64,
                session: &str,
                session_expires_at: i64,
            ) -> Result<
                Result<$crate::sessions::Grant, $crate::sessions::LinkRefusal>,
                $crate::error::StoreError,
            > {
                use sqlx::Row;
                let mut tx = self.pool.begin().await?;
                // One conditional write: of racing uses, on any instance,
                // only the first finds the link unused.
                let used = sqlx::query(
                    "UPDATE sign_in_links SET used_at = $1 \
                     WHERE digest = $2 AND used_at IS NULL AND expires_at > $1 \
                     RETURNING person, admin_tag",
                )
                .bind(now)
                .bind(digest)
                .fetch_optional(&mut *tx)
                .await?;
                let Some(used) = used else {
                    let row = sqlx::query($crate::sql::sessions::READ_LINK)
                        .bind(digest)
                        .fetch_optional(&mut *tx)
                        .await?;
                    tx.rollback().await?;
                    return Ok(match $crate::sql::sessions::link_of(row.as_ref(), now)? {
                        Err(refusal) => Err(refusal),
                        // Used or expired between the two statements.
                        Ok(_) => Err($crate::sessions::LinkRefusal::Used),
                    });
                };
                let person: Option<String> = used.try_get("person")?;
                let tag: Option<String> = used.try_get("admin_tag")?;
                let grant = match (person, tag) {
                    (Some(name), _) => {
                        let row = sqlx::query(
                            "SELECT name, role, created_at, relays_answers, email FROM people \
                             WHERE name = $1",
                        )
                        .bind(&name)
                        .fetch_optional(&mut *tx)
                        .await?;
                        match row {
                            Some(row) => $crate::sessions::Grant::Person(
                                $crate::sql::people::person_of(&row)?,
                            ),
                            None => {
                                tx.rollback().await?;
                                return Ok(Err($crate::sessions::LinkRefusal::Unknown));
                            }
                        }
                    }
                    (None, Some(tag)) => $crate::sessions::Grant::Admin { tag },
                    (None, None) => {
                        return Err($crate::error::corrupt(
                            "sign-in link",
                            "neither a person nor a tag",
                        ))
                    }
                };
                let (person, tag) = $crate::sql::sessions::grant_columns(&grant);
                sqlx::query(
                    "INSERT INTO sessions (digest, person, admin_tag, opened, created_at, \
                     expires_at) VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(session)
                .bind(person)
                .bind(tag)
                .bind($crate::sessions::Opened::Link.as_str())
                .bind(now)
                .bind(session_expires_at)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(Ok(grant))
            }
        }
    };
}

pub(crate) use sql_sessions;

/// The `person` and `admin_tag` columns of a session or link for `grant`.
pub(crate) fn grant_columns(grant: &Grant) -> (Option<&str>, Option<&str>) {
    match grant {
        Grant::Person(person) => (Some(person.name.as_str()), None),
        Grant::Admin { tag } => (None, Some(tag.as_str())),
    }
}

/// The `person` and `admin_tag` a list of sessions is narrowed to (none:
/// everyone's).
pub(crate) fn holder_columns(holder: Option<&Holder>) -> (Option<&str>, Option<&str>) {
    match holder {
        None => (None, None),
        Some(Holder::Person(name)) => (Some(name.as_str()), None),
        Some(Holder::SharedToken { tag }) => (None, Some(tag.as_str())),
    }
}

/// Whose a row with `person` and `admin_tag` is.
fn holder_of(
    what: &str,
    person: Option<String>,
    tag: Option<String>,
) -> Result<Holder, StoreError> {
    match (person, tag) {
        (Some(name), _) => Ok(Holder::Person(name)),
        (None, Some(tag)) => Ok(Holder::SharedToken { tag }),
        (None, None) => Err(corrupt(what, "neither a person nor a tag")),
    }
}

/// A session as lists show it, from a row of `sessions`.
pub(crate) fn session_of<'r, R>(row: &'r R) -> Result<SessionInfo, StoreError>
where
    R: sqlx::Row,
    &'static str: sqlx::ColumnIndex<R>,
    String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    Option<String>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    let digest: String = row.try_get("digest")?;
    let id = SessionId::of_digest(&digest);
    let what = format!("session {id}");
    let opened: String = row.try_get("opened")?;
    Ok(SessionInfo {
        holder: holder_of(&what, row.try_get("person")?, row.try_get("admin_tag")?)?,
        opened: Opened::parse(&opened)
            .ok_or_else(|| corrupt(&what, format!("opened {opened:?}")))?,
        created_at: Timestamp::from_ms(row.try_get("created_at")?),
        expires_at: Timestamp::from_ms(row.try_get("expires_at")?),
        id,
    })
}

/// What a link's row (`person`, `admin_tag`, `expires_at`, `used_at`), if
/// there is one, does at `now`.
pub(crate) fn link_of<'r, R>(
    row: Option<&'r R>,
    now: i64,
) -> Result<Result<LinkValid, LinkRefusal>, StoreError>
where
    R: sqlx::Row,
    &'static str: sqlx::ColumnIndex<R>,
    Option<String>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    Option<i64>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    let Some(row) = row else {
        return Ok(Err(LinkRefusal::Unknown));
    };
    let used_at: Option<i64> = row.try_get("used_at")?;
    let expires_at: i64 = row.try_get("expires_at")?;
    if used_at.is_some() {
        return Ok(Err(LinkRefusal::Used));
    }
    if expires_at <= now {
        return Ok(Err(LinkRefusal::Expired));
    }
    let holder = holder_of(
        "sign-in link",
        row.try_get("person")?,
        row.try_get("admin_tag")?,
    )?;
    Ok(Ok(LinkValid {
        holder,
        expires_at: Timestamp::from_ms(expires_at),
    }))
}
