use super::*;

/// The newest applied version.
const APPLIED: &str = "SELECT MAX(version) FROM _sqlx_migrations";

/// The first `n` migrations of `all` (an older askdesk), then the next
/// one and a broken one after it (a newer askdesk whose upgrade fails
/// part-way).
fn older_and_failing(all: Migrations, n: usize) -> (Migrations, Migrations) {
    let old = Migrations(&all.0[..n]);
    let mut newer = all.0[..=n].to_vec();
    newer.push((
        all.0[n].0 + 1,
        "broken",
        "CREATE TABLE half_done (x INTEGER); THIS IS NOT SQL;",
    ));
    (old, Migrations(Box::leak(newer.into_boxed_slice())))
}

async fn sqlite_file(dir: &tempfile::TempDir) -> SqlitePool {
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(dir.path().join("desk.db"))
        .create_if_missing(true);
    SqlitePool::connect_with(options).await.expect("sqlite")
}

async fn tables_sqlite(pool: &SqlitePool) -> Vec<String> {
    sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .fetch_all(pool)
        .await
        .expect("tables")
}

#[tokio::test]
async fn a_failed_sqlite_upgrade_leaves_the_old_schema_and_the_old_askdesk_runs_on_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pool = sqlite_file(&dir).await;
    let (old, newer) = older_and_failing(SQLITE, 5);
    upgrade_sqlite(&pool, old)
        .await
        .expect("the old askdesk migrates");
    let before = tables_sqlite(&pool).await;

    let failed = upgrade_sqlite(&pool, newer).await;
    assert!(matches!(failed, Err(StoreError::Migrate(_))), "{failed:?}");
    assert_eq!(
        tables_sqlite(&pool).await,
        before,
        "nothing of the upgrade stayed"
    );
    let applied: Option<i64> = sqlx::query_scalar(APPLIED)
        .fetch_one(&pool)
        .await
        .expect("applied");
    assert_eq!(applied, Some(old.latest()));

    upgrade_sqlite(&pool, old)
        .await
        .expect("the old askdesk still opens it");
    upgrade_sqlite(&pool, SQLITE)
        .await
        .expect("a good upgrade then goes through");
    let applied: Option<i64> = sqlx::query_scalar(APPLIED)
        .fetch_one(&pool)
        .await
        .expect("applied");
    assert_eq!(applied, Some(SQLITE.latest()));
}

#[tokio::test]
async fn a_newer_schema_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pool = sqlite_file(&dir).await;
    upgrade_sqlite(&pool, SQLITE).await.expect("migrates");
    let older = Migrations(&SQLITE.0[..3]);
    let refused = upgrade_sqlite(&pool, older).await;
    assert!(
        matches!(refused, Err(StoreError::TooNew { found, known: 3 }) if found == SQLITE.latest()),
        "{refused:?}"
    );
}

#[tokio::test]
async fn a_failed_postgres_upgrade_leaves_the_old_schema_and_the_old_askdesk_runs_on_it() {
    use sqlx::Connection;
    let url = std::env::var("ASKDESK_TEST_POSTGRES").unwrap_or_else(|_| {
        panic!("ASKDESK_TEST_POSTGRES is not set: run `scripts/dev.sh test unit`")
    });
    let schema = format!(
        "migrate_{}",
        crate::id::AskId::random().expect("random").as_str()
    );
    let mut admin = sqlx::PgConnection::connect(&url).await.expect("connect");
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&mut admin)
        .await
        .expect("schema");
    let pool = PgPool::connect(&format!("{url}?options=-c%20search_path%3D{schema}"))
        .await
        .expect("pool");
    let tables = || async {
        sqlx::query_scalar::<_, String>(
            "SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1",
        )
        .fetch_all(&pool)
        .await
        .expect("tables")
    };
    let (old, newer) = older_and_failing(POSTGRES, 5);
    upgrade_postgres(&pool, old)
        .await
        .expect("the old askdesk migrates");
    let before = tables().await;

    let failed = upgrade_postgres(&pool, newer).await;
    assert!(matches!(failed, Err(StoreError::Migrate(_))), "{failed:?}");
    assert_eq!(tables().await, before, "nothing of the upgrade stayed");

    upgrade_postgres(&pool, old)
        .await
        .expect("the old askdesk still opens it");
    upgrade_postgres(&pool, POSTGRES)
        .await
        .expect("a good upgrade then goes through");
    let applied: Option<i64> = sqlx::query_scalar(APPLIED)
        .fetch_one(&pool)
        .await
        .expect("applied");
    assert_eq!(applied, Some(POSTGRES.latest()));
    sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
        .execute(&mut admin)
        .await
        .expect("drop");
}
