//! PostgreSQL going away and coming back, for real: instance A reaches the
//! test PostgreSQL through a TCP proxy on loopback that the test cuts
//! (open connections closed, new ones refused) and restores, while
//! instance B keeps its own direct connection. While A's database is
//! gone, A answers 503 with a JSON message and stores nothing; its event
//! stream and its waiting agents keep waiting; once it is back, A hears
//! what B did meanwhile without a restart, and nothing acknowledged is
//! lost.

use crate::common::start;
use crate::{
    common::{args, combined_answers, release_ask},
    database::postgres_url,
};
use client::{Client, Error, Event};
use interaction::{Answers, AskStatus, NewAsk};
use server::cli::run::Started;
use sqlx::postgres::PgConnectOptions;
use std::{net::SocketAddr, str::FromStr, time::Duration};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
    sync::watch,
    time::timeout,
};
use tokio_util::sync::CancellationToken;

/// A TCP proxy to PostgreSQL that can be cut and restored.
struct Proxy {
    addr: SocketAddr,
    up: watch::Sender<bool>,
}

impl Proxy {
    async fn to(target: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (up, _) = watch::channel(true);
        let state = up.clone();
        tokio::spawn(async move {
            loop {
                let Ok((mut inbound, _)) = listener.accept().await else {
                    return;
                };
                let mut up = state.subscribe();
                if !*up.borrow() {
                    // Down: the connection is closed at once.
                    continue;
                }
                tokio::spawn(async move {
                    let Ok(mut outbound) = TcpStream::connect(target).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        _ = up.wait_for(|up| !up) => {}
                    }
                });
            }
        });
        Self { addr, up }
    }

    /// PostgreSQL is gone, as far as A can tell.
    fn cut(&self) {
        self.up.send_replace(false);
    }

    fn restore(&self) {
        self.up.send_replace(true);
    }
}

/// The head of a plain HTTP/1.1 GET's reply, headers in lower case.
async fn raw_get(addr: SocketAddr, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).await.expect("read");
    let reply = String::from_utf8_lossy(&reply).to_lowercase();
    let end = reply.find("\r\n\r\n").unwrap_or(reply.len());
    reply[..end + 2].to_owned()
}

async fn serve(database: &str, stop: &CancellationToken) -> (Started, Client) {
    let mut settings = args(None);
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    settings.database = Some(database.to_owned());
    settings.database_timeout = 1;
    let started = start(&settings, stop.clone()).await.expect("starts");
    let client = Client::builder(format!("http://{}", started.addr))
        .build()
        .expect("client");
    (started, client)
}

fn ask() -> NewAsk {
    serde_json::from_value(release_ask()).expect("ask")
}

fn answers() -> Answers {
    serde_json::from_value(combined_answers()).expect("answers")
}

/// A refusal because the database is gone: 503, with a message.
fn assert_unavailable(result: Result<impl std::fmt::Debug, Error>, call: &str) {
    match result {
        Err(Error::Refused { status, message }) => {
            assert_eq!(status.as_u16(), 503, "{call}: {message}");
            assert!(message.contains("database"), "{call}: {message}");
        }
        other => panic!("{call}: expected 503, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_postgres_gone_calls_are_refused_with_503_and_all_recovers_when_it_returns() {
    let direct = postgres_url().await;
    let options = PgConnectOptions::from_str(&direct).expect("url");
    let target = format!("{}:{}", options.get_host(), options.get_port());
    let target_addr: SocketAddr = tokio::net::lookup_host(&target)
        .await
        .expect("resolve")
        .next()
        .expect("an address");
    assert!(
        direct.contains(&target),
        "ASKDESK_TEST_POSTGRES names its host and port: {direct}"
    );
    let proxy = Proxy::to(target_addr).await;
    let proxied = direct.replacen(&target, &proxy.addr.to_string(), 1);

    let stop = CancellationToken::new();
    let (started_a, a) = serve(&proxied, &stop).await;
    let (_b, b) = serve(&direct, &stop).await;

    let kept = a.create(&ask()).await.expect("created before the outage");
    let answered = a.create(&ask()).await.expect("created before the outage");
    a.answer(&answered.id, &answers())
        .await
        .expect("answered before the outage");
    let mut events = a.events(None).await.expect("A's event stream");
    // An agent waiting on A, retrying as agents do when refused.
    let waiter = tokio::spawn({
        let a = a.clone();
        let id = kept.id.clone();
        async move {
            loop {
                match a.wait(&id, Duration::from_secs(60)).await {
                    Ok(ask) if ask.status == AskStatus::Pending => {}
                    Ok(ask) => return ask,
                    Err(e @ Error::Refused { .. }) => {
                        assert_unavailable(Err::<(), _>(e), "the waiting agent");
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                    Err(e) => panic!("the waiting agent got {e}"),
                }
            }
        }
    });

    proxy.cut();
    // Every call needs the database; each is refused within the database
    // timeout (the guard only stops a hang from hanging the suite).
    let guard = Duration::from_secs(30);
    let get = timeout(guard, a.get(&kept.id)).await.expect("no hang");
    assert_unavailable(get, "GET an ask");
    let create = timeout(guard, a.create(&ask())).await.expect("no hang");
    assert_unavailable(create, "POST an ask");
    let answer = timeout(guard, a.answer(&kept.id, &answers()))
        .await
        .expect("no hang");
    assert_unavailable(answer, "POST answers");
    // The refusal says when to try again.
    let head = raw_get(started_a.addr, &format!("/api/v1/asks/{}", kept.id)).await;
    assert!(
        head.starts_with("http/1.1 503") && head.contains("\r\nretry-after: 2\r\n"),
        "{head}"
    );
    // Meanwhile another instance, whose database is there, answers.
    let finished = b.answer(&kept.id, &answers()).await.expect("B answers");

    proxy.restore();
    // A's stream hears B's answer once A listens again.
    let heard = timeout(guard, async {
        loop {
            match events.next().await {
                Some(Ok(Event::Ask(event))) if event.ask.id == kept.id => return event,
                Some(Ok(_)) => {}
                other => panic!("the stream ended: {other:?}"),
            }
        }
    })
    .await
    .expect("A hears of B's answer after the database returns");
    assert_eq!(heard.ask.status, AskStatus::Answered);
    let waited = timeout(guard, waiter)
        .await
        .expect("the waiting agent gets the answer")
        .expect("task");
    assert_eq!(waited.answers, finished.answers);

    // Nothing acknowledged was lost, and nothing refused was stored.
    let (first, second) = (
        a.get(&answered.id).await.expect("read"),
        a.get(&kept.id).await.expect("read"),
    );
    assert_eq!(first.status, AskStatus::Answered);
    assert_eq!(second.answers, finished.answers);
    let all = a
        .list(client::ListQuery::default())
        .await
        .expect("list")
        .asks;
    assert_eq!(
        all.len(),
        2,
        "the create refused during the outage stored nothing"
    );
    stop.cancel();
}
