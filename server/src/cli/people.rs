//! `askdesk people`: adding, listing and removing the people with tokens
//! of their own, on the server's database, beside a running server.

use crate::{
    cli::config::{DatabaseArgs, PeopleCommand},
    cli::run::{open_database, StartError},
};
use desk::{Desk, DeskError, PoolSettings};
use std::process::ExitCode;

/// Runs one `askdesk people` command, printing what it did on stdout.
/// `outer` is a `--database` given before the command's name
/// (`askdesk --database X people list`), used when the command has none.
pub async fn run(command: PeopleCommand, outer: Option<String>) -> Result<ExitCode, StartError> {
    let open = |database: DatabaseArgs| open(database, outer.clone());
    match command {
        PeopleCommand::Add {
            name,
            role,
            database,
        } => {
            let desk = open(database).await?;
            let (person, token) = desk.add_person(&name, role).await.map_err(refusal)?;
            // The token on stdout alone (scripts read it); the rest to stderr.
            eprintln!(
                "added {} ({}); their token follows, shown this once only:",
                person.name, person.role
            );
            println!("{token}");
            Ok(ExitCode::SUCCESS)
        }
        PeopleCommand::List { json, database } => {
            let people = open(database).await?.people().await?;
            for person in &people {
                let added = person.created_at;
                if json {
                    let line = serde_json::json!({
                        "name": person.name,
                        "role": person.role,
                        "createdAt": added,
                    });
                    println!("{line}");
                } else {
                    println!(
                        "{:<24} {:<7} added {}",
                        person.name,
                        person.role.as_str(),
                        added.short()
                    );
                }
            }
            if people.is_empty() && !json {
                eprintln!("nobody yet; add someone with `askdesk people add NAME`");
            }
            Ok(ExitCode::SUCCESS)
        }
        PeopleCommand::Remove { name, database } => {
            let desk = open(database).await?;
            if !desk.remove_person(&name).await? {
                return Err(format!(
                    "there is nobody named {name:?}; `askdesk people list` shows who there is"
                )
                .into());
            }
            println!("removed {name}: their token and sessions no longer work");
            if !desk.has_people().await? {
                eprintln!(
                    "nobody is left: a server started without --token is open to anyone who \
                     reaches its address again"
                );
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The desk on `database` (or `outer`); its URL does not matter here.
async fn open(mut database: DatabaseArgs, outer: Option<String>) -> Result<Desk, StartError> {
    database.database = database.database.or(outer);
    let database = database.database()?;
    let opened = open_database(database.clone(), PoolSettings::default()).await?;
    Ok(Desk::open(opened.store, "http://127.0.0.1")
        .await
        .map_err(|e| format!("cannot read the database {database}: {e}"))?)
}

/// A refusal as the command says it.
fn refusal(error: DeskError) -> StartError {
    match error {
        DeskError::Invalid(problems) => problems
            .0
            .iter()
            .map(|p| p.message.clone())
            .collect::<Vec<_>>()
            .join("; ")
            .into(),
        other => other.to_string().into(),
    }
}
