//! The one implementation of [`People`](crate::people::People) over SQL, for
//! every database, as `sql_store!` is for asks: the same statements,
//! expanded once per pool type by [`sql_people!`]. Their sessions and
//! sign-in links are `sql_sessions!`'s.

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
                    "INSERT INTO people (name, role, token_digest, created_at, relays_answers, \
                     email) VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(&person.name)
                .bind(person.role.as_str())
                .bind(token_digest)
                .bind(person.created_at.ms())
                .bind(person.relays_answers)
                .bind(&person.email)
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
                let rows = sqlx::query(
                    "SELECT name, role, created_at, relays_answers, email FROM people \
                     ORDER BY name",
                )
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
                sqlx::query("DELETE FROM sign_in_links WHERE person = $1")
                    .bind(name)
                    .execute(&mut *tx)
                    .await?;
                // The clients they connected, or that connected as them,
                // end with them: a person added later by the same name
                // inherits none.
                sqlx::query(
                    "DELETE FROM oauth_tokens WHERE grant_id IN \
                     (SELECT id FROM oauth_grants WHERE owner = $1 OR agent = $1)",
                )
                .bind(name)
                .execute(&mut *tx)
                .await?;
                sqlx::query("DELETE FROM oauth_grants WHERE owner = $1 OR agent = $1")
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
                    "SELECT name, role, created_at, relays_answers, email FROM people \
                     WHERE token_digest = $1",
                )
                .bind(token_digest)
                .fetch_optional(&self.pool)
                .await?;
                row.as_ref().map($crate::sql::people::person_of).transpose()
            }

            async fn set_relays_answers(
                &self,
                name: &str,
                relays: bool,
            ) -> Result<bool, $crate::error::StoreError> {
                let set = sqlx::query("UPDATE people SET relays_answers = $1 WHERE name = $2")
                    .bind(relays)
                    .bind(name)
                    .execute(&self.pool)
                    .await?;
                Ok(set.rows_affected() == 1)
            }

            async fn person_by_email(
                &self,
                email: &str,
            ) -> Result<Option<$crate::people::Person>, $crate::error::StoreError> {
                let row = sqlx::query(
                    "SELECT name, role, created_at, relays_answers, email FROM people \
                     WHERE email = $1",
                )
                .bind(email)
                .fetch_optional(&self.pool)
                .await?;
                row.as_ref().map($crate::sql::people::person_of).transpose()
            }

            async fn set_email(
                &self,
                name: &str,
                email: Option<&str>,
            ) -> Result<Option<bool>, $crate::error::StoreError> {
                let set = sqlx::query("UPDATE people SET email = $1 WHERE name = $2")
                    .bind(email)
                    .bind(name)
                    .execute(&self.pool)
                    .await;
                match set {
                    Ok(set) => Ok((set.rows_affected() == 1).then_some(true)),
                    Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(Some(false)),
                    Err(e) => Err(e.into()),
                }
            }
        }
    };
}

pub(crate) use sql_people;

/// A person from a row with `name`, `role`, `created_at`,
/// `relays_answers` and `email`.
pub(crate) fn person_of<'r, R>(row: &'r R) -> Result<Person, StoreError>
where
    R: sqlx::Row,
    &'static str: sqlx::ColumnIndex<R>,
    String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    bool: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    Option<String>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    let name: String = row.try_get("name")?;
    let role: String = row.try_get("role")?;
    Ok(Person {
        role: Role::parse(&role)
            .ok_or_else(|| corrupt(&format!("person {name}"), format!("unknown role {role:?}")))?,
        created_at: interaction::Timestamp::from_ms(row.try_get("created_at")?),
        relays_answers: row.try_get("relays_answers")?,
        email: row.try_get("email")?,
        name,
    })
}
