//! `askdesk people`: adding, listing and removing the people with tokens
//! of their own, listing and ending signed-in browsers' sessions, and
//! listing and revoking the applications connected by OAuth, on the
//! server's database, beside a running server.

use crate::{
    cli::config::{DatabaseArgs, PeopleCommand},
    cli::run::{open_database, StartError},
};
use anyhow::{anyhow, Context};
use desk::{Desk, DeskError, Holder, PoolSettings, SessionId};
use std::process::ExitCode;

/// Runs one `askdesk people` command, printing what it did on stdout.
/// `outer` is a `--database` given before the command's name
/// (`askdesk --database X people list`), used when the command has none.
pub async fn run(command: PeopleCommand, outer: Option<String>) -> Result<ExitCode, StartError> {
    match command {
        PeopleCommand::Add {
            name,
            role,
            relays_answers,
            email,
            database,
        } => {
            let joining = desk::Joining {
                relays_answers,
                email,
            };
            add(&open(database, outer).await?, &name, role, joining).await?;
        }
        PeopleCommand::Edit {
            name,
            relays_answers,
            no_relays_answers,
            email,
            no_email,
            database,
        } => {
            let desk = open(database, outer).await?;
            if relays_answers || no_relays_answers {
                edit(&desk, &name, relays_answers).await?;
            }
            if email.is_some() || no_email {
                edit_email(&desk, &name, email.as_deref()).await?;
            }
        }
        PeopleCommand::List { json, database } => list(&open(database, outer).await?, json).await?,
        PeopleCommand::Remove { name, database } => {
            remove(&open(database, outer).await?, &name).await?;
        }
        PeopleCommand::Sessions {
            name,
            json,
            database,
        } => sessions(&open(database, outer).await?, name, json).await?,
        PeopleCommand::SignOut { id, database } => sign_out(&id, database, outer).await?,
        PeopleCommand::Grants {
            name,
            json,
            database,
        } => grants(&open(database, outer).await?, name.as_deref(), json).await?,
        PeopleCommand::Revoke { id, database } => {
            let desk = open(database, outer).await?;
            if !desk.revoke_grant(&id).await? {
                return Err(anyhow!(
                    "there is no grant {id:?}; `askdesk people grants` lists them"
                ));
            }
            eprintln!("revoked: its tokens stop working at once");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `askdesk people add`: the token on stdout alone (scripts read it), the
/// rest on stderr.
async fn add(
    desk: &Desk,
    name: &str,
    role: interaction::Role,
    joining: desk::Joining,
) -> Result<(), StartError> {
    let (person, token) = desk
        .add_person_with(name, role, joining)
        .await
        .map_err(refusal)?;
    let mut what = person.role.to_string();
    if person.relays_answers {
        what.push_str(", relays answers");
    }
    if let Some(email) = &person.email {
        what.push_str(", signs in as ");
        what.push_str(email);
    }
    eprintln!(
        "added {} ({what}); their token follows, shown this once only:",
        person.name
    );
    println!("{token}");
    Ok(())
}

/// `askdesk people edit`.
async fn edit(desk: &Desk, name: &str, relays_answers: bool) -> Result<(), StartError> {
    let Some(person) = desk
        .set_relays_answers(name, relays_answers)
        .await
        .map_err(refusal)?
    else {
        return Err(nobody(name));
    };
    if person.relays_answers {
        println!(
            "{}'s client now relays answers given inside its host; each is recorded as \
             relayed by {}",
            person.name, person.name
        );
    } else {
        println!(
            "{}'s client no longer relays answers: people answer its asks at the desk",
            person.name
        );
    }
    Ok(())
}

/// `askdesk people edit --email` or `--no-email`.
async fn edit_email(desk: &Desk, name: &str, email: Option<&str>) -> Result<(), StartError> {
    let Some(person) = desk.set_email(name, email).await.map_err(refusal)? else {
        return Err(nobody(name));
    };
    match &person.email {
        Some(email) => println!(
            "{} now signs in with the identity provider as {email}",
            person.name
        ),
        None => println!("{} now signs in with their token only", person.name),
    }
    Ok(())
}

/// `askdesk people list`: a table, or JSON lines.
async fn list(desk: &Desk, json: bool) -> Result<(), StartError> {
    let people = desk.people().await?;
    for person in &people {
        let added = person.created_at;
        if json {
            let line = serde_json::json!({
                "name": person.name,
                "role": person.role,
                "relaysAnswers": person.relays_answers,
                "email": person.email,
                "createdAt": added,
            });
            println!("{line}");
        } else {
            let mut line = format!(
                "{:<24} {:<7} added {}",
                person.name,
                person.role.as_str(),
                added.short()
            );
            if person.relays_answers {
                line.push_str("  relays answers");
            }
            if let Some(email) = &person.email {
                line.push_str("  ");
                line.push_str(email);
            }
            println!("{line}");
        }
    }
    if people.is_empty() && !json {
        eprintln!("nobody yet; add someone with `askdesk people add NAME`");
    }
    Ok(())
}

/// `askdesk people remove`.
async fn remove(desk: &Desk, name: &str) -> Result<(), StartError> {
    if !desk.remove_person(name).await? {
        return Err(nobody(name));
    }
    println!("removed {name}: their token and sessions no longer work");
    if !desk.has_people().await? {
        eprintln!(
            "nobody is left: a server started without --token is open to anyone who reaches \
             its address again"
        );
    }
    Ok(())
}

/// `askdesk people sessions`: a table, or JSON lines.
async fn sessions(desk: &Desk, name: Option<String>, json: bool) -> Result<(), StartError> {
    let holder = name.map(Holder::Person);
    let sessions = desk.sessions(holder.as_ref()).await?;
    for session in &sessions {
        let who = session.holder.name().unwrap_or(SHARED_TOKEN);
        if json {
            let line = serde_json::json!({
                "id": session.id.as_str(),
                "person": session.holder.name(),
                "opened": session.opened.as_str(),
                "createdAt": session.created_at,
                "expiresAt": session.expires_at,
            });
            println!("{line}");
        } else {
            println!(
                "{}  {:<24} {:<5}  since {}  until {}",
                session.id,
                who,
                session.opened.as_str(),
                session.created_at.short(),
                session.expires_at.short()
            );
        }
    }
    if sessions.is_empty() && !json {
        eprintln!("no browser is signed in");
    }
    Ok(())
}

/// `askdesk people grants`: the applications connected by OAuth.
async fn grants(desk: &Desk, name: Option<&str>, json: bool) -> Result<(), StartError> {
    let grants = desk.grants(name).await?;
    for grant in &grants {
        let since = interaction::Timestamp::from_ms(grant.created_at);
        if json {
            let line = serde_json::json!({
                "id": grant.id,
                "person": grant.terms.owner,
                "agent": grant.agent,
                "client": grant.terms.client_name,
                "clientId": grant.terms.client_id,
                "verified": grant.terms.verified,
                "createdAt": since,
            });
            println!("{line}");
        } else {
            let unverified = if grant.terms.verified {
                ""
            } else {
                " (unverified name)"
            };
            println!(
                "{}  {:<16} as {:<24} {}{unverified}  since {}",
                grant.id,
                grant.terms.owner,
                grant.agent,
                grant.terms.client_name,
                since.short()
            );
        }
    }
    if grants.is_empty() && !json {
        eprintln!("no application is connected");
    }
    Ok(())
}

/// `askdesk people sign-out`: the id is read before the database is
/// opened.
async fn sign_out(
    id: &str,
    database: DatabaseArgs,
    outer: Option<String>,
) -> Result<(), StartError> {
    let Some(session) = SessionId::parse(id) else {
        return Err(anyhow!(
            "{id:?} is not a session's id (16 hex digits); `askdesk people sessions` lists them"
        ));
    };
    if !open(database, outer)
        .await?
        .end_session(&session, None)
        .await?
    {
        return Err(anyhow!(
            "no signed-in browser has the id {session}; `askdesk people sessions` lists them"
        ));
    }
    println!("signed out {session}: that browser must sign in again");
    Ok(())
}

/// No person has `name`.
fn nobody(name: &str) -> StartError {
    anyhow!("there is nobody named {name:?}; `askdesk people list` shows who there is")
}

/// Who a session of the server's shared token is, in the table.
const SHARED_TOKEN: &str = "(--token)";

/// The desk on `database` (or `outer`); its URL does not matter here.
async fn open(mut database: DatabaseArgs, outer: Option<String>) -> Result<Desk, StartError> {
    database.database = database.database.or(outer);
    let database = database.database()?;
    let opened = open_database(database.clone(), PoolSettings::default()).await?;
    Desk::open(opened.store, "http://127.0.0.1")
        .await
        .with_context(|| format!("cannot read the database {database}"))
}

/// A refusal as the command says it.
fn refusal(error: DeskError) -> StartError {
    match error {
        DeskError::Invalid(problems) => anyhow::Error::msg(
            problems
                .0
                .iter()
                .map(|p| p.message.clone())
                .collect::<Vec<_>>()
                .join("; "),
        ),
        other => other.into(),
    }
}
