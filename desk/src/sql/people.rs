//! The one implementation of [`People`](crate::people::People) over SQL, for
//! every database, as `sql_store!` is for asks: the same statements,
//! expanded once per pool type by [`sql_people!`].

use crate::{
    error::{corrupt, StoreError},
    people::Person,
};
use interaction::Role;

/// Implements [`People`](crate::people::People) for an SQL store (a
/// struct with a `pool` field of database `$db`): the same statements for
/// SQLite and PostgreSQL.
macro_rules! sql_people {
    ($store:ty, $db:ty) => {
        #[async_trait::async_trait]
        impl $crate::people::People for $store {
            async fn add_person(
                &self,
                person: &$crate::people::Person,
                token_digest: &str,
            ) -> Result<bool, $crate::error::StoreError> {
                let added = sqlx::query(
                    "INSERT INTO people (name, role, token_digest, created_at) \
                     VALUES ($1, $2, $3, $4)",
                )
                .bind(&person.name)
                .bind(person.role.as_str())
                .bind(token_digest)
                .bind(person.created_at.ms())
                .execute(&self.pool)
                .await;
                match added {
                    Ok(_) => Ok(true),
                    Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
                    Err(e) => Err(e.into()),
                }
            }

            async fn people(
                &self,
            ) -> Result<Vec<$crate::people::Person>, $crate::error::StoreError> {
                let rows = sqlx::query("SELECT name, role, created_at FROM people ORDER BY name")
                    .fetch_all(&self.pool)
                    .await?;
                rows.iter().map($crate::sql::people::person_of).collect()
            }

            async fn remove_person(&self, name: &str) -> Result<bool, $crate::error::StoreError> {
                let mut tx = self.pool.begin().await?;
                sqlx::query("DELETE FROM sessions WHERE person = $1")
                    .bind(name)
                    .execute(&mut *tx)
                    .await?;
                let removed = sqlx::query("DELETE FROM people WHERE name = $1")
                    .bind(name)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(removed.rows_affected() == 1)
            }

            async fn person_by_token(
                &self,
                token_digest: &str,
            ) -> Result<Option<$crate::people::Person>, $crate::error::StoreError> {
                let row = sqlx::query(
                    "SELECT name, role, created_at FROM people WHERE token_digest = $1",
                )
                .bind(token_digest)
                .fetch_optional(&self.pool)
                .await?;
                row.as_ref().map($crate::sql::people::person_of).transpose()
            }

            async fn add_session(
                &self,
                digest: &str,
                grant: &$crate::people::Grant,
                at: i64,
                expires_at: i64,
            ) -> Result<(), $crate::error::StoreError> {
                let (person, tag) = match grant {
                    $crate::people::Grant::Person(p) => (Some(p.name.as_str()), None),
                    $crate::people::Grant::Admin { tag } => (None, Some(tag.as_str())),
                };
                let mut tx = self.pool.begin().await?;
                // Ended sessions go as new ones come.
                sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
                    .bind(at)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(
                    "INSERT INTO sessions (digest, person, admin_tag, created_at, expires_at) \
                     VALUES ($1, $2, $3, $4, $5)",
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

            async fn session(
                &self,
                digest: &str,
                now: i64,
            ) -> Result<Option<$crate::people::Grant>, $crate::error::StoreError> {
                use sqlx::Row;
                let row = sqlx::query(
                    "SELECT p.name, p.role, p.created_at, s.person, s.admin_tag \
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
                    (Some(_), Some(_), _) => Some($crate::people::Grant::Person(
                        $crate::sql::people::person_of(&row)?,
                    )),
                    (None, _, Some(tag)) => Some($crate::people::Grant::Admin { tag }),
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
        }
    };
}

pub(crate) use sql_people;

/// A person from a row with `name`, `role` and `created_at`.
pub(crate) fn person_of<'r, R>(row: &'r R) -> Result<Person, StoreError>
where
    R: sqlx::Row,
    &'static str: sqlx::ColumnIndex<R>,
    String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    let name: String = row.try_get("name")?;
    let role: String = row.try_get("role")?;
    Ok(Person {
        role: Role::parse(&role)
            .ok_or_else(|| corrupt(&format!("person {name}"), format!("unknown role {role:?}")))?,
        created_at: interaction::Timestamp::from_ms(row.try_get("created_at")?),
        name,
    })
}
